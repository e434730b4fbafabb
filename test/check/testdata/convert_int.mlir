// stablehlo.convert between i32, i64 and i1.
func.func @main() {
  // i32 -> i64 sign-extends; i64 -> i32 keeps the low 32 bits.
  %c = stablehlo.constant dense<[0, 1, -1, 2147483647, -2147483648]> : tensor<5xi32>
  %0 = stablehlo.convert %c : (tensor<5xi32>) -> tensor<5xi64>
  check.expect_eq_const %0, dense<[0, 1, -1, 2147483647, -2147483648]> : tensor<5xi64>
  %c_0 = stablehlo.constant dense<[0, -1, 2147483648, 4294967301, -2147483649, 9223372036854775807, -9223372036854775808]> : tensor<7xi64>
  %1 = stablehlo.convert %c_0 : (tensor<7xi64>) -> tensor<7xi32>
  check.expect_eq_const %1, dense<[0, -1, -2147483648, 5, 2147483647, -1, 0]> : tensor<7xi32>
  // To i1: x != 0. From i1: 0 or 1.
  %c_1 = stablehlo.constant dense<[0, 1, -1, 2, -2147483648, 256]> : tensor<6xi32>
  %2 = stablehlo.convert %c_1 : (tensor<6xi32>) -> tensor<6xi1>
  check.expect_eq_const %2, dense<[false, true, true, true, true, true]> : tensor<6xi1>
  %c_2 = stablehlo.constant dense<[0, 4294967296, -1, 9223372036854775807]> : tensor<4xi64>
  %3 = stablehlo.convert %c_2 : (tensor<4xi64>) -> tensor<4xi1>
  check.expect_eq_const %3, dense<[false, true, true, true]> : tensor<4xi1>
  %c_3 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %4 = stablehlo.convert %c_3 : (tensor<2xi1>) -> tensor<2xi32>
  check.expect_eq_const %4, dense<[1, 0]> : tensor<2xi32>
  %c_4 = stablehlo.constant dense<[false, true]> : tensor<2xi1>
  %5 = stablehlo.convert %c_4 : (tensor<2xi1>) -> tensor<2xi64>
  check.expect_eq_const %5, dense<[0, 1]> : tensor<2xi64>
  return
}
