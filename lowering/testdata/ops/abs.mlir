module @jit_abs {
  func.func public @main(%arg0: tensor<2x3xi32>) -> tensor<2x3xi32> {
    %0 = stablehlo.abs %arg0 : tensor<2x3xi32>
    return %0 : tensor<2x3xi32>
  }
}
