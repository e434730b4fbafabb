// stablehlo.abs on f32, f64, i32, i64: |-0| is +0, |-Inf| is +Inf, NaN stays
// NaN; |INT_MIN| wraps to INT_MIN.
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -1.5e+00, 2.5e+00, 0xFF800000, 0x7F800000, 0x7FC00000, -3.4028235e+38, -1.0e-45]> : tensor<9xf32>
  %0 = stablehlo.abs %cst : tensor<9xf32>
  check.expect_eq_const %0, dense<[0.000000e+00, 0.000000e+00, 1.5e+00, 2.5e+00, 0x7F800000, 0x7F800000, 0x7FC00000, 3.4028235e+38, 1.0e-45]> : tensor<9xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_0 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %1 = stablehlo.abs %cst_0 : tensor<2xf32>
  %cst_1 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %2 = stablehlo.divide %cst_1, %1 : tensor<2xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0x7F800000]> : tensor<2xf32>
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -1.5e+00, 2.5e+00, 0xFFF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, -1.7976931348623157e+308, -5.0e-324]> : tensor<9xf64>
  %3 = stablehlo.abs %cst_2 : tensor<9xf64>
  check.expect_eq_const %3, dense<[0.000000e+00, 0.000000e+00, 1.5e+00, 2.5e+00, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 1.7976931348623157e+308, 5.0e-324]> : tensor<9xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_3 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %4 = stablehlo.abs %cst_3 : tensor<2xf64>
  %cst_4 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %5 = stablehlo.divide %cst_4, %4 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0x7FF0000000000000]> : tensor<2xf64>
  %c_5 = stablehlo.constant dense<[0, 5, -5, 2147483647, -2147483648, -2147483647]> : tensor<6xi32>
  %6 = stablehlo.abs %c_5 : tensor<6xi32>
  check.expect_eq_const %6, dense<[0, 5, 5, 2147483647, -2147483648, 2147483647]> : tensor<6xi32>
  %c_6 = stablehlo.constant dense<[0, 5, -5, 9223372036854775807, -9223372036854775808, -9223372036854775807]> : tensor<6xi64>
  %7 = stablehlo.abs %c_6 : tensor<6xi64>
  check.expect_eq_const %7, dense<[0, 5, 5, 9223372036854775807, -9223372036854775808, 9223372036854775807]> : tensor<6xi64>
  return
}
