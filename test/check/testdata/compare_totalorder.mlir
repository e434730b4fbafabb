// stablehlo.compare with comparison type TOTALORDER on f32 and f64: IEEE 754
// totalOrder, -NaN < -Inf < -1 < -subnormal < -0 < +0 < +subnormal < 1 < +Inf
// < +NaN. -0 and +0 differ, NaN equals a NaN of the same bits. Each value is
// compared with the next one in that order (the last with the first) and
// with itself.
func.func @main() {
  %cst = stablehlo.constant dense<[0xFFC00000, 0xFF800000, -1.000000e+00, 0x80000001, -0.000000e+00, 0.000000e+00, 0x00000001, 1.000000e+00, 0x7F800000, 0x7FC00000]> : tensor<10xf32>
  %cst_0 = stablehlo.constant dense<[0xFF800000, -1.000000e+00, 0x80000001, -0.000000e+00, 0.000000e+00, 0x00000001, 1.000000e+00, 0x7F800000, 0x7FC00000, 0xFFC00000]> : tensor<10xf32>
  %0 = stablehlo.compare  EQ, %cst, %cst_0,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %0, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %1 = stablehlo.compare  EQ, %cst, %cst,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %1, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %2 = stablehlo.compare  NE, %cst, %cst_0,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %2, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %3 = stablehlo.compare  NE, %cst, %cst,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %3, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %4 = stablehlo.compare  GE, %cst, %cst_0,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %4, dense<[false, false, false, false, false, false, false, false, false, true]> : tensor<10xi1>
  %5 = stablehlo.compare  GE, %cst, %cst,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %5, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %6 = stablehlo.compare  GT, %cst, %cst_0,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %6, dense<[false, false, false, false, false, false, false, false, false, true]> : tensor<10xi1>
  %7 = stablehlo.compare  GT, %cst, %cst,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %7, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %8 = stablehlo.compare  LE, %cst, %cst_0,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %8, dense<[true, true, true, true, true, true, true, true, true, false]> : tensor<10xi1>
  %9 = stablehlo.compare  LE, %cst, %cst,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %9, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %10 = stablehlo.compare  LT, %cst, %cst_0,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %10, dense<[true, true, true, true, true, true, true, true, true, false]> : tensor<10xi1>
  %11 = stablehlo.compare  LT, %cst, %cst,  TOTALORDER : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %11, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %cst_1 = stablehlo.constant dense<[0xFFF8000000000000, 0xFFF0000000000000, -1.000000e+00, 0x8000000000000001, -0.000000e+00, 0.000000e+00, 0x0000000000000001, 1.000000e+00, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<10xf64>
  %cst_2 = stablehlo.constant dense<[0xFFF0000000000000, -1.000000e+00, 0x8000000000000001, -0.000000e+00, 0.000000e+00, 0x0000000000000001, 1.000000e+00, 0x7FF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000]> : tensor<10xf64>
  %12 = stablehlo.compare  EQ, %cst_1, %cst_2,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %12, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %13 = stablehlo.compare  EQ, %cst_1, %cst_1,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %13, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %14 = stablehlo.compare  NE, %cst_1, %cst_2,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %14, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %15 = stablehlo.compare  NE, %cst_1, %cst_1,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %15, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %16 = stablehlo.compare  GE, %cst_1, %cst_2,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %16, dense<[false, false, false, false, false, false, false, false, false, true]> : tensor<10xi1>
  %17 = stablehlo.compare  GE, %cst_1, %cst_1,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %17, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %18 = stablehlo.compare  GT, %cst_1, %cst_2,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %18, dense<[false, false, false, false, false, false, false, false, false, true]> : tensor<10xi1>
  %19 = stablehlo.compare  GT, %cst_1, %cst_1,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %19, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  %20 = stablehlo.compare  LE, %cst_1, %cst_2,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %20, dense<[true, true, true, true, true, true, true, true, true, false]> : tensor<10xi1>
  %21 = stablehlo.compare  LE, %cst_1, %cst_1,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %21, dense<[true, true, true, true, true, true, true, true, true, true]> : tensor<10xi1>
  %22 = stablehlo.compare  LT, %cst_1, %cst_2,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %22, dense<[true, true, true, true, true, true, true, true, true, false]> : tensor<10xi1>
  %23 = stablehlo.compare  LT, %cst_1, %cst_1,  TOTALORDER : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %23, dense<[false, false, false, false, false, false, false, false, false, false]> : tensor<10xi1>
  return
}
