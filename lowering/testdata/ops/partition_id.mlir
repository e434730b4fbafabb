module @jit_partition_id {
  func.func public @main() -> tensor<ui32> {
    %0 = stablehlo.partition_id : tensor<ui32>
    return %0 : tensor<ui32>
  }
}
