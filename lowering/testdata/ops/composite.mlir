module @jit_composite {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.composite "stela.scale" %arg0 {composite_attributes = {axis = 1 : i64, factor = 2.000000e+00 : f64, mode = "fast", shape = array<i64: 2, 3>, strict = true}, decomposition = @stela.scale_impl, version = 2 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  func.func private @stela.scale_impl(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
