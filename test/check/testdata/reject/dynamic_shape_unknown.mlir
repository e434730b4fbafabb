// A dynamic-shape op whose shape operand does not fold to a constant
// (abs is not folded): the CPU plugin compiles static shapes only, and
// says which op and operand.
// REJECT: output_shape is not known at compile time
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = stablehlo.constant dense<[2, -2]> : tensor<2xi64>
  %a = stablehlo.abs %s : tensor<2xi64>
  %0 = stablehlo.dynamic_reshape %x, %a : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  check.expect_eq_const %0, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  return
}
