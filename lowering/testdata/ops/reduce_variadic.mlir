module @jit_argmax {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<4x3xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
    %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [0] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {
      %1 = stablehlo.compare  GT, %arg6, %arg4,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %arg6, %arg4 : tensor<i1>, tensor<f32>
      %3 = stablehlo.select %1, %arg7, %arg5 : tensor<i1>, tensor<i32>
      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
    }
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
  }
}
