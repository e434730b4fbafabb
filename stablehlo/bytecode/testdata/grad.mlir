module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x2xf32>, %arg1: tensor<4x3xf32>) -> (tensor<3x2xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
    %1 = stablehlo.tanh %0 : tensor<4x2xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<4x2xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<4x2xf32>
    %6 = stablehlo.multiply %5, %1 : tensor<4x2xf32>
    %7 = stablehlo.add %5, %6 : tensor<4x2xf32>
    %8 = stablehlo.dot_general %7, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %9 = stablehlo.transpose %8, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    return %9 : tensor<3x2xf32>
  }
}
