module @jit_reduce_precision {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
