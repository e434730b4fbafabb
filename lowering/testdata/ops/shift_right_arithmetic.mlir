module @jit_shift_right_arithmetic {
  func.func public @main(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> tensor<4xi32> {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
