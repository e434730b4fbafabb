// stablehlo.dot_general with batching dimensions and with several contracting
// dimensions.
func.func @main() {
  // One batch dimension: [B, M, K] x [B, K, N] -> [B, M, N].
  %cst = stablehlo.constant dense<[[[3.0e+00, -4.0e+00, 2.0e+00], [6.0e+00, -8.0e+00, -1.0e+00]], [[3.0e+00, -9.0e+00, 3.0e+00], [8.0e+00, 6.0e+00, 4.0e+00]]]> : tensor<2x2x3xf32>
  %cst_0 = stablehlo.constant dense<[[[6.0e+00, -3.0e+00], [-3.0e+00, -8.0e+00], [4.0e+00, -4.0e+00]], [[7.0e+00, -1.0e+00], [7.0e+00, -7.0e+00], [-6.0e+00, -3.0e+00]]]> : tensor<2x3x2xf32>
  %0 = stablehlo.dot_general %cst, %cst_0, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x2xf32>) -> tensor<2x2x2xf32>
  check.expect_eq_const %0, dense<[[[3.8e+01, 1.5e+01], [5.6e+01, 5.0e+01]], [[-6.0e+01, 5.1e+01], [7.4e+01, -6.2e+01]]]> : tensor<2x2x2xf32>
  %c_1 = stablehlo.constant dense<[[[-9, 0], [3, 3]], [[-5, -6], [1, 3]], [[8, 8], [-2, -6]]]> : tensor<3x2x2xi64>
  %c_2 = stablehlo.constant dense<[[[-5, 7, -1, 9], [3, 2, -8, 2]], [[-2, 7, -7, -6], [3, 3, 6, 0]], [[-2, -4, -2, 3], [1, -4, -5, 4]]]> : tensor<3x2x4xi64>
  %1 = stablehlo.dot_general %c_1, %c_2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x2x2xi64>, tensor<3x2x4xi64>) -> tensor<3x2x4xi64>
  check.expect_eq_const %1, dense<[[[45, -63, 9, -81], [-6, 27, -27, 33]], [[-8, -53, -1, 30], [7, 16, 11, -6]], [[-8, -64, -56, 56], [-2, 32, 34, -30]]]> : tensor<3x2x4xi64>
  // Batch dimensions elsewhere than first: they still lead the result.
  %cst_3 = stablehlo.constant dense<[[[-5.0e+00, -6.0e+00, -3.0e+00, 7.0e+00], [-1.0e+00, 2.0e+00, -8.0e+00, -3.0e+00], [5.0e+00, 5.0e+00, 2.0e+00, 7.0e+00]], [[-4.0e+00, -6.0e+00, -8.0e+00, -6.0e+00], [5.0e+00, 8.0e+00, -7.0e+00, 0.000000e+00], [-7.0e+00, 7.0e+00, -7.0e+00, 3.0e+00]]]> : tensor<2x3x4xf64>
  %cst_4 = stablehlo.constant dense<[[[-8.0e+00, 5.0e+00, 8.0e+00], [4.0e+00, -4.0e+00, 6.0e+00], [-4.0e+00, 5.0e+00, 6.0e+00], [0.000000e+00, 2.0e+00, 7.0e+00], [-6.0e+00, -9.0e+00, -1.0e+00]], [[-6.0e+00, 7.0e+00, 7.0e+00], [-2.0e+00, -4.0e+00, 4.0e+00], [-1.0e+00, -8.0e+00, 3.0e+00], [4.0e+00, -8.0e+00, 5.0e+00], [1.0e+00, 6.0e+00, 7.0e+00]], [[3.0e+00, -3.0e+00, -2.0e+00], [4.0e+00, -8.0e+00, -5.0e+00], [0.000000e+00, 8.0e+00, 5.0e+00], [6.0e+00, -6.0e+00, -4.0e+00], [-4.0e+00, 5.0e+00, 1.0e+00]], [[-5.0e+00, 5.0e+00, 3.0e+00], [8.0e+00, 1.0e+00, -7.0e+00], [7.0e+00, -6.0e+00, -8.0e+00], [6.0e+00, -1.0e+00, 3.0e+00], [-7.0e+00, 4.0e+00, -2.0e+00]]]> : tensor<4x5x3xf64>
  %2 = stablehlo.dot_general %cst_3, %cst_4, batching_dims = [1] x [2], contracting_dims = [2] x [0] : (tensor<2x3x4xf64>, tensor<4x5x3xf64>) -> tensor<3x2x5xf64>
  check.expect_eq_const %2, dense<[[[3.2e+01, 3.6e+01, 7.5e+01, 0.000000e+00, -1.3e+01], [7.4e+01, -8.4e+01, -2.0e+01, -1.08e+02, 9.2e+01]], [[1.8e+01, 5.7e+01, -6.7e+01, 3.3e+01, -3.1e+01], [1.02e+02, 4.0e+00, -9.5e+01, -1.2e+01, -3.2e+01]], [[9.2e+01, -9.0e+00, -1.0e+00, 7.3e+01, 1.8e+01], [1.6e+01, 0.000000e+00, -8.0e+01, 2.3e+01, 4.3e+01]]]> : tensor<3x2x5xf64>
  // Two batch dimensions.
  %c_5 = stablehlo.constant dense<[[[[9, 3], [8, 6]], [[7, -8], [5, 2]], [[-2, -4], [3, -6]]], [[[-6, 7], [5, 2]], [[5, -3], [4, -6]], [[-1, -7], [-2, -3]]]]> : tensor<2x3x2x2xi32>
  %c_6 = stablehlo.constant dense<[[[[-2, 0, -9], [-3, 7, -1]], [[1, -8, -2], [9, 1, -9]], [[4, 5, -2], [-9, 6, -5]]], [[[8, -3, -2], [6, -7, -9]], [[5, 8, 9], [-7, -7, -3]], [[4, 8, 6], [-2, 8, -5]]]]> : tensor<2x3x2x3xi32>
  %3 = stablehlo.dot_general %c_5, %c_6, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x2x2xi32>, tensor<2x3x2x3xi32>) -> tensor<2x3x2x3xi32>
  check.expect_eq_const %3, dense<[[[[-27, 21, -84], [-34, 42, -78]], [[-65, -64, 58], [23, -38, -28]], [[28, -34, 24], [66, -21, 24]]], [[[-6, -31, -51], [52, -29, -28]], [[46, 61, 54], [62, 74, 54]], [[10, -64, 29], [-2, -40, 3]]]]> : tensor<2x3x2x3xi32>
  // Two contracting dimensions: [2, 3, 4] x [3, 4, 5] -> [2, 5].
  %cst_7 = stablehlo.constant dense<[[[-7.0e+00, -1.0e+00, -8.0e+00, 3.0e+00], [9.0e+00, -7.0e+00, -7.0e+00, -6.0e+00], [-6.0e+00, 1.0e+00, 1.0e+00, 9.0e+00]], [[-1.0e+00, 8.0e+00, 5.0e+00, 7.0e+00], [-6.0e+00, -1.0e+00, 8.0e+00, 5.0e+00], [-5.0e+00, 7.0e+00, 5.0e+00, -7.0e+00]]]> : tensor<2x3x4xf32>
  %cst_8 = stablehlo.constant dense<[[[-8.0e+00, -5.0e+00, -1.0e+00, -7.0e+00, -9.0e+00], [-7.0e+00, -4.0e+00, -2.0e+00, -4.0e+00, -1.0e+00], [4.0e+00, -5.0e+00, -1.0e+00, 4.0e+00, -8.0e+00], [8.0e+00, 9.0e+00, -4.0e+00, 7.0e+00, -5.0e+00]], [[8.0e+00, 3.0e+00, -5.0e+00, -8.0e+00, -2.0e+00], [5.0e+00, -5.0e+00, 0.000000e+00, -7.0e+00, -1.0e+00], [-9.0e+00, 9.0e+00, 0.000000e+00, 6.0e+00, -7.0e+00], [-6.0e+00, -6.0e+00, 1.0e+00, 7.0e+00, 2.0e+00]], [[0.000000e+00, 8.0e+00, -6.0e+00, -6.0e+00, 3.0e+00], [7.0e+00, -4.0e+00, -5.0e+00, 1.0e+00, 5.0e+00], [-4.0e+00, 6.0e+00, 0.000000e+00, 4.0e+00, 2.0e+00], [0.000000e+00, 1.0e+00, 9.0e+00, -2.0e+00, 8.0e+00]]]> : tensor<3x4x5xf32>
  %4 = stablehlo.dot_general %cst_7, %cst_8, contracting_dims = [1, 2] x [0, 1] : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x5xf32>
  check.expect_eq_const %4, dense<[[1.94e+02, 1.04e+02, 6.6e+01, -4.2e+01, 2.0e+02], [-9.8e+01, -5.0e+00, -8.1e+01, 2.53e+02, -1.33e+02]]> : tensor<2x5xf32>
  // Two contracting dimensions, in swapped order on the rhs, with a batch dimension.
  %c_9 = stablehlo.constant dense<[[[[6, -6], [7, -2], [-6, -5], [-7, -3]], [[-7, 1], [9, 9], [8, -5], [-5, 3]], [[9, 6], [-6, 4], [0, -1], [0, 1]]], [[[8, 6], [-9, 5], [-4, -3], [2, 9]], [[-8, 0], [-5, 8], [-1, 7], [7, -8]], [[5, 6], [6, 9], [5, 6], [4, -4]]]]> : tensor<2x3x4x2xi64>
  %c_10 = stablehlo.constant dense<[[[7, 4, 3], [9, 4, -3], [-4, -3, -6], [-8, 5, 5]], [[-6, -2, 8], [6, 2, 9], [-3, 7, 8], [2, -7, -4]]]> : tensor<2x4x3xi64>
  %5 = stablehlo.dot_general %c_9, %c_10, batching_dims = [0] x [0], contracting_dims = [1, 2] x [2, 1] : (tensor<2x3x4x2xi64>, tensor<2x4x3xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %5, dense<[[189, 71], [-18, 335]]> : tensor<2x2xi64>
  return
}
