module @jit_tanh {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
