module @jit_case {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.case"(%arg0) ({
      %1 = stablehlo.add %arg1, %arg2 : tensor<4xf32>
      stablehlo.return %1 : tensor<4xf32>
    }, {
      stablehlo.return %arg2 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
