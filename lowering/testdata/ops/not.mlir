module @jit_not {
  func.func public @main(%arg0: tensor<2x3xi1>) -> tensor<2x3xi1> {
    %0 = stablehlo.not %arg0 : tensor<2x3xi1>
    return %0 : tensor<2x3xi1>
  }
}
