// stablehlo.tan on f32 and f64: tangent in radians; tan(±Inf) = NaN.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
// tan(±0) = ±0 exactly, sign included.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.0e+00, 1.5e+00, -1.5e+00, 3.0e+00, 1.0e+01, 1.0e-05, 0x7F800000, 0x7FC00000]> : tensor<10xf32>
  %0 = stablehlo.tan %cst : tensor<10xf32>
  %cst_0 = stablehlo.constant dense<[5.463025e-01, -5.463025e-01, 1.5574077e+00, 1.410142e+01, -1.410142e+01, -1.4254655e-01, 6.4836085e-01, 1.0e-05, 0x7FC00000, 0x7FC00000]> : tensor<10xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<10xf32>, tensor<10xf32>
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %1 = stablehlo.tan %cst_1 : tensor<2xf32>
  check.expect_eq_const %1, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %2 = stablehlo.tan %cst_2 : tensor<2xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %3 = stablehlo.divide %cst_3, %2 : tensor<2xf32>
  check.expect_eq_const %3, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %cst_4 = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.0e+00, 1.5e+00, -1.5e+00, 3.0e+00, 1.0e+01, 1.0e-05, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<10xf64>
  %4 = stablehlo.tan %cst_4 : tensor<10xf64>
  %cst_5 = stablehlo.constant dense<[5.463024898437905e-01, -5.463024898437905e-01, 1.5574077246549023e+00, 1.4101419947171719e+01, -1.4101419947171719e+01, -1.425465430742778e-01, 6.483608274590866e-01, 1.0000000000333334e-05, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<10xf64>
  check.expect_close %4, %cst_5, max_ulp_difference = 2 : tensor<10xf64>, tensor<10xf64>
  %cst_6 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %5 = stablehlo.tan %cst_6 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_7 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %6 = stablehlo.tan %cst_7 : tensor<2xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %7 = stablehlo.divide %cst_8, %6 : tensor<2xf64>
  check.expect_eq_const %7, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  return
}
