module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<2xf16>, %arg2: tensor<2xf64>, %arg3: tensor<2xcomplex<f32>>, %arg4: tensor<2xui32>) -> (tensor<3xi8> {jax.result_info = "result[0]"}, tensor<2xf16> {jax.result_info = "result[1]"}, tensor<2xbf16> {jax.result_info = "result[2]"}, tensor<2xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<2xui32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xi8>
    %c = stablehlo.constant dense<1> : tensor<i8>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i8>) -> tensor<3xi8>
    %2 = stablehlo.add %0, %1 : tensor<3xi8>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f16>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<2xf16>
    %4 = stablehlo.multiply %arg1, %3 : tensor<2xf16>
    %5 = stablehlo.convert %arg2 : (tensor<2xf64>) -> tensor<2xbf16>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2xcomplex<f32>>
    %7 = stablehlo.add %arg3, %6 : tensor<2xcomplex<f32>>
    %c_1 = stablehlo.constant dense<3> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %9 = stablehlo.and %arg4, %8 : tensor<2xui32>
    return %2, %4, %5, %7, %9 : tensor<3xi8>, tensor<2xf16>, tensor<2xbf16>, tensor<2xcomplex<f32>>, tensor<2xui32>
  }
}
