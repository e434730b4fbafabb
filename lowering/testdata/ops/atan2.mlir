module @jit_atan2 {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.atan2 %arg0, %arg1 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
