module @jit_negate {
  func.func public @main(%arg0: tensor<2x3xi64>) -> tensor<2x3xi64> {
    %0 = stablehlo.negate %arg0 : tensor<2x3xi64>
    return %0 : tensor<2x3xi64>
  }
}
