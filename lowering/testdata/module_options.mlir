module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32>, %arg1: tensor<2xi32>) -> (tensor<2xf32> {jax.result_info = "result[0]"}, tensor<2xi32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
    return %0, %arg1 : tensor<2xf32>, tensor<2xi32>
  }
}
