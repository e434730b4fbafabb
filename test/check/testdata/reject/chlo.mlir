// chlo ops are not lowered by Stela: rejected by name.
// REJECT: unsupported: chlo.erf
func.func @main() {
  %cst = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = chlo.erf %cst : tensor<2xf32> -> tensor<2xf32>
  check.expect_almost_eq_const %0, dense<[0.0, 0.842700779]> : tensor<2xf32>
  return
}
