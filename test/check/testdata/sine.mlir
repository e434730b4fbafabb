// stablehlo.sine on f32 and f64: sine in radians; sin(±Inf) = NaN.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
// sine(±0) = ±0 exactly, sign included.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.0e+00, 2.0e+00, 3.0e+00, 1.0e+01, 1.0e+02, -1.0e+02, 1.0e-05, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<12xf32>
  %0 = stablehlo.sine %cst : tensor<12xf32>
  %cst_0 = stablehlo.constant dense<[4.7942555e-01, -4.7942555e-01, 8.4147096e-01, 9.092974e-01, 1.4112e-01, -5.440211e-01, -5.0636566e-01, 5.0636566e-01, 1.0e-05, 0x7FC00000, 0x7FC00000, 0x7FC00000]> : tensor<12xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<12xf32>, tensor<12xf32>
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %1 = stablehlo.sine %cst_1 : tensor<2xf32>
  check.expect_eq_const %1, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %2 = stablehlo.sine %cst_2 : tensor<2xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %3 = stablehlo.divide %cst_3, %2 : tensor<2xf32>
  check.expect_eq_const %3, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %cst_4 = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.0e+00, 2.0e+00, 3.0e+00, 1.0e+01, 1.0e+02, -1.0e+02, 1.0e-05, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  %4 = stablehlo.sine %cst_4 : tensor<12xf64>
  %cst_5 = stablehlo.constant dense<[4.79425538604203e-01, -4.79425538604203e-01, 8.414709848078965e-01, 9.092974268256817e-01, 1.411200080598672e-01, -5.440211108893698e-01, -5.063656411097588e-01, 5.063656411097588e-01, 9.999999999833334e-06, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  check.expect_close %4, %cst_5, max_ulp_difference = 2 : tensor<12xf64>, tensor<12xf64>
  %cst_6 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %5 = stablehlo.sine %cst_6 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_7 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %6 = stablehlo.sine %cst_7 : tensor<2xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %7 = stablehlo.divide %cst_8, %6 : tensor<2xf64>
  check.expect_eq_const %7, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  return
}
