module @jit_iota {
  func.func public @main() -> tensor<2x3xui32> {
    %0 = stablehlo.iota dim = 1 : tensor<2x3xui32>
    return %0 : tensor<2x3xui32>
  }
}
