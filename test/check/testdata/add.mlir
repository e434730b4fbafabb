// stablehlo.add on f32, f64 (correctly rounded: ties to even at 2^24 for f32,
// Inf - Inf = NaN, -0 + -0 = -0, 0 + -0 = +0, overflow to Inf), i32 and i64
// (wrapping) and i1 (logical or).
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, 1.0e-01, -0.000000e+00, 0.000000e+00, 0x7F800000, 0x7F800000, 0x7FC00000, 3.4028235e+38, 1.6777216e+07, 1.6777216e+07, -1.5e+00]> : tensor<11xf32>
  %cst_0 = stablehlo.constant dense<[2.0e+00, 2.0e-01, -0.000000e+00, -0.000000e+00, 0xFF800000, 1.0e+00, 1.0e+00, 3.4028235e+38, 1.0e+00, 3.0e+00, 1.5e+00]> : tensor<11xf32>
  %0 = stablehlo.add %cst, %cst_0 : tensor<11xf32>
  check.expect_eq_const %0, dense<[3.0e+00, 3.0e-01, -0.000000e+00, 0.000000e+00, 0x7FC00000, 0x7F800000, 0x7FC00000, 0x7F800000, 1.6777216e+07, 1.677722e+07, 0.000000e+00]> : tensor<11xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[-0.000000e+00, 0.000000e+00, -1.5e+00]> : tensor<3xf32>
  %cst_2 = stablehlo.constant dense<[-0.000000e+00, -0.000000e+00, 1.5e+00]> : tensor<3xf32>
  %1 = stablehlo.add %cst_1, %cst_2 : tensor<3xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<3xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[0xFF800000, 0x7F800000, 0x7F800000]> : tensor<3xf32>
  %cst_4 = stablehlo.constant dense<[1.0e+00, 1.0e-01, -0.000000e+00, 0.000000e+00, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 1.7976931348623157e+308, 9.007199254740992e+15, 9.007199254740992e+15, -1.5e+00]> : tensor<11xf64>
  %cst_5 = stablehlo.constant dense<[2.0e+00, 2.0e-01, -0.000000e+00, -0.000000e+00, 0xFFF0000000000000, 1.0e+00, 1.0e+00, 1.7976931348623157e+308, 1.0e+00, 3.0e+00, 1.5e+00]> : tensor<11xf64>
  %3 = stablehlo.add %cst_4, %cst_5 : tensor<11xf64>
  check.expect_eq_const %3, dense<[3.0e+00, 3.0000000000000004e-01, -0.000000e+00, 0.000000e+00, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 9.007199254740992e+15, 9.007199254740996e+15, 0.000000e+00]> : tensor<11xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_6 = stablehlo.constant dense<[-0.000000e+00, 0.000000e+00, -1.5e+00]> : tensor<3xf64>
  %cst_7 = stablehlo.constant dense<[-0.000000e+00, -0.000000e+00, 1.5e+00]> : tensor<3xf64>
  %4 = stablehlo.add %cst_6, %cst_7 : tensor<3xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<3xf64>
  %5 = stablehlo.divide %cst_8, %4 : tensor<3xf64>
  check.expect_eq_const %5, dense<[0xFFF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000]> : tensor<3xf64>
  %c_9 = stablehlo.constant dense<[1, 2147483647, -2147483648, -5, -2147483648]> : tensor<5xi32>
  %c_10 = stablehlo.constant dense<[2, 1, -1, 5, -2147483648]> : tensor<5xi32>
  %6 = stablehlo.add %c_9, %c_10 : tensor<5xi32>
  check.expect_eq_const %6, dense<[3, -2147483648, 2147483647, 0, 0]> : tensor<5xi32>
  %c_11 = stablehlo.constant dense<[1, 9223372036854775807, -9223372036854775808, -5, -9223372036854775808]> : tensor<5xi64>
  %c_12 = stablehlo.constant dense<[2, 1, -1, 5, -9223372036854775808]> : tensor<5xi64>
  %7 = stablehlo.add %c_11, %c_12 : tensor<5xi64>
  check.expect_eq_const %7, dense<[3, -9223372036854775808, 9223372036854775807, 0, 0]> : tensor<5xi64>
  %c_13 = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %c_14 = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %8 = stablehlo.add %c_13, %c_14 : tensor<4xi1>
  check.expect_eq_const %8, dense<[false, true, true, true]> : tensor<4xi1>
  return
}
