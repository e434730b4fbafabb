module @jit_pmax {
  func.func public @main(%arg0: tensor<2xi32>, %arg1: tensor<3x2xi32>) -> (tensor<2xi32>, tensor<3x2xi32>) {
    %0:2 = "stablehlo.all_reduce"(%arg0, %arg1) <{replica_groups = dense<[[0, 2, 3], [1, -1, -1]]> : tensor<2x3xi64>}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %1 = stablehlo.maximum %arg2, %arg3 : tensor<i32>
      stablehlo.return %1 : tensor<i32>
    }) : (tensor<2xi32>, tensor<3x2xi32>) -> (tensor<2xi32>, tensor<3x2xi32>)
    return %0#0, %0#1 : tensor<2xi32>, tensor<3x2xi32>
  }
}
