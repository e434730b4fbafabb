module @jit_log {
  func.func public @main(%arg0: tensor<2x3xf64>) -> tensor<2x3xf64> {
    %0 = stablehlo.log %arg0 : tensor<2x3xf64>
    return %0 : tensor<2x3xf64>
  }
}
