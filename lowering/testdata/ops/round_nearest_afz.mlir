module @jit_round_nearest_afz {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.round_nearest_afz %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
