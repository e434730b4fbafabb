// A use of a value nothing defines.
// REJECT: malformed:
func.func @main() {
  %cst = stablehlo.constant dense<1.0> : tensor<2xf32>
  %0 = stablehlo.add %cst, %cst_9 : tensor<2xf32>
  check.expect_eq_const %0, dense<2.0> : tensor<2xf32>
  return
}
