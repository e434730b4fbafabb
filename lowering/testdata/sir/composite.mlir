module @jit_attention {
  func.func public @main(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
    %0 = stablehlo.composite "stela.softmax" %arg0 {composite_attributes = {axis = 1 : i64}, decomposition = @stela.softmax_impl, version = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.composite "stela.softmax" %arg1 {composite_attributes = {axis = 1 : i64}, decomposition = @stela.softmax_impl, version = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.composite "stela.gelu" %1 {composite_attributes = {approximate = "tanh", eps = 9.9999999999999995E-7 : f64, exact = false, flags = array<i64: 1, 0>}, decomposition = @stela.gelu_impl} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %0, %2 : tensor<2x4xf32>, tensor<2x4xf32>
  }
  func.func private @stela.softmax_impl(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<2x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<2xf32>) -> tensor<2x4xf32>
    %3 = stablehlo.divide %0, %2 : tensor<2x4xf32>
    return %3 : tensor<2x4xf32>
  }
  func.func private @stela.gelu_impl(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<2x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x4xf32>
    return %1 : tensor<2x4xf32>
  }
}
