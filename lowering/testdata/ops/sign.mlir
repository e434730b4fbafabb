module @jit_sign {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.sign %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
