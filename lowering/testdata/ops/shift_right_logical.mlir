module @jit_shift_right_logical {
  func.func public @main(%arg0: tensor<4xui32>, %arg1: tensor<4xui32>) -> tensor<4xui32> {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<4xui32>
    return %0 : tensor<4xui32>
  }
}
