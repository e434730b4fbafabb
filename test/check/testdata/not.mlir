// stablehlo.not: bitwise on i32 and i64 (~x), logical on i1.
func.func @main() {
  %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %0 = stablehlo.not %c : tensor<2xi1>
  check.expect_eq_const %0, dense<[false, true]> : tensor<2xi1>
  %c_0 = stablehlo.constant dense<[0, -1, 5, -2147483648, 2147483647]> : tensor<5xi32>
  %1 = stablehlo.not %c_0 : tensor<5xi32>
  check.expect_eq_const %1, dense<[-1, 0, -6, 2147483647, -2147483648]> : tensor<5xi32>
  %c_1 = stablehlo.constant dense<[0, -1, 5, -9223372036854775808, 9223372036854775807]> : tensor<5xi64>
  %2 = stablehlo.not %c_1 : tensor<5xi64>
  check.expect_eq_const %2, dense<[-1, 0, -6, 9223372036854775807, -9223372036854775808]> : tensor<5xi64>
  return
}
