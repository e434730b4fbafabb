// Splat constants (one value for every element) of each element type,
// checked against the same values written out in full, and a large splat
// (4096 elements) checked through a sum.
func.func @main() {
  %cst = stablehlo.constant dense<1.500000e+00> : tensor<2x3xf32>
  check.expect_eq_const %cst, dense<[[1.500000e+00, 1.500000e+00, 1.500000e+00], [1.500000e+00, 1.500000e+00, 1.500000e+00]]> : tensor<2x3xf32>
  %cst_0 = stablehlo.constant dense<-2.500000e-01> : tensor<3xf64>
  check.expect_eq_const %cst_0, dense<[-2.500000e-01, -2.500000e-01, -2.500000e-01]> : tensor<3xf64>
  %c = stablehlo.constant dense<-7> : tensor<2x2xi32>
  check.expect_eq_const %c, dense<[[-7, -7], [-7, -7]]> : tensor<2x2xi32>
  %c_1 = stablehlo.constant dense<-9223372036854775808> : tensor<3xi64>
  check.expect_eq_const %c_1, dense<[-9223372036854775808, -9223372036854775808, -9223372036854775808]> : tensor<3xi64>
  %c_2 = stablehlo.constant dense<true> : tensor<4xi1>
  check.expect_eq_const %c_2, dense<[true, true, true, true]> : tensor<4xi1>
  %c_3 = stablehlo.constant dense<false> : tensor<2x1xi1>
  check.expect_eq_const %c_3, dense<[[false], [false]]> : tensor<2x1xi1>
  // Scalars.
  %cst_4 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
  check.expect_eq_const %cst_4, dense<3.000000e+00> : tensor<f32>
  %c_5 = stablehlo.constant dense<2147483647> : tensor<i32>
  check.expect_eq_const %c_5, dense<2147483647> : tensor<i32>
  // A splat expectation against a tensor written in full.
  %cst_6 = stablehlo.constant dense<[5.000000e-01, 5.000000e-01]> : tensor<2xf64>
  check.expect_eq_const %cst_6, dense<5.000000e-01> : tensor<2xf64>
  // 4096 halves sum to 2048 exactly in any order.
  %cst_7 = stablehlo.constant dense<5.000000e-01> : tensor<64x64xf32>
  %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%cst_7 init: %cst_8) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %0, dense<2.048000e+03> : tensor<f32>
  return
}
