// func.call inside region bodies, as chlo's cumulative ops and JAX's
// helpers write them: a reduce and a reduce_window (a cumulative sum)
// whose bodies call @add, and a sort comparator calling @less, which
// calls @key in turn. Expected values by hand.
func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @key(%a: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.abs %a : tensor<i32>
  return %0 : tensor<i32>
}
func.func private @less(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i1> {
  %ka = call @key(%a) : (tensor<i32>) -> tensor<i32>
  %kb = call @key(%b) : (tensor<i32>) -> tensor<i32>
  %0 = stablehlo.compare LT, %ka, %kb, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.5]> : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%p: tensor<f32>, %q: tensor<f32>) {
      %s = func.call @add(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  check.expect_eq_const %0, dense<10.5> : tensor<f32>
  %1 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 4>, padding = dense<[[3, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = func.call @add(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %1, dense<[1.0, 3.0, 6.0, 10.5]> : tensor<4xf32>
  %i = stablehlo.constant dense<[3, -1, -4, 2]> : tensor<4xi32>
  %2 = "stablehlo.sort"(%i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = func.call @less(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %2, dense<[-1, 2, 3, -4]> : tensor<4xi32>
  return
}
