module @jit_custom_call {
  func.func public @main(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<ui8>) {
    %0:2 = stablehlo.custom_call @my_target(%arg0) {backend_config = "cfg \22x\22", has_side_effect = true} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<ui8>)
    return %0#0, %0#1 : tensor<2xf32>, tensor<ui8>
  }
}
