// Control flow whose regions use values from above, calls, tuples,
// barriers and composites.
module @jit_control {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<i32>, %arg2: tensor<i1>) -> (tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<i32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<3xf32>
    // The loop uses %arg1 (its bound), %cst and %arg0 from above; the
    // inner case uses the loop's state and %arg0.
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<3xf32>
     cond {
      %1 = stablehlo.compare  LT, %iterArg, %arg1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %c_2 = stablehlo.constant dense<2> : tensor<i32>
      %2 = stablehlo.remainder %iterArg, %c_2 : tensor<i32>
      %3 = "stablehlo.case"(%2) ({
        %4 = stablehlo.multiply %iterArg_0, %cst : tensor<3xf32>
        stablehlo.return %4 : tensor<3xf32>
      }, {
        %4 = stablehlo.add %iterArg_0, %arg0 : tensor<3xf32>
        stablehlo.return %4 : tensor<3xf32>
      }) : (tensor<i32>) -> tensor<3xf32>
      stablehlo.return %1, %3 : tensor<i32>, tensor<3xf32>
    }
    %1 = "stablehlo.if"(%arg2) ({
      %2 = stablehlo.sine %0#1 : tensor<3xf32>
      stablehlo.return %2 : tensor<3xf32>
    }, {
      stablehlo.return %cst : tensor<3xf32>
    }) : (tensor<i1>) -> tensor<3xf32>
    %2 = call @outer(%1, %arg1) : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
    %3 = stablehlo.tuple %2, %arg1 : tuple<tensor<3xf32>, tensor<i32>>
    %4 = stablehlo.get_tuple_element %3[0] : (tuple<tensor<3xf32>, tensor<i32>>) -> tensor<3xf32>
    %5 = stablehlo.get_tuple_element %3[1] : (tuple<tensor<3xf32>, tensor<i32>>) -> tensor<i32>
    %6:2 = stablehlo.optimization_barrier %4, %5 : tensor<3xf32>, tensor<i32>
    %7 = stablehlo.composite "my.softplus" %6#0 {composite_attributes = {beta = 1.000000e+00 : f32, eps = 1.000000e-06 : f64, dims = array<i64: 0>, exact = true, mode = "log", n = 3 : i64}, decomposition = @softplus, version = 2 : i32} : (tensor<3xf32>) -> tensor<3xf32>
    return %0#0, %0#1, %1, %4, %7, %6#1 : tensor<i32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<i32>
  }
  func.func private @outer(%arg0: tensor<3xf32>, %arg1: tensor<i32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = func.call @inner(%arg0, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    return %2 : tensor<3xf32>
  }
  func.func private @inner(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func private @softplus(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<3xf32>
    %1 = stablehlo.log_plus_one %0 : tensor<3xf32>
    return %1 : tensor<3xf32>
  }
}
