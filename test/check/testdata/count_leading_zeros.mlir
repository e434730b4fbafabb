// stablehlo.count_leading_zeros on i32 and i64: clz(0) is the bit width,
// negative numbers have none.
func.func @main() {
  %c = stablehlo.constant dense<[0, 1, -1, 2, 255, 256, -2147483648, 2147483647]> : tensor<8xi32>
  %0 = stablehlo.count_leading_zeros %c : tensor<8xi32>
  check.expect_eq_const %0, dense<[32, 31, 0, 30, 24, 23, 0, 1]> : tensor<8xi32>
  %c_0 = stablehlo.constant dense<[0, 1, -1, 2, 255, 256, -9223372036854775808, 9223372036854775807]> : tensor<8xi64>
  %1 = stablehlo.count_leading_zeros %c_0 : tensor<8xi64>
  check.expect_eq_const %1, dense<[64, 63, 0, 62, 56, 55, 0, 1]> : tensor<8xi64>
  return
}
