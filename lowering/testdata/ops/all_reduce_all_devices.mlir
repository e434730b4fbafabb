module @jit_psum_all {
  func.func public @main(%arg0: tensor<4xbf16>) -> tensor<4xbf16> {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<> : tensor<0x0xi64>}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<bf16>
      stablehlo.return %1 : tensor<bf16>
    }) : (tensor<4xbf16>) -> tensor<4xbf16>
    return %0 : tensor<4xbf16>
  }
}
