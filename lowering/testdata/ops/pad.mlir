module @jit_pad {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<4x4xf32> {
    %0 = stablehlo.pad %arg0, %arg1, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
