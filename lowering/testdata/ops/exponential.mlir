module @jit_exponential {
  func.func public @main(%arg0: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
    %0 = stablehlo.exponential %arg0 : tensor<2x3xbf16>
    return %0 : tensor<2x3xbf16>
  }
}
