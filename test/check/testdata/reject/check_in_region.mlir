// Expectations are judged on the host after the run, so they must be in
// the entry function's body, not inside a region.
// REJECT: unsupported: check op inside the region of stablehlo.reduce
func.func @main() {
  %cst = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %cst_0 = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%cst init: %cst_0) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
   reducer(%arg0: tensor<f32>, %arg1: tensor<f32>)  {
    %1 = stablehlo.add %arg0, %arg1 : tensor<f32>
    check.expect_eq_const %1, dense<1.0> : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }
  check.expect_eq_const %0, dense<3.0> : tensor<f32>
  return
}
