// stablehlo.xor: bitwise on i32 and i64, logical on i1.
func.func @main() {
  %c = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %c_0 = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %0 = stablehlo.xor %c, %c_0 : tensor<4xi1>
  check.expect_eq_const %0, dense<[false, true, true, false]> : tensor<4xi1>
  %c_1 = stablehlo.constant dense<[12, -1, -2147483648, 2147483647, 0, -6]> : tensor<6xi32>
  %c_2 = stablehlo.constant dense<[10, 5, -1, -2147483648, 0, 3]> : tensor<6xi32>
  %1 = stablehlo.xor %c_1, %c_2 : tensor<6xi32>
  check.expect_eq_const %1, dense<[6, -6, 2147483647, -1, 0, -7]> : tensor<6xi32>
  %c_3 = stablehlo.constant dense<[12, -1, -9223372036854775808, 9223372036854775807, 0, -6]> : tensor<6xi64>
  %c_4 = stablehlo.constant dense<[10, 5, -1, -9223372036854775808, 0, 3]> : tensor<6xi64>
  %2 = stablehlo.xor %c_3, %c_4 : tensor<6xi64>
  check.expect_eq_const %2, dense<[6, -6, 9223372036854775807, -1, 0, -7]> : tensor<6xi64>
  return
}
