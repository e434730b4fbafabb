// Quantized constants and quantized types inside regions. A quantized
// constant holds the stored integers: its value has the storage type (as
// MLIR keeps it: `"stablehlo.constant"() <{value = dense<...> :
// tensor<4xi8>}> : () -> tensor<4x!quant.uniform<...>>`). In region bodies every
// quantized op is the spec's dequantize–compute–quantize, step by step:
// a reduce requantizes (and so clamps to the storage range) after every
// addition. Expected values by hand from the spec's formulas
// (dequantize: (q - zero_point) * scale; quantize: clamp(round(x / scale)
// + zero_point)).
func.func @main() {
  %0 = "stablehlo.constant"() <{value = dense<[1, 5, -3, 7]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  check.expect_eq_const %1, dense<[0.0, 2.0, -2.0, 3.0]> : tensor<4xf32>
  %2 = "stablehlo.constant"() <{value = dense<[2, 4]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.25:-2>>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<2x!quant.uniform<i8:f32, 0.25:-2>>) -> tensor<2xf32>
  check.expect_eq_const %3, dense<[1.0, 1.5]> : tensor<2xf32>
  // reduce: real values 4, 9, 14, 19 (stored (q - 2) * 0.5), sum 46.
  %x = "stablehlo.constant"() <{value = dense<[10, 20, 30, 40]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 0.5:2>>
  %z = "stablehlo.constant"() <{value = dense<2> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.5:2>>
  %4 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:2>>, tensor<!quant.uniform<i8:f32, 0.5:2>>) -> tensor<!quant.uniform<i8:f32, 0.5:2>>
  %5 = stablehlo.uniform_dequantize %4 : (tensor<!quant.uniform<i8:f32, 0.5:2>>) -> tensor<f32>
  check.expect_eq_const %5, dense<46.0> : tensor<f32>
  // Three times 40.0: every partial sum is requantized, and 80.0 clamps
  // to the largest stored value, (127 - 2) * 0.5 = 62.5, twice.
  %y = "stablehlo.constant"() <{value = dense<82> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 0.5:2>>
  %6 = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3x!quant.uniform<i8:f32, 0.5:2>>, tensor<!quant.uniform<i8:f32, 0.5:2>>) -> tensor<!quant.uniform<i8:f32, 0.5:2>>
  %7 = stablehlo.uniform_dequantize %6 : (tensor<!quant.uniform<i8:f32, 0.5:2>>) -> tensor<f32>
  check.expect_eq_const %7, dense<62.5> : tensor<f32>
  // sort with a comparator on quantized scalars: real 4, -8, 16, -2.
  %s = "stablehlo.constant"() <{value = dense<[3, -3, 9, 0]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 2.0:1>>
  %8 = "stablehlo.sort"(%s) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 2.0:1>>, %b: tensor<!quant.uniform<i8:f32, 2.0:1>>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<!quant.uniform<i8:f32, 2.0:1>>, tensor<!quant.uniform<i8:f32, 2.0:1>>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4x!quant.uniform<i8:f32, 2.0:1>>) -> tensor<4x!quant.uniform<i8:f32, 2.0:1>>
  %9 = stablehlo.uniform_dequantize %8 : (tensor<4x!quant.uniform<i8:f32, 2.0:1>>) -> tensor<4xf32>
  check.expect_eq_const %9, dense<[-8.0, -2.0, 4.0, 16.0]> : tensor<4xf32>
  return
}
