module @jit__fun attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<4x8xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[4,1]<=[4]}"}, tensor<4x4x8xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, tensor<4x8xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[4,1]<=[4]}"}, tensor<4xi32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[4]<=[4]}"}, tensor<4x2xf32> {jax.result_info = "result[4]", mhlo.sharding = "{devices=[4,1]<=[4]}"}, tensor<4x8xf32> {jax.result_info = "result[5]", mhlo.sharding = "{devices=[4,1]<=[4]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %2:6 = call @shmap_body(%1) : (tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x4x8xf32>, tensor<1x8xf32>, tensor<1xi32>, tensor<1x2xf32>, tensor<1x8xf32>)
    %3 = stablehlo.custom_call @Sharding(%2#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x8xf32>) -> tensor<4x8xf32>
    %5 = stablehlo.custom_call @Sharding(%2#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<1x4x8xf32>) -> tensor<4x4x8xf32>
    %7 = stablehlo.custom_call @Sharding(%2#2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x8xf32>) -> tensor<4x8xf32>
    %9 = stablehlo.custom_call @Sharding(%2#3) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1xi32>) -> tensor<1xi32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<1xi32>) -> tensor<4xi32>
    %11 = stablehlo.custom_call @Sharding(%2#4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %12 = stablehlo.custom_call @SPMDShardToFullShape(%11) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x2xf32>) -> tensor<4x2xf32>
    %13 = stablehlo.custom_call @Sharding(%2#5) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %14 = stablehlo.custom_call @SPMDShardToFullShape(%13) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x8xf32>) -> tensor<4x8xf32>
    return %4, %6, %8, %10, %12, %14 : tensor<4x8xf32>, tensor<4x4x8xf32>, tensor<4x8xf32>, tensor<4xi32>, tensor<4x2xf32>, tensor<4x8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<1x8xf32>) -> (tensor<1x8xf32> {jax.result_info = "[('i',), None]"}, tensor<1x4x8xf32> {jax.result_info = "[('i',), None, None]"}, tensor<1x8xf32> {jax.result_info = "[('i',), None]"}, tensor<1xi32> {jax.result_info = "[('i',)]"}, tensor<1x2xf32> {jax.result_info = "[('i',), None]"}, tensor<1x8xf32> {jax.result_info = "[('i',), None]"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<1x8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %17 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %3 = "stablehlo.all_gather"(%2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<1x8xf32>) -> tensor<4x8xf32>
    %4 = "stablehlo.collective_permute"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %5 = stablehlo.partition_id : tensor<ui32>
    %6 = stablehlo.divide %5, %c : tensor<ui32>
    %7 = stablehlo.remainder %6, %c_0 : tensor<ui32>
    %8 = stablehlo.convert %7 : (tensor<ui32>) -> tensor<i32>
    %9 = "stablehlo.reduce_scatter"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %17 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<2xf32>
    %10 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %17 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %12 = stablehlo.broadcast_in_dim %3, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %13 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %14 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %16 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    return %11, %12, %13, %14, %15, %16 : tensor<1x8xf32>, tensor<1x4x8xf32>, tensor<1x8xf32>, tensor<1xi32>, tensor<1x2xf32>, tensor<1x8xf32>
  }
}
