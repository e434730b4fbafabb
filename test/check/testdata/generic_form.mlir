// Ops in MLIR's generic form, as some producers print them: quoted names,
// inherent attributes as properties <{...}>, #stablehlo enum attributes,
// array<i64: ...>, and check ops in generic form.
func.func @main() {
  %0 = "stablehlo.constant"() <{value = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %1 = "stablehlo.transpose"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = "stablehlo.add"(%1, %1) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  "check.expect_eq_const"(%2) <{value = dense<[[2.000000e+00, 8.000000e+00], [4.000000e+00, 1.000000e+01], [6.000000e+00, 1.200000e+01]]> : tensor<3x2xf32>}> : (tensor<3x2xf32>) -> ()
  %3 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
  %4 = "stablehlo.reshape"(%3) : (tensor<2x2x3xf32>) -> tensor<12xf32>
  %5 = "stablehlo.slice"(%4) <{limit_indices = array<i64: 12>, start_indices = array<i64: 4>, strides = array<i64: 3>}> : (tensor<12xf32>) -> tensor<3xf32>
  "check.expect_eq_const"(%5) <{value = dense<[5.000000e+00, 2.000000e+00, 5.000000e+00]> : tensor<3xf32>}> : (tensor<3xf32>) -> ()
  %6 = "stablehlo.compare"(%5, %5) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  "check.expect_eq_const"(%6) <{value = dense<true> : tensor<3xi1>}> : (tensor<3xi1>) -> ()
  %7 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<3xi64>
  %8 = "stablehlo.convert"(%7) : (tensor<3xi64>) -> tensor<3xf64>
  %9 = "stablehlo.dot_general"(%8, %8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<3xf64>, tensor<3xf64>) -> tensor<f64>
  "check.expect_almost_eq_const"(%9) <{value = dense<5.000000e+00> : tensor<f64>, tolerance = 1.000000e-12 : f64}> : (tensor<f64>) -> ()
  %10 = "stablehlo.concatenate"(%7, %7) <{dimension = 0 : i64}> : (tensor<3xi64>, tensor<3xi64>) -> tensor<6xi64>
  %11 = "stablehlo.constant"() <{value = dense<[0, 1, 2, 0, 1, 2]> : tensor<6xi64>}> : () -> tensor<6xi64>
  "check.expect_eq"(%10, %11) : (tensor<6xi64>, tensor<6xi64>) -> ()
  %12 = "stablehlo.sine"(%8) : (tensor<3xf64>) -> tensor<3xf64>
  %13 = "stablehlo.constant"() <{value = dense<[0.000000e+00, 0.8414709848078965, 0.9092974268256817]> : tensor<3xf64>}> : () -> tensor<3xf64>
  "check.expect_close"(%12, %13) <{max_ulp_difference = 2 : i64}> : (tensor<3xf64>, tensor<3xf64>) -> ()
  "func.return"() : () -> ()
}
