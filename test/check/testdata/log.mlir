// stablehlo.log on f32 and f64: natural logarithm: log(±0) = -Inf, log(x<0) = NaN, log(+Inf) = +Inf.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, 2.0e+00, 5.0e-01, 1.0e+01, 1.0e-30, 1.0e+30, 0.000000e+00, -0.000000e+00, -1.0e+00, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<12xf32>
  %0 = stablehlo.log %cst : tensor<12xf32>
  %cst_0 = stablehlo.constant dense<[0.000000e+00, 6.931472e-01, -6.931472e-01, 2.3025851e+00, -6.907755e+01, 6.907755e+01, 0xFF800000, 0xFF800000, 0x7FC00000, 0x7F800000, 0x7FC00000, 0x7FC00000]> : tensor<12xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<12xf32>, tensor<12xf32>
  %cst_1 = stablehlo.constant dense<[1.0e+00, 2.0e+00, 5.0e-01, 1.0e+01, 1.0e-300, 1.0e+300, 0.000000e+00, -0.000000e+00, -1.0e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  %1 = stablehlo.log %cst_1 : tensor<12xf64>
  %cst_2 = stablehlo.constant dense<[0.000000e+00, 6.931471805599453e-01, -6.931471805599453e-01, 2.302585092994046e+00, -6.907755278982137e+02, 6.907755278982137e+02, 0xFFF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  check.expect_close %1, %cst_2, max_ulp_difference = 2 : tensor<12xf64>, tensor<12xf64>
  return
}
