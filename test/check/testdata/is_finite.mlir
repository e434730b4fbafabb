// stablehlo.is_finite on f32 and f64 gives i1: false for ±Inf and NaN only
// (subnormals and the largest float are finite).
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -3.4028235e+38, 1.0e-45, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<8xf32>
  %0 = stablehlo.is_finite %cst : (tensor<8xf32>) -> tensor<8xi1>
  check.expect_eq_const %0, dense<[true, true, true, true, true, false, false, false]> : tensor<8xi1>
  %cst_0 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -1.7976931348623157e+308, 5.0e-324, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<8xf64>
  %1 = stablehlo.is_finite %cst_0 : (tensor<8xf64>) -> tensor<8xi1>
  check.expect_eq_const %1, dense<[true, true, true, true, true, false, false, false]> : tensor<8xi1>
  return
}
