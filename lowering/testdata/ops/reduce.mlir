module @jit_reduce {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<2xf32> {
    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
