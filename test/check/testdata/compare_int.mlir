// stablehlo.compare on i32 and i64 with comparison type SIGNED (also left
// out, which means SIGNED for signed integers), extremes included, and on i1
// with UNSIGNED (false < true), every direction.
func.func @main() {
  %c = stablehlo.constant dense<[1, 2, 3, -1, -2147483648, 2147483647, -2147483648, -1]> : tensor<8xi32>
  %c_0 = stablehlo.constant dense<[2, 1, 3, 1, 2147483647, -2147483648, -2147483648, 0]> : tensor<8xi32>
  %0 = stablehlo.compare  EQ, %c, %c_0,  SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  check.expect_eq_const %0, dense<[false, false, true, false, false, false, true, false]> : tensor<8xi1>
  %1 = stablehlo.compare  NE, %c, %c_0 : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  check.expect_eq_const %1, dense<[true, true, false, true, true, true, false, true]> : tensor<8xi1>
  %2 = stablehlo.compare  GE, %c, %c_0,  SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  check.expect_eq_const %2, dense<[false, true, true, false, false, true, true, false]> : tensor<8xi1>
  %3 = stablehlo.compare  GT, %c, %c_0 : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  check.expect_eq_const %3, dense<[false, true, false, false, false, true, false, false]> : tensor<8xi1>
  %4 = stablehlo.compare  LE, %c, %c_0,  SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  check.expect_eq_const %4, dense<[true, false, true, true, true, false, true, true]> : tensor<8xi1>
  %5 = stablehlo.compare  LT, %c, %c_0 : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  check.expect_eq_const %5, dense<[true, false, false, true, true, false, false, true]> : tensor<8xi1>
  %c_1 = stablehlo.constant dense<[1, 2, 3, -1, -9223372036854775808, 9223372036854775807, -9223372036854775808, -1]> : tensor<8xi64>
  %c_2 = stablehlo.constant dense<[2, 1, 3, 1, 9223372036854775807, -9223372036854775808, -9223372036854775808, 0]> : tensor<8xi64>
  %6 = stablehlo.compare  EQ, %c_1, %c_2,  SIGNED : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
  check.expect_eq_const %6, dense<[false, false, true, false, false, false, true, false]> : tensor<8xi1>
  %7 = stablehlo.compare  NE, %c_1, %c_2 : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
  check.expect_eq_const %7, dense<[true, true, false, true, true, true, false, true]> : tensor<8xi1>
  %8 = stablehlo.compare  GE, %c_1, %c_2,  SIGNED : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
  check.expect_eq_const %8, dense<[false, true, true, false, false, true, true, false]> : tensor<8xi1>
  %9 = stablehlo.compare  GT, %c_1, %c_2 : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
  check.expect_eq_const %9, dense<[false, true, false, false, false, true, false, false]> : tensor<8xi1>
  %10 = stablehlo.compare  LE, %c_1, %c_2,  SIGNED : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
  check.expect_eq_const %10, dense<[true, false, true, true, true, false, true, true]> : tensor<8xi1>
  %11 = stablehlo.compare  LT, %c_1, %c_2 : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
  check.expect_eq_const %11, dense<[true, false, false, true, true, false, false, true]> : tensor<8xi1>
  %c_3 = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %c_4 = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %12 = stablehlo.compare  EQ, %c_3, %c_4,  UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const %12, dense<[true, false, false, true]> : tensor<4xi1>
  %13 = stablehlo.compare  NE, %c_3, %c_4 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const %13, dense<[false, true, true, false]> : tensor<4xi1>
  %14 = stablehlo.compare  GE, %c_3, %c_4,  UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const %14, dense<[true, false, true, true]> : tensor<4xi1>
  %15 = stablehlo.compare  GT, %c_3, %c_4 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const %15, dense<[false, false, true, false]> : tensor<4xi1>
  %16 = stablehlo.compare  LE, %c_3, %c_4,  UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const %16, dense<[true, true, false, true]> : tensor<4xi1>
  %17 = stablehlo.compare  LT, %c_3, %c_4 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const %17, dense<[false, true, false, false]> : tensor<4xi1>
  return
}
