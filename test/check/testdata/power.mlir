// stablehlo.power. Floats follow C's pow: x^±0 = 1 and 1^y = 1 even for NaN,
// (-8)^(1/3) = NaN, 0^-1 = +Inf, (-0)^-1 = -Inf, (-1)^±Inf = 1; other values
// within a few ULP of the correctly rounded result. Integers: exact,
// wrapping; a negative exponent gives 0 unless the base is ±1.
func.func @main() {
  %cst = stablehlo.constant dense<[2.0e+00, 0x7FC00000, 1.0e+00, 0x7F800000, 0.000000e+00, -0.000000e+00, -0.000000e+00, -2.0e+00, 2.0e+00, 0x7F800000, 0.000000e+00, 0xFF800000, 5.0e-01, 2.0e+00, -1.0e+00, -8.0e+00, -0.000000e+00]> : tensor<17xf32>
  %cst_0 = stablehlo.constant dense<[1.0e+01, 0.000000e+00, 0x7FC00000, 0.000000e+00, -1.0e+00, -1.0e+00, -2.0e+00, 3.0e+00, -2.0e+00, -1.0e+00, 0.000000e+00, 3.0e+00, 0x7F800000, 0x7F800000, 0x7F800000, 3.3333334e-01, 3.0e+00]> : tensor<17xf32>
  %0 = stablehlo.power %cst, %cst_0 : tensor<17xf32>
  check.expect_eq_const %0, dense<[1.024e+03, 1.0e+00, 1.0e+00, 1.0e+00, 0x7F800000, 0xFF800000, 0x7F800000, -8.0e+00, 2.5e-01, 0.000000e+00, 1.0e+00, 0xFF800000, 0.000000e+00, 0x7F800000, 1.0e+00, 0x7FC00000, -0.000000e+00]> : tensor<17xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[0x7F800000, 5.0e-01, -0.000000e+00]> : tensor<3xf32>
  %cst_2 = stablehlo.constant dense<[-1.0e+00, 0x7F800000, 3.0e+00]> : tensor<3xf32>
  %1 = stablehlo.power %cst_1, %cst_2 : tensor<3xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<3xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0x7F800000, 0xFF800000]> : tensor<3xf32>
  %cst_4 = stablehlo.constant dense<[2.0e+00, 1.0e+01, 1.5e+00, 9.0e-01, 3.0e+00, 7.0e+00]> : tensor<6xf32>
  %cst_5 = stablehlo.constant dense<[5.0e-01, 3.5e+00, -2.5e+00, 1.0e+02, 2.0e+01, 1.0e-01]> : tensor<6xf32>
  %3 = stablehlo.power %cst_4, %cst_5 : tensor<6xf32>
  %cst_6 = stablehlo.constant dense<[1.4142135e+00, 3.1622776e+03, 3.6288738e-01, 2.6561329e-05, 3.4867845e+09, 1.2148141e+00]> : tensor<6xf32>
  check.expect_close %3, %cst_6, max_ulp_difference = 4 : tensor<6xf32>, tensor<6xf32>
  %cst_7 = stablehlo.constant dense<[2.0e+00, 0x7FF8000000000000, 1.0e+00, 0x7FF0000000000000, 0.000000e+00, -0.000000e+00, -0.000000e+00, -2.0e+00, 2.0e+00, 0x7FF0000000000000, 0.000000e+00, 0xFFF0000000000000, 5.0e-01, 2.0e+00, -1.0e+00, -8.0e+00, -0.000000e+00]> : tensor<17xf64>
  %cst_8 = stablehlo.constant dense<[1.0e+01, 0.000000e+00, 0x7FF8000000000000, 0.000000e+00, -1.0e+00, -1.0e+00, -2.0e+00, 3.0e+00, -2.0e+00, -1.0e+00, 0.000000e+00, 3.0e+00, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000, 3.333333333333333e-01, 3.0e+00]> : tensor<17xf64>
  %4 = stablehlo.power %cst_7, %cst_8 : tensor<17xf64>
  check.expect_eq_const %4, dense<[1.024e+03, 1.0e+00, 1.0e+00, 1.0e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000, -8.0e+00, 2.5e-01, 0.000000e+00, 1.0e+00, 0xFFF0000000000000, 0.000000e+00, 0x7FF0000000000000, 1.0e+00, 0x7FF8000000000000, -0.000000e+00]> : tensor<17xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_9 = stablehlo.constant dense<[0x7FF0000000000000, 5.0e-01, -0.000000e+00]> : tensor<3xf64>
  %cst_10 = stablehlo.constant dense<[-1.0e+00, 0x7FF0000000000000, 3.0e+00]> : tensor<3xf64>
  %5 = stablehlo.power %cst_9, %cst_10 : tensor<3xf64>
  %cst_11 = stablehlo.constant dense<1.0e+00> : tensor<3xf64>
  %6 = stablehlo.divide %cst_11, %5 : tensor<3xf64>
  check.expect_eq_const %6, dense<[0x7FF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000]> : tensor<3xf64>
  %cst_12 = stablehlo.constant dense<[2.0e+00, 1.0e+01, 1.5e+00, 9.0e-01, 3.0e+00, 7.0e+00]> : tensor<6xf64>
  %cst_13 = stablehlo.constant dense<[5.0e-01, 3.5e+00, -2.5e+00, 1.0e+02, 2.0e+01, 1.0e-01]> : tensor<6xf64>
  %7 = stablehlo.power %cst_12, %cst_13 : tensor<6xf64>
  %cst_14 = stablehlo.constant dense<[1.4142135623730951e+00, 3.1622776601683795e+03, 3.6288736930121157e-01, 2.6561398887587544e-05, 3.486784401e+09, 1.214814044039067e+00]> : tensor<6xf64>
  check.expect_close %7, %cst_14, max_ulp_difference = 2 : tensor<6xf64>, tensor<6xf64>
  %c_15 = stablehlo.constant dense<[2, 3, 0, -2, -2, 2, 1, -1, -1, 0, 2, 3, 7]> : tensor<13xi32>
  %c_16 = stablehlo.constant dense<[10, 0, 0, 3, 4, -1, -5, -3, -4, 5, 31, 21, 2]> : tensor<13xi32>
  %8 = stablehlo.power %c_15, %c_16 : tensor<13xi32>
  check.expect_eq_const %8, dense<[1024, 1, 1, -8, 16, 0, 1, -1, 1, 0, -2147483648, 1870418611, 49]> : tensor<13xi32>
  %c_17 = stablehlo.constant dense<[2, 3, 0, -2, -2, 2, 1, -1, -1, 0, 2, 3, 7]> : tensor<13xi64>
  %c_18 = stablehlo.constant dense<[10, 0, 0, 3, 4, -1, -5, -3, -4, 5, 31, 21, 2]> : tensor<13xi64>
  %9 = stablehlo.power %c_17, %c_18 : tensor<13xi64>
  check.expect_eq_const %9, dense<[1024, 1, 1, -8, 16, 0, 1, -1, 1, 0, 2147483648, 10460353203, 49]> : tensor<13xi64>
  return
}
