module @jit_reduce_scatter {
  func.func public @main(%arg0: tensor<8x3xf64>) -> tensor<4x3xf64> {
    %0 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<f64>
      stablehlo.return %1 : tensor<f64>
    }) : (tensor<8x3xf64>) -> tensor<4x3xf64>
    return %0 : tensor<4x3xf64>
  }
}
