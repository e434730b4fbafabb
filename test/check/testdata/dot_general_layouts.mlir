// stablehlo.dot_general with contracting dimensions in every position,
// vectors, and no contracting dimension (outer products).
func.func @main() {
  // Contracting dims at other positions: lhs^T * rhs, lhs * rhs^T, lhs^T * rhs^T.
  %cst = stablehlo.constant dense<[[-6.0e+00, -2.0e+00], [3.0e+00, -8.0e+00], [-6.0e+00, 4.0e+00]]> : tensor<3x2xf32>
  %cst_0 = stablehlo.constant dense<[[-8.0e+00, 3.0e+00, -2.0e+00, -9.0e+00], [5.0e+00, 4.0e+00, 6.0e+00, 8.0e+00], [4.0e+00, 6.0e+00, -7.0e+00, 8.0e+00]]> : tensor<3x4xf32>
  %0 = stablehlo.dot_general %cst, %cst_0, contracting_dims = [0] x [0] : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  check.expect_eq_const %0, dense<[[3.9e+01, -4.2e+01, 7.2e+01, 3.0e+01], [-8.0e+00, -1.4e+01, -7.2e+01, -1.4e+01]]> : tensor<2x4xf32>
  %cst_1 = stablehlo.constant dense<[[8.0e+00, 4.0e+00, 6.0e+00], [5.0e+00, 7.0e+00, 7.0e+00]]> : tensor<2x3xf32>
  %cst_2 = stablehlo.constant dense<[[0.000000e+00, 6.0e+00, 8.0e+00], [-4.0e+00, -9.0e+00, -6.0e+00], [-9.0e+00, -1.0e+00, -9.0e+00], [-5.0e+00, -5.0e+00, 4.0e+00]]> : tensor<4x3xf32>
  %1 = stablehlo.dot_general %cst_1, %cst_2, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  check.expect_eq_const %1, dense<[[7.2e+01, -1.04e+02, -1.3e+02, -3.6e+01], [9.8e+01, -1.25e+02, -1.15e+02, -3.2e+01]]> : tensor<2x4xf32>
  %c_3 = stablehlo.constant dense<[[-5, 9], [-6, 9], [1, -5]]> : tensor<3x2xi32>
  %c_4 = stablehlo.constant dense<[[-9, -4, 2], [-7, -6, -7], [3, -8, -9], [-1, -4, 1]]> : tensor<4x3xi32>
  %2 = stablehlo.dot_general %c_3, %c_4, contracting_dims = [0] x [1] : (tensor<3x2xi32>, tensor<4x3xi32>) -> tensor<2x4xi32>
  check.expect_eq_const %2, dense<[[71, 64, 24, 30], [-127, -82, 0, -50]]> : tensor<2x4xi32>
  // Matrix times vector, vector times matrix, vector times vector (a scalar).
  %cst_5 = stablehlo.constant dense<[[8.0e+00, 7.0e+00, 1.0e+00, 3.0e+00], [6.0e+00, -1.0e+00, 3.0e+00, -5.0e+00], [2.0e+00, -5.0e+00, -6.0e+00, 5.0e+00]]> : tensor<3x4xf64>
  %cst_6 = stablehlo.constant dense<[1.0e+00, -2.0e+00, -9.0e+00, -5.0e+00]> : tensor<4xf64>
  %3 = stablehlo.dot_general %cst_5, %cst_6, contracting_dims = [1] x [0] : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3xf64>
  check.expect_eq_const %3, dense<[-3.0e+01, 6.0e+00, 4.1e+01]> : tensor<3xf64>
  %c_7 = stablehlo.constant dense<[6, -1, 9, 8]> : tensor<4xi64>
  %c_8 = stablehlo.constant dense<[[7, -9], [-9, 1], [-3, 6], [-3, -7]]> : tensor<4x2xi64>
  %4 = stablehlo.dot_general %c_7, %c_8, contracting_dims = [0] x [0] : (tensor<4xi64>, tensor<4x2xi64>) -> tensor<2xi64>
  check.expect_eq_const %4, dense<[0, -57]> : tensor<2xi64>
  %cst_9 = stablehlo.constant dense<[-7.0e+00, -4.0e+00, 2.0e+00, -7.0e+00, 6.0e+00]> : tensor<5xf32>
  %cst_10 = stablehlo.constant dense<[-4.0e+00, -4.0e+00, 3.0e+00, 7.0e+00, -1.0e+00]> : tensor<5xf32>
  %5 = stablehlo.dot_general %cst_9, %cst_10, contracting_dims = [0] x [0] : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  check.expect_eq_const %5, dense<-5.0e+00> : tensor<f32>
  // No contracting dims: the outer product.
  %cst_11 = stablehlo.constant dense<[6.0e+00, -4.0e+00, -7.0e+00]> : tensor<3xf32>
  %cst_12 = stablehlo.constant dense<[6.0e+00, 5.0e+00]> : tensor<2xf32>
  %6 = stablehlo.dot_general %cst_11, %cst_12, contracting_dims = [] x [] : (tensor<3xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %6, dense<[[3.6e+01, 3.0e+01], [-2.4e+01, -2.0e+01], [-4.2e+01, -3.5e+01]]> : tensor<3x2xf32>
  %c_13 = stablehlo.constant dense<[[5, 7], [0, -6]]> : tensor<2x2xi32>
  %c_14 = stablehlo.constant dense<[2, 1, -2]> : tensor<3xi32>
  %7 = stablehlo.dot_general %c_13, %c_14, contracting_dims = [] x [] : (tensor<2x2xi32>, tensor<3xi32>) -> tensor<2x2x3xi32>
  check.expect_eq_const %7, dense<[[[10, 5, -10], [14, 7, -14]], [[0, 0, 0], [-12, -6, 12]]]> : tensor<2x2x3xi32>
  return
}
