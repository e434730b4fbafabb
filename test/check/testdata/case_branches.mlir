// stablehlo.case: the index picks a branch; an index out of range
// (negative or too large) runs the last one. Branches use values from
// outside and return several results of different types.
func.func private @pick(%i: tensor<i32>) -> (tensor<2xf32>, tensor<i1>) {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %0:2 = "stablehlo.case"(%i) ({
    stablehlo.return %a, %t : tensor<2xf32>, tensor<i1>
  }, {
    %s = stablehlo.add %a, %a : tensor<2xf32>
    %f = stablehlo.not %t : tensor<i1>
    stablehlo.return %s, %f : tensor<2xf32>, tensor<i1>
  }, {
    %n = stablehlo.negate %a : tensor<2xf32>
    stablehlo.return %n, %t : tensor<2xf32>, tensor<i1>
  }) : (tensor<i32>) -> (tensor<2xf32>, tensor<i1>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<i1>
}
func.func @main() {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = call @pick(%c0) : (tensor<i32>) -> (tensor<2xf32>, tensor<i1>)
  check.expect_eq_const %0#0, dense<[1.5, -2.0]> : tensor<2xf32>
  check.expect_eq_const %0#1, dense<true> : tensor<i1>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %1:2 = call @pick(%c1) : (tensor<i32>) -> (tensor<2xf32>, tensor<i1>)
  check.expect_eq_const %1#0, dense<[3.0, -4.0]> : tensor<2xf32>
  check.expect_eq_const %1#1, dense<false> : tensor<i1>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %2:2 = call @pick(%c2) : (tensor<i32>) -> (tensor<2xf32>, tensor<i1>)
  check.expect_eq_const %2#0, dense<[-1.5, 2.0]> : tensor<2xf32>
  %c9 = stablehlo.constant dense<9> : tensor<i32>
  %3:2 = call @pick(%c9) : (tensor<i32>) -> (tensor<2xf32>, tensor<i1>)
  check.expect_eq_const %3#0, dense<[-1.5, 2.0]> : tensor<2xf32>
  %cm = stablehlo.constant dense<-1> : tensor<i32>
  %4:2 = call @pick(%cm) : (tensor<i32>) -> (tensor<2xf32>, tensor<i1>)
  check.expect_eq_const %4#0, dense<[-1.5, 2.0]> : tensor<2xf32>
  check.expect_eq_const %4#1, dense<true> : tensor<i1>
  // A case inside a loop: the branch depends on the iteration.
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<i64>
  %5:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<i64>
   cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %r = "stablehlo.case"(%i) ({
      %c100 = stablehlo.constant dense<100> : tensor<i64>
      stablehlo.return %c100 : tensor<i64>
    }, {
      %c20 = stablehlo.constant dense<20> : tensor<i64>
      stablehlo.return %c20 : tensor<i64>
    }, {
      %c3i = stablehlo.constant dense<3> : tensor<i64>
      stablehlo.return %c3i : tensor<i64>
    }) : (tensor<i32>) -> tensor<i64>
    %a = stablehlo.add %acc, %r : tensor<i64>
    stablehlo.return %i1, %a : tensor<i32>, tensor<i64>
  }
  check.expect_eq_const %5#1, dense<123> : tensor<i64>
  return
}
