module @jit_mlp {
  func.func public @main(%arg0: tensor<4xf32> loc(#loc)) -> tensor<f32> {
    %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc(#loc1)
    %1 = stablehlo.negate %0 : tensor<4xf32> loc(#loc4)
    %2 = stablehlo.abs %1 : tensor<4xf32> loc(#loc5)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc6)
    %3 = stablehlo.reduce(%2 init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
     reducer(%arg1: tensor<f32> loc(#loc6), %arg2: tensor<f32> loc(#loc6))  {
      %4 = stablehlo.add %arg1, %arg2 : tensor<f32> loc(#loc7)
      stablehlo.return %4 : tensor<f32> loc(#loc6)
    } loc(#loc6)
    return %3 : tensor<f32> loc(#loc5)
  } loc(#loc5)
} loc(#loc5)
#loc = loc("/src/mlp.go":10:0)
#loc1 = loc("/src/mlp.go":42:0)
#loc2 = loc("/src/mlp.go":43:0)
#loc3 = loc("/src/layers.go":7:0)
#loc4 = loc(fused<"fuse">[#loc2, #loc3])
#loc5 = loc(unknown)
#loc6 = loc("/src/mlp.go":50:0)
#loc7 = loc("/src/mlp.go":51:0)
