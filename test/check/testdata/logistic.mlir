// stablehlo.logistic on f32 and f64: 1 / (1 + e^-x): 0.5 at 0, 1 at +Inf, 0 at -Inf; far in the tails it neither overflows nor gives NaN.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, 1.0e+00, -1.0e+00, 1.0e+01, -1.0e+01, 2.0e+01, -2.0e+01, 8.0e+01, -8.0e+01, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<12xf32>
  %0 = stablehlo.logistic %cst : tensor<12xf32>
  %cst_0 = stablehlo.constant dense<[5.0e-01, 7.310586e-01, 2.6894143e-01, 9.999546e-01, 4.539787e-05, 1.0e+00, 2.0611537e-09, 1.0e+00, 1.8048513e-35, 1.0e+00, 0.000000e+00, 0x7FC00000]> : tensor<12xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<12xf32>, tensor<12xf32>
  %cst_1 = stablehlo.constant dense<[0.000000e+00, 1.0e+00, -1.0e+00, 1.0e+01, -1.0e+01, 2.0e+01, -2.0e+01, 7.0e+02, -7.0e+02, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  %1 = stablehlo.logistic %cst_1 : tensor<12xf64>
  %cst_2 = stablehlo.constant dense<[5.0e-01, 7.310585786300049e-01, 2.689414213699951e-01, 9.999546021312976e-01, 4.5397868702434395e-05, 9.999999979388464e-01, 2.0611536181902037e-09, 1.0e+00, 9.85967654375977e-305, 1.0e+00, 0.000000e+00, 0x7FF8000000000000]> : tensor<12xf64>
  check.expect_close %1, %cst_2, max_ulp_difference = 2 : tensor<12xf64>, tensor<12xf64>
  return
}
