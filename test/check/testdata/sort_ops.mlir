// stablehlo.sort: one operand ascending, keys with values (equal keys keep
// their order in a stable sort), descending along the second dimension,
// a comparator on the second operand, a lexicographic comparator over two
// keys, and TOTALORDER on floats (NaN above +Inf).
func.func @main() {
  %x = stablehlo.constant dense<[3.0, -1.0, 2.5, 7.0, -4.5]> : tensor<5xf32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_eq_const %0, dense<[-4.5, -1.0, 2.5, 3.0, 7.0]> : tensor<5xf32>
  %k = stablehlo.constant dense<[3, 1, 3, 2, 1, 3]> : tensor<6xi32>
  %v = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf64>
  %1:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f64>, %d: tensor<f64>):
    %p = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<6xi32>, tensor<6xf64>) -> (tensor<6xi32>, tensor<6xf64>)
  check.expect_eq_const %1#0, dense<[1, 1, 2, 3, 3, 3]> : tensor<6xi32>
  check.expect_eq_const %1#1, dense<[1.0, 4.0, 3.0, 0.0, 2.0, 5.0]> : tensor<6xf64>
  // Descending along dimension 1 of a matrix.
  %m = stablehlo.constant dense<[[4, -2, 9, 0], [-7, 5, 5, 1]]> : tensor<2x4xi64>
  %2 = "stablehlo.sort"(%m) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<2x4xi64>) -> tensor<2x4xi64>
  check.expect_eq_const %2, dense<[[9, 4, 0, -2], [5, 5, 1, -7]]> : tensor<2x4xi64>
  // Along dimension 0, by the second operand: the first follows.
  %p0 = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %q0 = stablehlo.constant dense<[[0.5, 9.0], [0.25, 8.0], [0.75, 7.0]]> : tensor<3x2xf32>
  %3:2 = "stablehlo.sort"(%p0, %q0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare LT, %c, %d, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<3x2xi32>, tensor<3x2xf32>)
  check.expect_eq_const %3#0, dense<[[3, 6], [1, 4], [5, 2]]> : tensor<3x2xi32>
  check.expect_eq_const %3#1, dense<[[0.25, 7.0], [0.5, 8.0], [0.75, 9.0]]> : tensor<3x2xf32>
  // Lexicographic: first key ascending, then second key descending.
  %k1 = stablehlo.constant dense<[2, 1, 2, 1, 2]> : tensor<5xi32>
  %k2 = stablehlo.constant dense<[1, 5, 3, 6, 2]> : tensor<5xi32>
  %4:2 = "stablehlo.sort"(%k1, %k2) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %gt = stablehlo.compare GT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %both = stablehlo.and %eq, %gt : tensor<i1>
    %r = stablehlo.or %lt, %both : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>)
  check.expect_eq_const %4#0, dense<[1, 1, 2, 2, 2]> : tensor<5xi32>
  check.expect_eq_const %4#1, dense<[6, 5, 3, 2, 1]> : tensor<5xi32>
  // TOTALORDER: -Inf < -1 < 2 < +Inf < NaN.
  %f = stablehlo.constant dense<[0x7FF8000000000000, 2.0, 0xFFF0000000000000, 0x7FF0000000000000, -1.0]> : tensor<5xf64>
  %5 = "stablehlo.sort"(%f) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %p = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %5, dense<[0xFFF0000000000000, -1.0, 2.0, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<5xf64>
  return
}
