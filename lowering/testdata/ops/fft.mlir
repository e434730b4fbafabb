module @jit_fft {
  func.func public @main(%arg0: tensor<2x3x8xf32>) -> tensor<2x3x5xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [3, 8] : (tensor<2x3x8xf32>) -> tensor<2x3x5xcomplex<f32>>
    return %0 : tensor<2x3x5xcomplex<f32>>
  }
}
