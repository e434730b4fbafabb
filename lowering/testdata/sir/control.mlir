module @jit_control {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<3xf32>, %arg2: tensor<i32>) -> (tensor<i32>, tensor<3xf32>, tensor<3xf32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg1) : tensor<i32>, tensor<3xf32>
     cond {
      %2 = stablehlo.compare  LT, %iterArg, %iterArg,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %3 = stablehlo.remainder %iterArg, %c_1 : tensor<i32>
      %4 = "stablehlo.case"(%3) ({
        %5 = stablehlo.tanh %iterArg_0 : tensor<3xf32>
        stablehlo.return %5 : tensor<3xf32>
      }, {
        %5 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
        %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<3xf32>
        %7 = stablehlo.add %iterArg_0, %6 : tensor<3xf32>
        stablehlo.return %7 : tensor<3xf32>
      }) : (tensor<i32>) -> tensor<3xf32>
      stablehlo.return %2, %4 : tensor<i32>, tensor<3xf32>
    }
    %1 = "stablehlo.case"(%arg2) ({
      stablehlo.return %arg1 : tensor<3xf32>
    }, {
      %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
      stablehlo.return %cst : tensor<3xf32>
    }, {
      %2 = stablehlo.sine %arg1 : tensor<3xf32>
      %3 = stablehlo.multiply %2, %arg1 : tensor<3xf32>
      stablehlo.return %3 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    return %0#0, %0#1, %1 : tensor<i32>, tensor<3xf32>, tensor<3xf32>
  }
}
