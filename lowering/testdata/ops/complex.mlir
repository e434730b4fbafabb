module @jit_complex {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<4xcomplex<f32>>
    return %0 : tensor<4xcomplex<f32>>
  }
}
