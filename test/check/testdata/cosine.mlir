// stablehlo.cosine on f32 and f64: cosine in radians; cos(±0) = 1, cos(±Inf) = NaN.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 5.0e-01, -5.0e-01, 1.0e+00, 2.0e+00, 3.0e+00, 1.0e+01, 1.0e+02, -1.0e+02, 0x7F800000, 0x7FC00000]> : tensor<12xf32>
  %0 = stablehlo.cosine %cst : tensor<12xf32>
  %cst_0 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 8.7758255e-01, 8.7758255e-01, 5.403023e-01, -4.1614684e-01, -9.899925e-01, -8.390715e-01, 8.623189e-01, 8.623189e-01, 0x7FC00000, 0x7FC00000]> : tensor<12xf32>
  stablehlo.custom_call @check.expect_close(%0, %cst_0) {has_side_effect = true} : (tensor<12xf32>, tensor<12xf32>) -> ()
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 5.0e-01, -5.0e-01, 1.0e+00, 2.0e+00, 3.0e+00, 1.0e+01, 1.0e+02, -1.0e+02, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  %1 = stablehlo.cosine %cst_1 : tensor<12xf64>
  %cst_2 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 8.775825618903728e-01, 8.775825618903728e-01, 5.403023058681398e-01, -4.161468365471424e-01, -9.899924966004454e-01, -8.390715290764524e-01, 8.623188722876839e-01, 8.623188722876839e-01, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  stablehlo.custom_call @check.expect_close(%1, %cst_2) {has_side_effect = true} : (tensor<12xf64>, tensor<12xf64>) -> ()
  return
}
