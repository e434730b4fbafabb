// Collectives on a grid of 2 replicas × 2 partitions, in each way
// replica_groups can name devices: replica ids (no channel), replica ids
// across partitions (a channel), flattened device ids (a channel and
// use_global_device_ids), partition ids (all_to_all and
// collective_permute with a channel); groups padded with -1, and empty
// groups (one group of all).
module @jit_collectives attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<2x4xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<4x4xi64>, tensor<1x4xi64>, tensor<4x2xi64>, tensor<2x4xi64>, tensor<ui32>, tensor<ui32>) {
    %0 = "stablehlo.all_reduce"(%arg0) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %r = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %r : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x4xi64>
    %1 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}> ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %r = stablehlo.maximum %a, %b : tensor<i64>
      stablehlo.return %r : tensor<i64>
    }) : (tensor<2x4xi64>) -> tensor<2x4xi64>
    %2 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2, 3], [1, -1, -1]]> : tensor<2x3xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %r = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %r : tensor<i64>
    }) : (tensor<2x4xi64>) -> tensor<2x4xi64>
    %3 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<> : tensor<0x0xi64>}> ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %r = stablehlo.minimum %a, %b : tensor<i64>
      stablehlo.return %r : tensor<i64>
    }) : (tensor<2x4xi64>) -> tensor<2x4xi64>
    %4 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<4x4xi64>
    %5 = "stablehlo.reduce_scatter"(%arg0) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %r = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %r : tensor<i64>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, use_global_device_ids} : (tensor<2x4xi64>) -> tensor<1x4xi64>
    %6 = "stablehlo.all_to_all"(%arg0) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
    %7 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xi64>) -> tensor<2x4xi64>
    %8 = stablehlo.replica_id : tensor<ui32>
    %9 = stablehlo.partition_id : tensor<ui32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<4x4xi64>, tensor<1x4xi64>, tensor<4x2xi64>, tensor<2x4xi64>, tensor<ui32>, tensor<ui32>
  }
}
