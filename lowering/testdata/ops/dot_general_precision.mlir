module @jit_matmul {
  func.func public @main(%arg0: tensor<3x4xbf16>, %arg1: tensor<4x5xbf16>) -> tensor<3x5xbf16> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, DEFAULT] : (tensor<3x4xbf16>, tensor<4x5xbf16>) -> tensor<3x5xbf16>
    return %0 : tensor<3x5xbf16>
  }
}
