module @jit_remainder {
  func.func public @main(%arg0: tensor<4xui64>, %arg1: tensor<4xui64>) -> tensor<4xui64> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<4xui64>
    return %0 : tensor<4xui64>
  }
}
