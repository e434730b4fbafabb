module @jit_clamp {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<4xi32>, %arg2: tensor<i32>) -> tensor<4xi32> {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
