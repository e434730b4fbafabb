module @jit_conv {
  func.func public @main(%arg0: tensor<1x5x5x3xf32>, %arg1: tensor<3x3x3x8xf32>) -> tensor<1x5x3x8xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1], reverse = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]} : (tensor<1x5x5x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x5x3x8xf32>
    return %0 : tensor<1x5x3x8xf32>
  }
}
