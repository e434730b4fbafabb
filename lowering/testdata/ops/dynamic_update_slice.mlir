module @jit_dynamic_update_slice {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<2x2xf32>, %arg2: tensor<i64>, %arg3: tensor<i64>) -> tensor<4x3xf32> {
    %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 : (tensor<4x3xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
    return %0 : tensor<4x3xf32>
  }
}
