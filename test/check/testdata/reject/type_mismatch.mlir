// Operands of different element types: the module does not verify.
// REJECT: stablehlo.add
func.func @main() {
  %cst = stablehlo.constant dense<1.0> : tensor<2xf32>
  %c = stablehlo.constant dense<1> : tensor<2xi32>
  %0 = stablehlo.add %cst, %c : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<2.0> : tensor<2xf32>
  return
}
