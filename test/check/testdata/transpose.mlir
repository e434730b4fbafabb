// stablehlo.transpose: permutations of ranks 2 to 4, the identity, and a
//     permutation followed by its inverse.
func.func @main() {
  %cst = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %0 = stablehlo.transpose %cst, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %0, dense<[[5.0e-01, 2.0e+00], [1.0e+00, 2.5e+00], [1.5e+00, 3.0e+00]]> : tensor<3x2xf32>
  %c_0 = stablehlo.constant dense<[[[-3, -6, -9, -12], [-15, -18, -21, -24], [-27, -30, -33, -36]], [[-39, -42, -45, -48], [-51, -54, -57, -60], [-63, -66, -69, -72]]]> : tensor<2x3x4xi32>
  %1 = stablehlo.transpose %c_0, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  check.expect_eq_const %1, dense<[[[-3, -15, -27], [-39, -51, -63]], [[-6, -18, -30], [-42, -54, -66]], [[-9, -21, -33], [-45, -57, -69]], [[-12, -24, -36], [-48, -60, -72]]]> : tensor<4x2x3xi32>
  %cst_1 = stablehlo.constant dense<[[[2.5e-01, 5.0e-01, 7.5e-01, 1.0e+00], [1.25e+00, 1.5e+00, 1.75e+00, 2.0e+00], [2.25e+00, 2.5e+00, 2.75e+00, 3.0e+00]], [[3.25e+00, 3.5e+00, 3.75e+00, 4.0e+00], [4.25e+00, 4.5e+00, 4.75e+00, 5.0e+00], [5.25e+00, 5.5e+00, 5.75e+00, 6.0e+00]]]> : tensor<2x3x4xf64>
  %2 = stablehlo.transpose %cst_1, dims = [1, 2, 0] : (tensor<2x3x4xf64>) -> tensor<3x4x2xf64>
  check.expect_eq_const %2, dense<[[[2.5e-01, 3.25e+00], [5.0e-01, 3.5e+00], [7.5e-01, 3.75e+00], [1.0e+00, 4.0e+00]], [[1.25e+00, 4.25e+00], [1.5e+00, 4.5e+00], [1.75e+00, 4.75e+00], [2.0e+00, 5.0e+00]], [[2.25e+00, 5.25e+00], [2.5e+00, 5.5e+00], [2.75e+00, 5.75e+00], [3.0e+00, 6.0e+00]]]> : tensor<3x4x2xf64>
  %c_2 = stablehlo.constant dense<[[[[1000000007, 2000000014], [3000000021, 4000000028], [5000000035, 6000000042]]], [[[7000000049, 8000000056], [9000000063, 10000000070], [11000000077, 12000000084]]]]> : tensor<2x1x3x2xi64>
  %3 = stablehlo.transpose %c_2, dims = [3, 1, 0, 2] : (tensor<2x1x3x2xi64>) -> tensor<2x1x2x3xi64>
  check.expect_eq_const %3, dense<[[[[1000000007, 3000000021, 5000000035], [7000000049, 9000000063, 11000000077]]], [[[2000000014, 4000000028, 6000000042], [8000000056, 10000000070, 12000000084]]]]> : tensor<2x1x2x3xi64>
  %c_3 = stablehlo.constant dense<[[false, false], [true, false], [false, true]]> : tensor<3x2xi1>
  %4 = stablehlo.transpose %c_3, dims = [1, 0] : (tensor<3x2xi1>) -> tensor<2x3xi1>
  check.expect_eq_const %4, dense<[[false, true, false], [false, false, true]]> : tensor<2x3xi1>
  %cst_4 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %5 = stablehlo.transpose %cst_4, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %5, dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  // Twice: the inverse permutation gives the operand back.
  %cst_5 = stablehlo.constant dense<[[[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00], [2.5e+00, 3.0e+00, 3.5e+00, 4.0e+00], [4.5e+00, 5.0e+00, 5.5e+00, 6.0e+00]], [[6.5e+00, 7.0e+00, 7.5e+00, 8.0e+00], [8.5e+00, 9.0e+00, 9.5e+00, 1.0e+01], [1.05e+01, 1.1e+01, 1.15e+01, 1.2e+01]]]> : tensor<2x3x4xf32>
  %6 = stablehlo.transpose %cst_5, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %7 = stablehlo.transpose %6, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  check.expect_eq_const %7, dense<[[[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00], [2.5e+00, 3.0e+00, 3.5e+00, 4.0e+00], [4.5e+00, 5.0e+00, 5.5e+00, 6.0e+00]], [[6.5e+00, 7.0e+00, 7.5e+00, 8.0e+00], [8.5e+00, 9.0e+00, 9.5e+00, 1.0e+01], [1.05e+01, 1.1e+01, 1.15e+01, 1.2e+01]]]> : tensor<2x3x4xf32>
  return
}
