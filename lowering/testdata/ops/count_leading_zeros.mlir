module @jit_count_leading_zeros {
  func.func public @main(%arg0: tensor<2x3xui32>) -> tensor<2x3xui32> {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<2x3xui32>
    return %0 : tensor<2x3xui32>
  }
}
