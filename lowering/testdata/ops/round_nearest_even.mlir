module @jit_round_nearest_even {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
