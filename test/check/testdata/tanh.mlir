// stablehlo.tanh on f32 and f64: hyperbolic tangent: saturates to ±1, tiny values pass through.
// Expected values are correctly rounded (mpmath at 256 bits); results may
// differ by a few ULP (expect_close).
// tanh(±0) = ±0 exactly, sign included.
func.func @main() {
  %cst = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.0e+00, 2.0e+00, -3.0e+00, 1.0e-05, 1.0e+01, -2.0e+01, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<11xf32>
  %0 = stablehlo.tanh %cst : tensor<11xf32>
  %cst_0 = stablehlo.constant dense<[4.6211717e-01, -4.6211717e-01, 7.615942e-01, 9.640276e-01, -9.950548e-01, 1.0e-05, 1.0e+00, -1.0e+00, 1.0e+00, -1.0e+00, 0x7FC00000]> : tensor<11xf32>
  check.expect_close %0, %cst_0, max_ulp_difference = 4 : tensor<11xf32>, tensor<11xf32>
  %cst_1 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %1 = stablehlo.tanh %cst_1 : tensor<2xf32>
  check.expect_eq_const %1, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
  %2 = stablehlo.tanh %cst_2 : tensor<2xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<2xf32>
  %3 = stablehlo.divide %cst_3, %2 : tensor<2xf32>
  check.expect_eq_const %3, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %cst_4 = stablehlo.constant dense<[5.0e-01, -5.0e-01, 1.0e+00, 2.0e+00, -3.0e+00, 1.0e-05, 1.0e+01, -4.0e+01, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<11xf64>
  %4 = stablehlo.tanh %cst_4 : tensor<11xf64>
  %cst_5 = stablehlo.constant dense<[4.6211715726000974e-01, -4.6211715726000974e-01, 7.615941559557649e-01, 9.640275800758169e-01, -9.950547536867305e-01, 9.999999999666668e-06, 9.999999958776927e-01, -1.0e+00, 1.0e+00, -1.0e+00, 0x7FF8000000000000]> : tensor<11xf64>
  check.expect_close %4, %cst_5, max_ulp_difference = 2 : tensor<11xf64>, tensor<11xf64>
  %cst_6 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %5 = stablehlo.tanh %cst_6 : tensor<2xf64>
  check.expect_eq_const %5, dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_7 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf64>
  %6 = stablehlo.tanh %cst_7 : tensor<2xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<2xf64>
  %7 = stablehlo.divide %cst_8, %6 : tensor<2xf64>
  check.expect_eq_const %7, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  return
}
