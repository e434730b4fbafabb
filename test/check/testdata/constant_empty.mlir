// Zero-element tensors: dense<> literals and zero-size dimensions.
func.func @main() {
  %cst = stablehlo.constant dense<> : tensor<0xf32>
  %0 = stablehlo.add %cst, %cst : tensor<0xf32>
  check.expect_eq_const %0, dense<> : tensor<0xf32>
  %c = stablehlo.constant dense<> : tensor<2x0xi32>
  %1 = stablehlo.negate %c : tensor<2x0xi32>
  check.expect_eq_const %1, dense<> : tensor<2x0xi32>
  %c_0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %2 = stablehlo.slice %c_0 [1:1] : (tensor<2xi64>) -> tensor<0xi64>
  check.expect_eq_const %2, dense<> : tensor<0xi64>
  // A sum over nothing is the init value.
  %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %3 = stablehlo.reduce(%cst init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %3, dense<0.000000e+00> : tensor<f32>
  return
}
