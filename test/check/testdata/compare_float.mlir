// stablehlo.compare on f32 and f64 with comparison type FLOAT (also left out,
// which means FLOAT for floats): IEEE comparisons. -0 == +0; NaN is unordered:
// every comparison with NaN is false except NE, which is true.
// Pairs: (1, 2), (2, 1), (3, 3), (-0, +0), (NaN, 1), (1, NaN), (NaN, NaN),
// (Inf, Inf), (-Inf, Inf), (Inf, 1e30).
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, 2.0e+00, 3.0e+00, -0.000000e+00, 0x7FC00000, 1.0e+00, 0x7FC00000, 0x7F800000, 0xFF800000, 0x7F800000]> : tensor<10xf32>
  %cst_0 = stablehlo.constant dense<[2.0e+00, 1.0e+00, 3.0e+00, 0.000000e+00, 1.0e+00, 0x7FC00000, 0x7FC00000, 0x7F800000, 0x7F800000, 1.0e+30]> : tensor<10xf32>
  %0 = stablehlo.compare  EQ, %cst, %cst_0,  FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %0, dense<[false, false, true, true, false, false, false, true, false, false]> : tensor<10xi1>
  %1 = stablehlo.compare  NE, %cst, %cst_0 : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %1, dense<[true, true, false, false, true, true, true, false, true, true]> : tensor<10xi1>
  %2 = stablehlo.compare  GE, %cst, %cst_0,  FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %2, dense<[false, true, true, true, false, false, false, true, false, true]> : tensor<10xi1>
  %3 = stablehlo.compare  GT, %cst, %cst_0 : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %3, dense<[false, true, false, false, false, false, false, false, false, true]> : tensor<10xi1>
  %4 = stablehlo.compare  LE, %cst, %cst_0,  FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %4, dense<[true, false, true, true, false, false, false, true, true, false]> : tensor<10xi1>
  %5 = stablehlo.compare  LT, %cst, %cst_0 : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  check.expect_eq_const %5, dense<[true, false, false, false, false, false, false, false, true, false]> : tensor<10xi1>
  %cst_1 = stablehlo.constant dense<[1.0e+00, 2.0e+00, 3.0e+00, -0.000000e+00, 0x7FF8000000000000, 1.0e+00, 0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000]> : tensor<10xf64>
  %cst_2 = stablehlo.constant dense<[2.0e+00, 1.0e+00, 3.0e+00, 0.000000e+00, 1.0e+00, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF0000000000000, 1.0e+30]> : tensor<10xf64>
  %6 = stablehlo.compare  EQ, %cst_1, %cst_2,  FLOAT : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %6, dense<[false, false, true, true, false, false, false, true, false, false]> : tensor<10xi1>
  %7 = stablehlo.compare  NE, %cst_1, %cst_2,  FLOAT : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %7, dense<[true, true, false, false, true, true, true, false, true, true]> : tensor<10xi1>
  %8 = stablehlo.compare  GE, %cst_1, %cst_2,  FLOAT : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %8, dense<[false, true, true, true, false, false, false, true, false, true]> : tensor<10xi1>
  %9 = stablehlo.compare  GT, %cst_1, %cst_2,  FLOAT : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %9, dense<[false, true, false, false, false, false, false, false, false, true]> : tensor<10xi1>
  %10 = stablehlo.compare  LE, %cst_1, %cst_2,  FLOAT : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %10, dense<[true, false, true, true, false, false, false, true, true, false]> : tensor<10xi1>
  %11 = stablehlo.compare  LT, %cst_1, %cst_2,  FLOAT : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xi1>
  check.expect_eq_const %11, dense<[true, false, false, false, false, false, false, false, true, false]> : tensor<10xi1>
  return
}
