// complex<f32> and complex<f64> (interleaved (re, im) pairs): add,
// subtract, multiply, divide, negate, abs, real, imag, complex, sqrt,
// compare EQ/NE, exp, log, sin, tanh, power, and conversions between the
// complex types and from reals. Exact expectations use values whose results
// are exact in any evaluation order; the transcendental ones compare within
// a small absolute tolerance. Expected values: Python's cmath and numpy.
func.func @main() {
  // complex<f32>: add, subtract, multiply (exact on these values), negate
  %c0 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.0, 0.0), (1.0000000150474662e+30, 1.0), (-0.0, 0.0), (2.5, -4.0)]> : tensor<6xcomplex<f32>>
  %c1 = stablehlo.constant dense<[(3.0, -1.0), (0.5, 0.5), (1.0, 1.0), (1.0000000150474662e+30, -2.0), (0.0, 0.0), (-1.0, 2.0)]> : tensor<6xcomplex<f32>>
  %2 = stablehlo.add %c0, %c1 : tensor<6xcomplex<f32>>
  check.expect_eq_const %2, dense<[(4.0, 1.0), (-3.0, 1.0), (1.0, 1.0), (2.0000000300949324e+30, -1.0), (0.0, 0.0), (1.5, -2.0)]> : tensor<6xcomplex<f32>>
  %c3 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.0, 0.0), (1.0000000150474662e+30, 1.0), (-0.0, 0.0), (2.5, -4.0)]> : tensor<6xcomplex<f32>>
  %c4 = stablehlo.constant dense<[(3.0, -1.0), (0.5, 0.5), (1.0, 1.0), (1.0000000150474662e+30, -2.0), (0.0, 0.0), (-1.0, 2.0)]> : tensor<6xcomplex<f32>>
  %5 = stablehlo.subtract %c3, %c4 : tensor<6xcomplex<f32>>
  check.expect_eq_const %5, dense<[(-2.0, 3.0), (-4.0, 0.0), (-1.0, -1.0), (0.0, 3.0), (-0.0, 0.0), (3.5, -6.0)]> : tensor<6xcomplex<f32>>
  %c6 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.25, -0.5), (2.0, 0.0)]> : tensor<4xcomplex<f32>>
  %c7 = stablehlo.constant dense<[(3.0, -1.0), (2.0, 4.0), (4.0, 8.0), (0.0, 1.0)]> : tensor<4xcomplex<f32>>
  %8 = stablehlo.multiply %c6, %c7 : tensor<4xcomplex<f32>>
  check.expect_eq_const %8, dense<[(5.0, 5.0), (-9.0, -13.0), (5.0, 0.0), (0.0, 2.0)]> : tensor<4xcomplex<f32>>
  // divide: results exact on these values, whatever the algorithm
  %c9 = stablehlo.constant dense<[(1.0, 2.0), (2.0, 6.0), (8.0, 0.0), (0.0, 1.0)]> : tensor<4xcomplex<f32>>
  %c10 = stablehlo.constant dense<[(1.0, -1.0), (4.0, 2.0), (2.0, 0.0), (2.0, 0.0)]> : tensor<4xcomplex<f32>>
  %11 = stablehlo.divide %c9, %c10 : tensor<4xcomplex<f32>>
  check.expect_eq_const %11, dense<[(-0.5, 1.5), (1.0, 1.0), (4.0, 0.0), (0.0, 0.5)]> : tensor<4xcomplex<f32>>
  %c12 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.25, -0.5), (2.0, 0.0)]> : tensor<4xcomplex<f32>>
  %13 = stablehlo.negate %c12 : tensor<4xcomplex<f32>>
  check.expect_eq_const %13, dense<[(-1.0, -2.0), (3.5, -0.5), (-0.25, 0.5), (-2.0, -0.0)]> : tensor<4xcomplex<f32>>
  // abs, real, imag: to the part type; complex builds from parts
  %c14 = stablehlo.constant dense<[(3.0, 4.0), (-6.0, -8.0), (0.0, 0.0), (0.0, 2.5)]> : tensor<4xcomplex<f32>>
  %15 = stablehlo.abs %c14 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_eq_const %15, dense<[0x40A00000, 0x41200000, 0x00000000, 0x40200000]> : tensor<4xf32>
  %16 = stablehlo.real %c14 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_eq_const %16, dense<[0x40400000, 0xC0C00000, 0x00000000, 0x00000000]> : tensor<4xf32>
  %17 = stablehlo.imag %c14 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  check.expect_eq_const %17, dense<[0x40800000, 0xC1000000, 0x00000000, 0x40200000]> : tensor<4xf32>
  %18 = stablehlo.complex %17, %16 : tensor<4xcomplex<f32>>
  check.expect_eq_const %18, dense<[(4.0, 3.0), (-8.0, -6.0), (0.0, 0.0), (2.5, 0.0)]> : tensor<4xcomplex<f32>>
  // sqrt: the principal root
  %c19 = stablehlo.constant dense<[(3.0, 4.0), (-4.0, 0.0), (0.0, 2.0), (9.0, 0.0), (-3.0, -4.0)]> : tensor<5xcomplex<f32>>
  %20 = stablehlo.sqrt %c19 : tensor<5xcomplex<f32>>
  %c21 = stablehlo.constant dense<[(2.0, 1.0), (0.0, 2.0), (1.0, 1.0), (3.0, 0.0), (1.0, -2.0)]> : tensor<5xcomplex<f32>>
  check.expect_almost_eq %20, %c21, tolerance = 1e-06 : tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>
  // compare EQ and NE: both parts; a NaN part is unequal
  %c22 = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0), (0x7FC00000, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f32>>
  %c23 = stablehlo.constant dense<[(1.0, 2.0), (1.0, -2.0), (0x7FC00000, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f32>>
  %24 = stablehlo.compare  EQ, %c22, %c23,  FLOAT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  check.expect_eq_const %24, dense<[true, false, false, true]> : tensor<4xi1>
  %25 = stablehlo.compare  NE, %c22, %c23 : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  check.expect_eq_const %25, dense<[false, true, true, false]> : tensor<4xi1>
  // exp, log, sin, tanh, power: within a small absolute tolerance
  %c26 = stablehlo.constant dense<[(0.0, 3.1415927410125732), (1.0, 1.0), (-0.5, 2.0), (0.25, -0.75)]> : tensor<4xcomplex<f32>>
  %27 = stablehlo.exponential %c26 : tensor<4xcomplex<f32>>
  %c28 = stablehlo.constant dense<[(-1.0, -8.742277657347586e-08), (1.4686939716339111, 2.2873551845550537), (-0.2524058222770691, 0.5515167713165283), (0.9395071268081665, -0.8752415180206299)]> : tensor<4xcomplex<f32>>
  check.expect_almost_eq %27, %c28, tolerance = 1e-05 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  %29 = stablehlo.log %c26 : tensor<4xcomplex<f32>>
  %c30 = stablehlo.constant dense<[(1.1447299718856812, 1.5707963705062866), (0.3465735912322998, 0.7853981852531433), (0.7234594821929932, 1.8157750368118286), (-0.2350018173456192, -1.249045729637146)]> : tensor<4xcomplex<f32>>
  check.expect_almost_eq %29, %c30, tolerance = 1e-05 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  %31 = stablehlo.sine %c26 : tensor<4xcomplex<f32>>
  %c32 = stablehlo.constant dense<[(0.0, 11.54874038696289), (1.2984576225280762, 0.6349639296531677), (-1.8036926984786987, 3.1828694343566895), (0.32030975818634033, -0.7967528700828552)]> : tensor<4xcomplex<f32>>
  check.expect_almost_eq %31, %c32, tolerance = 1e-05 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  %33 = stablehlo.tanh %c26 : tensor<4xcomplex<f32>>
  %c34 = stablehlo.constant dense<[(0.0, 8.742277657347586e-08), (1.08392333984375, 0.27175259590148926), (-1.3212865591049194, -0.850878119468689), (0.4348392188549042, -0.8323811888694763)]> : tensor<4xcomplex<f32>>
  check.expect_almost_eq %33, %c34, tolerance = 1e-05 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  %c35 = stablehlo.constant dense<[(2.0, 0.0), (0.5, 0.0), (0.0, 1.0), (-1.0, 0.5)]> : tensor<4xcomplex<f32>>
  %36 = stablehlo.power %c26, %c35 : tensor<4xcomplex<f32>>
  %c37 = stablehlo.constant dense<[(-9.86960506439209, 0.0), (1.0986840724945068, 0.45508986711502075), (0.1219557374715805, 0.10771218687295914), (1.0044851303100586, 2.137809991836548)]> : tensor<4xcomplex<f32>>
  check.expect_almost_eq %36, %c37, tolerance = 0.0001 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  // complex<f64>: add, subtract, multiply (exact on these values), negate
  %c38 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.0, 0.0), (1e+30, 1.0), (-0.0, 0.0), (2.5, -4.0)]> : tensor<6xcomplex<f64>>
  %c39 = stablehlo.constant dense<[(3.0, -1.0), (0.5, 0.5), (1.0, 1.0), (1e+30, -2.0), (0.0, 0.0), (-1.0, 2.0)]> : tensor<6xcomplex<f64>>
  %40 = stablehlo.add %c38, %c39 : tensor<6xcomplex<f64>>
  check.expect_eq_const %40, dense<[(4.0, 1.0), (-3.0, 1.0), (1.0, 1.0), (2e+30, -1.0), (0.0, 0.0), (1.5, -2.0)]> : tensor<6xcomplex<f64>>
  %c41 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.0, 0.0), (1e+30, 1.0), (-0.0, 0.0), (2.5, -4.0)]> : tensor<6xcomplex<f64>>
  %c42 = stablehlo.constant dense<[(3.0, -1.0), (0.5, 0.5), (1.0, 1.0), (1e+30, -2.0), (0.0, 0.0), (-1.0, 2.0)]> : tensor<6xcomplex<f64>>
  %43 = stablehlo.subtract %c41, %c42 : tensor<6xcomplex<f64>>
  check.expect_eq_const %43, dense<[(-2.0, 3.0), (-4.0, 0.0), (-1.0, -1.0), (0.0, 3.0), (-0.0, 0.0), (3.5, -6.0)]> : tensor<6xcomplex<f64>>
  %c44 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.25, -0.5), (2.0, 0.0)]> : tensor<4xcomplex<f64>>
  %c45 = stablehlo.constant dense<[(3.0, -1.0), (2.0, 4.0), (4.0, 8.0), (0.0, 1.0)]> : tensor<4xcomplex<f64>>
  %46 = stablehlo.multiply %c44, %c45 : tensor<4xcomplex<f64>>
  check.expect_eq_const %46, dense<[(5.0, 5.0), (-9.0, -13.0), (5.0, 0.0), (0.0, 2.0)]> : tensor<4xcomplex<f64>>
  // divide: results exact on these values, whatever the algorithm
  %c47 = stablehlo.constant dense<[(1.0, 2.0), (2.0, 6.0), (8.0, 0.0), (0.0, 1.0)]> : tensor<4xcomplex<f64>>
  %c48 = stablehlo.constant dense<[(1.0, -1.0), (4.0, 2.0), (2.0, 0.0), (2.0, 0.0)]> : tensor<4xcomplex<f64>>
  %49 = stablehlo.divide %c47, %c48 : tensor<4xcomplex<f64>>
  check.expect_eq_const %49, dense<[(-0.5, 1.5), (1.0, 1.0), (4.0, 0.0), (0.0, 0.5)]> : tensor<4xcomplex<f64>>
  %c50 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (0.25, -0.5), (2.0, 0.0)]> : tensor<4xcomplex<f64>>
  %51 = stablehlo.negate %c50 : tensor<4xcomplex<f64>>
  check.expect_eq_const %51, dense<[(-1.0, -2.0), (3.5, -0.5), (-0.25, 0.5), (-2.0, -0.0)]> : tensor<4xcomplex<f64>>
  // abs, real, imag: to the part type; complex builds from parts
  %c52 = stablehlo.constant dense<[(3.0, 4.0), (-6.0, -8.0), (0.0, 0.0), (0.0, 2.5)]> : tensor<4xcomplex<f64>>
  %53 = stablehlo.abs %c52 : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  check.expect_eq_const %53, dense<[0x4014000000000000, 0x4024000000000000, 0x0000000000000000, 0x4004000000000000]> : tensor<4xf64>
  %54 = stablehlo.real %c52 : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  check.expect_eq_const %54, dense<[0x4008000000000000, 0xC018000000000000, 0x0000000000000000, 0x0000000000000000]> : tensor<4xf64>
  %55 = stablehlo.imag %c52 : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  check.expect_eq_const %55, dense<[0x4010000000000000, 0xC020000000000000, 0x0000000000000000, 0x4004000000000000]> : tensor<4xf64>
  %56 = stablehlo.complex %55, %54 : tensor<4xcomplex<f64>>
  check.expect_eq_const %56, dense<[(4.0, 3.0), (-8.0, -6.0), (0.0, 0.0), (2.5, 0.0)]> : tensor<4xcomplex<f64>>
  // sqrt: the principal root
  %c57 = stablehlo.constant dense<[(3.0, 4.0), (-4.0, 0.0), (0.0, 2.0), (9.0, 0.0), (-3.0, -4.0)]> : tensor<5xcomplex<f64>>
  %58 = stablehlo.sqrt %c57 : tensor<5xcomplex<f64>>
  %c59 = stablehlo.constant dense<[(2.0, 1.0), (0.0, 2.0), (1.0, 1.0), (3.0, 0.0), (1.0, -2.0)]> : tensor<5xcomplex<f64>>
  check.expect_almost_eq %58, %c59, tolerance = 1e-14 : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>
  // compare EQ and NE: both parts; a NaN part is unequal
  %c60 = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0), (0x7FF8000000000000, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f64>>
  %c61 = stablehlo.constant dense<[(1.0, 2.0), (1.0, -2.0), (0x7FF8000000000000, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f64>>
  %62 = stablehlo.compare  EQ, %c60, %c61,  FLOAT : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<4xi1>
  check.expect_eq_const %62, dense<[true, false, false, true]> : tensor<4xi1>
  %63 = stablehlo.compare  NE, %c60, %c61 : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<4xi1>
  check.expect_eq_const %63, dense<[false, true, true, false]> : tensor<4xi1>
  // exp, log, sin, tanh, power: within a small absolute tolerance
  %c64 = stablehlo.constant dense<[(0.0, 3.141592653589793), (1.0, 1.0), (-0.5, 2.0), (0.25, -0.75)]> : tensor<4xcomplex<f64>>
  %65 = stablehlo.exponential %c64 : tensor<4xcomplex<f64>>
  %c66 = stablehlo.constant dense<[(-1.0, 1.2246467991473532e-16), (1.4686939399158851, 2.2873552871788423), (-0.2524058153082637, 0.5515167681675808), (0.93950710474149, -0.875241492869477)]> : tensor<4xcomplex<f64>>
  check.expect_almost_eq %65, %c66, tolerance = 1e-12 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  %67 = stablehlo.log %c64 : tensor<4xcomplex<f64>>
  %c68 = stablehlo.constant dense<[(1.1447298858494002, 1.5707963267948966), (0.34657359027997264, 0.7853981633974483), (0.7234594914681627, 1.8157749899217608), (-0.2350018146228678, -1.2490457723982544)]> : tensor<4xcomplex<f64>>
  check.expect_almost_eq %67, %c68, tolerance = 1e-12 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  %69 = stablehlo.sine %c64 : tensor<4xcomplex<f64>>
  %c70 = stablehlo.constant dense<[(0.0, 11.548739357257748), (1.2984575814159773, 0.6349639147847361), (-1.8036926955321817, 3.1828694483371494), (0.320309770609702, -0.796752896153128)]> : tensor<4xcomplex<f64>>
  check.expect_almost_eq %69, %c70, tolerance = 1e-12 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  %71 = stablehlo.tanh %c64 : tensor<4xcomplex<f64>>
  %c72 = stablehlo.constant dense<[(0.0, -1.2246467991473532e-16), (1.0839233273386946, 0.2717525853195118), (-1.3212865837711916, -0.8508781211449379), (0.4348392206120774, -0.8323812131225697)]> : tensor<4xcomplex<f64>>
  check.expect_almost_eq %71, %c72, tolerance = 1e-12 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  %c73 = stablehlo.constant dense<[(2.0, 0.0), (0.5, 0.0), (0.0, 1.0), (-1.0, 0.5)]> : tensor<4xcomplex<f64>>
  %74 = stablehlo.power %c64, %c73 : tensor<4xcomplex<f64>>
  %c75 = stablehlo.constant dense<[(-9.869604401089358, 0.0), (1.0986841134678098, 0.45508986056222733), (0.12195573415397733, 0.10771218872432987), (1.00448514551806, 2.137810079386611)]> : tensor<4xcomplex<f64>>
  check.expect_almost_eq %74, %c75, tolerance = 1e-11 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  // convert: complex<f32> -> complex<f64> is exact, back rounds each part; f32 and i32 -> complex have +0 imaginary parts
  %c76 = stablehlo.constant dense<[(0.10000000149011612, 0.20000000298023224), (1.0000000150474662e+30, -3.0)]> : tensor<2xcomplex<f32>>
  %77 = stablehlo.convert %c76 : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f64>>
  check.expect_eq_const %77, dense<[(0.10000000149011612, 0.20000000298023224), (1.0000000150474662e+30, -3.0)]> : tensor<2xcomplex<f64>>
  %c78 = stablehlo.constant dense<[(0.1, 0.2), (1e+300, -3.0)]> : tensor<2xcomplex<f64>>
  %79 = stablehlo.convert %c78 : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f32>>
  check.expect_eq_const %79, dense<[(0.10000000149011612, 0.20000000298023224), (0x7F800000, -3.0)]> : tensor<2xcomplex<f32>>
  %c80 = stablehlo.constant dense<[0x3FF8000000000000, 0x8000000000000000, 0x4170000010000000]> : tensor<3xf64>
  %81 = stablehlo.convert %c80 : (tensor<3xf64>) -> tensor<3xcomplex<f32>>
  check.expect_eq_const %81, dense<[(1.5, 0.0), (-0.0, 0.0), (16777216.0, 0.0)]> : tensor<3xcomplex<f32>>
  %c82 = stablehlo.constant dense<[-7, 16777217]> : tensor<2xi32>
  %83 = stablehlo.convert %c82 : (tensor<2xi32>) -> tensor<2xcomplex<f64>>
  check.expect_eq_const %83, dense<[(-7.0, 0.0), (16777217.0, 0.0)]> : tensor<2xcomplex<f64>>
  return
}
