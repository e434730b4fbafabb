// stablehlo.reshape: row-major order is kept, ranks 0 to 3, every element type.
func.func @main() {
  %cst = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %0 = stablehlo.reshape %cst : (tensor<2x3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %0, dense<[[5.0e-01, 1.0e+00], [1.5e+00, 2.0e+00], [2.5e+00, 3.0e+00]]> : tensor<3x2xf32>
  %c_0 = stablehlo.constant dense<[-3, -6, -9, -12, -15, -18]> : tensor<6xi32>
  %1 = stablehlo.reshape %c_0 : (tensor<6xi32>) -> tensor<1x6x1xi32>
  check.expect_eq_const %1, dense<[[[-3], [-6], [-9], [-12], [-15], [-18]]]> : tensor<1x6x1xi32>
  %cst_1 = stablehlo.constant dense<[[[2.5e-01, 5.0e-01, 7.5e-01], [1.0e+00, 1.25e+00, 1.5e+00]], [[1.75e+00, 2.0e+00, 2.25e+00], [2.5e+00, 2.75e+00, 3.0e+00]]]> : tensor<2x2x3xf64>
  %2 = stablehlo.reshape %cst_1 : (tensor<2x2x3xf64>) -> tensor<4x3xf64>
  check.expect_eq_const %2, dense<[[2.5e-01, 5.0e-01, 7.5e-01], [1.0e+00, 1.25e+00, 1.5e+00], [1.75e+00, 2.0e+00, 2.25e+00], [2.5e+00, 2.75e+00, 3.0e+00]]> : tensor<4x3xf64>
  %c_2 = stablehlo.constant dense<[[[1000000007, 2000000014, 3000000021, 4000000028], [5000000035, 6000000042, 7000000049, 8000000056], [9000000063, 10000000070, 11000000077, 12000000084]], [[13000000091, 14000000098, 15000000105, 16000000112], [17000000119, 18000000126, 19000000133, 20000000140], [21000000147, 22000000154, 23000000161, 24000000168]]]> : tensor<2x3x4xi64>
  %3 = stablehlo.reshape %c_2 : (tensor<2x3x4xi64>) -> tensor<4x6xi64>
  check.expect_eq_const %3, dense<[[1000000007, 2000000014, 3000000021, 4000000028, 5000000035, 6000000042], [7000000049, 8000000056, 9000000063, 10000000070, 11000000077, 12000000084], [13000000091, 14000000098, 15000000105, 16000000112, 17000000119, 18000000126], [19000000133, 20000000140, 21000000147, 22000000154, 23000000161, 24000000168]]> : tensor<4x6xi64>
  %cst_3 = stablehlo.constant dense<7.0e+00> : tensor<f32>
  %4 = stablehlo.reshape %cst_3 : (tensor<f32>) -> tensor<1x1xf32>
  check.expect_eq_const %4, dense<[[7.0e+00]]> : tensor<1x1xf32>
  %c_4 = stablehlo.constant dense<[[-3]]> : tensor<1x1xi32>
  %5 = stablehlo.reshape %c_4 : (tensor<1x1xi32>) -> tensor<i32>
  check.expect_eq_const %5, dense<-3> : tensor<i32>
  %c_5 = stablehlo.constant dense<[[false, false, true], [false, false, true]]> : tensor<2x3xi1>
  %6 = stablehlo.reshape %c_5 : (tensor<2x3xi1>) -> tensor<6xi1>
  check.expect_eq_const %6, dense<[false, false, true, false, false, true]> : tensor<6xi1>
  // A reshape of a reshape, and an op on the reshaped value.
  %cst_6 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00, 2.5e+00, 3.0e+00], [3.5e+00, 4.0e+00, 4.5e+00, 5.0e+00, 5.5e+00, 6.0e+00]]> : tensor<2x6xf32>
  %7 = stablehlo.reshape %cst_6 : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %8 = stablehlo.reshape %7 : (tensor<3x4xf32>) -> tensor<12xf32>
  %9 = stablehlo.negate %8 : tensor<12xf32>
  check.expect_eq_const %9, dense<[-5.0e-01, -1.0e+00, -1.5e+00, -2.0e+00, -2.5e+00, -3.0e+00, -3.5e+00, -4.0e+00, -4.5e+00, -5.0e+00, -5.5e+00, -6.0e+00]> : tensor<12xf32>
  return
}
