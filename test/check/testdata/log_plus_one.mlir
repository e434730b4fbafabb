// stablehlo.log_plus_one on f32 and f64: log(1 + x), accurate near 0 (log1p(1e-10) is 1e-10); log1p(-1) = -Inf, log1p(x < -1) = NaN.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
// log_plus_one(±0) = ±0 exactly, sign included.
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e-10, -1.0e-10, 1.0e-05, 1.0e+00, -5.0e-01, 1.0e+01, 1.0e+30, -1.0e+00, -2.0e+00, 0x7F800000, 0x7FC00000]> : tensor<11xf32>
  %0 = stablehlo.log_plus_one %cst : tensor<11xf32>
  %cst_0 = stablehlo.constant dense<[1.0e-10, -1.0e-10, 9.99995e-06, 6.931472e-01, -6.931472e-01, 2.3978953e+00, 6.907755e+01, 0xFF800000, 0x7FC00000, 0x7F800000, 0x7FC00000]> : tensor<11xf32>
  stablehlo.custom_call @check.expect_close(%0, %cst_0) {has_side_effect = true} : (tensor<11xf32>, tensor<11xf32>) -> ()
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %1 = stablehlo.log_plus_one %cst_1 : tensor<2xf32>
  check.expect_eq_const %1, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %2 = stablehlo.log_plus_one %cst_2 : tensor<2xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %3 = stablehlo.divide %cst_3, %2 : tensor<2xf32>
  check.expect_eq_const %3, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %cst_4 = stablehlo.constant dense<[1.0e-10, -1.0e-10, 1.0e-05, 1.0e+00, -5.0e-01, 1.0e+01, 1.0e+300, -1.0e+00, -2.0e+00, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<11xf64>
  %4 = stablehlo.log_plus_one %cst_4 : tensor<11xf64>
  %cst_5 = stablehlo.constant dense<[9.999999999500001e-11, -1.00000000005e-10, 9.999950000333332e-06, 6.931471805599453e-01, -6.931471805599453e-01, 2.3978952727983707e+00, 6.907755278982137e+02, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<11xf64>
  stablehlo.custom_call @check.expect_close(%4, %cst_5) {has_side_effect = true} : (tensor<11xf64>, tensor<11xf64>) -> ()
  %cst_6 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %5 = stablehlo.log_plus_one %cst_6 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_7 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %6 = stablehlo.log_plus_one %cst_7 : tensor<2xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %7 = stablehlo.divide %cst_8, %6 : tensor<2xf64>
  check.expect_eq_const %7, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  return
}
