// chlo ops that the code generator does not implement (polygamma, zeta,
// ragged_dot, ...) are rejected by name.
// REJECT: unsupported: chlo.polygamma
func.func @main() {
  %n = stablehlo.constant dense<1.0> : tensor<f32>
  %x = stablehlo.constant dense<2.0> : tensor<f32>
  %0 = chlo.polygamma %n, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const %0, dense<0.644934058> : tensor<f32>
  return
}
