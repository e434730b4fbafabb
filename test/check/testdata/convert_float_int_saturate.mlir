// stablehlo.convert from floats to integers out of the target's range, which
// StableHLO leaves to the implementation: XLA saturates to the nearest
// representable integer and maps NaN to 0, and Stela does the same.
func.func @main() {
  %cst = stablehlo.constant dense<[2.1474836e+09, -2.147484e+09, 1.0e+10, -1.0e+10, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<7xf32>
  %0 = stablehlo.convert %cst : (tensor<7xf32>) -> tensor<7xi32>
  check.expect_eq_const %0, dense<[2147483647, -2147483648, 2147483647, -2147483648, 2147483647, -2147483648, 0]> : tensor<7xi32>
  %cst_0 = stablehlo.constant dense<[2.147483648e+09, -2.147483649e+09, 1.0e+300, -1.0e+300, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<7xf64>
  %1 = stablehlo.convert %cst_0 : (tensor<7xf64>) -> tensor<7xi32>
  check.expect_eq_const %1, dense<[2147483647, -2147483648, 2147483647, -2147483648, 2147483647, -2147483648, 0]> : tensor<7xi32>
  %cst_1 = stablehlo.constant dense<[9.223372e+18, 1.0e+19, -1.0e+19, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<6xf32>
  %2 = stablehlo.convert %cst_1 : (tensor<6xf32>) -> tensor<6xi64>
  check.expect_eq_const %2, dense<[9223372036854775807, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 0]> : tensor<6xi64>
  %cst_2 = stablehlo.constant dense<[9.223372036854776e+18, -9.223372036854778e+18, 1.0e+300, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<6xf64>
  %3 = stablehlo.convert %cst_2 : (tensor<6xf64>) -> tensor<6xi64>
  check.expect_eq_const %3, dense<[9223372036854775807, -9223372036854775808, 9223372036854775807, 9223372036854775807, -9223372036854775808, 0]> : tensor<6xi64>
  return
}
