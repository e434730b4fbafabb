// stablehlo.reduce with maximum and minimum bodies from their identities
// (-Inf / +Inf, INT_MIN / INT_MAX), with NaN and infinities.
func.func @main() {
  // Max from -Inf, min from +Inf: NaN wins (maximum and minimum propagate NaN).
  %cst = stablehlo.constant dense<[[1.0e+00, -3.0e+00, 2.0e+00], [0xFF800000, 0xFF800000, 0xFF800000], [0x7FC00000, 5.0e+00, 1.0e+00], [-0.000000e+00, -1.0e+00, -2.0e+00]]> : tensor<4x3xf32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%cst init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %0, dense<[2.0e+00, 0xFF800000, 0x7FC00000, -0.000000e+00]> : tensor<4xf32>
  %cst_1 = stablehlo.constant dense<[[1.0e+00, -3.0e+00, 2.0e+00], [0xFF800000, 0xFF800000, 0xFF800000], [0x7FC00000, 5.0e+00, 1.0e+00], [-0.000000e+00, -1.0e+00, -2.0e+00]]> : tensor<4x3xf32>
  %cst_2 = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %1 = stablehlo.reduce(%cst_1 init: %cst_2) applies stablehlo.minimum across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %1, dense<[-3.0e+00, 0xFF800000, 0x7FC00000, -2.0e+00]> : tensor<4xf32>
  %cst_3 = stablehlo.constant dense<[[-6.0e+00, -7.0e+00, 4.0e+00, 7.0e+00], [-7.0e+00, 4.0e+00, 4.0e+00, 5.0e+00], [4.0e+00, 1.0e+00, -7.0e+00, 5.0e+00]]> : tensor<3x4xf64>
  %cst_4 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %2 = stablehlo.reduce(%cst_3 init: %cst_4) across dimensions = [0] : (tensor<3x4xf64>, tensor<f64>) -> tensor<4xf64>
   reducer(%arg0: tensor<f64>, %arg1: tensor<f64>)  {
    %3 = stablehlo.maximum %arg0, %arg1 : tensor<f64>
    stablehlo.return %3 : tensor<f64>
  }
  check.expect_eq_const %2, dense<[4.0e+00, 4.0e+00, 4.0e+00, 7.0e+00]> : tensor<4xf64>
  %cst_5 = stablehlo.constant dense<[[-6.0e+00, -7.0e+00, 4.0e+00, 7.0e+00], [-7.0e+00, 4.0e+00, 4.0e+00, 5.0e+00], [4.0e+00, 1.0e+00, -7.0e+00, 5.0e+00]]> : tensor<3x4xf64>
  %cst_6 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
  %4 = stablehlo.reduce(%cst_5 init: %cst_6) applies stablehlo.minimum across dimensions = [0, 1] : (tensor<3x4xf64>, tensor<f64>) -> tensor<f64>
  check.expect_eq_const %4, dense<-7.0e+00> : tensor<f64>
  %c_7 = stablehlo.constant dense<[[-2147483648, 5, -7], [2147483647, 0, -1]]> : tensor<2x3xi32>
  %c_8 = stablehlo.constant dense<-2147483648> : tensor<i32>
  %5 = stablehlo.reduce(%c_7 init: %c_8) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %5, dense<[5, 2147483647]> : tensor<2xi32>
  %c_9 = stablehlo.constant dense<[[-2147483648, 5, -7], [2147483647, 0, -1]]> : tensor<2x3xi32>
  %c_10 = stablehlo.constant dense<2147483647> : tensor<i32>
  %6 = stablehlo.reduce(%c_9 init: %c_10) across dimensions = [0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
   reducer(%arg0: tensor<i32>, %arg1: tensor<i32>)  {
    %7 = stablehlo.minimum %arg0, %arg1 : tensor<i32>
    stablehlo.return %7 : tensor<i32>
  }
  check.expect_eq_const %6, dense<[-2147483648, 0, -7]> : tensor<3xi32>
  %c_11 = stablehlo.constant dense<[[-9223372036854775808, 9223372036854775807], [3, -3]]> : tensor<2x2xi64>
  %c_12 = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
  %8 = stablehlo.reduce(%c_11 init: %c_12) applies stablehlo.maximum across dimensions = [0] : (tensor<2x2xi64>, tensor<i64>) -> tensor<2xi64>
  check.expect_eq_const %8, dense<[3, 9223372036854775807]> : tensor<2xi64>
  %c_13 = stablehlo.constant dense<[[-9223372036854775808, 9223372036854775807], [3, -3]]> : tensor<2x2xi64>
  %c_14 = stablehlo.constant dense<9223372036854775807> : tensor<i64>
  %9 = stablehlo.reduce(%c_13 init: %c_14) applies stablehlo.minimum across dimensions = [1] : (tensor<2x2xi64>, tensor<i64>) -> tensor<2xi64>
  check.expect_eq_const %9, dense<[-9223372036854775808, -3]> : tensor<2xi64>
  // i1: maximum is or, minimum is and.
  %c_15 = stablehlo.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %c_16 = stablehlo.constant dense<false> : tensor<i1>
  %10 = stablehlo.reduce(%c_15 init: %c_16) applies stablehlo.maximum across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %10, dense<[true, false]> : tensor<2xi1>
  %c_17 = stablehlo.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %c_18 = stablehlo.constant dense<true> : tensor<i1>
  %11 = stablehlo.reduce(%c_17 init: %c_18) applies stablehlo.minimum across dimensions = [0] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %11, dense<[false, false]> : tensor<2xi1>
  return
}
