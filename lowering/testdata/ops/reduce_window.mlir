module @jit_reduce_window {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
    %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
}
