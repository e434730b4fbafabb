module @jit_rsqrt {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.rsqrt %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
