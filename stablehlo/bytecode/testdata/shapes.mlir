module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<2xf32> {jax.result_info = "result[2]"}, tensor<2x2xf32> {jax.result_info = "result[3]"}, tensor<4xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = call @_pad(%arg0, %c) : (tensor<4xf32>, tensor<i64>) -> tensor<6xf32>
    %2 = stablehlo.slice %arg0 [1:3] : (tensor<4xf32>) -> tensor<2xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<4xf32>) -> tensor<2x2xf32>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %5 = call @_flip(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0, %1, %2, %4, %5 : tensor<8xf32>, tensor<6xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<4xf32>
  }
  func.func private @_pad(%arg0: tensor<4xf32>, %arg1: tensor<i64>) -> tensor<6xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
    return %1 : tensor<6xf32>
  }
  func.func private @_flip(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
