module @jit_multiply {
  func.func public @main(%arg0: tensor<4xui16>, %arg1: tensor<4xui16>) -> tensor<4xui16> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<4xui16>
    return %0 : tensor<4xui16>
  }
}
