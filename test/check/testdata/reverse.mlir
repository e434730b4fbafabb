// stablehlo.reverse along one, several and no dimensions.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00, 2.5e+00]> : tensor<5xf32>
  %0 = stablehlo.reverse %cst, dims = [0] : tensor<5xf32>
  check.expect_eq_const %0, dense<[2.5e+00, 2.0e+00, 1.5e+00, 1.0e+00, 5.0e-01]> : tensor<5xf32>
  %c_0 = stablehlo.constant dense<[[-3, -6, -9], [-12, -15, -18]]> : tensor<2x3xi32>
  %1 = stablehlo.reverse %c_0, dims = [1] : tensor<2x3xi32>
  check.expect_eq_const %1, dense<[[-9, -6, -3], [-18, -15, -12]]> : tensor<2x3xi32>
  %cst_1 = stablehlo.constant dense<[[2.5e-01, 5.0e-01, 7.5e-01], [1.0e+00, 1.25e+00, 1.5e+00]]> : tensor<2x3xf64>
  %2 = stablehlo.reverse %cst_1, dims = [0, 1] : tensor<2x3xf64>
  check.expect_eq_const %2, dense<[[1.5e+00, 1.25e+00, 1.0e+00], [7.5e-01, 5.0e-01, 2.5e-01]]> : tensor<2x3xf64>
  %c_2 = stablehlo.constant dense<[[[1000000007, 2000000014, 3000000021], [4000000028, 5000000035, 6000000042]], [[7000000049, 8000000056, 9000000063], [10000000070, 11000000077, 12000000084]]]> : tensor<2x2x3xi64>
  %3 = stablehlo.reverse %c_2, dims = [0, 2] : tensor<2x2x3xi64>
  check.expect_eq_const %3, dense<[[[9000000063, 8000000056, 7000000049], [12000000084, 11000000077, 10000000070]], [[3000000021, 2000000014, 1000000007], [6000000042, 5000000035, 4000000028]]]> : tensor<2x2x3xi64>
  %c_3 = stablehlo.constant dense<[[false, false], [true, false], [false, true]]> : tensor<3x2xi1>
  %4 = stablehlo.reverse %c_3, dims = [0] : tensor<3x2xi1>
  check.expect_eq_const %4, dense<[[false, true], [true, false], [false, false]]> : tensor<3x2xi1>
  %cst_4 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %5 = stablehlo.reverse %cst_4, dims = [] : tensor<2x3xf32>
  check.expect_eq_const %5, dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  return
}
