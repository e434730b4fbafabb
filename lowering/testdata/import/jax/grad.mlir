module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x2xf32>, %arg1: tensor<4x3xf32>) -> (tensor<3x2xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
    %1 = stablehlo.tanh %0 : tensor<4x2xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<4x2xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<4x2xf32>
    %6:3 = stablehlo.optimization_barrier %arg1, %arg0, %5 : tensor<4x3xf32>, tensor<3x2xf32>, tensor<4x2xf32>
    %7 = stablehlo.dot_general %6#0, %6#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
    %8 = stablehlo.tanh %7 : tensor<4x2xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %10 = stablehlo.subtract %9, %8 : tensor<4x2xf32>
    %11 = stablehlo.multiply %6#2, %10 : tensor<4x2xf32>
    %12 = stablehlo.multiply %11, %8 : tensor<4x2xf32>
    %13 = stablehlo.add %11, %12 : tensor<4x2xf32>
    %14 = stablehlo.dot_general %13, %6#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    return %15 : tensor<3x2xf32>
  }
}
