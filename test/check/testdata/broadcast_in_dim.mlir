// stablehlo.broadcast_in_dim: scalars, rows, columns, size-1 expansion,
//     broadcast dimensions out of order (which transposes), on every element type.
func.func @main() {
  // A scalar to every element.
  %cst = stablehlo.constant dense<2.5e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %0, dense<[[2.5e+00, 2.5e+00, 2.5e+00], [2.5e+00, 2.5e+00, 2.5e+00]]> : tensor<2x3xf32>
  %c_0 = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
  %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<3xi64>
  check.expect_eq_const %1, dense<[-9223372036854775808, -9223372036854775808, -9223372036854775808]> : tensor<3xi64>
  %c_1 = stablehlo.constant dense<true> : tensor<i1>
  %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<2x2xi1>
  check.expect_eq_const %2, dense<[[true, true], [true, true]]> : tensor<2x2xi1>
  // A row (dims = [1]) and a column (dims = [0]) of a matrix.
  %cst_2 = stablehlo.constant dense<[5.0e-01, 1.0e+00, 1.5e+00]> : tensor<3xf32>
  %3 = stablehlo.broadcast_in_dim %cst_2, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %3, dense<[[5.0e-01, 1.0e+00, 1.5e+00], [5.0e-01, 1.0e+00, 1.5e+00]]> : tensor<2x3xf32>
  %c_3 = stablehlo.constant dense<[-3, -6]> : tensor<2xi32>
  %4 = stablehlo.broadcast_in_dim %c_3, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %4, dense<[[-3, -3, -3], [-6, -6, -6]]> : tensor<2x3xi32>
  // Size-1 dimensions expand.
  %cst_4 = stablehlo.constant dense<[[2.5e-01, 5.0e-01, 7.5e-01]]> : tensor<1x3xf64>
  %5 = stablehlo.broadcast_in_dim %cst_4, dims = [0, 1] : (tensor<1x3xf64>) -> tensor<4x3xf64>
  check.expect_eq_const %5, dense<[[2.5e-01, 5.0e-01, 7.5e-01], [2.5e-01, 5.0e-01, 7.5e-01], [2.5e-01, 5.0e-01, 7.5e-01], [2.5e-01, 5.0e-01, 7.5e-01]]> : tensor<4x3xf64>
  %c_5 = stablehlo.constant dense<[[1000000007], [2000000014]]> : tensor<2x1xi64>
  %6 = stablehlo.broadcast_in_dim %c_5, dims = [0, 2] : (tensor<2x1xi64>) -> tensor<2x3x4xi64>
  check.expect_eq_const %6, dense<[[[1000000007, 1000000007, 1000000007, 1000000007], [1000000007, 1000000007, 1000000007, 1000000007], [1000000007, 1000000007, 1000000007, 1000000007]], [[2000000014, 2000000014, 2000000014, 2000000014], [2000000014, 2000000014, 2000000014, 2000000014], [2000000014, 2000000014, 2000000014, 2000000014]]]> : tensor<2x3x4xi64>
  // dims out of order transpose as they broadcast: x[i, j] goes to [j, *, i].
  %cst_6 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %7 = stablehlo.broadcast_in_dim %cst_6, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  check.expect_eq_const %7, dense<[[[5.0e-01, 2.0e+00], [5.0e-01, 2.0e+00], [5.0e-01, 2.0e+00], [5.0e-01, 2.0e+00]], [[1.0e+00, 2.5e+00], [1.0e+00, 2.5e+00], [1.0e+00, 2.5e+00], [1.0e+00, 2.5e+00]], [[1.5e+00, 3.0e+00], [1.5e+00, 3.0e+00], [1.5e+00, 3.0e+00], [1.5e+00, 3.0e+00]]]> : tensor<3x4x2xf32>
  // Only size-1 dimensions added: a reshape.
  %c_7 = stablehlo.constant dense<[[-3, -6, -9], [-12, -15, -18]]> : tensor<2x3xi32>
  %8 = stablehlo.broadcast_in_dim %c_7, dims = [0, 2] : (tensor<2x3xi32>) -> tensor<2x1x3xi32>
  check.expect_eq_const %8, dense<[[[-3, -6, -9]], [[-12, -15, -18]]]> : tensor<2x1x3xi32>
  %c_8 = stablehlo.constant dense<[false, false, true]> : tensor<3xi1>
  %9 = stablehlo.broadcast_in_dim %c_8, dims = [1] : (tensor<3xi1>) -> tensor<2x3xi1>
  check.expect_eq_const %9, dense<[[false, false, true], [false, false, true]]> : tensor<2x3xi1>
  return
}
