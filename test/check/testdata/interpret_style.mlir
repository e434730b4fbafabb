// The layout of StableHLO's interpreter tests: no @main, several functions
// without arguments, each an entry that runs on its own, ending in
// func.return; values named after what they hold.
func.func @add_op_test_i64() {
  %lhs = stablehlo.constant dense<[0, 1, 2, -3, 9223372036854775807]> : tensor<5xi64>
  %rhs = stablehlo.constant dense<[-8, -1, 2, -3, 1]> : tensor<5xi64>
  %result = stablehlo.add %lhs, %rhs : tensor<5xi64>
  check.expect_eq_const %result, dense<[-8, 0, 4, -6, -9223372036854775808]> : tensor<5xi64>
  func.return
}

func.func @divide_op_test_f64() {
  %lhs = stablehlo.constant dense<[17.1, -17.1, 17.1, -17.1]> : tensor<4xf64>
  %rhs = stablehlo.constant dense<[3.0, 3.0, -3.0, -3.0]> : tensor<4xf64>
  %result = stablehlo.divide %lhs, %rhs : tensor<4xf64>
  check.expect_almost_eq_const %result, dense<[5.700000e+00, -5.700000e+00, -5.700000e+00, 5.700000e+00]> : tensor<4xf64>
  %expected = stablehlo.constant dense<[5.7000000000000002, -5.7000000000000002, -5.7000000000000002, 5.7000000000000002]> : tensor<4xf64>
  check.expect_almost_eq %result, %expected, tolerance = 1.000000e-15 : tensor<4xf64>
  func.return
}

func.func @transpose_op_test_si32() {
  %operand = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
  %result = stablehlo.transpose %operand, dims = [2, 1, 0] : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>
  check.expect_eq_const %result, dense<[[[1, 7], [3, 9], [5, 11]], [[2, 8], [4, 10], [6, 12]]]> : tensor<2x3x2xi32>
  func.return
}
