module @jit_ring attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> (tensor<4x16xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<8x4xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}, tensor<f32> {jax.result_info = "result[2]", mhlo.sharding = "{replicated}"}, tensor<4x16xf32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[2,4]<=[8]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<2x4xf32>
    %2:4 = call @shmap_body(%1) : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<f32>, tensor<2x4xf32>)
    %3 = stablehlo.custom_call @Sharding(%2#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<2x4xf32>) -> tensor<4x16xf32>
    %5 = stablehlo.custom_call @Sharding(%2#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"} : (tensor<2x2xf32>) -> tensor<8x4xf32>
    %7 = stablehlo.custom_call @Sharding(%2#2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<f32>) -> tensor<f32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<f32>) -> tensor<f32>
    %9 = stablehlo.custom_call @Sharding(%2#3) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<2x4xf32>) -> tensor<4x16xf32>
    return %4, %6, %8, %10 : tensor<4x16xf32>, tensor<8x4xf32>, tensor<f32>, tensor<4x16xf32>
  }
  func.func private @shmap_body(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32> {jax.result_info = "[('a',), ('b',)]"}, tensor<2x2xf32> {jax.result_info = "[('b',), ('a',)]"}, tensor<f32> {jax.result_info = "[]"}, tensor<2x4xf32> {jax.result_info = "[('a',), ('b',)]"}) {
    %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %5 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %5 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %0, %1, %3, %4 : tensor<2x4xf32>, tensor<2x2xf32>, tensor<f32>, tensor<2x4xf32>
  }
}
