// stablehlo.batch_norm_* on per-tensor quantized types: dequantize, the
// float op, quantize (the spec). Expected stored integers from numpy over
// the spec's formulas in float64 (gen/batch_norm.py), not from Stela.
func.func @main() {
  %v1 = stablehlo.constant dense<[[2.375, 0.8125], [1.0625, 2.125], [0.5625, 1.5625], [1.8125, -1.1875]]> : tensor<4x2xf32>
  %v2 = stablehlo.uniform_quantize %v1 : (tensor<4x2xf32>) -> tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v3 = stablehlo.constant dense<[0.75, 1.0625]> : tensor<2xf32>
  %v4 = stablehlo.uniform_quantize %v3 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v5 = stablehlo.constant dense<[-0.125, 0.625]> : tensor<2xf32>
  %v6 = stablehlo.uniform_quantize %v5 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v7 = stablehlo.constant dense<[0.6875, -0.4375]> : tensor<2xf32>
  %v8 = stablehlo.uniform_quantize %v7 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v9 = stablehlo.constant dense<[1.3125, 1.8125]> : tensor<2xf32>
  %v10 = stablehlo.uniform_quantize %v9 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v11 = stablehlo.constant dense<[[-0.75, 0.875], [-0.8125, 0.0625], [0.9375, -0.3125], [-0.25, -0.375]]> : tensor<4x2xf32>
  %v12 = stablehlo.uniform_quantize %v11 : (tensor<4x2xf32>) -> tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v13 = "stablehlo.batch_norm_inference"(%v2, %v4, %v6, %v8, %v10) {epsilon = 0.009999999776482582 : f32, feature_index = 1 : i64} : (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>
  %v14 = stablehlo.bitcast_convert %v13 : (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<4x2xi8>
  check.expect_eq_const %v14, dense<[[13, 23], [-1, 39], [-6, 32], [7, -2]]> : tensor<4x2xi8>
  %v15:3 = "stablehlo.batch_norm_training"(%v2, %v4, %v6) {epsilon = 0.009999999776482582 : f32, feature_index = 1 : i64} : (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>) -> (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>)
  %v16 = stablehlo.bitcast_convert %v15#0 : (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<4x2xi8>
  check.expect_eq_const %v16, dense<[[11, 7], [-12, 25], [-20, 17], [1, -20]]> : tensor<4x2xi8>
  %v17 = stablehlo.bitcast_convert %v15#1 : (tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<2xi8>
  check.expect_eq_const %v17, dense<[20, 10]> : tensor<2xi8>
  %v18 = stablehlo.bitcast_convert %v15#2 : (tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<2xi8>
  check.expect_eq_const %v18, dense<[5, 22]> : tensor<2xi8>
  %v19:3 = "stablehlo.batch_norm_grad"(%v2, %v4, %v8, %v10, %v12) {epsilon = 0.009999999776482582 : f32, feature_index = 1 : i64} : (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>) -> (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>)
  %v20 = stablehlo.bitcast_convert %v19#0 : (tensor<4x2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<4x2xi8>
  check.expect_eq_const %v20, dense<[[-2, 5], [-8, -7], [9, -11], [1, -7]]> : tensor<4x2xi8>
  %v21 = stablehlo.bitcast_convert %v19#1 : (tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<2xi8>
  check.expect_eq_const %v21, dense<[-30, 8]> : tensor<2xi8>
  %v22 = stablehlo.bitcast_convert %v19#2 : (tensor<2x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<2xi8>
  check.expect_eq_const %v22, dense<[-17, 1]> : tensor<2xi8>
  func.return
}
