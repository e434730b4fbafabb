// stablehlo.ceil on f32 and f64: ceil(-0.5) is -0 (the sign survives), large
// values and non-finite values are unchanged.
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 5.0e-01, -5.0e-01, 1.5e+00, -1.5e+00, 2.5e+00, -2.5e+00, 4.1943045e+06, -4.1943045e+06, 1.0e+20, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<14xf32>
  %0 = stablehlo.ceil %cst : tensor<14xf32>
  check.expect_eq_const %0, dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -0.000000e+00, 2.0e+00, -1.0e+00, 3.0e+00, -2.0e+00, 4.194305e+06, -4.194304e+06, 1.0e+20, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<14xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_0 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -5.0e-01]> : tensor<3xf32>
  %1 = stablehlo.ceil %cst_0 : tensor<3xf32>
  %cst_1 = stablehlo.constant dense<1.0e+00> : tensor<3xf32>
  %2 = stablehlo.divide %cst_1, %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0xFF800000, 0xFF800000]> : tensor<3xf32>
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 5.0e-01, -5.0e-01, 1.5e+00, -1.5e+00, 2.5e+00, -2.5e+00, 4.1943045e+06, -4.1943045e+06, 1.0e+20, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<14xf64>
  %3 = stablehlo.ceil %cst_2 : tensor<14xf64>
  check.expect_eq_const %3, dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -0.000000e+00, 2.0e+00, -1.0e+00, 3.0e+00, -2.0e+00, 4.194305e+06, -4.194304e+06, 1.0e+20, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<14xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_3 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, -5.0e-01]> : tensor<3xf64>
  %4 = stablehlo.ceil %cst_3 : tensor<3xf64>
  %cst_4 = stablehlo.constant dense<1.0e+00> : tensor<3xf64>
  %5 = stablehlo.divide %cst_4, %4 : tensor<3xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0xFFF0000000000000]> : tensor<3xf64>
  return
}
