module @jit_around attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, %arg1: tensor<4x8xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<8xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<3x8xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<6xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2]<=[2]}"}) {
    %cst = stablehlo.constant dense<[-1.000000e+00, -0.714285731, -0.428571433, -0.142857149, 0.142857149, 0.428571433, 0.714285731, 1.000000e+00]> : tensor<8xf32>
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x4xf32>, tensor<4x8xf32>) -> tensor<6x8xf32>
    %1 = stablehlo.tanh %0 : tensor<6x8xf32>
    %2 = stablehlo.custom_call @Sharding(%cst) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %4 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<6x8xf32>) -> tensor<6x8xf32>
    %5 = stablehlo.custom_call @SPMDFullToShardShape(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<6x8xf32>) -> tensor<3x8xf32>
    %6 = stablehlo.custom_call @Sharding(%arg2) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    %7 = stablehlo.custom_call @SPMDFullToShardShape(%6) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %8:2 = call @shmap_body(%3, %5, %7) : (tensor<8xf32>, tensor<3x8xf32>, tensor<8xf32>) -> (tensor<3x8xf32>, tensor<3xf32>)
    %9 = stablehlo.custom_call @Sharding(%8#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<3x8xf32>) -> tensor<3x8xf32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<3x8xf32>) -> tensor<3x8xf32>
    %11 = stablehlo.custom_call @Sharding(%8#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<3xf32>) -> tensor<3xf32>
    %12 = stablehlo.custom_call @SPMDShardToFullShape(%11) {backend_config = "", mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<3xf32>) -> tensor<6xf32>
    %13 = stablehlo.exponential %10 : tensor<3x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %15 = stablehlo.add %13, %14 : tensor<3x8xf32>
    %16 = stablehlo.custom_call @Sharding(%12) {backend_config = "", mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<6xf32>) -> tensor<6xf32>
    %17 = stablehlo.custom_call @SPMDFullToShardShape(%16) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<6xf32>) -> tensor<3xf32>
    %18 = call @shmap_body_0(%17) : (tensor<3xf32>) -> tensor<6xf32>
    %19 = stablehlo.custom_call @Sharding(%18) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<6xf32>) -> tensor<6xf32>
    %20 = stablehlo.custom_call @SPMDShardToFullShape(%19) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<6xf32>) -> tensor<6xf32>
    return %15, %20 : tensor<3x8xf32>, tensor<6xf32>
  }
  func.func private @shmap_body(%arg0: tensor<8xf32>, %arg1: tensor<3x8xf32>, %arg2: tensor<8xf32>) -> (tensor<3x8xf32> {jax.result_info = "[None, None]"}, tensor<3xf32> {jax.result_info = "[('i',)]"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<3x8xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<3x8xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<3x8xf32>
    %5 = stablehlo.add %2, %4 : tensor<3x8xf32>
    %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %8 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<3x8xf32>) -> tensor<3x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x8xf32>, tensor<f32>) -> tensor<3xf32>
    return %6, %7 : tensor<3x8xf32>, tensor<3xf32>
  }
  func.func private @shmap_body_0(%arg0: tensor<3xf32>) -> (tensor<6xf32> {jax.result_info = "[None]"}) {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<3xf32>) -> tensor<6xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<6xf32>
    return %2 : tensor<6xf32>
  }
}
