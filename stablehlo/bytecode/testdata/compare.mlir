module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> (tensor<3xi1> {jax.result_info = "result[0]"}, tensor<3xf32> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %1 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %2 = call @_where(%1, %arg0, %arg1) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %3 = stablehlo.maximum %arg0, %arg1 : tensor<3xf32>
    return %0, %2, %3 : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  }
  func.func private @_where(%arg0: tensor<3xi1>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3xi1>, tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
