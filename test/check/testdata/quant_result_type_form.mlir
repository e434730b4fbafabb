// uniform_quantize written with only its result type (the operand's type
// is that of its definition): 1.0 / 0.5 - 3 = -1 and -2.0 / 0.5 - 3 = -7,
// which dequantize back exactly.
func.func @main() {
  %x = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  %d = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2xf32>
  check.expect_eq_const %d, dense<[1.0, -2.0]> : tensor<2xf32>
  return
}
