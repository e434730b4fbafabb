// stablehlo.reduce with an add body: over one dimension, several, all, and
// none; in the short form (applies stablehlo.add) and the region form; f32,
// f64, i32 (wrapping) and i64.
func.func @main() {
  // Small integers in float types: exact in any summation order.
  %cst = stablehlo.constant dense<[[-7.0e+00, -7.0e+00, 6.0e+00], [0.000000e+00, 2.0e+00, 2.0e+00]]> : tensor<2x3xf32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%cst init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<[-8.0e+00, 4.0e+00]> : tensor<2xf32>
  %cst_1 = stablehlo.constant dense<[[-7.0e+00, -7.0e+00, 6.0e+00], [0.000000e+00, 2.0e+00, 2.0e+00]]> : tensor<2x3xf32>
  %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%cst_1 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %1, dense<[-7.0e+00, -5.0e+00, 8.0e+00]> : tensor<3xf32>
  %cst_3 = stablehlo.constant dense<[[-7.0e+00, -7.0e+00, 6.0e+00], [0.000000e+00, 2.0e+00, 2.0e+00]]> : tensor<2x3xf32>
  %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = stablehlo.reduce(%cst_3 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %2, dense<-4.0e+00> : tensor<f32>
  %cst_5 = stablehlo.constant dense<[[[4.0e+00, -9.0e+00, 0.000000e+00, -7.0e+00], [-2.0e+00, 8.0e+00, 1.0e+00, -8.0e+00], [1.0e+00, -7.0e+00, 5.0e+00, 9.0e+00]], [[9.0e+00, 2.0e+00, 7.0e+00, -2.0e+00], [-7.0e+00, 0.000000e+00, -1.0e+00, 3.0e+00], [9.0e+00, -4.0e+00, 7.0e+00, -7.0e+00]]]> : tensor<2x3x4xf64>
  %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %3 = stablehlo.reduce(%cst_5 init: %cst_6) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x4xf64>, tensor<f64>) -> tensor<3xf64>
  check.expect_eq_const %3, dense<[4.0e+00, -6.0e+00, 1.3e+01]> : tensor<3xf64>
  %cst_7 = stablehlo.constant dense<[[[4.0e+00, -9.0e+00, 0.000000e+00, -7.0e+00], [-2.0e+00, 8.0e+00, 1.0e+00, -8.0e+00], [1.0e+00, -7.0e+00, 5.0e+00, 9.0e+00]], [[9.0e+00, 2.0e+00, 7.0e+00, -2.0e+00], [-7.0e+00, 0.000000e+00, -1.0e+00, 3.0e+00], [9.0e+00, -4.0e+00, 7.0e+00, -7.0e+00]]]> : tensor<2x3x4xf64>
  %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %4 = stablehlo.reduce(%cst_7 init: %cst_8) across dimensions = [1] : (tensor<2x3x4xf64>, tensor<f64>) -> tensor<2x4xf64>
   reducer(%arg0: tensor<f64>, %arg1: tensor<f64>)  {
    %5 = stablehlo.add %arg0, %arg1 : tensor<f64>
    stablehlo.return %5 : tensor<f64>
  }
  check.expect_eq_const %4, dense<[[3.0e+00, -8.0e+00, 6.0e+00, -6.0e+00], [1.1e+01, -2.0e+00, 1.3e+01, -6.0e+00]]> : tensor<2x4xf64>
  %c_9 = stablehlo.constant dense<[[-3, 5, -5, 3], [-1, 0, 8, 6], [6, 1, 9, 9]]> : tensor<3x4xi32>
  %c_10 = stablehlo.constant dense<0> : tensor<i32>
  %6 = stablehlo.reduce(%c_9 init: %c_10) applies stablehlo.add across dimensions = [1] : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %6, dense<[0, 13, 25]> : tensor<3xi32>
  %c_11 = stablehlo.constant dense<[2147483647, 1, 5]> : tensor<3xi32>
  %c_12 = stablehlo.constant dense<0> : tensor<i32>
  %7 = stablehlo.reduce(%c_11 init: %c_12) applies stablehlo.add across dimensions = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %7, dense<-2147483643> : tensor<i32>
  %c_13 = stablehlo.constant dense<[[[-590981077340, 107460725730], [-32750606154, -293450289880]], [[183190607898, -529397536665], [604405367556, 734667103684]]]> : tensor<2x2x2xi64>
  %c_14 = stablehlo.constant dense<0> : tensor<i64>
  %8 = stablehlo.reduce(%c_13 init: %c_14) across dimensions = [0, 1, 2] : (tensor<2x2x2xi64>, tensor<i64>) -> tensor<i64>
   reducer(%arg0: tensor<i64>, %arg1: tensor<i64>)  {
    %9 = stablehlo.add %arg0, %arg1 : tensor<i64>
    stablehlo.return %9 : tensor<i64>
  }
  check.expect_eq_const %8, dense<183144294829> : tensor<i64>
  // Non-integer values: within a tolerance.
  %cst_15 = stablehlo.constant dense<[[3.6637828e-02, 8.972493e-01, -2.3313208e-01, -7.43596e-01, 3.8499382e-01, 7.172358e-01, -3.000106e-01, 5.446678e-01, 1.0428755e+00, -2.0695643e-01, -8.1351554e-01, 3.476506e-01, 2.4754573e-01, 1.0988128e+00, -1.2845808e+00, -6.616129e-01, -8.3816695e-01, -1.7340149e+00, 1.2643455e-01, 5.278042e-01, -7.3879004e-01, 1.385647e+00, 8.219243e-01, 6.273765e-01, 4.0170708e-01, 9.556696e-01, -1.3319799e+00, 6.139296e-01, 6.027768e-01, -1.7677186e+00, 3.470301e-01, -2.5042135e-01, 7.815227e-01, -4.3906218e-01, -1.8240858e-02, 3.4285152e-01, -8.762617e-01, 5.9859663e-01, -1.0496319e-01, 4.9248263e-01, -5.2183753e-01, 1.0862015e+00, 6.0520196e-01, -1.7802502e-01, 6.319572e-01, 1.2597551e+00, 1.7911755e+00, -1.5735763e+00, 8.831318e-01, 4.6506852e-01], [-9.386078e-02, -1.006665e+00, 1.2571886e+00, -1.261738e+00, 5.669455e-01, 1.301868e+00, -1.5996693e+00, -3.0251783e-01, -1.3092169e+00, 2.4405411e-01, 1.5143751e+00, 2.023556e+00, -1.7781144e+00, -5.74949e-01, 7.035451e-01, 1.5793726e+00, 4.2121065e-01, -7.46152e-01, 2.971315e-01, -1.6619202e-02, -2.0374072e-01, -7.344711e-01, 3.8725975e-01, 3.0787963e-01, -9.2984125e-02, -2.2168794e-01, -1.2849165e+00, -4.8617566e-01, 1.2064496e+00, -1.9055825e-01, -1.4396973e+00, 1.3344429e+00, 5.302654e-01, 2.108087e+00, 6.251217e-02, -4.6138456e-01, -1.4476447e+00, 1.3238384e+00, 2.5695114e+00, -8.2093495e-01, -6.4708763e-01, 5.961888e-01, -8.3034545e-01, -2.7055836e-01, -3.498377e-01, 1.9195889e-01, 1.0948185e+00, 2.206759e-02, 9.189101e-01, -4.1988888e-01], [3.2779855e-01, -2.1382256e+00, -1.4499481e+00, 7.959134e-01, -5.901494e-01, 5.799149e-01, 5.423443e-01, 1.3222789e+00, 8.118591e-01, 1.0169914e+00, -1.1167133e-01, -6.9828516e-01, -7.315588e-01, -4.8804393e-01, -1.1298292e+00, -5.4744357e-01, -9.256905e-02, 2.5161195e-01, -3.388908e-01, -1.9236828e+00, -7.2282955e-02, 2.2534579e-01, 1.0844756e+00, 5.778639e-01, -6.435607e-01, -7.237766e-01, 2.0105975e+00, 7.5663793e-01, 1.8314399e+00, 2.1294446e+00, -8.1808364e-01, 3.852693e-01, 4.5816702e-01, 5.596122e-01, 5.4190224e-01, 2.0205463e-01, 1.7412925e-01, -1.5024999e+00, -1.6540119e-01, -7.476197e-01, 1.2608731e-01, -4.6754625e-01, 6.1852074e-01, 8.190757e-01, 3.0869237e-01, 3.1616813e-01, 9.2946686e-02, -4.477979e-01, -1.6450126e-01, -4.9564606e-01]]> : tensor<3x50xf32>
  %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %10 = stablehlo.reduce(%cst_15 init: %cst_16) applies stablehlo.add across dimensions = [1] : (tensor<3x50xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_almost_eq_const %10, dense<[6.0494514e+00, 3.9720209e+00, 2.3781292e+00]> : tensor<3xf32>, tolerance = 1.000000e-05
  // NaN and Inf propagate; Inf + -Inf is NaN.
  %cst_17 = stablehlo.constant dense<[[1.0e+00, 0x7FC00000, 2.0e+00], [0x7F800000, 1.0e+00, 2.0e+00], [0x7F800000, 0xFF800000, 0.000000e+00], [-0.000000e+00, -0.000000e+00, -0.000000e+00]]> : tensor<4x3xf32>
  %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %11 = stablehlo.reduce(%cst_17 init: %cst_18) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %11, dense<[0x7FC00000, 0x7F800000, 0x7FC00000, 0.000000e+00]> : tensor<4xf32>
  // Reducing no dimension returns the operand (combined with nothing).
  %c_19 = stablehlo.constant dense<[[0, 5], [-6, -2]]> : tensor<2x2xi64>
  %c_20 = stablehlo.constant dense<0> : tensor<i64>
  %12 = stablehlo.reduce(%c_19 init: %c_20) applies stablehlo.add across dimensions = [] : (tensor<2x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  check.expect_eq_const %12, dense<[[0, 5], [-6, -2]]> : tensor<2x2xi64>
  return
}
