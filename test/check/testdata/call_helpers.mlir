// func.call to private helpers: with arguments, with two results used as
// %r#0 and %r#1, nested (a helper calling a helper), the same helper called
// twice, and the long forms func.call / func.return.
func.func private @axpy(%arg0: tensor<f32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %1 = stablehlo.multiply %0, %arg1 : tensor<3xf32>
  %2 = stablehlo.add %1, %arg2 : tensor<3xf32>
  return %2 : tensor<3xf32>
}
func.func private @divmod(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = stablehlo.divide %arg0, %arg1 : tensor<4xi32>
  %1 = stablehlo.remainder %arg0, %arg1 : tensor<4xi32>
  func.return %0, %1 : tensor<4xi32>, tensor<4xi32>
}
func.func private @twice_axpy(%arg0: tensor<f32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @axpy(%arg0, %arg1, %arg1) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = func.call @axpy(%arg0, %0, %arg1) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func private @consts() -> (tensor<f32>, tensor<3xf32>) {
  %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<[1.000000e+00, -1.000000e+00, 5.000000e-01]> : tensor<3xf32>
  return %cst, %cst_0 : tensor<f32>, tensor<3xf32>
}
func.func @main() {
  %0:2 = call @consts() : () -> (tensor<f32>, tensor<3xf32>)
  %1 = call @axpy(%0#0, %0#1, %0#1) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %1, dense<[3.000000e+00, -3.000000e+00, 1.500000e+00]> : tensor<3xf32>
  // (2x + x) * 2 + x = 7x
  %2 = call @twice_axpy(%0#0, %0#1) : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %2, dense<[7.000000e+00, -7.000000e+00, 3.500000e+00]> : tensor<3xf32>
  %c = stablehlo.constant dense<[7, -7, 9, -2147483648]> : tensor<4xi32>
  %c_0 = stablehlo.constant dense<[2, 2, 0, -1]> : tensor<4xi32>
  %3:2 = call @divmod(%c, %c_0) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %3#0, dense<[3, -3, -1, -2147483648]> : tensor<4xi32>
  check.expect_eq_const %3#1, dense<[1, -1, 9, 0]> : tensor<4xi32>
  // Results of a call checked against each other: q * d + r = n.
  %4 = stablehlo.multiply %3#0, %c_0 : tensor<4xi32>
  %5 = stablehlo.add %4, %3#1 : tensor<4xi32>
  %6 = stablehlo.slice %5 [0:2] : (tensor<4xi32>) -> tensor<2xi32>
  %7 = stablehlo.slice %c [0:2] : (tensor<4xi32>) -> tensor<2xi32>
  check.expect_eq %6, %7 : tensor<2xi32>
  func.return
}
