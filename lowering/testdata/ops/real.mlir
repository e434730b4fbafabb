module @jit_real {
  func.func public @main(%arg0: tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32> {
    %0 = stablehlo.real %arg0 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
