module @jit_composites {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "stela.double" %arg0 {decomposition = @stela.double_impl} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.composite "stela.double" %0 {decomposition = @stela.double_impl} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.composite "stela.double" %1 {decomposition = @stela.double_impl_0} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.composite "stela.outer" %2 {decomposition = @stela.outer_impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
  func.func private @stela.double_impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @stela.double_impl_0(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @stela.outer_impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "stela.inner" %arg0 {decomposition = @stela.inner_impl} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.composite "stela.inner2" %0 {decomposition = @stela.double_impl} : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @stela.inner_impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
