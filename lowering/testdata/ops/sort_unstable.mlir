module @jit_sort {
  func.func public @main(%arg0: tensor<4xui16>) -> tensor<4xui16> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<ui16>, %arg2: tensor<ui16>):
      %1 = stablehlo.compare  GT, %arg1, %arg2,  UNSIGNED : (tensor<ui16>, tensor<ui16>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<4xui16>) -> tensor<4xui16>
    return %0 : tensor<4xui16>
  }
}
