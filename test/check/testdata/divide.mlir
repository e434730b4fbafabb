// stablehlo.divide. Floats: correctly rounded, x/±0 = ±Inf, 0/0 = NaN,
// Inf/Inf = NaN, finite/Inf = ±0. Integers truncate toward zero (-7/2 = -3);
// x/0 = -1 (all ones) and INT_MIN/-1 = INT_MIN, the results XLA defines for the
// cases StableHLO leaves undefined.
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, -1.0e+00, 1.0e+00, -1.0e+00, 1.0e+00, 0.000000e+00, 0x7F800000, 0x7F800000, 2.0e+00, -2.0e+00, 0x7FC00000, 7.0e+00]> : tensor<12xf32>
  %cst_0 = stablehlo.constant dense<[3.0e+00, 3.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7F800000, 2.0e+00, 0x7F800000, 0x7F800000, 1.0e+00, 2.0e+00]> : tensor<12xf32>
  %0 = stablehlo.divide %cst, %cst_0 : tensor<12xf32>
  check.expect_eq_const %0, dense<[3.3333334e-01, -3.3333334e-01, 0x7F800000, 0xFF800000, 0xFF800000, 0x7FC00000, 0x7FC00000, 0x7F800000, 0.000000e+00, -0.000000e+00, 0x7FC00000, 3.5e+00]> : tensor<12xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[2.0e+00, -2.0e+00]> : tensor<2xf32>
  %cst_2 = stablehlo.constant dense<[0x7F800000, 0x7F800000]> : tensor<2xf32>
  %1 = stablehlo.divide %cst_1, %cst_2 : tensor<2xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<2xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %cst_4 = stablehlo.constant dense<[1.0e+00, -1.0e+00, 1.0e+00, -1.0e+00, 1.0e+00, 0.000000e+00, 0x7FF0000000000000, 0x7FF0000000000000, 2.0e+00, -2.0e+00, 0x7FF8000000000000, 7.0e+00]> : tensor<12xf64>
  %cst_5 = stablehlo.constant dense<[3.0e+00, 3.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7FF0000000000000, 2.0e+00, 0x7FF0000000000000, 0x7FF0000000000000, 1.0e+00, 2.0e+00]> : tensor<12xf64>
  %3 = stablehlo.divide %cst_4, %cst_5 : tensor<12xf64>
  check.expect_eq_const %3, dense<[3.333333333333333e-01, -3.333333333333333e-01, 0x7FF0000000000000, 0xFFF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0.000000e+00, -0.000000e+00, 0x7FF8000000000000, 3.5e+00]> : tensor<12xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_6 = stablehlo.constant dense<[2.0e+00, -2.0e+00]> : tensor<2xf64>
  %cst_7 = stablehlo.constant dense<[0x7FF0000000000000, 0x7FF0000000000000]> : tensor<2xf64>
  %4 = stablehlo.divide %cst_6, %cst_7 : tensor<2xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %5 = stablehlo.divide %cst_8, %4 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  %c_9 = stablehlo.constant dense<[7, -7, 7, -7, 5, -5, 0, -2147483648, -2147483648, 2147483647, -2147483648]> : tensor<11xi32>
  %c_10 = stablehlo.constant dense<[2, 2, -2, -2, 0, 0, 0, -1, 1, -2147483648, -2147483648]> : tensor<11xi32>
  %6 = stablehlo.divide %c_9, %c_10 : tensor<11xi32>
  check.expect_eq_const %6, dense<[3, -3, -3, 3, -1, -1, -1, -2147483648, -2147483648, 0, 1]> : tensor<11xi32>
  %c_11 = stablehlo.constant dense<[7, -7, 7, -7, 5, -5, 0, -9223372036854775808, -9223372036854775808, 9223372036854775807, -9223372036854775808]> : tensor<11xi64>
  %c_12 = stablehlo.constant dense<[2, 2, -2, -2, 0, 0, 0, -1, 1, -9223372036854775808, -9223372036854775808]> : tensor<11xi64>
  %7 = stablehlo.divide %c_11, %c_12 : tensor<11xi64>
  check.expect_eq_const %7, dense<[3, -3, -3, 3, -1, -1, -1, -9223372036854775808, -9223372036854775808, 0, 1]> : tensor<11xi64>
  return
}
