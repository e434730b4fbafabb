module @jit_reshape {
  func.func public @main(%arg0: tensor<2x3xi64>) -> tensor<3x2xi64> {
    %0 = stablehlo.reshape %arg0 : (tensor<2x3xi64>) -> tensor<3x2xi64>
    return %0 : tensor<3x2xi64>
  }
}
