module @jit_exponential_minus_one {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
