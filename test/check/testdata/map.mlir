// stablehlo.map: the body applied to each element of the operands (the
// spec's map with dimensions = every dimension in order). Bodies of
// elementwise ops, constants, compare and convert; on f32, si32 and 2-D
// shapes. Expected values by hand.
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0, -0.5, 0x7F800000]> : tensor<4xf32>
  %b = stablehlo.constant dense<[1.0, 2.5, 4.0, 1.0]> : tensor<4xf32>
  %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.constant dense<3.0> : tensor<f32>
    %m = stablehlo.multiply %x, %y : tensor<f32>
    %s = stablehlo.add %m, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %0, dense<[4.0, 8.0, 1.0, 0x7F800000]> : tensor<4xf32>
  %i = stablehlo.constant dense<[[1, -2, 3], [-4, 5, -2147483648]]> : tensor<2x3xi32>
  %1 = "stablehlo.map"(%i) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<i32>):
    %n = stablehlo.negate %x : tensor<i32>
    %m = stablehlo.maximum %x, %n : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %1, dense<[[1, 2, 3], [4, 5, -2147483648]]> : tensor<2x3xi32>
  %2 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %2, dense<[false, true, true, false]> : tensor<4xi1>
  %3 = "stablehlo.map"(%b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %p = stablehlo.multiply %x, %two : tensor<f32>
    %k = stablehlo.convert %p : (tensor<f32>) -> tensor<i32>
    stablehlo.return %k : tensor<i32>
  }) : (tensor<4xf32>) -> tensor<4xi32>
  check.expect_eq_const %3, dense<[2, 5, 8, 2]> : tensor<4xi32>
  return
}
