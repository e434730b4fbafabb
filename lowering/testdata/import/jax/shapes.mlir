module @jit_shapes attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3xf32>) -> (tensor<6x3xf32> {jax.result_info = "result[0]"}, tensor<4x5xf32> {jax.result_info = "result[1]"}, tensor<5x3xf32> {jax.result_info = "result[2]"}, tensor<2x2xf32> {jax.result_info = "result[3]"}, tensor<2x3xf32> {jax.result_info = "result[4]"}, tensor<2x3x3xf32> {jax.result_info = "result[5]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<3x3xf32>
    %2 = stablehlo.concatenate %arg0, %1, dim = 0 : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = call @_pad(%arg0, %c) : (tensor<3x3xf32>, tensor<i32>) -> tensor<4x5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.pad %arg0, %cst_0, low = [0, 1], high = [0, -1], interior = [1, 0] : (tensor<3x3xf32>, tensor<f32>) -> tensor<5x3xf32>
    %5 = call @_flip(%arg0) : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %6 = stablehlo.slice %5 [0:3:2, 1:3] : (tensor<3x3xf32>) -> tensor<2x2xf32>
    %7 = stablehlo.iota dim = 0 : tensor<6xf32>
    %8 = stablehlo.reshape %7 : (tensor<6xf32>) -> tensor<2x3xf32>
    %9 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %10 = stablehlo.slice %9 [0:2, 0:3] : (tensor<3x3xf32>) -> tensor<2x3xf32>
    %11 = stablehlo.add %8, %10 : tensor<2x3xf32>
    %12 = stablehlo.slice %arg0 [0:1, 0:3] : (tensor<3x3xf32>) -> tensor<1x3xf32>
    %13 = stablehlo.reshape %12 : (tensor<1x3xf32>) -> tensor<3xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [2] : (tensor<3xf32>) -> tensor<2x3x3xf32>
    return %2, %3, %4, %6, %11, %14 : tensor<6x3xf32>, tensor<4x5xf32>, tensor<5x3xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>
  }
  func.func private @_pad(%arg0: tensor<3x3xf32>, %arg1: tensor<i32>) -> tensor<4x5xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<3x3xf32>, tensor<f32>) -> tensor<4x5xf32>
    return %1 : tensor<4x5xf32>
  }
  func.func private @_flip(%arg0: tensor<3x3xf32>) -> tensor<3x3xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<3x3xf32>
    return %0 : tensor<3x3xf32>
  }
}
