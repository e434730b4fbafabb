// A per-axis quantized type (scales and zero points per element of axis 0),
// from StableHLO's interpreter tests: i8 bits reinterpreted as quantized
// values, then dequantized: (10 - (-30)) * 0.1 = 4, (10 - (-20)) * 0.5 =
// 15.
func.func @main() {
  %operand = stablehlo.constant dense<[10, 10]> : tensor<2xi8>
  %bitcast_operand = "stablehlo.bitcast_convert"(%operand) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %result = "stablehlo.uniform_dequantize"(%bitcast_operand) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xf32>
  check.expect_almost_eq_const %result, dense<[4.0, 15.0]> : tensor<2xf32>
  func.return
}
