// A custom_call target that is not a check.
// REJECT: unsupported: stablehlo.custom_call @my_kernel
func.func @main() {
  %cst = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = stablehlo.custom_call @my_kernel(%cst) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<[0.0, 1.0]> : tensor<2xf32>
  return
}
