module @jit_all_gather {
  func.func public @main(%arg0: tensor<2x3xf16>) -> tensor<2x6xf16> {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x3xf16>) -> tensor<2x6xf16>
    return %0 : tensor<2x6xf16>
  }
}
