module @jit_floor {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.floor %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
