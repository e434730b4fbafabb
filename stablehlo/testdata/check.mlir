func.func @main() {
  %c = stablehlo.constant dense<[0, 1, 2, -3, 0]> : tensor<5xi4>
  %c_0 = stablehlo.constant dense<[-8, -1, 2, -3, 7]> : tensor<5xi4>
  %0 = stablehlo.add %c, %c_0 : tensor<5xi4>
  check.expect_eq_const %0, dense<[-8, 0, 4, -6, 7]> : tensor<5xi4>
  check.expect_eq %0, %0 : tensor<5xi4>
  %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  check.expect_almost_eq %cst, %cst : tensor<2xf32>
  check.expect_almost_eq %cst, %cst, tolerance = 1.000000e-03 : tensor<2xf32>
  check.expect_almost_eq_const %cst, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  check.expect_almost_eq_const %cst, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, tolerance = 9.9999999999999995E-7
  check.expect_close %cst, %cst, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  check.expect_close %cst, %cst, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
  %cst_1 = stablehlo.constant dense<(1.000000e+00,-1.000000e+00)> : tensor<complex<f64>>
  check.expect_eq_const %cst_1, dense<(1.000000e+00,-1.000000e+00)> : tensor<complex<f64>>
  stablehlo.custom_call @check.expect_close(%cst, %cst) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %1 = stablehlo.custom_call @check.eq(%cst, %cst) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  check.expect_eq_const %cst, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32> {note = "generic"}
  return
}
func.func private @helper(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.negate %arg0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @external(tensor<2xf32>, tensor<i32> {mhlo.sharding = "{replicated}"}) -> (tensor<2xf32>, tensor<i32>)
func.func @calls(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>) attributes {jax.test = true} {
  %0 = call @helper(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %c = stablehlo.constant dense<1> : tensor<i32>
  %1:2 = call @external(%0, %c) : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  %2:2 = call @external(%1#0, %1#1) {no_inline} : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  return %2#0, %2#1 : tensor<2xf32>, tensor<i32>
}
