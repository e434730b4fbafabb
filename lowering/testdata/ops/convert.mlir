module @jit_convert {
  func.func public @main(%arg0: tensor<2x3xui8>) -> tensor<2x3xbf16> {
    %0 = stablehlo.convert %arg0 : (tensor<2x3xui8>) -> tensor<2x3xbf16>
    return %0 : tensor<2x3xbf16>
  }
}
