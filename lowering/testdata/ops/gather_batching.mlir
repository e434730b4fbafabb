module @jit_gather_batching {
  func.func public @main(%arg0: tensor<2x5x4xf32>, %arg1: tensor<2x3x1xi32>) -> tensor<2x3x4xf32> {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x5x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
    return %0 : tensor<2x3x4xf32>
  }
}
