// stablehlo.subtract on f32, f64 and wrapping i32, i64: 0 - 0 = +0, -0 - 0 = -0,
// Inf - Inf = NaN, INT_MIN - 1 wraps to INT_MAX.
func.func @main() {
  %cst = stablehlo.constant dense<[3.0e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0e+00, -3.4028235e+38, 3.0e-01]> : tensor<10xf32>
  %cst_0 = stablehlo.constant dense<[5.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7F800000, 0x7F800000, 0.000000e+00, 1.0e-08, 3.4028235e+38, 1.0e-01]> : tensor<10xf32>
  %0 = stablehlo.subtract %cst, %cst_0 : tensor<10xf32>
  check.expect_eq_const %0, dense<[-2.0e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7FC00000, 0xFF800000, 0x7FC00000, 1.0e+00, 0xFF800000, 2.0000002e-01]> : tensor<10xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 0.000000e+00]> : tensor<3xf32>
  %cst_2 = stablehlo.constant dense<[0.000000e+00, 0.000000e+00, -0.000000e+00]> : tensor<3xf32>
  %1 = stablehlo.subtract %cst_1, %cst_2 : tensor<3xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<3xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0xFF800000, 0x7F800000]> : tensor<3xf32>
  %cst_4 = stablehlo.constant dense<[3.0e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0e+00, -1.7976931348623157e+308, 3.0e-01]> : tensor<10xf64>
  %cst_5 = stablehlo.constant dense<[5.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7FF0000000000000, 0x7FF0000000000000, 0.000000e+00, 1.0e-17, 1.7976931348623157e+308, 1.0e-01]> : tensor<10xf64>
  %3 = stablehlo.subtract %cst_4, %cst_5 : tensor<10xf64>
  check.expect_eq_const %3, dense<[-2.0e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7FF8000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0e+00, 0xFFF0000000000000, 1.9999999999999998e-01]> : tensor<10xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_6 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 0.000000e+00]> : tensor<3xf64>
  %cst_7 = stablehlo.constant dense<[0.000000e+00, 0.000000e+00, -0.000000e+00]> : tensor<3xf64>
  %4 = stablehlo.subtract %cst_6, %cst_7 : tensor<3xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<3xf64>
  %5 = stablehlo.divide %cst_8, %4 : tensor<3xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000]> : tensor<3xf64>
  %c_9 = stablehlo.constant dense<[3, -2147483648, 2147483647, 0, -7]> : tensor<5xi32>
  %c_10 = stablehlo.constant dense<[5, 1, -1, -2147483648, -7]> : tensor<5xi32>
  %6 = stablehlo.subtract %c_9, %c_10 : tensor<5xi32>
  check.expect_eq_const %6, dense<[-2, 2147483647, -2147483648, -2147483648, 0]> : tensor<5xi32>
  %c_11 = stablehlo.constant dense<[3, -9223372036854775808, 9223372036854775807, 0, -7]> : tensor<5xi64>
  %c_12 = stablehlo.constant dense<[5, 1, -1, -9223372036854775808, -7]> : tensor<5xi64>
  %7 = stablehlo.subtract %c_11, %c_12 : tensor<5xi64>
  check.expect_eq_const %7, dense<[-2, 9223372036854775807, -9223372036854775808, -9223372036854775808, 0]> : tensor<5xi64>
  return
}
