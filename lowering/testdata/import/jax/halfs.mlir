module @jit_halfs attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xbf16> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xbf16>
    %1 = stablehlo.convert %arg1 : (tensor<4xf32>) -> tensor<4xbf16>
    %2 = stablehlo.multiply %0, %1 : tensor<4xbf16>
    %3 = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<4xf16>
    %5 = stablehlo.add %3, %4 : tensor<4xf16>
    %6 = stablehlo.convert %5 : (tensor<4xf16>) -> tensor<4xf32>
    return %2, %6 : tensor<4xbf16>, tensor<4xf32>
  }
}
