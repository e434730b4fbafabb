// stablehlo.pad with low, high and interior padding, negative padding
// (cropping) included.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, 1.0e+00, 1.5e+00]> : tensor<3xf32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.pad %cst, %cst_0, low = [2], high = [1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  check.expect_eq_const %0, dense<[0.000000e+00, 0.000000e+00, 5.0e-01, 1.0e+00, 1.5e+00, 0.000000e+00]> : tensor<6xf32>
  %c_1 = stablehlo.constant dense<[[-3, -6], [-9, -12]]> : tensor<2x2xi32>
  %c_2 = stablehlo.constant dense<-1> : tensor<i32>
  %1 = stablehlo.pad %c_1, %c_2, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<2x2xi32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %1, dense<[[-1, -1, -1, -1], [-3, -6, -1, -1], [-9, -12, -1, -1]]> : tensor<3x4xi32>
  %cst_3 = stablehlo.constant dense<[2.5e-01, 5.0e-01, 7.5e-01]> : tensor<3xf64>
  %cst_4 = stablehlo.constant dense<9.5e+00> : tensor<f64>
  %2 = stablehlo.pad %cst_3, %cst_4, low = [0], high = [0], interior = [2] : (tensor<3xf64>, tensor<f64>) -> tensor<7xf64>
  check.expect_eq_const %2, dense<[2.5e-01, 9.5e+00, 9.5e+00, 5.0e-01, 9.5e+00, 9.5e+00, 7.5e-01]> : tensor<7xf64>
  %c_5 = stablehlo.constant dense<[[1000000007, 2000000014, 3000000021], [4000000028, 5000000035, 6000000042]]> : tensor<2x3xi64>
  %c_6 = stablehlo.constant dense<7> : tensor<i64>
  %3 = stablehlo.pad %c_5, %c_6, low = [1, 1], high = [1, 1], interior = [1, 1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<5x7xi64>
  check.expect_eq_const %3, dense<[[7, 7, 7, 7, 7, 7, 7], [7, 1000000007, 7, 2000000014, 7, 3000000021, 7], [7, 7, 7, 7, 7, 7, 7], [7, 4000000028, 7, 5000000035, 7, 6000000042, 7], [7, 7, 7, 7, 7, 7, 7]]> : tensor<5x7xi64>
  // Negative padding crops.
  %cst_7 = stablehlo.constant dense<[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00, 2.5e+00]> : tensor<5xf32>
  %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %4 = stablehlo.pad %cst_7, %cst_8, low = [-1], high = [-2], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %4, dense<[1.0e+00, 1.5e+00]> : tensor<2xf32>
  %c_9 = stablehlo.constant dense<[[-3, -6, -9], [-12, -15, -18], [-21, -24, -27]]> : tensor<3x3xi32>
  %c_10 = stablehlo.constant dense<0> : tensor<i32>
  %5 = stablehlo.pad %c_9, %c_10, low = [-1, 1], high = [1, -1], interior = [0, 1] : (tensor<3x3xi32>, tensor<i32>) -> tensor<3x5xi32>
  check.expect_eq_const %5, dense<[[0, -12, 0, -15, 0], [0, -21, 0, -24, 0], [0, 0, 0, 0, 0]]> : tensor<3x5xi32>
  %c_11 = stablehlo.constant dense<[false, false]> : tensor<2xi1>
  %c_12 = stablehlo.constant dense<true> : tensor<i1>
  %6 = stablehlo.pad %c_11, %c_12, low = [1], high = [1], interior = [1] : (tensor<2xi1>, tensor<i1>) -> tensor<5xi1>
  check.expect_eq_const %6, dense<[true, false, true, false, true]> : tensor<5xi1>
  return
}
