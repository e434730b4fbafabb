module @jit_replica_id {
  func.func public @main() -> tensor<ui32> {
    %0 = stablehlo.replica_id : tensor<ui32>
    return %0 : tensor<ui32>
  }
}
