// stablehlo.concatenate along each dimension, of 1 to 3 operands, every element
//     type.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, 1.0e+00]> : tensor<2xf32>
  %cst_0 = stablehlo.constant dense<[5.0e+00, 5.5e+00, 6.0e+00]> : tensor<3xf32>
  %0 = stablehlo.concatenate %cst, %cst_0, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  check.expect_eq_const %0, dense<[5.0e-01, 1.0e+00, 5.0e+00, 5.5e+00, 6.0e+00]> : tensor<5xf32>
  %c_1 = stablehlo.constant dense<[[-3, -6], [-9, -12]]> : tensor<2x2xi32>
  %c_2 = stablehlo.constant dense<[[-60, -63]]> : tensor<1x2xi32>
  %1 = stablehlo.concatenate %c_1, %c_2, dim = 0 : (tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %1, dense<[[-3, -6], [-9, -12], [-60, -63]]> : tensor<3x2xi32>
  %cst_3 = stablehlo.constant dense<[[2.5e-01, 5.0e-01], [7.5e-01, 1.0e+00]]> : tensor<2x2xf64>
  %cst_4 = stablehlo.constant dense<[[5.0e+00, 5.25e+00, 5.5e+00], [5.75e+00, 6.0e+00, 6.25e+00]]> : tensor<2x3xf64>
  %cst_5 = stablehlo.constant dense<[[1.0e+01], [1.025e+01]]> : tensor<2x1xf64>
  %2 = stablehlo.concatenate %cst_3, %cst_4, %cst_5, dim = 1 : (tensor<2x2xf64>, tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<2x6xf64>
  check.expect_eq_const %2, dense<[[2.5e-01, 5.0e-01, 5.0e+00, 5.25e+00, 5.5e+00, 1.0e+01], [7.5e-01, 1.0e+00, 5.75e+00, 6.0e+00, 6.25e+00, 1.025e+01]]> : tensor<2x6xf64>
  %c_6 = stablehlo.constant dense<[[[1000000007, 2000000014]], [[3000000021, 4000000028]]]> : tensor<2x1x2xi64>
  %c_7 = stablehlo.constant dense<[[[10000000070, 11000000077], [12000000084, 13000000091]], [[14000000098, 15000000105], [16000000112, 17000000119]]]> : tensor<2x2x2xi64>
  %3 = stablehlo.concatenate %c_6, %c_7, dim = 1 : (tensor<2x1x2xi64>, tensor<2x2x2xi64>) -> tensor<2x3x2xi64>
  check.expect_eq_const %3, dense<[[[1000000007, 2000000014], [10000000070, 11000000077], [12000000084, 13000000091]], [[3000000021, 4000000028], [14000000098, 15000000105], [16000000112, 17000000119]]]> : tensor<2x3x2xi64>
  %c_8 = stablehlo.constant dense<[false, false]> : tensor<2xi1>
  %c_9 = stablehlo.constant dense<[false, true]> : tensor<2xi1>
  %4 = stablehlo.concatenate %c_8, %c_9, dim = 0 : (tensor<2xi1>, tensor<2xi1>) -> tensor<4xi1>
  check.expect_eq_const %4, dense<[false, false, false, true]> : tensor<4xi1>
  // An empty operand contributes nothing.
  %cst_10 = stablehlo.constant dense<[[], []]> : tensor<2x0xf32>
  %cst_11 = stablehlo.constant dense<[[5.0e-01, 1.0e+00], [1.5e+00, 2.0e+00]]> : tensor<2x2xf32>
  %5 = stablehlo.concatenate %cst_10, %cst_11, dim = 1 : (tensor<2x0xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %5, dense<[[5.0e-01, 1.0e+00], [1.5e+00, 2.0e+00]]> : tensor<2x2xf32>
  // One operand, and the same operand twice.
  %c_12 = stablehlo.constant dense<[-3, -6, -9]> : tensor<3xi32>
  %6 = stablehlo.concatenate %c_12, dim = 0 : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %6, dense<[-3, -6, -9]> : tensor<3xi32>
  %cst_13 = stablehlo.constant dense<[[5.0e-01, 1.0e+00], [1.5e+00, 2.0e+00]]> : tensor<2x2xf32>
  %7 = stablehlo.concatenate %cst_13, %cst_13, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  check.expect_eq_const %7, dense<[[5.0e-01, 1.0e+00], [1.5e+00, 2.0e+00], [5.0e-01, 1.0e+00], [1.5e+00, 2.0e+00]]> : tensor<4x2xf32>
  return
}
