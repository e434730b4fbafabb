module @jit_constant {
  func.func public @main() -> tensor<2x2xf32> {
    %cst = stablehlo.constant dense<[[1.000000e+00, 2.500000e+00], [-0.000000e+00, 0x7FC00000]]> : tensor<2x2xf32>
    return %cst : tensor<2x2xf32>
  }
}
