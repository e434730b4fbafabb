// stablehlo.shift_right_arithmetic on i32 and i64: fills with the sign bit; a
// shift by the bit width or more (or a negative amount) gives 0 or -1 by sign.
func.func @main() {
  %c = stablehlo.constant dense<[16, -16, -1, -2147483648, -2147483648, 2147483647, -7, 7, -7, 5, 2147483647]> : tensor<11xi32>
  %c_0 = stablehlo.constant dense<[2, 2, 5, 31, 32, 32, 100, -1, -1, 0, 30]> : tensor<11xi32>
  %0 = stablehlo.shift_right_arithmetic %c, %c_0 : tensor<11xi32>
  check.expect_eq_const %0, dense<[4, -4, -1, -1, -1, 0, -1, 0, -1, 5, 1]> : tensor<11xi32>
  %c_1 = stablehlo.constant dense<[16, -16, -1, -9223372036854775808, -9223372036854775808, 9223372036854775807, -7, 7, -7, 5, 9223372036854775807]> : tensor<11xi64>
  %c_2 = stablehlo.constant dense<[2, 2, 5, 63, 64, 64, 100, -1, -1, 0, 62]> : tensor<11xi64>
  %1 = stablehlo.shift_right_arithmetic %c_1, %c_2 : tensor<11xi64>
  check.expect_eq_const %1, dense<[4, -4, -1, -1, -1, 0, -1, 0, -1, 5, 1]> : tensor<11xi64>
  return
}
