// Convolutions in the pretty form JAX prints (dim_numbers and window)
// and in generic form with raw dimension numbers and group counts.
module @jit_conv {
  func.func public @main(%arg0: tensor<1x5x6x4xf32>, %arg1: tensor<3x2x2x6xf32>, %arg2: tensor<2x4x7xf32>, %arg3: tensor<6x2x3xf32>, %arg4: tensor<4x2x5xf32>, %arg5: tensor<4x2x2xf32>) -> (tensor<1x2x6x6xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 0], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x6x4xf32>, tensor<3x2x2x6xf32>) -> tensor<1x2x6x6xf32>
    %1 = "stablehlo.convolution"(%arg2, %arg3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2]>, feature_group_count = 2 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[0, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, window_strides = array<i64: 1>}> : (tensor<2x4x7xf32>, tensor<6x2x3xf32>) -> tensor<2x6x4xf32>
    %2 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x2x5xf32>, tensor<4x2x2xf32>) -> tensor<2x4x4xf32>
    return %0, %1, %2 : tensor<1x2x6x6xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>
  }
}
