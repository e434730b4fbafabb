module @jit_xor {
  func.func public @main(%arg0: tensor<4xi16>, %arg1: tensor<4xi16>) -> tensor<4xi16> {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<4xi16>
    return %0 : tensor<4xi16>
  }
}
