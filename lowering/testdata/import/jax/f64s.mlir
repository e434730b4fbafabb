module @jit_f64s attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<f64> {jax.result_info = "result[0]"}, tensor<3xi64> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xf64>
    %1 = stablehlo.multiply %0, %0 : tensor<3xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<f64>
    %3 = stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xi64>
    %c = stablehlo.constant dense<1099511627776> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %5 = stablehlo.add %3, %4 : tensor<3xi64>
    return %2, %5 : tensor<f64>, tensor<3xi64>
  }
}
