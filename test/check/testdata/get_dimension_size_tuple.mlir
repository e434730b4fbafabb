// stablehlo.get_dimension_size, and tuples built and taken apart (both
// resolved while compiling).
func.func @main() {
  %x = stablehlo.constant dense<0.0> : tensor<3x5xf32>
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<3x5xf32>) -> tensor<i32>
  check.expect_eq_const %0, dense<5> : tensor<i32>
  %1 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<3x5xf32>) -> tensor<i32>
  check.expect_eq_const %1, dense<3> : tensor<i32>
  %y = stablehlo.constant dense<[7, -8]> : tensor<2xi64>
  %t = stablehlo.tuple %0, %y : tuple<tensor<i32>, tensor<2xi64>>
  %a = stablehlo.get_tuple_element %t[1] : (tuple<tensor<i32>, tensor<2xi64>>) -> tensor<2xi64>
  %b = stablehlo.get_tuple_element %t[0] : (tuple<tensor<i32>, tensor<2xi64>>) -> tensor<i32>
  check.expect_eq_const %a, dense<[7, -8]> : tensor<2xi64>
  check.expect_eq_const %b, dense<5> : tensor<i32>
  return
}
