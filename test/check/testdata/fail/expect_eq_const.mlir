// A wrong exact expectation: 3 + 4 is 7, not 8. The report names the line,
// the check and the first mismatching index (a multi-index for rank 2).
// FAIL: 8: check.expect_eq_const: element [1, 0]: actual 7, expected 8
func.func @main() {
  %c = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c_0 = stablehlo.constant dense<[[1, 1], [4, 4]]> : tensor<2x2xi32>
  %0 = stablehlo.add %c, %c_0 : tensor<2x2xi32>
  check.expect_eq_const %0, dense<[[2, 3], [8, 9]]> : tensor<2x2xi32>
  return
}
