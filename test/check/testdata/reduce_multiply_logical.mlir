// stablehlo.reduce with multiply, and, or and xor bodies.
func.func @main() {
  %cst = stablehlo.constant dense<[[-2.0e+00, 0.000000e+00, 3.0e+00, 0.000000e+00], [-1.0e+00, -3.0e+00, -2.0e+00, 0.000000e+00]]> : tensor<2x4xf32>
  %cst_0 = stablehlo.constant dense<1.0e+00> : tensor<f32>
  %0 = stablehlo.reduce(%cst init: %cst_0) applies stablehlo.multiply across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<[-0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %cst_1 = stablehlo.constant dense<[[2.0e+00, 2.0e+00], [-2.0e+00, 1.0e+00], [1.0e+00, 2.0e+00]]> : tensor<3x2xf64>
  %cst_2 = stablehlo.constant dense<1.0e+00> : tensor<f64>
  %1 = stablehlo.reduce(%cst_1 init: %cst_2) across dimensions = [0] : (tensor<3x2xf64>, tensor<f64>) -> tensor<2xf64>
   reducer(%arg0: tensor<f64>, %arg1: tensor<f64>)  {
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<f64>
    stablehlo.return %2 : tensor<f64>
  }
  check.expect_eq_const %1, dense<[-4.0e+00, 4.0e+00]> : tensor<2xf64>
  // i32 products wrap: 65536 * 65536 * 3 = 0 mod 2^32.
  %c_3 = stablehlo.constant dense<[[65536, 65536, 3], [2, -3, 4]]> : tensor<2x3xi32>
  %c_4 = stablehlo.constant dense<1> : tensor<i32>
  %3 = stablehlo.reduce(%c_3 init: %c_4) applies stablehlo.multiply across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %3, dense<[0, -24]> : tensor<2xi32>
  %c_5 = stablehlo.constant dense<[[4294967296, 4294967297], [-1, 7]]> : tensor<2x2xi64>
  %c_6 = stablehlo.constant dense<1> : tensor<i64>
  %4 = stablehlo.reduce(%c_5 init: %c_6) applies stablehlo.multiply across dimensions = [1] : (tensor<2x2xi64>, tensor<i64>) -> tensor<2xi64>
  check.expect_eq_const %4, dense<[4294967296, -7]> : tensor<2xi64>
  // 0 * Inf = NaN; products overflow to Inf.
  %cst_7 = stablehlo.constant dense<[[0.000000e+00, 0x7F800000], [1.0e+30, 1.0e+30], [-2.0e+00, 5.0e-01]]> : tensor<3x2xf32>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<f32>
  %5 = stablehlo.reduce(%cst_7 init: %cst_8) applies stablehlo.multiply across dimensions = [1] : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %5, dense<[0x7FC00000, 0x7F800000, -1.0e+00]> : tensor<3xf32>
  // i1: and / or bodies.
  %c_9 = stablehlo.constant dense<[[true, true, false], [true, true, true]]> : tensor<2x3xi1>
  %c_10 = stablehlo.constant dense<true> : tensor<i1>
  %6 = stablehlo.reduce(%c_9 init: %c_10) applies stablehlo.and across dimensions = [1] : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %6, dense<[false, true]> : tensor<2xi1>
  %c_11 = stablehlo.constant dense<[[true, true, false], [true, true, true]]> : tensor<2x3xi1>
  %c_12 = stablehlo.constant dense<false> : tensor<i1>
  %7 = stablehlo.reduce(%c_11 init: %c_12) across dimensions = [0] : (tensor<2x3xi1>, tensor<i1>) -> tensor<3xi1>
   reducer(%arg0: tensor<i1>, %arg1: tensor<i1>)  {
    %8 = stablehlo.or %arg0, %arg1 : tensor<i1>
    stablehlo.return %8 : tensor<i1>
  }
  check.expect_eq_const %7, dense<[true, true, true]> : tensor<3xi1>
  %c_13 = stablehlo.constant dense<[[5, 3], [12, 10]]> : tensor<2x2xi32>
  %c_14 = stablehlo.constant dense<-1> : tensor<i32>
  %9 = stablehlo.reduce(%c_13 init: %c_14) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %9, dense<[1, 8]> : tensor<2xi32>
  %c_15 = stablehlo.constant dense<[[5, 3], [12, 10]]> : tensor<2x2xi32>
  %c_16 = stablehlo.constant dense<0> : tensor<i32>
  %10 = stablehlo.reduce(%c_15 init: %c_16) applies stablehlo.xor across dimensions = [0] : (tensor<2x2xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %10, dense<[9, 9]> : tensor<2xi32>
  return
}
