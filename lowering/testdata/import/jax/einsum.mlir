module @jit_einsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> (tensor<2x3x5xf32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %1 = stablehlo.slice %arg0 [0:1, 0:3, 0:4] : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    %3 = stablehlo.slice %arg1 [0:1, 0:4, 0:5] : (tensor<2x4x5xf32>) -> tensor<1x4x5xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x4x5xf32>) -> tensor<4x5xf32>
    %5 = stablehlo.transpose %4, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
    %6 = stablehlo.dot_general %2, %5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
    return %0, %6 : tensor<2x3x5xf32>, tensor<3x5xf32>
  }
}
