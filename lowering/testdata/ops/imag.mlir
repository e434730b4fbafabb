module @jit_imag {
  func.func public @main(%arg0: tensor<2x3xcomplex<f64>>) -> tensor<2x3xf64> {
    %0 = stablehlo.imag %arg0 : (tensor<2x3xcomplex<f64>>) -> tensor<2x3xf64>
    return %0 : tensor<2x3xf64>
  }
}
