module @jit_slice {
  func.func public @main(%arg0: tensor<4x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.slice %arg0 [1:4:2, 0:3] : (tensor<4x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
