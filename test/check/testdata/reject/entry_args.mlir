// A check file's entry runs without inputs; @main takes one.
// REJECT: unsupported: entry @main takes 1 arguments
func.func @main(%arg0: tensor<2xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
  check.expect_eq_const %0, dense<2.0> : tensor<2xf32>
  return
}
