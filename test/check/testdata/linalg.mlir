// stablehlo.cholesky and stablehlo.triangular_solve: lower and upper,
// left and right side, NO_TRANSPOSE, TRANSPOSE and ADJOINT, unit diagonal,
// batch dimensions, f32, f64, complex<f32> and complex<f64>. Values in
// the triangle the op does not read (1e30, and a 1e20 diagonal under
// unit_diagonal) must not count. Expected values: numpy.linalg.cholesky
// and numpy.linalg.solve on the triangular matrices, in float64.
func.func @main() {
  // cholesky, lower, f32 (L = [[2, 0, 0], [6, 1, 0], [-8, 5, 3]])
  %c1 = stablehlo.constant dense<[[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]]> : tensor<3x3xf32>
  %r2 = stablehlo.cholesky %c1, lower = true : tensor<3x3xf32>
  check.expect_almost_eq_const %r2, dense<[[2.0, 0.0, 0.0], [6.0, 1.0, 0.0], [-8.0, 5.0, 3.0]]> : tensor<3x3xf32>, tolerance = 1.0e-04
  // cholesky, upper: the transpose
  %c3 = stablehlo.constant dense<[[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]]> : tensor<3x3xf32>
  %r4 = stablehlo.cholesky %c3, lower = false : tensor<3x3xf32>
  check.expect_almost_eq_const %r4, dense<[[2.0, 6.0, -8.0], [0.0, 1.0, 5.0], [0.0, 0.0, 3.0]]> : tensor<3x3xf32>, tolerance = 1.0e-04
  // cholesky of a batch of two, f64
  %c5 = stablehlo.constant dense<[[[3.1644019732011035, 0.13492142721794342, 0.5353897491558665], [0.13492142721794342, 4.9832422361860855, -0.17482522115390378], [0.5353897491558665, -0.17482522115390378, 5.042061414254618]], [[3.752302672029643, -0.5316288656403919, -1.253188109501416], [-0.5316288656403919, 3.877738615232323, 1.3374296405486792], [-1.253188109501416, 1.3374296405486792, 5.499771466109156]]]> : tensor<2x3x3xf64>
  %r6 = stablehlo.cholesky %c5, lower = true : tensor<2x3x3xf64>
  check.expect_almost_eq_const %r6, dense<[[[1.7788766042649231, 0.0, 0.0], [0.07584642290222057, 2.2310288111808467, 0.0], [0.3009707069463107, -0.08859265809728364, 2.2234273967787015]], [[1.9370861292233865, 0.0, 0.0], [-0.2744477169187783, 1.9499787347328672, 0.0], [-0.6469449605753164, 0.5948152420777908, 2.174265050974075]]]> : tensor<2x3x3xf64>, tolerance = 1.0e-12
  // cholesky of a Hermitian complex<f32> matrix
  %c7 = stablehlo.constant dense<[[(4.0, 0.0), (2.0, -2.0)], [(2.0, 2.0), (6.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %r8 = stablehlo.cholesky %c7, lower = true : tensor<2x2xcomplex<f32>>
  check.expect_almost_eq_const %r8, dense<[[(2.0, 0.0), (0.0, 0.0)], [(1.0, 1.0), (2.0, 0.0)]]> : tensor<2x2xcomplex<f32>>, tolerance = 1.0e-05
  // cholesky, upper, complex<f64>: the conjugate transpose
  %c9 = stablehlo.constant dense<[[(4.0, 0.0), (2.0, -2.0)], [(2.0, 2.0), (6.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %r10 = stablehlo.cholesky %c9, lower = false : tensor<2x2xcomplex<f64>>
  check.expect_almost_eq_const %r10, dense<[[(2.0, -0.0), (1.0, -1.0)], [(0.0, -0.0), (2.0, -0.0)]]> : tensor<2x2xcomplex<f64>>, tolerance = 1.0e-12
  // triangular_solve left_side = True, lower = True, unit_diagonal = False, NO_TRANSPOSE
  %c11 = stablehlo.constant dense<[[1.098777260199156, -1.289537739784976, 1e+30], [-0.23509113107468127, -3.767446481443703, 0.2712643588217015], [0.15675108662422516, -0.18693094462995438, 1.483240289179487]]> : tensor<3x3xf64>
  %c12 = stablehlo.constant dense<[[-0.5386928958466366, -0.048500945401071985], [0.11330898600330756, -1.5301357655053935], [-0.47775327603393064, -0.9785190780566395]]> : tensor<3x2xf64>
  %r13 = "stablehlo.triangular_solve"(%c11, %c12) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r13, dense<[[-0.49026578484978595, -0.044140834687715576], [0.0005171014090951072, 0.4089010665039035], [-0.2702238620357991, -0.6035189969982979]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = True, unit_diagonal = True, NO_TRANSPOSE
  %c14 = stablehlo.constant dense<[[2.1911627605744006, 1.0608986233860787, 1e+30], [-0.0325217049455206, 1e+20, -0.583600432743302], [-0.11170194958415963, 0.11046414324948059, 4.063781774255062]]> : tensor<3x3xf64>
  %c15 = stablehlo.constant dense<[[-1.2250558264176934, 0.0761402303770081], [1.3588234217415376, -1.5471446781284823], [0.8593826880215982, 0.11935402569658124]]> : tensor<3x2xf64>
  %r16 = "stablehlo.triangular_solve"(%c14, %c15) <{left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r16, dense<[[-1.2250558264176934, 0.0761402303770081], [1.3189825176129906, -1.5446684680216773], [0.576841290092146, 0.2984895167959824]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = True, unit_diagonal = False, TRANSPOSE
  %c17 = stablehlo.constant dense<[[2.3585296058927785, 2.000416546342423, 1e+30], [-1.1992889021052233, -2.4254837712285364, 0.5766895836701853], [-0.1887821253507493, 0.682910267195206, 3.9334826798505844]]> : tensor<3x3xf64>
  %c18 = stablehlo.constant dense<[[0.6672475608343279, 1.438522591656152], [-0.6756622510056528, 0.20313861038960904], [-0.46330757653841514, 0.12726841122583082]]> : tensor<3x2xf64>
  %r19 = "stablehlo.triangular_solve"(%c17, %c18) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r19, dense<[[0.39826633918055765, 0.5745585491850522], [0.2454047599148293, -0.07464199525821279], [-0.11778558957732953, 0.032355147228121314]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = True, unit_diagonal = True, TRANSPOSE
  %c20 = stablehlo.constant dense<[[1.81280547214986, -0.5793015965026732, 1e+30], [0.8987638721004078, 1e+20, -1.323527792484255], [-0.7946423659870495, 0.6469034225734218, 2.007580215825506]]> : tensor<3x3xf64>
  %c21 = stablehlo.constant dense<[[-0.46316986495236695, -0.09728692567008902], [1.2570149772868198, 0.6894039005707556], [-0.32721342022219785, -0.3685758940999591]]> : tensor<3x2xf64>
  %r22 = "stablehlo.triangular_solve"(%c20, %c21) <{left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r22, dense<[[-2.0431934349949983, -1.2240792382631647], [1.468690458740515, 0.9278369079420783], [-0.32721342022219785, -0.3685758940999591]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = False, unit_diagonal = False, NO_TRANSPOSE
  %c23 = stablehlo.constant dense<[[2.7498045994820752, 1.5235294004561601, -0.4280249425728672], [-0.3036803883647294, -2.1474109327147346, -0.12077044508645512], [1e+30, -1.1140671431510563, 3.988478531961452]]> : tensor<3x3xf64>
  %c24 = stablehlo.constant dense<[[-0.4435812229744192, 1.1661277761902227], [0.6530885027011638, -0.024143613009932233], [0.6683810232673438, -0.3398695517131494]]> : tensor<3x2xf64>
  %r25 = "stablehlo.triangular_solve"(%c23, %c24) <{left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r25, dense<[[0.03849488287096043, 0.40192819717881356], [-0.31355291856823725, 0.016035498447099762], [0.16757794179191626, -0.0852128321588354]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = False, unit_diagonal = True, NO_TRANSPOSE
  %c26 = stablehlo.constant dense<[[4.052126358426947, -0.005399560671626605, 0.5833823541804138], [-1.2908932453234871, 1e+20, -1.6882041173665416], [1e+30, -0.3044768777114372, 3.1000723924014046]]> : tensor<3x3xf64>
  %c27 = stablehlo.constant dense<[[0.16405279571222256, 2.2447566264860495], [-0.8317231814120817, -0.6239435864439059], [0.2054039460646989, 0.49301329141235634]]> : tensor<3x2xf64>
  %r28 = "stablehlo.triangular_solve"(%c26, %c27) <{left_side = true, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r28, dense<[[0.04160519042818493, 1.9582664431626733], [-0.48495939394232196, 0.20836348203486466], [0.2054039460646989, 0.49301329141235634]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = False, unit_diagonal = False, TRANSPOSE
  %c29 = stablehlo.constant dense<[[2.8235939340942418, -0.20593033025321647, 0.7024629551205442], [0.5199076370338984, -3.5336758320736887, -0.07918131861584184], [1e+30, -1.0544846220491104, 4.259839100674363]]> : tensor<3x3xf64>
  %c30 = stablehlo.constant dense<[[-0.8579564771765439, 0.9720667079170427], [0.1927459126050724, 0.08930648576905029], [-0.591028352856274, -0.11860982387769403]]> : tensor<3x2xf64>
  %r31 = "stablehlo.triangular_solve"(%c29, %c30) <{left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r31, dense<[[-0.30385264212991764, 0.344265758677111], [-0.03683796812413197, -0.04533558106666791], [-0.0893226241280963, -0.08545710026847694]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = False, unit_diagonal = True, TRANSPOSE
  %c32 = stablehlo.constant dense<[[1.0022537070929451, -1.1314074705230586, 0.3628397991887543], [-2.1285670418221447, 1e+20, -1.7460964753739088], [1e+30, -0.8454970328793241, 4.7789910843424614]]> : tensor<3x3xf64>
  %c33 = stablehlo.constant dense<[[0.1309512075847998, -1.5368349402914887], [1.2491487495584548, 1.4417071555226115], [-0.0658049060002071, -0.27391627217232034]]> : tensor<3x2xf64>
  %r34 = "stablehlo.triangular_solve"(%c32, %c33) <{left_side = true, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  check.expect_almost_eq_const %r34, dense<[[0.13095120758479956, -1.5368349402914885], [1.3973079240939128, -0.2970793768840373], [2.3265152254086137, -0.2350206439341899]]> : tensor<3x2xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = True, unit_diagonal = False, NO_TRANSPOSE
  %c35 = stablehlo.constant dense<[[2.8401330340293636, -0.9751523227787462, 1e+30], [-0.5428919317301868, -2.5511904126916765, -0.7932964032030436], [-0.6260730997201972, -1.2777251516511705, 5.257069313714393]]> : tensor<3x3xf64>
  %c36 = stablehlo.constant dense<[[-0.15408757320601318, 0.9659216187288089, 0.01332459691325976], [-0.6944035277028942, -0.3266852600022522, -0.5602310505028996]]> : tensor<2x3xf64>
  %r37 = "stablehlo.triangular_solve"(%c35, %c36) <{left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r37, dense<[[-0.12631009630220855, -0.37988546175647503, 0.002534605522224937], [-0.23330892813742637, 0.18142464929484156, -0.10656717974811468]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = True, unit_diagonal = True, NO_TRANSPOSE
  %c38 = stablehlo.constant dense<[[3.0079590991849137, -0.3752668396769557, 1e+30], [-1.3785746841359137, 1e+20, 1.65405754880043], [-0.6712332162517173, -1.0540937876234928, 4.337326332575031]]> : tensor<3x3xf64>
  %c39 = stablehlo.constant dense<[[1.407272199556532, -1.454024302481208, -0.20852184825127065], [-0.6320525539349078, -1.7610194743274028, 0.7349267092583915]]> : tensor<2x3xf64>
  %r40 = "stablehlo.triangular_solve"(%c38, %c39) <{left_side = false, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r40, dense<[[-1.0401885851961892, -1.6738258873066412, -0.20852184825127065], [-1.4984856503830777, -0.9863377957395554, 0.7349267092583915]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = True, unit_diagonal = False, TRANSPOSE
  %c41 = stablehlo.constant dense<[[2.9765560814451555, 0.07144184429260535, 1e+30], [0.4547841629969166, -3.039297349487321, -0.1429032084967607], [-1.108260792181513, -1.2161027602081953, 5.335531855300022]]> : tensor<3x3xf64>
  %c42 = stablehlo.constant dense<[[-0.5071047045384752, 0.2916803563558019, -0.03379043476737232], [-0.44114520276218416, -0.5079609703372195, 0.6300825914455861]]> : tensor<2x3xf64>
  %r43 = "stablehlo.triangular_solve"(%c41, %c42) <{left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r43, dense<[[-0.17036625236110772, -0.12146236033833312, -0.06940477430962981], [-0.1482065819327693, 0.14495421584749058, 0.12034606613853721]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = True, unit_diagonal = True, TRANSPOSE
  %c44 = stablehlo.constant dense<[[2.6981323954660903, -0.15144364817129202, 1e+30], [1.1765083202520015, 1e+20, 0.3826002677279928], [-0.5635713933532417, -1.3819687200064654, 4.949529931735302]]> : tensor<3x3xf64>
  %c45 = stablehlo.constant dense<[[0.9664471342208761, -0.1407083991233403, 0.541883841603518], [0.781443053885405, 0.8311844526649818, 0.9213834732464707]]> : tensor<2x3xf64>
  %r46 = "stablehlo.triangular_solve"(%c44, %c45) <{left_side = false, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r46, dense<[[0.9664471342208761, -1.277741493617904, -0.6792529767956594], [0.7814430538854049, -0.08818980203433024, 1.2399068761158738]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = False, unit_diagonal = False, NO_TRANSPOSE
  %c47 = stablehlo.constant dense<[[2.5443823493388673, 1.5149729826647176, -1.2465930582857083], [0.861723076993649, -2.0060679209692416, 0.8736191135245024], [1e+30, 1.484445473378649, 2.8548230928106753]]> : tensor<3x3xf64>
  %c48 = stablehlo.constant dense<[[-1.688671580267857, 0.8168890590537966, -1.015012415875923], [-0.0124053886475133, 0.839727477005194, -1.6437973511855861]]> : tensor<2x3xf64>
  %r49 = "stablehlo.triangular_solve"(%c47, %c48) <{left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r49, dense<[[-0.663686250105705, -0.9084217826730006, -0.3673588245426816], [-0.004875599239531243, -0.42227577106068137, -0.4487027787471422]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = False, unit_diagonal = True, NO_TRANSPOSE
  %c50 = stablehlo.constant dense<[[0.8900195456905213, 0.259299020337227, 0.04438588961329704], [-0.24580307138192253, 1e+20, -0.8605156073672797], [1e+30, -0.1666548508803217, 3.0282913089506085]]> : tensor<3x3xf64>
  %c51 = stablehlo.constant dense<[[-1.643481322411107, 0.5056810713932767, -0.061398628422175805], [0.40652853663281385, -0.9892949414259369, -0.6580587918366578]]> : tensor<2x3xf64>
  %r52 = "stablehlo.triangular_solve"(%c50, %c51) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r52, dense<[[-1.643481322411107, 0.931834168237007, 0.8134065973819311], [0.40652853663281385, -1.0947073927139521, -1.6181157195189948]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = False, unit_diagonal = False, TRANSPOSE
  %c53 = stablehlo.constant dense<[[2.0009569727798344, -0.8866418670580481, 0.19540791774940214], [-0.7829746163349458, -2.1439337111797254, 0.3397559254182162], [1e+30, -1.3927890458668095, 4.887902377835045]]> : tensor<3x3xf64>
  %c54 = stablehlo.constant dense<[[-0.0894879618884183, -0.01402973013099694, -1.4498638219066111], [-0.4601938127246543, 0.743197263443954, -0.08247837201730518]]> : tensor<2x3xf64>
  %r55 = "stablehlo.triangular_solve"(%c53, %c54) <{left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r55, dense<[[-0.033684657709136055, -0.04046284656204326, -0.2966229089355885], [-0.38312815051752935, -0.3493253054327787, -0.01687398103352395]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = False, lower = False, unit_diagonal = True, TRANSPOSE
  %c56 = stablehlo.constant dense<[[3.0810543704112656, -0.29071668060054134, 1.1545697469862868], [-0.021472567043494796, 1e+20, -0.6920725504744906], [1e+30, -3.2514384154965383, 3.469884650227688]]> : tensor<3x3xf64>
  %c57 = stablehlo.constant dense<[[1.3335598501027237, 0.04711990613059292, -1.1725457074049794], [-0.9406998682024224, 1.1306132302500087, 0.15762662339846478]]> : tensor<2x3xf64>
  %r58 = "stablehlo.triangular_solve"(%c56, %c57) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  check.expect_almost_eq_const %r58, dense<[[2.465131474258607, -0.7643667921410869, -1.1725457074049794], [-0.7622886643533998, 1.2397022895280663, 0.15762662339846478]]> : tensor<2x3xf64>, tolerance = 1.0e-10
  // triangular_solve left_side = True, lower = False, unit_diagonal = False, ADJOINT
  %c59 = stablehlo.constant dense<[[[(3.047999143600464, 0.37867605686187744), (-0.05346179008483887, -2.6135594844818115), (0.03840026259422302, 0.25039801001548767)], [(0.8054056763648987, -0.06134407967329025), (3.55256724357605, 0.08321735262870789), (0.21570469439029694, -1.0768749713897705)], [(-1.0428683757781982, -0.26934704184532166), (0.5111087560653687, -0.1782587617635727), (2.3157529830932617, 1.1880942583084106)]], [[(4.093845844268799, 0.3344270586967468), (-1.2710508108139038, -0.005555030424147844), (-0.1376209706068039, 1.5289700031280518)], [(-0.007358286064118147, -0.5552479028701782), (1.6753544807434082, -0.38943031430244446), (1.7219716310501099, -1.8167550563812256)], [(1.46040678024292, 1.569105863571167), (-0.463583767414093, 0.9643323421478271), (3.771721124649048, 0.9168480634689331)]]]> : tensor<2x3x3xcomplex<f32>>
  %c60 = stablehlo.constant dense<[[[(0.6688984632492065, 0.5066872835159302), (0.110148586332798, 0.06755055487155914)], [(0.21548894047737122, -0.34618183970451355), (-0.2520065903663635, -1.109053373336792)], [(-0.2036004215478897, -0.06686155498027802), (0.0543036125600338, 0.8736580610275269)]], [[(1.5118294954299927, -0.3925372362136841), (0.5556879043579102, -0.2272425889968872)], [(-0.05846012756228447, -0.22103434801101685), (-0.5793920755386353, 0.10959436744451523)], [(-0.6349985003471375, -1.5930109024047852), (1.6027050018310547, -0.23539835214614868)]]]> : tensor<2x3x2xcomplex<f32>>
  %r61 = "stablehlo.triangular_solve"(%c59, %c60) <{left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>}> : (tensor<2x3x3xcomplex<f32>>, tensor<2x3x2xcomplex<f32>>) -> tensor<2x3x2xcomplex<f32>>
  check.expect_almost_eq_const %r61, dense<[[[(0.1957803099066881, 0.19055930527476767), (0.03287715374545803, 0.026246839990325618)], [(0.2092690395236734, -0.2337078545110242), (-0.043238573439588694, -0.33698862957736553)], [(-0.15485132512031524, -0.16585480620282864), (-0.2803869945913244, 0.28803112539874115)]], [[(0.3746260687207015, -0.06528143757890531), (0.1393419966962253, -0.04412546582371407)], [(0.19604778243177304, -0.22827311193700728), (-0.22100556055971016, 0.08284866027307762)], [(-0.24901716541588945, -0.3236201241885599), (0.5418362354389464, 0.19280593598097587)]]]> : tensor<2x3x2xcomplex<f32>>, tolerance = 1.0e-04
  // triangular_solve left_side = False, lower = True, unit_diagonal = False, NO_TRANSPOSE
  %c62 = stablehlo.constant dense<[[1.1456044912338257, 0.8845850229263306, -0.7705986499786377, 0.5770467519760132], [1.524437427520752, 1.686403751373291, -0.6015762686729431, 0.19143225252628326], [-0.002029027557000518, -0.9936163425445557, 2.4609193801879883, 2.0155160427093506], [-0.25811198353767395, -0.20287619531154633, -1.0449320077896118, 2.3190884590148926]]> : tensor<4x4xf32>
  %c63 = stablehlo.constant dense<[[-1.2469762563705444, -1.1069309711456299, 1.2796672582626343, -0.905453085899353]]> : tensor<1x4xf32>
  %r64 = "stablehlo.triangular_solve"(%c62, %c63) <{left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  check.expect_almost_eq_const %r64, dense<[[-0.5175973270617299, -0.49465569443984236, 0.35421287442919974, -0.39043490660290436]]> : tensor<1x4xf32>, tolerance = 1.0e-04
  return
}
