module @jit_sine {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.sine %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
