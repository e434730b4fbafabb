module @jit_reverse {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
