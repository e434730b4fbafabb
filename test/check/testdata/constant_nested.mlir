// Constants written as nested lists, ranks 1 to 4, checked as written and
// after a reshape to rank 1, which shows the row-major element order.
func.func @main() {
  %cst = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
  check.expect_eq_const %cst, dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
  %0 = stablehlo.reshape %cst : (tensor<2x3xf32>) -> tensor<6xf32>
  check.expect_eq_const %0, dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
  %c = stablehlo.constant dense<[[[1, -2], [3, -4]], [[2147483647, -2147483648], [0, 7]]]> : tensor<2x2x2xi32>
  %1 = stablehlo.reshape %c : (tensor<2x2x2xi32>) -> tensor<8xi32>
  check.expect_eq_const %1, dense<[1, -2, 3, -4, 2147483647, -2147483648, 0, 7]> : tensor<8xi32>
  %c_0 = stablehlo.constant dense<[[9223372036854775807], [-9223372036854775808], [4294967296]]> : tensor<3x1xi64>
  %2 = stablehlo.reshape %c_0 : (tensor<3x1xi64>) -> tensor<3xi64>
  check.expect_eq_const %2, dense<[9223372036854775807, -9223372036854775808, 4294967296]> : tensor<3xi64>
  %cst_1 = stablehlo.constant dense<[[[[1.000000e-01, 2.000000e-01]], [[3.000000e-01, 4.000000e-01]], [[5.000000e-01, 6.000000e-01]]]]> : tensor<1x3x1x2xf64>
  %3 = stablehlo.reshape %cst_1 : (tensor<1x3x1x2xf64>) -> tensor<6xf64>
  check.expect_eq_const %3, dense<[1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01, 5.000000e-01, 6.000000e-01]> : tensor<6xf64>
  %cst_2 = stablehlo.constant dense<[[[7.500000e+00]]]> : tensor<1x1x1xf32>
  %4 = stablehlo.reshape %cst_2 : (tensor<1x1x1xf32>) -> tensor<f32>
  check.expect_eq_const %4, dense<7.500000e+00> : tensor<f32>
  %c_3 = stablehlo.constant dense<[[true, false, false], [false, true, true]]> : tensor<2x3xi1>
  %5 = stablehlo.reshape %c_3 : (tensor<2x3xi1>) -> tensor<3x2xi1>
  check.expect_eq_const %5, dense<[[true, false], [false, false], [true, true]]> : tensor<3x2xi1>
  // Decimal forms MLIR accepts: no exponent, a capital E, more digits than needed.
  %cst_4 = stablehlo.constant dense<[2.5, -1.0E+2, 3.0e-1, 1.40129846E-45]> : tensor<4xf32>
  check.expect_eq_const %cst_4, dense<[2.500000e+00, -1.000000e+02, 3.000000e-01, 1.401298e-45]> : tensor<4xf32>
  return
}
