module @jit_tan {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.tan %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
