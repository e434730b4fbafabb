// Quantized types (!quant.uniform) are not supported.
// REJECT: unsupported: stablehlo.uniform_quantize
func.func @main() {
  %cst = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %0 = stablehlo.uniform_quantize %cst : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[4.0, 15.0]> : tensor<2xf32>
  return
}
