module @jit_zeros {
  func.func public @main(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
    %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<> : tensor<0x2xi64>}> : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    return %0 : tensor<2xcomplex<f32>>
  }
}
