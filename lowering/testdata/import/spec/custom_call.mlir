// Custom calls: targets the IR keeps opaque, and the GSPMD annotations
// JAX writes as custom calls.
module @jit_custom_call attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}", tf.aliasing_output = 1 : i32}, %arg1: tensor<i32> {mhlo.sharding = "{replicated}"}) -> (tensor<4x3xf32> {jax.result_info = "result[0]"}, tensor<4x3xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1]<=[2]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x3xf32>) -> tensor<2x3xf32>
    %2 = stablehlo.tanh %1 : tensor<2x3xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<2x3xf32>) -> tensor<4x3xf32>
    %5:2 = stablehlo.custom_call @my_target(%4, %arg1) {api_version = 1 : i32, backend_config = "opaque \22config\22", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xi64>, dense<> : tensor<0xi64>], result_layouts = [dense<[1, 0]> : tensor<2xi64>, dense<> : tensor<0xi64>]} : (tensor<4x3xf32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<i32>)
    stablehlo.custom_call @log_it(%5#1) {has_side_effect = true} : (tensor<i32>) -> ()
    %6 = "stablehlo.custom_call"(%5#0) <{call_target_name = "generic_form", called_computations = [], output_operand_aliases = []}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %6, %4 : tensor<4x3xf32>, tensor<4x3xf32>
  }
}
