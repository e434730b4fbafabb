// stablehlo.shift_right_logical on i32 and i64: fills with zeros (-1 >>> 1 is
// INT_MAX); a shift by the bit width or more (or a negative amount) gives 0.
func.func @main() {
  %c = stablehlo.constant dense<[16, -16, -1, -2147483648, -1, -1, -7, 5, -1]> : tensor<9xi32>
  %c_0 = stablehlo.constant dense<[2, 2, 1, 31, 32, 35, -1, 0, 31]> : tensor<9xi32>
  %0 = stablehlo.shift_right_logical %c, %c_0 : tensor<9xi32>
  check.expect_eq_const %0, dense<[4, 1073741820, 2147483647, 1, 0, 0, 0, 5, 1]> : tensor<9xi32>
  %c_1 = stablehlo.constant dense<[16, -16, -1, -9223372036854775808, -1, -1, -7, 5, -1]> : tensor<9xi64>
  %c_2 = stablehlo.constant dense<[2, 2, 1, 63, 64, 67, -1, 0, 63]> : tensor<9xi64>
  %1 = stablehlo.shift_right_logical %c_1, %c_2 : tensor<9xi64>
  check.expect_eq_const %1, dense<[4, 4611686018427387900, 9223372036854775807, 1, 0, 0, 0, 5, 1]> : tensor<9xi64>
  return
}
