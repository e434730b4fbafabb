module @jit_power {
  func.func public @main(%arg0: tensor<4xf64>, %arg1: tensor<4xf64>) -> tensor<4xf64> {
    %0 = stablehlo.power %arg0, %arg1 : tensor<4xf64>
    return %0 : tensor<4xf64>
  }
}
