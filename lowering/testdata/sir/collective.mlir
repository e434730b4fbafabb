module @jit_dp_step {
  func.func public @main(%arg0: tensor<4x8xf32> loc(#loc), %arg1: tensor<8x2xf32> loc(#loc), %arg2: tensor<i32> loc(#loc)) -> (tensor<8x2xf32>, tensor<2xf32>, tensor<ui32>) {
    %c = stablehlo.constant dense<0> : tensor<i32> loc(#loc1)
    %0:2 = "stablehlo.while"(%c, %arg1) ({
    ^bb0(%iterArg: tensor<i32> loc(#loc2), %iterArg_0: tensor<8x2xf32> loc(#loc2)):
      %7 = stablehlo.compare  LT, %iterArg, %iterArg,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1> loc(#loc2)
      stablehlo.return %7 : tensor<i1> loc(#loc2)
    }, {
    ^bb0(%iterArg: tensor<i32> loc(#loc2), %iterArg_0: tensor<8x2xf32> loc(#loc2)):
      %7 = stablehlo.dot_general %iterArg_0, %iterArg_0, contracting_dims = [1] x [1] : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x8xf32> loc(#loc3)
      %8 = stablehlo.slice %7 [0:8, 0:2] : (tensor<8x8xf32>) -> tensor<8x2xf32> loc(#loc3)
      %9 = "stablehlo.all_reduce"(%8) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg3: tensor<f32> loc(#loc4), %arg4: tensor<f32> loc(#loc4)):
        %11 = stablehlo.add %arg3, %arg4 : tensor<f32> loc(#loc4)
        stablehlo.return %11 : tensor<f32> loc(#loc4)
      }) : (tensor<8x2xf32>) -> tensor<8x2xf32> loc(#loc4)
      %c_1 = stablehlo.constant dense<1> : tensor<i32> loc(#loc2)
      %10 = stablehlo.add %iterArg, %c_1 : tensor<i32> loc(#loc2)
      stablehlo.return %10, %9 : tensor<i32>, tensor<8x2xf32> loc(#loc2)
    }) : (tensor<i32>, tensor<8x2xf32>) -> (tensor<i32>, tensor<8x2xf32>) loc(#loc2)
    %1 = "stablehlo.reduce_scatter"(%0#1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg3: tensor<f32> loc(#loc5), %arg4: tensor<f32> loc(#loc5)):
      %7 = stablehlo.add %arg3, %arg4 : tensor<f32> loc(#loc5)
      stablehlo.return %7 : tensor<f32> loc(#loc5)
    }) : (tensor<8x2xf32>) -> tensor<2x2xf32> loc(#loc5)
    %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x2xf32>) -> tensor<2x4xf32> loc(#loc6)
    %3 = "stablehlo.all_to_all"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32> loc(#loc7)
    %4 = "stablehlo.collective_permute"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4x2xf32>) -> tensor<4x2xf32> loc(#loc8)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc)
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32> loc(#loc)
    %6 = stablehlo.replica_id : tensor<ui32> loc(#loc9)
    return %0#1, %5, %6 : tensor<8x2xf32>, tensor<2xf32>, tensor<ui32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("train.go":10:0)
#loc2 = loc("train.go":11:0)
#loc3 = loc("train.go":12:0)
#loc4 = loc("train.go":13:0)
#loc5 = loc("train.go":16:0)
#loc6 = loc("train.go":17:0)
#loc7 = loc("train.go":18:0)
#loc8 = loc("train.go":19:0)
#loc9 = loc("train.go":21:0)
