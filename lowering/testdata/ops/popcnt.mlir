module @jit_popcnt {
  func.func public @main(%arg0: tensor<2x3xui8>) -> tensor<2x3xui8> {
    %0 = stablehlo.popcnt %arg0 : tensor<2x3xui8>
    return %0 : tensor<2x3xui8>
  }
}
