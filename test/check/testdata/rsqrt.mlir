// stablehlo.rsqrt on f32 and f64: 1 / sqrt(x): rsqrt(+0) = +Inf, rsqrt(-0) = -Inf, rsqrt(+Inf) = 0, negative → NaN.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, 4.0e+00, 2.5e-01, 2.0e+00, 3.0e+00, 1.0e+02, 1.0e-30, 0.000000e+00, -0.000000e+00, 0x7F800000, -1.0e+00, 0x7FC00000]> : tensor<12xf32>
  %0 = stablehlo.rsqrt %cst : tensor<12xf32>
  %cst_0 = stablehlo.constant dense<[1.0e+00, 5.0e-01, 2.0e+00, 7.0710677e-01, 5.7735026e-01, 1.0e-01, 1.0e+15, 0x7F800000, 0xFF800000, 0.000000e+00, 0x7FC00000, 0x7FC00000]> : tensor<12xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<12xf32>, tensor<12xf32>
  %cst_1 = stablehlo.constant dense<[1.0e+00, 4.0e+00, 2.5e-01, 2.0e+00, 3.0e+00, 1.0e+02, 1.0e-300, 0.000000e+00, -0.000000e+00, 0x7FF0000000000000, -1.0e+00, 0x7FF8000000000000]> : tensor<12xf64>
  %1 = stablehlo.rsqrt %cst_1 : tensor<12xf64>
  %cst_2 = stablehlo.constant dense<[1.0e+00, 5.0e-01, 2.0e+00, 7.071067811865476e-01, 5.773502691896257e-01, 1.0e-01, 1.0e+150, 0x7FF0000000000000, 0xFFF0000000000000, 0.000000e+00, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<12xf64>
  check.expect_close %1, %cst_2, max_ulp_difference = 2 : tensor<12xf64>, tensor<12xf64>
  return
}
