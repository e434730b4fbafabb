// stablehlo.remainder: the sign of the dividend (C fmod / truncated division).
// Floats: exact, x % 0 = NaN, Inf % y = NaN, x % Inf = x, -0 % y = -0.
// Integers: -7 % 2 = -1, 7 % -2 = 1; x % 0 = x and INT_MIN % -1 = 0, as XLA
// defines them.
func.func @main() {
  %cst = stablehlo.constant dense<[5.5e+00, -5.5e+00, 5.5e+00, -5.5e+00, 1.0e+00, 0x7F800000, 1.0e+00, 0.000000e+00, -0.000000e+00, 0x7FC00000, 1.0e+01, -4.0e+00, 1.0e+10]> : tensor<13xf32>
  %cst_0 = stablehlo.constant dense<[2.0e+00, 2.0e+00, -2.0e+00, -2.0e+00, 0.000000e+00, 1.0e+00, 0x7F800000, 1.0e+00, 1.0e+00, 1.0e+00, 3.0e+00, 2.0e+00, 3.0e+00]> : tensor<13xf32>
  %0 = stablehlo.remainder %cst, %cst_0 : tensor<13xf32>
  check.expect_eq_const %0, dense<[1.5e+00, -1.5e+00, 1.5e+00, -1.5e+00, 0x7FC00000, 0x7FC00000, 1.0e+00, 0.000000e+00, -0.000000e+00, 0x7FC00000, 1.0e+00, -0.000000e+00, 1.0e+00]> : tensor<13xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -4.0e+00]> : tensor<3xf32>
  %cst_2 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 2.0e+00]> : tensor<3xf32>
  %1 = stablehlo.remainder %cst_1, %cst_2 : tensor<3xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<3xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0xFF800000, 0xFF800000]> : tensor<3xf32>
  %cst_4 = stablehlo.constant dense<[5.5e+00, -5.5e+00, 5.5e+00, -5.5e+00, 1.0e+00, 0x7FF0000000000000, 1.0e+00, 0.000000e+00, -0.000000e+00, 0x7FF8000000000000, 1.0e+01, -4.0e+00, 1.0e+10]> : tensor<13xf64>
  %cst_5 = stablehlo.constant dense<[2.0e+00, 2.0e+00, -2.0e+00, -2.0e+00, 0.000000e+00, 1.0e+00, 0x7FF0000000000000, 1.0e+00, 1.0e+00, 1.0e+00, 3.0e+00, 2.0e+00, 3.0e+00]> : tensor<13xf64>
  %3 = stablehlo.remainder %cst_4, %cst_5 : tensor<13xf64>
  check.expect_eq_const %3, dense<[1.5e+00, -1.5e+00, 1.5e+00, -1.5e+00, 0x7FF8000000000000, 0x7FF8000000000000, 1.0e+00, 0.000000e+00, -0.000000e+00, 0x7FF8000000000000, 1.0e+00, -0.000000e+00, 1.0e+00]> : tensor<13xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_6 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -4.0e+00]> : tensor<3xf64>
  %cst_7 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 2.0e+00]> : tensor<3xf64>
  %4 = stablehlo.remainder %cst_6, %cst_7 : tensor<3xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<3xf64>
  %5 = stablehlo.divide %cst_8, %4 : tensor<3xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0xFFF0000000000000]> : tensor<3xf64>
  %c_9 = stablehlo.constant dense<[7, -7, 7, -7, 5, -5, -2147483648, -2147483648, 2147483647]> : tensor<9xi32>
  %c_10 = stablehlo.constant dense<[2, 2, -2, -2, 0, 0, -1, 3, 10]> : tensor<9xi32>
  %6 = stablehlo.remainder %c_9, %c_10 : tensor<9xi32>
  check.expect_eq_const %6, dense<[1, -1, 1, -1, 5, -5, 0, -2, 7]> : tensor<9xi32>
  %c_11 = stablehlo.constant dense<[7, -7, 7, -7, 5, -5, -9223372036854775808, -9223372036854775808, 9223372036854775807]> : tensor<9xi64>
  %c_12 = stablehlo.constant dense<[2, 2, -2, -2, 0, 0, -1, 3, 10]> : tensor<9xi64>
  %7 = stablehlo.remainder %c_11, %c_12 : tensor<9xi64>
  check.expect_eq_const %7, dense<[1, -1, 1, -1, 5, -5, 0, -2, 7]> : tensor<9xi64>
  return
}
