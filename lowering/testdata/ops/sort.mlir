module @jit_argsort {
  func.func public @main(%arg0: tensor<2x5xf32>, %arg1: tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %1 = stablehlo.compare  LT, %arg2, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.compare  NE, %arg2, %arg2,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare  NE, %arg3, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.not %2 : tensor<i1>
      %5 = stablehlo.and %4, %3 : tensor<i1>
      %6 = stablehlo.or %1, %5 : tensor<i1>
      stablehlo.return %6 : tensor<i1>
    }) : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
    return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi32>
  }
}
