// stablehlo.while: a counted loop with a reduction in its body, a loop
// that runs zero times, a body that rotates its state (every result is
// another parameter), an i1 flag in the state, and a nested loop whose
// body uses a value from outside both loops.
func.func @main() {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %x = stablehlo.constant dense<[1.5, 2.0, -3.0]> : tensor<3xf32>
  // acc += sum(v); v = v + v, five times: sum(v) = 0.5, 1, 2, 4, 8.
  %0:3 = stablehlo.while(%i = %c0, %acc = %zero, %v = %x) : tensor<i32>, tensor<f32>, tensor<3xf32>
   cond {
    %p = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %s = stablehlo.reduce(%v init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    %a = stablehlo.add %acc, %s : tensor<f32>
    %w = stablehlo.add %v, %v : tensor<3xf32>
    stablehlo.return %i1, %a, %w : tensor<i32>, tensor<f32>, tensor<3xf32>
  }
  check.expect_eq_const %0#0, dense<5> : tensor<i32>
  check.expect_eq_const %0#1, dense<15.5> : tensor<f32>
  check.expect_eq_const %0#2, dense<[48.0, 64.0, -96.0]> : tensor<3xf32>
  // The condition is false at once: the operands come out unchanged.
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %1:2 = stablehlo.while(%i = %c7, %v = %x) : tensor<i32>, tensor<3xf32>
   cond {
    %p = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %w = stablehlo.negate %v : tensor<3xf32>
    stablehlo.return %i1, %w : tensor<i32>, tensor<3xf32>
  }
  check.expect_eq_const %1#0, dense<7> : tensor<i32>
  check.expect_eq_const %1#1, dense<[1.5, 2.0, -3.0]> : tensor<3xf32>
  // (a, b, c) -> (b, c, a) four times: one rotation.
  %a0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %b0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %d0 = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %2:4 = stablehlo.while(%i = %c0, %a = %a0, %b = %b0, %d = %d0) : tensor<i32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
   cond {
    %p = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %i1, %b, %d, %a : tensor<i32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
  }
  check.expect_eq_const %2#1, dense<[3, 4]> : tensor<2xi64>
  check.expect_eq_const %2#2, dense<[5, 6]> : tensor<2xi64>
  check.expect_eq_const %2#3, dense<[1, 2]> : tensor<2xi64>
  // An i1 flag toggled three times; the condition reads the counter.
  %f = stablehlo.constant dense<false> : tensor<i1>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %3:2 = stablehlo.while(%i = %c0, %g = %f) : tensor<i32>, tensor<i1>
   cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %h = stablehlo.not %g : tensor<i1>
    stablehlo.return %i1, %h : tensor<i32>, tensor<i1>
  }
  check.expect_eq_const %3#1, dense<true> : tensor<i1>
  // Nested: for i in 0..2, for j in 0..i: acc += k, with k from outside
  // both loops (1 + 2 + 3 = 6 additions).
  %k = stablehlo.constant dense<[1.0e+01, 2.5e-01]> : tensor<2xf64>
  %z = stablehlo.constant dense<0.0> : tensor<2xf64>
  %4:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<2xf64>
   cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %5:2 = stablehlo.while(%j = %c0, %in = %acc) : tensor<i32>, tensor<2xf64>
     cond {
      %p = stablehlo.compare LT, %j, %i1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %j1 = stablehlo.add %j, %c1 : tensor<i32>
      %s = stablehlo.add %in, %k : tensor<2xf64>
      stablehlo.return %j1, %s : tensor<i32>, tensor<2xf64>
    }
    stablehlo.return %i1, %5#1 : tensor<i32>, tensor<2xf64>
  }
  check.expect_eq_const %4#1, dense<[6.0e+01, 1.5]> : tensor<2xf64>
  return
}
