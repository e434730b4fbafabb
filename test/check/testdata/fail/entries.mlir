// Without @main every function without arguments is an entry (the style of
// StableHLO's interpreter tests). @ok passes; @wrong_compare expects the
// comparison of NaN with itself to be true, which it is not (unordered).
// FAIL: 15: check.expect_eq_const: element [1]: actual false, expected true
func.func @ok() {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %0 = stablehlo.negate %c : tensor<2xi64>
  check.expect_eq_const %0, dense<[-1, -2]> : tensor<2xi64>
  func.return
}

func.func @wrong_compare() {
  %cst = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %0 = stablehlo.compare  EQ, %cst, %cst,  FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  check.expect_eq_const %0, dense<true> : tensor<2xi1>
  func.return
}
