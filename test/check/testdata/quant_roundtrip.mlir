// uniform_quantize then uniform_dequantize (scale 0.1, zero point -30):
// 4.0 and 15.0 round trip within the scale. Expected values by hand.
func.func @main() {
  %cst = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %0 = stablehlo.uniform_quantize %cst : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[4.0, 15.0]> : tensor<2xf32>
  return
}
