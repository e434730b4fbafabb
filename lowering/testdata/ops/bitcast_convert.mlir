module @jit_bitcast_convert {
  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3x4xui8> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<3xf32>) -> tensor<3x4xui8>
    return %0 : tensor<3x4xui8>
  }
}
