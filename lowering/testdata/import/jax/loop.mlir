module @jit_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<i32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c, %iterArg_1 = %arg1, %iterArg_2 = %arg0) : tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<3xf32>
    cond {
      %1 = stablehlo.compare LT, %iterArg_0, %iterArg_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_0, %c_3 : tensor<i32>
      %2 = stablehlo.multiply %iterArg_2, %iterArg : tensor<3xf32>
      %3 = stablehlo.convert %iterArg_0 : (tensor<i32>) -> tensor<f32>
      %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %5 = stablehlo.add %2, %4 : tensor<3xf32>
      stablehlo.return %iterArg, %1, %iterArg_1, %5 : tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<3xf32>
    }
    return %0#3 : tensor<3xf32>
  }
}
