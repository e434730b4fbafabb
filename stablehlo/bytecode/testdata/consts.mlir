module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<4xi1> {jax.result_info = "result[1]"}, tensor<2x2xi64> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<[1.500000e+00, -2.000000e+00, 3.250000e+00]> : tensor<3xf32>
    %c = stablehlo.constant dense<[true, false, true, true]> : tensor<4xi1>
    %c_0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %0 = stablehlo.add %arg0, %cst : tensor<3xf32>
    return %0, %c, %c_0 : tensor<3xf32>, tensor<4xi1>, tensor<2x2xi64>
  }
}
