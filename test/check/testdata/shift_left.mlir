// stablehlo.shift_left on i32 and i64: bits shifted out are lost; a shift by
// the bit width or more, or by a negative amount (read as unsigned, so huge),
// gives 0.
func.func @main() {
  %c = stablehlo.constant dense<[1, 1, 1, 1, 1, -1, 3, 5, 2147483647, 7, 1]> : tensor<11xi32>
  %c_0 = stablehlo.constant dense<[0, 1, 31, 32, 33, 4, 31, -1, 1, 1000, -2147483648]> : tensor<11xi32>
  %0 = stablehlo.shift_left %c, %c_0 : tensor<11xi32>
  check.expect_eq_const %0, dense<[1, 2, -2147483648, 0, 0, -16, -2147483648, 0, -2, 0, 0]> : tensor<11xi32>
  %c_1 = stablehlo.constant dense<[1, 1, 1, 1, 1, -1, 3, 5, 9223372036854775807, 7, 1]> : tensor<11xi64>
  %c_2 = stablehlo.constant dense<[0, 1, 63, 64, 65, 4, 63, -1, 1, 1000, -9223372036854775808]> : tensor<11xi64>
  %1 = stablehlo.shift_left %c_1, %c_2 : tensor<11xi64>
  check.expect_eq_const %1, dense<[1, 2, -9223372036854775808, 0, 0, -16, -9223372036854775808, 0, -2, 0, 0]> : tensor<11xi64>
  return
}
