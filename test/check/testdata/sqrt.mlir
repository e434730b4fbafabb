// stablehlo.sqrt on f32 and f64, which IEEE 754 rounds correctly: exact
// equality. sqrt(-0) is -0, sqrt of a negative number is NaN.
func.func @main() {
  %cst = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, 2.0e+00, 4.0e+00, 2.5e-01, 3.0e+00, 1.0e-30, 3.4028235e+38, 0x7F800000, -1.0e+00, 0xFF800000, 0x7FC00000]> : tensor<13xf32>
  %0 = stablehlo.sqrt %cst : tensor<13xf32>
  check.expect_eq_const %0, dense<[0.000000e+00, -0.000000e+00, 1.0e+00, 1.4142135e+00, 2.0e+00, 5.0e-01, 1.7320508e+00, 1.0e-15, 1.8446743e+19, 0x7F800000, 0x7FC00000, 0x7FC00000, 0x7FC00000]> : tensor<13xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_0 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %1 = stablehlo.sqrt %cst_0 : tensor<2xf32>
  %cst_1 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %2 = stablehlo.divide %cst_1, %1 : tensor<2xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, 2.0e+00, 4.0e+00, 2.5e-01, 3.0e+00, 1.0e-30, 1.7976931348623157e+308, 0x7FF0000000000000, -1.0e+00, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<13xf64>
  %3 = stablehlo.sqrt %cst_2 : tensor<13xf64>
  check.expect_eq_const %3, dense<[0.000000e+00, -0.000000e+00, 1.0e+00, 1.4142135623730951e+00, 2.0e+00, 5.0e-01, 1.7320508075688772e+00, 1.0e-15, 1.3407807929942596e+154, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<13xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_3 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %4 = stablehlo.sqrt %cst_3 : tensor<2xf64>
  %cst_4 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %5 = stablehlo.divide %cst_4, %4 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  return
}
