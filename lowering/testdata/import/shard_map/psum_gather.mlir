module @jit_psum_gather attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}, %arg1: tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<4x8xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, tensor<i32> {jax.result_info = "result[2]", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8xf32>) -> tensor<8xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    %4:3 = call @shmap_body(%1, %3) : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<2x8xf32>, tensor<i32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<4xf32>) -> tensor<8xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<2x8xf32>) -> tensor<4x8xf32>
    %9 = stablehlo.custom_call @Sharding(%4#2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<i32>) -> tensor<i32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<i32>) -> tensor<i32>
    return %6, %8, %10 : tensor<8xf32>, tensor<4x8xf32>, tensor<i32>
  }
  func.func private @shmap_body(%arg0: tensor<2x4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "[('y',)]"}, tensor<2x8xf32> {jax.result_info = "[('x',), None]"}, tensor<i32> {jax.result_info = "[]"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<2x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
    %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %14 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %5 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<2x8xf32>
    %cst_1 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %9 = stablehlo.add %7, %8 : tensor<2x8xf32>
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_2 = stablehlo.constant dense<2> : tensor<ui32>
    %10 = stablehlo.partition_id : tensor<ui32>
    %11 = stablehlo.divide %10, %c : tensor<ui32>
    %12 = stablehlo.remainder %11, %c_2 : tensor<ui32>
    %13 = stablehlo.convert %12 : (tensor<ui32>) -> tensor<i32>
    return %4, %9, %13 : tensor<4xf32>, tensor<2x8xf32>, tensor<i32>
  }
}
