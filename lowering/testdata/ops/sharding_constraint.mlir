module @jit_sharding_constraint attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<2x8xf32> {mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}
