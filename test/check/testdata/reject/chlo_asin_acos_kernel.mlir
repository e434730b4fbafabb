// chlo ops that the code generator does not implement (asin_acos_kernel,
// an intermediate of chlo's own decompositions) are rejected by name.
// REJECT: unsupported: chlo.asin_acos_kernel
func.func @main() {
  %x = stablehlo.constant dense<(0.5, 0.5)> : tensor<complex<f32>>
  %0 = "chlo.asin_acos_kernel"(%x) : (tensor<complex<f32>>) -> tensor<complex<f32>>
  check.expect_almost_eq_const %0, dense<(0.5, 0.5)> : tensor<complex<f32>>
  return
}
