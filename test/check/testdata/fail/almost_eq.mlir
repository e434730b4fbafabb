// Absolute tolerances: 1/3 is 0.333333343 in f32, 1e-3 away from 0.3343 but
// not within 1e-4 of it; the default tolerance (1e-4) of the first check does
// not cover 0.33 either. An infinity never matches a finite value, however
// large the tolerance, and NaN matches only NaN.
// FAIL: 13: check.expect_almost_eq_const: element [2]: actual 0.33333334, expected 0.33 (tolerance 0.0001)
// FAIL: 14: check.expect_almost_eq_const: element [2]: actual 0.33333334, expected 0.3343 (tolerance 0.0001)
// FAIL: 19: check.expect_almost_eq: element [0]: actual inf, expected 3.4028235e+38 (tolerance 1e+38)
// FAIL: 23: check.expect_almost_eq_const: element [1]: actual nan, expected 0 (tolerance 1)
func.func @main() {
  %cst = stablehlo.constant dense<[1.0, 2.0, 1.0]> : tensor<3xf32>
  %cst_0 = stablehlo.constant dense<[1.0, 1.0, 3.0]> : tensor<3xf32>
  %0 = stablehlo.divide %cst, %cst_0 : tensor<3xf32>
  check.expect_almost_eq_const %0, dense<[1.0, 2.0, 0.33]> : tensor<3xf32>
  check.expect_almost_eq_const %0, dense<[1.0, 2.0, 0.3343]> : tensor<3xf32>, tolerance = 1.000000e-04
  check.expect_almost_eq_const %0, dense<[1.0, 2.0, 0.3343]> : tensor<3xf32>, tolerance = 1.000000e-02
  %cst_1 = stablehlo.constant dense<[3.40282347E+38, 1.0]> : tensor<2xf32>
  %1 = stablehlo.add %cst_1, %cst_1 : tensor<2xf32>
  %cst_2 = stablehlo.constant dense<[3.40282347E+38, 2.0]> : tensor<2xf32>
  check.expect_almost_eq %1, %cst_2, tolerance = 1.000000e+38 : tensor<2xf32>
  %cst_3 = stablehlo.constant dense<[0.0, 0.0]> : tensor<2xf32>
  %cst_4 = stablehlo.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %2 = stablehlo.divide %cst_3, %cst_4 : tensor<2xf32>
  check.expect_almost_eq_const %2, dense<0.0> : tensor<2xf32>, tolerance = 1.000000e+00
  return
}
