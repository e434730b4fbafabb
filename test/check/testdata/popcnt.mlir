// stablehlo.popcnt on i32 and i64 counts the set bits of the two's complement
// pattern: popcnt(-1) is the bit width, popcnt(INT_MIN) is 1.
func.func @main() {
  %c = stablehlo.constant dense<[0, 1, -1, 7, 255, -2147483648, 2147483647, 1431655765, -2]> : tensor<9xi32>
  %0 = stablehlo.popcnt %c : tensor<9xi32>
  check.expect_eq_const %0, dense<[0, 1, 32, 3, 8, 1, 31, 16, 31]> : tensor<9xi32>
  %c_0 = stablehlo.constant dense<[0, 1, -1, 7, 255, -9223372036854775808, 9223372036854775807, 6148914691236517205, -2]> : tensor<9xi64>
  %1 = stablehlo.popcnt %c_0 : tensor<9xi64>
  check.expect_eq_const %1, dense<[0, 1, 64, 3, 8, 1, 63, 32, 63]> : tensor<9xi64>
  return
}
