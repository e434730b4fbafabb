// Quantized types (!quant.uniform, per-tensor and per-axis): a quantized
// tensor is stored as its storage integers; uniform_quantize is
// clamp(round_nearest_even(x / scale) + zero_point) into the storage
// range, uniform_dequantize (q - zero_point) * scale; an arithmetic op on
// quantized tensors is the spec's dequantize–add–quantize; bitcast_convert
// shows the stored integers. Expected values by hand.
func.func @main() {
  %x = stablehlo.constant dense<[1.0, -2.0, 100.0, -100.0, 0.25, 0.75]> : tensor<6xf32>
  %q = stablehlo.uniform_quantize %x : tensor<6x!quant.uniform<i8:f32, 0.5:-3>>
  %s = stablehlo.bitcast_convert %q : (tensor<6x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<6xi8>
  check.expect_eq_const %s, dense<[-1, -7, 127, -128, -3, -1]> : tensor<6xi8>
  %d = stablehlo.uniform_dequantize %q : (tensor<6x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<6xf32>
  check.expect_eq_const %d, dense<[1.0, -2.0, 65.0, -62.5, 0.0, 1.0]> : tensor<6xf32>
  %a = stablehlo.add %q, %q : tensor<6x!quant.uniform<i8:f32, 0.5:-3>>
  %ad = stablehlo.uniform_dequantize %a : (tensor<6x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<6xf32>
  check.expect_eq_const %ad, dense<[2.0, -4.0, 65.0, -62.5, 0.0, 2.0]> : tensor<6xf32>
  %m = stablehlo.constant dense<[[1.0, 1.0], [-1.0, 4.0]]> : tensor<2x2xf32>
  %pq = stablehlo.uniform_quantize %m : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 2.0:1}>>
  %ps = stablehlo.bitcast_convert %pq : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 2.0:1}>>) -> tensor<2x2xi8>
  check.expect_eq_const %ps, dense<[[2, 1], [-2, 3]]> : tensor<2x2xi8>
  %pd = stablehlo.uniform_dequantize %pq : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 2.0:1}>>) -> tensor<2x2xf32>
  check.expect_eq_const %pd, dense<[[1.0, 0.0], [-1.0, 4.0]]> : tensor<2x2xf32>
  // dot_general on quantized operands into a quantized result:
  // dequantize, multiply and sum in f32, quantize (scale 0.25, zero 0).
  %l = stablehlo.constant dense<[[1.0, 2.0], [0.5, -1.0]]> : tensor<2x2xf32>
  %lq = stablehlo.uniform_quantize %l : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %dq = stablehlo.dot_general %lq, %lq, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.25>>
  %dd = stablehlo.uniform_dequantize %dq : (tensor<2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2xf32>
  check.expect_eq_const %dd, dense<[[2.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf32>
  return
}
