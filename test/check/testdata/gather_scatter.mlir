// stablehlo.gather and stablehlo.scatter in the forms JAX emits: rows by
// index (a start index out of range is clamped so that the slice fits),
// points with an index vector, take_along_axis with batching dimensions;
// scatter-add with duplicate indices (they accumulate) and out-of-range
// ones (the update is dropped), an overwriting scatter of row windows (a
// window that does not fit entirely is dropped, as XLA does), and a
// scatter of two inputs at once.
func.func @main() {
  %x = stablehlo.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0]]> : tensor<4x3xf32>
  %i = stablehlo.constant dense<[[2], [0], [5]]> : tensor<3x1xi32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<3x1xi32>) -> tensor<3x3xf32>
  check.expect_eq_const %0, dense<[[20.0, 21.0, 22.0], [0.0, 1.0, 2.0], [30.0, 31.0, 32.0]]> : tensor<3x3xf32>
  %p = stablehlo.constant dense<[[1, 2], [3, 0], [-1, 9]]> : tensor<3x2xi64>
  %1 = "stablehlo.gather"(%x, %p) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x3xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  check.expect_eq_const %1, dense<[12.0, 30.0, 2.0]> : tensor<3xf32>
  // Two-column windows starting at column idx (clamped to 1).
  %w = stablehlo.constant dense<[2, 0]> : tensor<2xi32>
  %2 = "stablehlo.gather"(%x, %w) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 4, 2>}> : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<4x2x2xf32>
  check.expect_eq_const %2, dense<[[[1.0, 2.0], [0.0, 1.0]], [[11.0, 12.0], [10.0, 11.0]], [[21.0, 22.0], [20.0, 21.0]], [[31.0, 32.0], [30.0, 31.0]]]> : tensor<4x2x2xf32>
  // take_along_axis: result[b] = y[b, idx[b]].
  %y = stablehlo.constant dense<[[5, 6, 7, 8], [50, 60, 70, 80]]> : tensor<2x4xi64>
  %t = stablehlo.constant dense<[[3], [1]]> : tensor<2x1xi32>
  %3 = "stablehlo.gather"(%y, %t) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x4xi64>, tensor<2x1xi32>) -> tensor<2xi64>
  check.expect_eq_const %3, dense<[8, 60]> : tensor<2xi64>
  // Scatter-add: duplicates accumulate, indices 7 and -1 are dropped.
  %z = stablehlo.constant dense<[0.5, 0.5, 0.5, 0.5]> : tensor<4xf64>
  %si = stablehlo.constant dense<[[1], [3], [1], [7], [-1]]> : tensor<5x1xi32>
  %su = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf64>
  %4 = "stablehlo.scatter"(%z, %si, %su) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) : (tensor<4xf64>, tensor<5x1xi32>, tensor<5xf64>) -> tensor<4xf64>
  check.expect_eq_const %4, dense<[0.5, 4.5, 0.5, 2.5]> : tensor<4xf64>
  // Overwrite windows of two rows: start 3 does not fit in four rows.
  %r = stablehlo.constant dense<0> : tensor<4x3xi32>
  %ri = stablehlo.constant dense<[[0], [3], [2]]> : tensor<3x1xi32>
  %ru = stablehlo.constant dense<[[[1, 1, 1], [1, 1, 1]], [[9, 9, 9], [9, 9, 9]], [[2, 2, 2], [2, 2, 2]]]> : tensor<3x2x3xi32>
  %5 = "stablehlo.scatter"(%r, %ri, %ru) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<4x3xi32>, tensor<3x1xi32>, tensor<3x2x3xi32>) -> tensor<4x3xi32>
  check.expect_eq_const %5, dense<[[1, 1, 1], [1, 1, 1], [2, 2, 2], [2, 2, 2]]> : tensor<4x3xi32>
  // Two inputs: a sum and a maximum in one region.
  %m0 = stablehlo.constant dense<[0, 0, 0]> : tensor<3xi64>
  %m1 = stablehlo.constant dense<[-1.0, -1.0, -1.0]> : tensor<3xf32>
  %mi = stablehlo.constant dense<[2, 0, 2]> : tensor<3xi32>
  %mu0 = stablehlo.constant dense<[5, 6, 7]> : tensor<3xi64>
  %mu1 = stablehlo.constant dense<[0.5, 0.25, 2.5]> : tensor<3xf32>
  %6:2 = "stablehlo.scatter"(%m0, %m1, %mi, %mu0, %mu1) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<f32>, %c: tensor<i64>, %d: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<i64>
    %mx = stablehlo.maximum %b, %d : tensor<f32>
    stablehlo.return %s, %mx : tensor<i64>, tensor<f32>
  }) : (tensor<3xi64>, tensor<3xf32>, tensor<3xi32>, tensor<3xi64>, tensor<3xf32>) -> (tensor<3xi64>, tensor<3xf32>)
  check.expect_eq_const %6#0, dense<[6, 0, 12]> : tensor<3xi64>
  check.expect_eq_const %6#1, dense<[0.25, -1.0, 2.5]> : tensor<3xf32>
  return
}
