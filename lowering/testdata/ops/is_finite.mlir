module @jit_is_finite {
  func.func public @main(%arg0: tensor<2x3xf16>) -> tensor<2x3xi1> {
    %0 = stablehlo.is_finite %arg0 : (tensor<2x3xf16>) -> tensor<2x3xi1>
    return %0 : tensor<2x3xi1>
  }
}
