// stablehlo.bitcast_convert followed by arithmetic and compares of the new
// type: the fused kernels read the cast value with its own type (issue 19:
// "invalid fcmp operand type", "store operands are not compatible", and a
// viewed slice computed inline with no storage of its own), and region
// bodies (a sort comparator ordering floats through their bits) take it on
// scalars. Expected values: numpy's .view() of the same bits.
func.func @main() {
  %i = stablehlo.constant dense<[1078530011, 1065353216, -1082130432, 2139095040]> : tensor<4xi32>
  %f = stablehlo.bitcast_convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %0 = stablehlo.add %f, %f : tensor<4xf32>
  check.expect_eq_const %0, dense<[6.28318548, 2.0, -2.0, 0x7F800000]> : tensor<4xf32>
  %1 = stablehlo.compare GT, %0, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %1, dense<[true, true, false, false]> : tensor<4xi1>
  %g = stablehlo.constant dense<[1.0, 2.0, -0.0, 0x7F800000]> : tensor<4xf32>
  %gi = stablehlo.bitcast_convert %g : (tensor<4xf32>) -> tensor<4xi32>
  %one = stablehlo.constant dense<1> : tensor<4xi32>
  %2 = stablehlo.add %gi, %one : tensor<4xi32>
  check.expect_eq_const %2, dense<[1065353217, 1073741825, -2147483647, 2139095041]> : tensor<4xi32>
  // A slice feeding the cast only: it keeps its own storage.
  %s = stablehlo.slice %g [0:2] : (tensor<4xf32>) -> tensor<2xf32>
  %si = stablehlo.bitcast_convert %s : (tensor<2xf32>) -> tensor<2xi32>
  %3 = stablehlo.add %si, %si : tensor<2xi32>
  check.expect_eq_const %3, dense<[2130706432, -2147483648]> : tensor<2xi32>
  // Through a reshape and back and forth.
  %r = stablehlo.reshape %f : (tensor<4xf32>) -> tensor<2x2xf32>
  %ri = stablehlo.bitcast_convert %r : (tensor<2x2xf32>) -> tensor<2x2xi32>
  %rf = stablehlo.bitcast_convert %ri : (tensor<2x2xi32>) -> tensor<2x2xf32>
  %4 = stablehlo.multiply %rf, %r : tensor<2x2xf32>
  check.expect_almost_eq_const %4, dense<[[9.869605, 1.0], [1.0, 0x7F800000]]> : tensor<2x2xf32>
  // f16 bits as i16 and back.
  %h = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf16>
  %hi = stablehlo.bitcast_convert %h : (tensor<2xf16>) -> tensor<2xi16>
  %one16 = stablehlo.constant dense<1> : tensor<2xi16>
  %5 = stablehlo.add %hi, %one16 : tensor<2xi16>
  check.expect_eq_const %5, dense<[15361, -16383]> : tensor<2xi16>
  %6 = stablehlo.bitcast_convert %5 : (tensor<2xi16>) -> tensor<2xf16>
  %7 = stablehlo.negate %6 : tensor<2xf16>
  check.expect_eq_const %7, dense<[-1.0009765625, 2.001953125]> : tensor<2xf16>
  // A sort comparator that orders floats by their bits (sign-magnitude
  // flipped to two's complement): -0 before +0.
  %x = stablehlo.constant dense<[3.0, -1.0, 0.0, -0.0, 2.0]> : tensor<5xf32>
  %8 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ia = stablehlo.bitcast_convert %a : (tensor<f32>) -> tensor<i32>
    %ib = stablehlo.bitcast_convert %b : (tensor<f32>) -> tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %m = stablehlo.constant dense<2147483647> : tensor<i32>
    %na = stablehlo.xor %ia, %m : tensor<i32>
    %nb = stablehlo.xor %ib, %m : tensor<i32>
    %la = stablehlo.compare LT, %ia, %z, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lb = stablehlo.compare LT, %ib, %z, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %ka = stablehlo.select %la, %na, %ia : tensor<i1>, tensor<i32>
    %kb = stablehlo.select %lb, %nb, %ib : tensor<i1>, tensor<i32>
    %c = stablehlo.compare LT, %ka, %kb, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  %9 = stablehlo.bitcast_convert %8 : (tensor<5xf32>) -> tensor<5xi32>
  check.expect_eq_const %9, dense<[-1082130432, -2147483648, 0, 1073741824, 1077936128]> : tensor<5xi32>
  return
}
