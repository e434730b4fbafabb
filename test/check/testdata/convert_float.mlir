// stablehlo.convert between f32 and f64: widening is exact; narrowing rounds
// to nearest even, overflows to ±Inf, underflows to subnormals and ±0.
func.func @main() {
  // f32 -> f64 is exact, -0 and NaN included.
  %cst = stablehlo.constant dense<[1.0e+00, 1.0e-01, -0.000000e+00, 3.4028235e+38, 1.0e-45, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<8xf32>
  %0 = stablehlo.convert %cst : (tensor<8xf32>) -> tensor<8xf64>
  check.expect_eq_const %0, dense<[1.0e+00, 1.0000000149011612e-01, -0.000000e+00, 3.4028234663852886e+38, 1.401298464324817e-45, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<8xf64>
  // f64 -> f32 rounds to nearest, ties to even: 1 + 2^-24 is a tie (-> 1), 1 + 3*2^-24 too (-> 1 + 2^-22);
  // beyond the largest f32 (by at least half an ULP) gives Inf; below half the smallest subnormal gives 0.
  %cst_0 = stablehlo.constant dense<[1.0e-01, 1.0000000596046448e+00, 1.0000001788139343e+00, 1.0000000596055543e+00, -0.000000e+00, 1.0e+300, -1.0e+300, 3.4028235677973366e+38, 1.0e-50, -1.0e-50, 1.401298464324817e-45, 7.006492321624085e-46, 2.1019476964872256e-45, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<15xf64>
  %1 = stablehlo.convert %cst_0 : (tensor<15xf64>) -> tensor<15xf32>
  check.expect_eq_const %1, dense<[1.0e-01, 1.0e+00, 1.0000002e+00, 1.0000001e+00, -0.000000e+00, 0x7F800000, 0xFF800000, 0x7F800000, 0.000000e+00, -0.000000e+00, 1.0e-45, 0.000000e+00, 3.0e-45, 0x7F800000, 0x7FC00000]> : tensor<15xf32>
  return
}
