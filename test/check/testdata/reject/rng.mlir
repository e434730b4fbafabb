// An op the Stela CPU code generator does not implement: exit 2, named.
// (stablehlo.rng's results are implementation-defined; producers use
// rng_bit_generator.)
// REJECT: unsupported: stablehlo.rng
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.constant dense<1.0> : tensor<f32>
  %s = stablehlo.constant dense<4> : tensor<1xi64>
  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  check.expect_eq %0, %0 : tensor<4xf32>
  return
}
