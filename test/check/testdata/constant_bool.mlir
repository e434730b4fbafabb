// i1 constants: true/false lists, nested, splats, scalars, used by ops that
// take i1 (not, and, select).
func.func @main() {
  %c = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %c_0 = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %0 = stablehlo.and %c, %c_0 : tensor<4xi1>
  check.expect_eq_const %0, dense<[true, false, false, false]> : tensor<4xi1>
  %1 = stablehlo.not %c : tensor<4xi1>
  check.expect_eq_const %1, dense<[false, true, false, true]> : tensor<4xi1>
  %c_1 = stablehlo.constant dense<[[true], [false]]> : tensor<2x1xi1>
  check.expect_eq_const %c_1, dense<[[true], [false]]> : tensor<2x1xi1>
  %c_2 = stablehlo.constant dense<false> : tensor<i1>
  %c_3 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %c_4 = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %2 = stablehlo.select %c_2, %c_3, %c_4 : (tensor<i1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %2, dense<[5, 6, 7, 8]> : tensor<4xi32>
  %3 = stablehlo.select %c, %c_3, %c_4 : tensor<4xi1>, tensor<4xi32>
  check.expect_eq_const %3, dense<[1, 6, 3, 8]> : tensor<4xi32>
  %c_5 = stablehlo.constant dense<true> : tensor<i1>
  check.expect_eq_const %c_5, dense<true> : tensor<i1>
  return
}
