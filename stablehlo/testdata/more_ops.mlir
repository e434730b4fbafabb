module @jit_more attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, %arg1: tensor<2xi64>, %arg2: tensor<i32>, %arg3: tensor<8xf32>) -> tensor<4x8xf32> {
    %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x8xf32>) -> tensor<2x16xf32>
    %1 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "stablehlo.reduce_scatter"(%1) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %19 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %19 : tensor<f32>
    }) : (tensor<4x8xf32>) -> tensor<2x8xf32>
    %3 = "stablehlo.collective_broadcast"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = stablehlo.create_token : !stablehlo.token
    %5:2 = "stablehlo.infeed"(%4) <{infeed_config = "", layout = [[1, 0]]}> : (!stablehlo.token) -> (tensor<4x8xf32>, !stablehlo.token)
    %6 = "stablehlo.outfeed"(%5#0, %5#1) <{outfeed_config = ""}> : (tensor<4x8xf32>, !stablehlo.token) -> !stablehlo.token
    %7 = "stablehlo.send"(%arg0, %6) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}> : (tensor<4x8xf32>, !stablehlo.token) -> !stablehlo.token
    %8:2 = "stablehlo.recv"(%7) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<4x8xf32>, !stablehlo.token)
    %9 = "stablehlo.batch_norm_inference"(%arg0, %arg3, %arg3, %arg3, %arg3) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %10:3 = "stablehlo.batch_norm_training"(%arg0, %arg3, %arg3) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
    %11 = stablehlo.dynamic_iota %arg1, dim = 0 : (tensor<2xi64>) -> tensor<?x?xf32>
    %12 = stablehlo.dynamic_reshape %arg0, %arg1 : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %13 = stablehlo.real_dynamic_slice %arg0, %arg1, %arg1, %arg1 : (tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.dynamic_pad %arg0, %cst, %arg1, %arg1, %arg1 : (tensor<4x8xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
    %15 = stablehlo.set_dimension_size %arg0, %arg2, dim = 1 : (tensor<4x8xf32>, tensor<i32>) -> tensor<4x?xf32, #stablehlo.bounds<?, 8>>
    %16 = stablehlo.unary_einsum %arg0, config = "ab->ba" : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %17 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 0>}> : (tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4xf32>
    %18 = "stablehlo.torch_index_select"(%arg0, %arg1) <{batch_dims = 0 : i64, dim = 1 : i64}> : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
    return %9 : tensor<4x8xf32>
  }
}
