// stablehlo.clamp(min, x, max) = min(max(x, min), max), elementwise, with
// scalar or full bounds: a NaN operand or bound gives NaN (maximum and
// minimum propagate NaN); when min > max the result is max.
func.func @main() {
  %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %cst_1 = stablehlo.constant dense<[-2.000000e+00, -1.000000e+00, -5.000000e-01, 0.000000e+00, 5.000000e-01, 1.000000e+00, 3.000000e+00, 0xFF800000, 0x7F800000, 0x7FC00000]> : tensor<10xf32>
  %0 = stablehlo.clamp %cst, %cst_1, %cst_0 : (tensor<f32>, tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
  check.expect_eq_const %0, dense<[-1.000000e+00, -1.000000e+00, -5.000000e-01, 0.000000e+00, 5.000000e-01, 1.000000e+00, 1.000000e+00, -1.000000e+00, 1.000000e+00, 0x7FC00000]> : tensor<10xf32>
  // Full bounds, one of them NaN; the last element has min > max.
  %cst_2 = stablehlo.constant dense<[0.000000e+00, 0x7FF8000000000000, 0.000000e+00, 5.000000e+00]> : tensor<4xf64>
  %cst_3 = stablehlo.constant dense<[1.000000e+01, 1.000000e+01, 0x7FF8000000000000, 3.000000e+00]> : tensor<4xf64>
  %cst_4 = stablehlo.constant dense<[2.000000e+01, 2.000000e+00, 2.000000e+00, 4.000000e+00]> : tensor<4xf64>
  %1 = stablehlo.clamp %cst_2, %cst_4, %cst_3 : tensor<4xf64>
  check.expect_eq_const %1, dense<[1.000000e+01, 0x7FF8000000000000, 0x7FF8000000000000, 3.000000e+00]> : tensor<4xf64>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_5 = stablehlo.constant dense<255> : tensor<i32>
  %c_6 = stablehlo.constant dense<[-2147483648, -1, 0, 128, 255, 256, 2147483647]> : tensor<7xi32>
  %2 = stablehlo.clamp %c, %c_6, %c_5 : (tensor<i32>, tensor<7xi32>, tensor<i32>) -> tensor<7xi32>
  check.expect_eq_const %2, dense<[0, 0, 0, 128, 255, 255, 255]> : tensor<7xi32>
  %c_7 = stablehlo.constant dense<[-10, -10, 5]> : tensor<3xi64>
  %c_8 = stablehlo.constant dense<[10, 10, 1]> : tensor<3xi64>
  %c_9 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807, 3]> : tensor<3xi64>
  %3 = stablehlo.clamp %c_7, %c_9, %c_8 : tensor<3xi64>
  check.expect_eq_const %3, dense<[-10, 10, 1]> : tensor<3xi64>
  // Scalar operand, scalar bounds.
  %cst_10 = stablehlo.constant dense<7.500000e+00> : tensor<f32>
  %4 = stablehlo.clamp %cst, %cst_10, %cst_0 : tensor<f32>
  check.expect_eq_const %4, dense<1.000000e+00> : tensor<f32>
  return
}
