module @jit_shift_left {
  func.func public @main(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> tensor<4xi32> {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
