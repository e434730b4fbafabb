// stablehlo.dynamic_slice and dynamic_update_slice: start indices of
// either integer type, clamped so that the slice fits (a negative start
// becomes 0, one too large the last start that fits).
func.func @main() {
  %x = stablehlo.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi32>
  %i1 = stablehlo.constant dense<1> : tensor<i64>
  %i2 = stablehlo.constant dense<2> : tensor<i64>
  %0 = stablehlo.dynamic_slice %x, %i1, %i2, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  check.expect_eq_const %0, dense<[[12, 13], [22, 23]]> : tensor<2x2xi32>
  %big = stablehlo.constant dense<7> : tensor<i32>
  %neg = stablehlo.constant dense<-3> : tensor<i32>
  %1 = stablehlo.dynamic_slice %x, %big, %neg, sizes = [2, 3] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const %1, dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi32>
  %f = stablehlo.constant dense<[1.5, 2.5, 3.5, 4.5, 5.5]> : tensor<5xf64>
  %s = stablehlo.constant dense<4> : tensor<i32>
  %2 = stablehlo.dynamic_slice %f, %s, sizes = [3] : (tensor<5xf64>, tensor<i32>) -> tensor<3xf64>
  check.expect_eq_const %2, dense<[3.5, 4.5, 5.5]> : tensor<3xf64>
  %u = stablehlo.constant dense<[[-1, -2], [-3, -4]]> : tensor<2x2xi32>
  %3 = stablehlo.dynamic_update_slice %x, %u, %i1, %i1 : (tensor<3x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<3x4xi32>
  check.expect_eq_const %3, dense<[[0, 1, 2, 3], [10, -1, -2, 13], [20, -3, -4, 23]]> : tensor<3x4xi32>
  %4 = stablehlo.dynamic_update_slice %x, %u, %big, %big : (tensor<3x4xi32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %4, dense<[[0, 1, 2, 3], [10, 11, -1, -2], [20, 21, -3, -4]]> : tensor<3x4xi32>
  %b = stablehlo.constant dense<[false, false, false, false]> : tensor<4xi1>
  %t = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %5 = stablehlo.dynamic_update_slice %b, %t, %neg : (tensor<4xi1>, tensor<2xi1>, tensor<i32>) -> tensor<4xi1>
  check.expect_eq_const %5, dense<[true, true, false, false]> : tensor<4xi1>
  return
}
