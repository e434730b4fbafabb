module @jit_all_to_all {
  func.func public @main(%arg0: tensor<4x8xf32>) -> tensor<2x16xf32> {
    %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x8xf32>) -> tensor<2x16xf32>
    return %0 : tensor<2x16xf32>
  }
}
