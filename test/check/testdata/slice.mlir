// stablehlo.slice with starts, limits and strides, ranks 1 to 3.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00, 2.5e+00, 3.0e+00, 3.5e+00, 4.0e+00]> : tensor<8xf32>
  %0 = stablehlo.slice %cst [2:5] : (tensor<8xf32>) -> tensor<3xf32>
  check.expect_eq_const %0, dense<[1.5e+00, 2.0e+00, 2.5e+00]> : tensor<3xf32>
  %c_0 = stablehlo.constant dense<[-3, -6, -9, -12, -15, -18, -21, -24]> : tensor<8xi32>
  %1 = stablehlo.slice %c_0 [1:8:3] : (tensor<8xi32>) -> tensor<3xi32>
  check.expect_eq_const %1, dense<[-6, -15, -24]> : tensor<3xi32>
  %cst_1 = stablehlo.constant dense<[[2.5e-01, 5.0e-01, 7.5e-01, 1.0e+00, 1.25e+00], [1.5e+00, 1.75e+00, 2.0e+00, 2.25e+00, 2.5e+00], [2.75e+00, 3.0e+00, 3.25e+00, 3.5e+00, 3.75e+00], [4.0e+00, 4.25e+00, 4.5e+00, 4.75e+00, 5.0e+00]]> : tensor<4x5xf64>
  %2 = stablehlo.slice %cst_1 [1:3, 0:5:2] : (tensor<4x5xf64>) -> tensor<2x3xf64>
  check.expect_eq_const %2, dense<[[1.5e+00, 2.0e+00, 2.5e+00], [2.75e+00, 3.25e+00, 3.75e+00]]> : tensor<2x3xf64>
  %c_2 = stablehlo.constant dense<[[[1000000007, 2000000014, 3000000021, 4000000028, 5000000035], [6000000042, 7000000049, 8000000056, 9000000063, 10000000070], [11000000077, 12000000084, 13000000091, 14000000098, 15000000105], [16000000112, 17000000119, 18000000126, 19000000133, 20000000140]], [[21000000147, 22000000154, 23000000161, 24000000168, 25000000175], [26000000182, 27000000189, 28000000196, 29000000203, 30000000210], [31000000217, 32000000224, 33000000231, 34000000238, 35000000245], [36000000252, 37000000259, 38000000266, 39000000273, 40000000280]], [[41000000287, 42000000294, 43000000301, 44000000308, 45000000315], [46000000322, 47000000329, 48000000336, 49000000343, 50000000350], [51000000357, 52000000364, 53000000371, 54000000378, 55000000385], [56000000392, 57000000399, 58000000406, 59000000413, 60000000420]]]> : tensor<3x4x5xi64>
  %3 = stablehlo.slice %c_2 [0:3:2, 1:2, 4:5] : (tensor<3x4x5xi64>) -> tensor<2x1x1xi64>
  check.expect_eq_const %3, dense<[[[10000000070]], [[50000000350]]]> : tensor<2x1x1xi64>
  %c_3 = stablehlo.constant dense<[[false, false, true, false], [false, true, false, false], [true, false, false, true], [false, false, true, false]]> : tensor<4x4xi1>
  %4 = stablehlo.slice %c_3 [0:4:3, 1:4:2] : (tensor<4x4xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %4, dense<[[false, false], [false, false]]> : tensor<2x2xi1>
  // The whole operand, and a single element.
  %cst_4 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %5 = stablehlo.slice %cst_4 [0:2, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %5, dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %cst_5 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00], [2.0e+00, 2.5e+00, 3.0e+00]]> : tensor<2x3xf32>
  %6 = stablehlo.slice %cst_5 [1:2, 2:3] : (tensor<2x3xf32>) -> tensor<1x1xf32>
  check.expect_eq_const %6, dense<[[3.0e+00]]> : tensor<1x1xf32>
  // A stride larger than the dimension.
  %c_6 = stablehlo.constant dense<[1000000007, 2000000014, 3000000021, 4000000028, 5000000035]> : tensor<5xi64>
  %7 = stablehlo.slice %c_6 [0:5:10] : (tensor<5xi64>) -> tensor<1xi64>
  check.expect_eq_const %7, dense<[1000000007]> : tensor<1xi64>
  // The generic form, with array<i64: ...> properties.
  %cst_7 = stablehlo.constant dense<[[5.0e-01, 1.0e+00, 1.5e+00, 2.0e+00], [2.5e+00, 3.0e+00, 3.5e+00, 4.0e+00], [4.5e+00, 5.0e+00, 5.5e+00, 6.0e+00]]> : tensor<3x4xf32>
  %8 = "stablehlo.slice"(%cst_7) <{limit_indices = array<i64: 3, 4>, start_indices = array<i64: 1, 1>, strides = array<i64: 1, 2>}> : (tensor<3x4xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %8, dense<[[3.0e+00, 4.0e+00], [5.0e+00, 6.0e+00]]> : tensor<2x2xf32>
  return
}
