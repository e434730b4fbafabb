// stablehlo.select with a full predicate and with a scalar one, on every
// element type; the unselected side's NaN or -0 does not leak into the result.
func.func @main() {
  %c = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %cst = stablehlo.constant dense<[1.000000e+00, 0x7FC00000, -0.000000e+00, 0x7F800000]> : tensor<4xf32>
  %cst_0 = stablehlo.constant dense<[0x7FC00000, 2.000000e+00, 0.000000e+00, -3.000000e+00]> : tensor<4xf32>
  %0 = stablehlo.select %c, %cst, %cst_0 : tensor<4xi1>, tensor<4xf32>
  check.expect_eq_const %0, dense<[1.000000e+00, 2.000000e+00, -0.000000e+00, -3.000000e+00]> : tensor<4xf32>
  // 1/x shows that element 2 is -0.
  %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %1 = stablehlo.divide %cst_1, %0 : tensor<4xf32>
  check.expect_eq_const %1, dense<[1.000000e+00, 5.000000e-01, 0xFF800000, -0.333333343]> : tensor<4xf32>
  %cst_2 = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf64>
  %cst_3 = stablehlo.constant dense<[[-1.000000e+00, -2.000000e+00], [-3.000000e+00, -4.000000e+00]]> : tensor<2x2xf64>
  %c_4 = stablehlo.constant dense<[[false, true], [true, false]]> : tensor<2x2xi1>
  %2 = stablehlo.select %c_4, %cst_2, %cst_3 : tensor<2x2xi1>, tensor<2x2xf64>
  check.expect_eq_const %2, dense<[[-1.000000e+00, 2.000000e+00], [3.000000e+00, -4.000000e+00]]> : tensor<2x2xf64>
  // Scalar predicates pick a whole operand.
  %c_5 = stablehlo.constant dense<true> : tensor<i1>
  %c_6 = stablehlo.constant dense<false> : tensor<i1>
  %c_7 = stablehlo.constant dense<[1, -2147483648, 2147483647]> : tensor<3xi32>
  %c_8 = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %3 = stablehlo.select %c_5, %c_7, %c_8 : (tensor<i1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %3, dense<[1, -2147483648, 2147483647]> : tensor<3xi32>
  %4 = stablehlo.select %c_6, %c_7, %c_8 : (tensor<i1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %4, dense<[4, 5, 6]> : tensor<3xi32>
  %c_9 = stablehlo.constant dense<[-9223372036854775808, 1, 2]> : tensor<3xi64>
  %c_10 = stablehlo.constant dense<[9223372036854775807, 3, 4]> : tensor<3xi64>
  %c_11 = stablehlo.constant dense<[true, true, false]> : tensor<3xi1>
  %5 = stablehlo.select %c_11, %c_9, %c_10 : tensor<3xi1>, tensor<3xi64>
  check.expect_eq_const %5, dense<[-9223372036854775808, 1, 4]> : tensor<3xi64>
  %c_14 = stablehlo.constant dense<[false, true, true]> : tensor<3xi1>
  %6 = stablehlo.select %c_11, %c_11, %c_14 : tensor<3xi1>, tensor<3xi1>
  check.expect_eq_const %6, dense<[true, true, true]> : tensor<3xi1>
  // Scalar everything.
  %cst_12 = stablehlo.constant dense<2.500000e+00> : tensor<f32>
  %cst_13 = stablehlo.constant dense<-2.500000e+00> : tensor<f32>
  %7 = stablehlo.select %c_6, %cst_12, %cst_13 : tensor<i1>, tensor<f32>
  check.expect_eq_const %7, dense<-2.500000e+00> : tensor<f32>
  return
}
