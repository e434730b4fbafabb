module @jit_concatenate {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x3xf32>) -> tensor<5x3xf32> {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<5x3xf32>
    return %0 : tensor<5x3xf32>
  }
}
