// chlo ops the code generator does not implement are rejected by name.
// (The expectation is bessel_i1e's true value, so a plugin that implements
// it passes: XLA's CUDA plugin does.)
// REJECT: unsupported: chlo.bessel_i1e
func.func @main() {
  %cst = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = chlo.bessel_i1e %cst : tensor<2xf32> -> tensor<2xf32>
  check.expect_almost_eq_const %0, dense<[0.0, 0.207910419]> : tensor<2xf32>
  return
}
