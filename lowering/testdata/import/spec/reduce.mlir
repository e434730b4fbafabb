// Reductions, windows and sorts: JAX's pretty reduce forms, generic
// regions with ^bb0 headers, a body that uses a constant from above,
// defaults left out.
module @jit_reduce {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xi32>) -> (tensor<6xf32>, tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4x6xf32>, tensor<4x6xi32>, tensor<4x6xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst_0), (%arg1 init: %c) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
     reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
      %5 = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %a, %b : tensor<i1>, tensor<f32>
      %7 = stablehlo.select %5, %i, %j : tensor<i1>, tensor<i32>
      stablehlo.return %6, %7 : tensor<f32>, tensor<i32>
    }
    %2 = "stablehlo.reduce"(%arg0, %cst) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
      %5 = stablehlo.multiply %x, %cst_0 : tensor<f32>
      %6 = stablehlo.maximum %acc, %5 : tensor<f32>
      stablehlo.return %6 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 1, 6>}> ({
    ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
      %5 = stablehlo.add %acc, %x : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x1xf32>
    %4 = stablehlo.reshape %3 : (tensor<4x1xf32>) -> tensor<4xf32>
    %5 = "stablehlo.reduce_window"(%arg0, %cst_0) ({
    ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
      %6 = stablehlo.maximum %acc, %x : tensor<f32>
      stablehlo.return %6 : tensor<f32>
    }) {window_dimensions = dense<[2, 2]> : tensor<2xi64>, window_strides = dense<[2, 3]> : tensor<2xi64>, base_dilations = dense<1> : tensor<2xi64>, window_dilations = dense<[1, 2]> : tensor<2xi64>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
    %6:2 = "stablehlo.sort"(%arg0, %arg1) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
      %7 = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    }) : (tensor<4x6xf32>, tensor<4x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
    %7 = "stablehlo.sort"(%arg0) <{dimension = -2 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %8 = stablehlo.compare  GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    return %0, %1#0, %1#1, %2, %4, %5, %6#0, %6#1, %7 : tensor<6xf32>, tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4x6xf32>, tensor<4x6xi32>, tensor<4x6xf32>
  }
}
