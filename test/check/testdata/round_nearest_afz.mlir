// stablehlo.round_nearest_afz on f32 and f64: ties round away from zero
// (0.5 → 1, -2.5 → -3); the largest float below 0.5 rounds to 0, not 1;
// -0.49999997 rounds to -0.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.5e+00, 2.5e+00, -2.5e+00, 3.5e+00, 4.9999997e-01, -4.9999997e-01, 4.1943045e+06, 4.1943055e+06, 1.0e+20, 0.000000e+00, -0.000000e+00, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<16xf32>
  %0 = stablehlo.round_nearest_afz %cst : tensor<16xf32>
  check.expect_eq_const %0, dense<[1.0e+00, -1.0e+00, 2.0e+00, 3.0e+00, -3.0e+00, 4.0e+00, 0.000000e+00, -0.000000e+00, 4.194305e+06, 4.194306e+06, 1.0e+20, 0.000000e+00, -0.000000e+00, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<16xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_0 = stablehlo.constant dense<[4.9999997e-01, -4.9999997e-01, 0.000000e+00, -0.000000e+00]> : tensor<4xf32>
  %1 = stablehlo.round_nearest_afz %cst_0 : tensor<4xf32>
  %cst_1 = stablehlo.constant dense<1.0e+00> : tensor<4xf32>
  %2 = stablehlo.divide %cst_1, %1 : tensor<4xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0xFF800000, 0x7F800000, 0xFF800000]> : tensor<4xf32>
  %cst_2 = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.5e+00, 2.5e+00, -2.5e+00, 3.5e+00, 4.9999999999999994e-01, -4.9999999999999994e-01, 4.1943045e+06, 4.1943055e+06, 1.0e+20, 0.000000e+00, -0.000000e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<16xf64>
  %3 = stablehlo.round_nearest_afz %cst_2 : tensor<16xf64>
  check.expect_eq_const %3, dense<[1.0e+00, -1.0e+00, 2.0e+00, 3.0e+00, -3.0e+00, 4.0e+00, 0.000000e+00, -0.000000e+00, 4.194305e+06, 4.194306e+06, 1.0e+20, 0.000000e+00, -0.000000e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<16xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_3 = stablehlo.constant dense<[4.9999999999999994e-01, -4.9999999999999994e-01, 0.000000e+00, -0.000000e+00]> : tensor<4xf64>
  %4 = stablehlo.round_nearest_afz %cst_3 : tensor<4xf64>
  %cst_4 = stablehlo.constant dense<1.0e+00> : tensor<4xf64>
  %5 = stablehlo.divide %cst_4, %4 : tensor<4xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000]> : tensor<4xf64>
  return
}
