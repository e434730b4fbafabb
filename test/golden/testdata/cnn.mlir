module @jit_cnn {
  func.func public @main(%arg0: tensor<8x28x28x1xf32>, %arg1: tensor<3x3x1x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<3x3x16x32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32x10xf32>, %arg6: tensor<10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<8x28x28x1xf32>, tensor<3x3x1x16xf32>) -> tensor<8x28x28x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<16xf32>) -> tensor<8x28x28x16xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x28x28x16xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x28x28x16xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<8x28x28x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = "stablehlo.reduce_window"(%4, %cst_0) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %17 = stablehlo.maximum %arg7, %arg8 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<8x28x28x16xf32>, tensor<f32>) -> tensor<8x14x14x16xf32>
    %6 = stablehlo.convolution(%5, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<8x14x14x16xf32>, tensor<3x3x16x32xf32>) -> tensor<8x14x14x32xf32>
    %7 = stablehlo.broadcast_in_dim %arg4, dims = [3] : (tensor<32xf32>) -> tensor<8x14x14x32xf32>
    %8 = stablehlo.add %6, %7 : tensor<8x14x14x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x14x14x32xf32>
    %10 = stablehlo.maximum %8, %9 : tensor<8x14x14x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x14x14x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<1.960000e+02> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %13 = stablehlo.divide %11, %12 : tensor<8x32xf32>
    %14 = stablehlo.dot_general %13, %arg5, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %15 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<10xf32>) -> tensor<8x10xf32>
    %16 = stablehlo.add %14, %15 : tensor<8x10xf32>
    return %16 : tensor<8x10xf32>
  }
}
