// stablehlo.exponential on f32 and f64: e^x. exp(89) overflows f32 to +Inf, exp(-104) underflows to 0.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -1.0e+00, 5.0e-01, 1.0e+01, -1.0e+01, 8.8e+01, -8.7e+01, 8.9e+01, -1.04e+02, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<14xf32>
  %0 = stablehlo.exponential %cst : tensor<14xf32>
  %cst_0 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 2.7182817e+00, 3.6787945e-01, 1.6487212e+00, 2.2026465e+04, 4.539993e-05, 1.6516363e+38, 1.6458115e-38, 0x7F800000, 0.000000e+00, 0x7F800000, 0.000000e+00, 0x7FC00000]> : tensor<14xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<14xf32>, tensor<14xf32>
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -1.0e+00, 5.0e-01, 1.0e+01, -1.0e+01, 7.0e+02, -7.0e+02, 7.1e+02, -7.5e+02, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<14xf64>
  %1 = stablehlo.exponential %cst_1 : tensor<14xf64>
  %cst_2 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 2.718281828459045e+00, 3.6787944117144233e-01, 1.6487212707001282e+00, 2.2026465794806718e+04, 4.5399929762484854e-05, 1.0142320547350045e+304, 9.85967654375977e-305, 0x7FF0000000000000, 0.000000e+00, 0x7FF0000000000000, 0.000000e+00, 0x7FF8000000000000]> : tensor<14xf64>
  check.expect_close %1, %cst_2, max_ulp_difference = 2 : tensor<14xf64>, tensor<14xf64>
  return
}
