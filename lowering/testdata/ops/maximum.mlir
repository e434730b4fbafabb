module @jit_maximum {
  func.func public @main(%arg0: tensor<4xi1>, %arg1: tensor<4xi1>) -> tensor<4xi1> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<4xi1>
    return %0 : tensor<4xi1>
  }
}
