module @jit_minimum {
  func.func public @main(%arg0: tensor<4xbf16>, %arg1: tensor<4xbf16>) -> tensor<4xbf16> {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
