// stablehlo.maximum: NaN if either operand is NaN; +0 > -0 (max(-0, +0) = +0
// in both orders). i1: logical or.
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7FC00000, 1.0e+00, 0xFF800000, 0x7F800000, -3.0e+00, 0xFF800000]> : tensor<10xf32>
  %cst_0 = stablehlo.constant dense<[2.0e+00, 0.000000e+00, -0.000000e+00, -0.000000e+00, 1.0e+00, 0x7FC00000, 5.0e+00, 0x7FC00000, -2.0e+00, 0xFF800000]> : tensor<10xf32>
  %0 = stablehlo.maximum %cst, %cst_0 : tensor<10xf32>
  check.expect_eq_const %0, dense<[2.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7FC00000, 0x7FC00000, 5.0e+00, 0x7FC00000, -2.0e+00, 0xFF800000]> : tensor<10xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[-0.000000e+00, 0.000000e+00, -0.000000e+00]> : tensor<3xf32>
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -0.000000e+00]> : tensor<3xf32>
  %1 = stablehlo.maximum %cst_1, %cst_2 : tensor<3xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<3xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0x7F800000, 0xFF800000]> : tensor<3xf32>
  %cst_4 = stablehlo.constant dense<[1.0e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7FF8000000000000, 1.0e+00, 0xFFF0000000000000, 0x7FF0000000000000, -3.0e+00, 0xFFF0000000000000]> : tensor<10xf64>
  %cst_5 = stablehlo.constant dense<[2.0e+00, 0.000000e+00, -0.000000e+00, -0.000000e+00, 1.0e+00, 0x7FF8000000000000, 5.0e+00, 0x7FF8000000000000, -2.0e+00, 0xFFF0000000000000]> : tensor<10xf64>
  %3 = stablehlo.maximum %cst_4, %cst_5 : tensor<10xf64>
  check.expect_eq_const %3, dense<[2.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7FF8000000000000, 0x7FF8000000000000, 5.0e+00, 0x7FF8000000000000, -2.0e+00, 0xFFF0000000000000]> : tensor<10xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_6 = stablehlo.constant dense<[-0.000000e+00, 0.000000e+00, -0.000000e+00]> : tensor<3xf64>
  %cst_7 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -0.000000e+00]> : tensor<3xf64>
  %4 = stablehlo.maximum %cst_6, %cst_7 : tensor<3xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<3xf64>
  %5 = stablehlo.divide %cst_8, %4 : tensor<3xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000]> : tensor<3xf64>
  %c_9 = stablehlo.constant dense<[1, -1, -2147483648, -2147483648, 5]> : tensor<5xi32>
  %c_10 = stablehlo.constant dense<[2, 1, 2147483647, -1, 5]> : tensor<5xi32>
  %6 = stablehlo.maximum %c_9, %c_10 : tensor<5xi32>
  check.expect_eq_const %6, dense<[2, 1, 2147483647, -1, 5]> : tensor<5xi32>
  %c_11 = stablehlo.constant dense<[1, -1, -9223372036854775808, -9223372036854775808, 5]> : tensor<5xi64>
  %c_12 = stablehlo.constant dense<[2, 1, 9223372036854775807, -1, 5]> : tensor<5xi64>
  %7 = stablehlo.maximum %c_11, %c_12 : tensor<5xi64>
  check.expect_eq_const %7, dense<[2, 1, 9223372036854775807, -1, 5]> : tensor<5xi64>
  %c_13 = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %c_14 = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %8 = stablehlo.maximum %c_13, %c_14 : tensor<4xi1>
  check.expect_eq_const %8, dense<[false, true, true, true]> : tensor<4xi1>
  return
}
