// Gather and scatter dimension numbers, batching dimensions included,
// and a variadic scatter.
module @jit_gather_scatter {
  func.func public @main(%arg0: tensor<3x5x4xf32>, %arg1: tensor<3x2x1xi32>, %arg2: tensor<5x4xf32>, %arg3: tensor<2x1xi64>, %arg4: tensor<2x4xf32>, %arg5: tensor<5x4xi32>, %arg6: tensor<2x4xi32>) -> (tensor<3x2x4xf32>, tensor<2x4xf32>, tensor<5x4xf32>, tensor<5x4xi32>, tensor<3x5x4xf32>) {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<3x5x4xf32>, tensor<3x2x1xi32>) -> tensor<3x2x4xf32>
    %1 = "stablehlo.gather"(%arg2, %arg3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
    %2:2 = "stablehlo.scatter"(%arg2, %arg5, %arg3, %arg4, %arg6) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>):
      %4 = stablehlo.add %a, %b : tensor<f32>
      %5 = stablehlo.maximum %i, %j : tensor<i32>
      stablehlo.return %4, %5 : tensor<f32>, tensor<i32>
    }) : (tensor<5x4xf32>, tensor<5x4xi32>, tensor<2x1xi64>, tensor<2x4xf32>, tensor<2x4xi32>) -> (tensor<5x4xf32>, tensor<5x4xi32>)
    %3 = "stablehlo.scatter"(%arg0, %arg1, %0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
    }) : (tensor<3x5x4xf32>, tensor<3x2x1xi32>, tensor<3x2x4xf32>) -> tensor<3x5x4xf32>
    return %0, %1, %2#0, %2#1, %3 : tensor<3x2x4xf32>, tensor<2x4xf32>, tensor<5x4xf32>, tensor<5x4xi32>, tensor<3x5x4xf32>
  }
}
