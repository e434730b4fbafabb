// stablehlo.dot_general with IEEE special values: NaN and infinities propagate
// through the sums.
func.func @main() {
  // Inf * 0 in a sum makes NaN; NaN anywhere in a row makes NaN; Inf + -Inf makes NaN; huge products overflow to Inf.
  %cst = stablehlo.constant dense<[[1.0e+00, 2.0e+00], [0x7F800000, 1.0e+00], [0x7FC00000, 0.000000e+00], [0x7F800000, 0xFF800000], [3.0e+38, 3.0e+38]]> : tensor<5x2xf32>
  %cst_0 = stablehlo.constant dense<[[0.000000e+00, 1.0e+00], [1.0e+00, 1.0e+00]]> : tensor<2x2xf32>
  %0 = stablehlo.dot_general %cst, %cst_0, contracting_dims = [1] x [0] : (tensor<5x2xf32>, tensor<2x2xf32>) -> tensor<5x2xf32>
  check.expect_eq_const %0, dense<[[2.0e+00, 3.0e+00], [0x7FC00000, 0x7F800000], [0x7FC00000, 0x7FC00000], [0x7FC00000, 0x7FC00000], [3.0e+38, 0x7F800000]]> : tensor<5x2xf32>
  return
}
