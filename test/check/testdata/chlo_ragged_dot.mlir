// chlo.ragged_dot in its three modes (ChloOps.td): mode 1, a ragged lhs
// non-contracting dimension with an rhs group dimension (row m of group j
// multiplies rhs[j]; per-batch group sizes [b, g]); mode 2, a ragged
// contracting dimension (result [g, m, n], one product per group, an
// empty group gives zeros); mode 3, a ragged batch dimension. Rows no
// group covers are zeros. Expected values from numpy loops over the
// definition.
func.func @main() {
  %l1 = stablehlo.constant dense<[[2.0, 2.0, 1.0, 1.0], [-1.0, 3.0, 0.0, -2.0], [2.0, -2.0, 3.0, 1.0], [-3.0, -3.0, 0.0, -3.0], [-3.0, 0.0, 3.0, 0.0], [2.0, 3.0, 2.0, 1.0]]> : tensor<6x4xf32>
  %r1 = stablehlo.constant dense<[[[0.0, 0.0, -2.0, 0.0, -1.0], [-2.0, 3.0, -3.0, -3.0, -2.0], [3.0, 1.0, 3.0, -2.0, 2.0], [-1.0, 0.0, -3.0, 1.0, 2.0]], [[1.0, -2.0, 0.0, -2.0, 3.0], [3.0, -2.0, 0.0, 3.0, 2.0], [1.0, 1.0, -3.0, 2.0, 0.0], [-3.0, -2.0, 0.0, 2.0, 0.0]], [[1.0, 3.0, 1.0, -1.0, 1.0], [1.0, -3.0, -3.0, 1.0, -1.0], [1.0, -1.0, -2.0, -2.0, -1.0], [2.0, -1.0, -1.0, 1.0, 3.0]]]> : tensor<3x4x5xf32>
  %g1 = stablehlo.constant dense<[2, 1, 2]> : tensor<3xi32>
  %d1 = "chlo.ragged_dot"(%l1, %r1, %g1) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<6x4xf32>, tensor<3x4x5xf32>, tensor<3xi32>) -> tensor<6x5xf32>
  check.expect_eq_const %d1, dense<[[-2.0, 7.0, -10.0, -7.0, -2.0], [-4.0, 9.0, -1.0, -11.0, -9.0], [-4.0, 1.0, -9.0, -2.0, 2.0], [-12.0, 3.0, 9.0, -3.0, -9.0], [0.0, -12.0, -9.0, -3.0, -6.0], [0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<6x5xf32>
  %l2 = stablehlo.constant dense<[[[-1, 1, 0], [1, 0, 1], [0, 1, 3], [-2, 0, 0], [-1, -2, -3]], [[-1, 2, -3], [-1, 3, 3], [-2, -3, 1], [-3, -1, 0], [3, -3, 1]]]> : tensor<2x5x3xi32>
  %r2 = stablehlo.constant dense<[[[[0, -3, 2, 2], [0, 3, 1, 3]], [[3, 0, -2, -2], [0, -2, 2, 3]]], [[[-2, 0, -3, -2], [-1, 3, 3, 1]], [[1, 0, -3, -1], [3, -1, -2, -2]]], [[[1, -3, 3, 3], [0, 0, 2, 0]], [[0, -1, 0, 2], [-3, -3, 2, -1]]]]> : tensor<3x2x2x4xi32>
  %g2 = stablehlo.constant dense<[[2, 3], [0, 4]]> : tensor<2x2xi64>
  %d2 = "chlo.ragged_dot"(%l2, %r2, %g2) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = [2]>}> : (tensor<2x5x3xi32>, tensor<3x2x2x4xi32>, tensor<2x2xi64>) -> tensor<2x5x4xi32>
  check.expect_eq_const %d2, dense<[[[-2, 3, -5, -4], [1, -6, 5, 5], [-1, 3, 9, 1], [0, -6, -2, -6], [2, -9, -13, -5]], [[15, 9, -12, -4], [0, -10, -2, -12], [-12, 4, 4, -1], [-3, 7, -4, -7], [0, 0, 0, 0]]]> : tensor<2x5x4xi32>
  %l3 = stablehlo.constant dense<[[2.0, -3.0, 3.0, -3.0, -1.0, 3.0], [-3.0, 1.0, 2.0, -1.0, -3.0, 0.0], [0.0, 3.0, 1.0, -1.0, -3.0, 1.0]]> : tensor<3x6xf32>
  %r3 = stablehlo.constant dense<[[-2.0, 1.0], [3.0, -1.0], [3.0, 0.0], [0.0, 2.0], [2.0, 3.0], [3.0, -2.0]]> : tensor<6x2xf32>
  %g3 = stablehlo.constant dense<[2, 3, 0, 1]> : tensor<4xi32>
  %d3 = "chlo.ragged_dot"(%l3, %r3, %g3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = []>}> : (tensor<3x6xf32>, tensor<6x2xf32>, tensor<4xi32>) -> tensor<4x3x2xf32>
  check.expect_eq_const %d3, dense<[[[-13.0, 5.0], [9.0, -4.0], [9.0, -3.0]], [[7.0, -9.0], [0.0, -11.0], [-3.0, -11.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[9.0, -6.0], [0.0, 0.0], [3.0, -2.0]]]> : tensor<4x3x2xf32>
  %l4 = stablehlo.constant dense<[[[-1.0, 3.0, -1.0], [-3.0, 1.0, 2.0]], [[2.0, 2.0, 1.0], [-3.0, 2.0, -1.0]], [[2.0, 2.0, 3.0], [-3.0, 3.0, 1.0]], [[0.0, 2.0, 3.0], [0.0, -3.0, 2.0]]]> : tensor<4x2x3xf64>
  %r4 = stablehlo.constant dense<[[[-2.0, -2.0], [-2.0, -2.0], [3.0, -1.0]], [[-3.0, -2.0], [-1.0, -1.0], [-1.0, 3.0]], [[3.0, 1.0], [3.0, -1.0], [-3.0, -2.0]], [[-3.0, 3.0], [-2.0, 0.0], [-2.0, 3.0]]]> : tensor<4x3x2xf64>
  %g4 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %d4 = "chlo.ragged_dot"(%l4, %r4, %g4) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = []>}> : (tensor<4x2x3xf64>, tensor<4x3x2xf64>, tensor<2xi32>) -> tensor<4x2x2xf64>
  check.expect_eq_const %d4, dense<[[[-7.0, -3.0], [10.0, 2.0]], [[-9.0, -3.0], [8.0, 1.0]], [[3.0, -6.0], [-3.0, -8.0]], [[0.0, 0.0], [0.0, 0.0]]]> : tensor<4x2x2xf64>
  return
}
