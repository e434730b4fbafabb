// NaN is equal only to NaN, whatever the check: an exact check of 0/0 against
// 0 fails, and so does an almost-equal check of a number against NaN.
// FAIL: 9: check.expect_eq_const: element [0]: actual nan, expected 0
// FAIL: 12: custom_call @check.expect_almost_eq: element [0]: actual 1, expected nan (tolerance 0.001)
func.func @main() {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<2xf64>
  %cst_0 = stablehlo.constant dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf64>
  %0 = stablehlo.divide %cst, %cst_0 : tensor<2xf64>
  check.expect_eq_const %0, dense<0.000000e+00> : tensor<2xf64>
  %cst_1 = stablehlo.constant dense<[0x7FF8000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  %1 = stablehlo.exponential %cst : tensor<2xf64>
  stablehlo.custom_call @check.expect_almost_eq(%1, %cst_1) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
  return
}
