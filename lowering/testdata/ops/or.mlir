module @jit_or {
  func.func public @main(%arg0: tensor<4xui8>, %arg1: tensor<4xui8>) -> tensor<4xui8> {
    %0 = stablehlo.or %arg0, %arg1 : tensor<4xui8>
    return %0 : tensor<4xui8>
  }
}
