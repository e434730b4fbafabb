// chlo.top_k (largest first; equal values keep their order; NaN above
// +Inf, as chlo's legalization to a stable TOTALORDER sort gives), chlo's
// broadcasting binary ops (numpy-style and with broadcast_dimensions),
// chlo.next_after and chlo.is_inf.
func.func @main() {
  %v = stablehlo.constant dense<[[1.0, 5.0, 5.0, 0x7FC00000, -1.0, 5.0], [2.0, 2.0, 2.0, 0x7F800000, 3.0, -0.0]]> : tensor<2x6xf32>
  %0:2 = chlo.top_k(%v, k = 3) : tensor<2x6xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_almost_eq_const %0#0, dense<[[0x7FC00000, 5.0, 5.0], [0x7F800000, 3.0, 2.0]]> : tensor<2x3xf32>
  check.expect_eq_const %0#1, dense<[[3, 1, 2], [3, 4, 0]]> : tensor<2x3xi32>
  %w = stablehlo.constant dense<[4, -1, 4, 9223372036854775807, 0]> : tensor<5xi64>
  %1:2 = chlo.top_k(%w, k = 2) : tensor<5xi64> -> (tensor<2xi64>, tensor<2xi32>)
  check.expect_eq_const %1#0, dense<[9223372036854775807, 4]> : tensor<2xi64>
  check.expect_eq_const %1#1, dense<[3, 0]> : tensor<2xi32>
  %a = stablehlo.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %b = stablehlo.constant dense<[10.0, 2.5, -1.0, 4.0]> : tensor<4xf32>
  %2 = "chlo.broadcast_add"(%a, %b) : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  check.expect_eq_const %2, dense<[[11.0, 3.5, 0.0, 5.0], [12.0, 4.5, 1.0, 6.0], [13.0, 5.5, 2.0, 7.0]]> : tensor<3x4xf32>
  %c = stablehlo.constant dense<[100, 200]> : tensor<2xi32>
  %d = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %3 = "chlo.broadcast_subtract"(%c, %d) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %3, dense<[[99, 98, 97], [196, 195, 194]]> : tensor<2x3xi32>
  %4 = "chlo.broadcast_compare"(%a, %b) {comparison_direction = #chlo<comparison_direction GT>} : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  check.expect_eq_const %4, dense<[[false, false, true, false], [false, false, true, false], [false, true, true, false]]> : tensor<3x4xi1>
  %x = stablehlo.constant dense<[1.0, 1.0, 0.0, -0.0, 0x7FF0000000000000]> : tensor<5xf64>
  %y = stablehlo.constant dense<[2.0, 0.0, -1.0, 1.0, 0.0]> : tensor<5xf64>
  %5 = chlo.next_after %x, %y : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
  check.expect_eq_const %5, dense<[1.0000000000000002, 0.99999999999999989, -4.9406564584124654e-324, 4.9406564584124654e-324, 1.7976931348623157e+308]> : tensor<5xf64>
  %6 = chlo.is_inf %x : tensor<5xf64> -> tensor<5xi1>
  check.expect_eq_const %6, dense<[false, false, false, false, true]> : tensor<5xi1>
  %7 = chlo.is_neg_inf %y : tensor<5xf64> -> tensor<5xi1>
  check.expect_eq_const %7, dense<[false, false, false, false, false]> : tensor<5xi1>
  return
}
