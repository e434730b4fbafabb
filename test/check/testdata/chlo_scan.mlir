// chlo.scan (its `inits` form): body(inputs[i], carries) -> (outputs[i],
// carries) for each i along `dimension` (backwards with is_reverse), the
// outputs stacked along that dimension, the last carries returned after
// them. Expected values from numpy loops over the definition, not from
// Stela.
func.func @main() {
  %x = stablehlo.constant dense<[[5.0, 1.0, 2.0], [4.0, 1.0, 3.0], [4.0, -3.0, -5.0], [-2.0, -2.0, 4.0]]> : tensor<4x3xf32>
  %z3 = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %s:2 = chlo.scan(%x) inits (%z3) dimension=0 {
  ^bb0(%in: tensor<3xf32>, %c: tensor<3xf32>):
    %t = stablehlo.add %in, %c : tensor<3xf32>
    stablehlo.return %t, %t : tensor<3xf32>, tensor<3xf32>
  } : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  check.expect_eq_const %s#0, dense<[[5.0, 1.0, 2.0], [9.0, 2.0, 5.0], [13.0, -1.0, 0.0], [11.0, -3.0, 4.0]]> : tensor<4x3xf32>
  check.expect_eq_const %s#1, dense<[11.0, -3.0, 4.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[[4, -4, 0, 3, -3], [3, -3, 0, 3, -2]]> : tensor<2x5xi32>
  %c0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r:2 = chlo.scan(%y) inits (%c0) dimension=1 attributes {is_reverse = true} {
  ^bb0(%in: tensor<2xi32>, %c: tensor<2xi32>):
    %o = stablehlo.multiply %in, %c : tensor<2xi32>
    %n = stablehlo.add %c, %in : tensor<2xi32>
    stablehlo.return %o, %n : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x5xi32>, tensor<2xi32>) -> (tensor<2x5xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[[-12, -4, 0, -6, -3], [0, -9, 0, 0, -4]]> : tensor<2x5xi32>
  check.expect_eq_const %r#1, dense<[1, 3]> : tensor<2xi32>
  %a = stablehlo.constant dense<[[-1.0, -2.0], [2.0, -2.0], [3.0, 0.0]]> : tensor<3x2xf64>
  %b = stablehlo.constant dense<[[0.0, 0.0], [1.0, 0.0], [0.0, 3.0]]> : tensor<3x2xf64>
  %k = stablehlo.constant dense<0.5> : tensor<f64>
  %m:3 = chlo.scan(%a, %b) inits (%k) dimension=0 {
  ^bb0(%p: tensor<2xf64>, %q: tensor<2xf64>, %c: tensor<f64>):
    %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %pq = stablehlo.multiply %p, %q : tensor<2xf64>
    %o1 = stablehlo.add %pq, %cb : tensor<2xf64>
    %o2 = stablehlo.subtract %p, %cb : tensor<2xf64>
    %one = stablehlo.constant dense<1.0> : tensor<f64>
    %n = stablehlo.add %c, %one : tensor<f64>
    stablehlo.return %o1, %o2, %n : tensor<2xf64>, tensor<2xf64>, tensor<f64>
  } : (tensor<3x2xf64>, tensor<3x2xf64>, tensor<f64>) -> (tensor<3x2xf64>, tensor<3x2xf64>, tensor<f64>)
  check.expect_eq_const %m#0, dense<[[0.5, 0.5], [3.5, 1.5], [2.5, 2.5]]> : tensor<3x2xf64>
  check.expect_eq_const %m#1, dense<[[-1.5, -2.5], [0.5, -3.5], [0.5, -2.5]]> : tensor<3x2xf64>
  check.expect_eq_const %m#2, dense<3.5> : tensor<f64>
  return
}
