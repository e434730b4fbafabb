// stablehlo.iota along each dimension, on every numeric element type.
func.func @main() {
  %0 = stablehlo.iota dim = 0 : tensor<5xi32>
  check.expect_eq_const %0, dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %1 = stablehlo.iota dim = 1 : tensor<2x3xi64>
  check.expect_eq_const %1, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi64>
  %2 = stablehlo.iota dim = 0 : tensor<3x2xf32>
  check.expect_eq_const %2, dense<[[0.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00]]> : tensor<3x2xf32>
  %3 = stablehlo.iota dim = 2 : tensor<2x2x3xf64>
  check.expect_eq_const %3, dense<[[[0.000000e+00, 1.000000e+00, 2.000000e+00], [0.000000e+00, 1.000000e+00, 2.000000e+00]], [[0.000000e+00, 1.000000e+00, 2.000000e+00], [0.000000e+00, 1.000000e+00, 2.000000e+00]]]> : tensor<2x2x3xf64>
  %4 = stablehlo.iota dim = 0 : tensor<1xi32>
  check.expect_eq_const %4, dense<0> : tensor<1xi32>
  %5 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<1x4xi32>
  check.expect_eq_const %5, dense<[[0, 1, 2, 3]]> : tensor<1x4xi32>
  return
}
