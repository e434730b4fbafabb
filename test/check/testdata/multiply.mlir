// stablehlo.multiply on f32, f64 (signed zeros, Inf * 0 = NaN, overflow to
// Inf, underflow to 0, subnormal results kept), wrapping i32, i64, and i1
// (logical and).
func.func @main() {
  %cst = stablehlo.constant dense<[2.0e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7F800000, 0x7F800000, 0x7FC00000, 1.0e+20, 1.0e-30, 1.1e+00, -3.0e+00]> : tensor<11xf32>
  %cst_0 = stablehlo.constant dense<[3.0e+00, 5.0e+00, -5.0e+00, -0.000000e+00, 0.000000e+00, -2.0e+00, 0.000000e+00, 1.0e+20, 1.0e-30, 1.1e+00, 5.0e-01]> : tensor<11xf32>
  %0 = stablehlo.multiply %cst, %cst_0 : tensor<11xf32>
  check.expect_eq_const %0, dense<[6.0e+00, -0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7FC00000, 0xFF800000, 0x7FC00000, 0x7F800000, 0.000000e+00, 1.21e+00, -1.5e+00]> : tensor<11xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_1 = stablehlo.constant dense<[-0.000000e+00, 0.000000e+00, -0.000000e+00, 1.0e-30]> : tensor<4xf32>
  %cst_2 = stablehlo.constant dense<[5.0e+00, -5.0e+00, -0.000000e+00, 1.0e-30]> : tensor<4xf32>
  %1 = stablehlo.multiply %cst_1, %cst_2 : tensor<4xf32>
  %cst_3 = stablehlo.constant dense<1.0e+00> : tensor<4xf32>
  %2 = stablehlo.divide %cst_3, %1 : tensor<4xf32>
  check.expect_eq_const %2, dense<[0xFF800000, 0xFF800000, 0x7F800000, 0x7F800000]> : tensor<4xf32>
  %cst_4 = stablehlo.constant dense<[2.0e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 1.0e+200, 1.0e-200, 1.1e+00, -3.0e+00]> : tensor<11xf64>
  %cst_5 = stablehlo.constant dense<[3.0e+00, 5.0e+00, -5.0e+00, -0.000000e+00, 0.000000e+00, -2.0e+00, 0.000000e+00, 1.0e+200, 1.0e-200, 1.1e+00, 5.0e-01]> : tensor<11xf64>
  %3 = stablehlo.multiply %cst_4, %cst_5 : tensor<11xf64>
  check.expect_eq_const %3, dense<[6.0e+00, -0.000000e+00, -0.000000e+00, 0.000000e+00, 0x7FF8000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0.000000e+00, 1.2100000000000002e+00, -1.5e+00]> : tensor<11xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_6 = stablehlo.constant dense<[-0.000000e+00, 0.000000e+00, -0.000000e+00, 1.0e-200]> : tensor<4xf64>
  %cst_7 = stablehlo.constant dense<[5.0e+00, -5.0e+00, -0.000000e+00, 1.0e-200]> : tensor<4xf64>
  %4 = stablehlo.multiply %cst_6, %cst_7 : tensor<4xf64>
  %cst_8 = stablehlo.constant dense<1.0e+00> : tensor<4xf64>
  %5 = stablehlo.divide %cst_8, %4 : tensor<4xf64>
  check.expect_eq_const %5, dense<[0xFFF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000]> : tensor<4xf64>
  // Subnormal results are kept (IEEE 754; no flush to zero).
  %cst_9 = stablehlo.constant dense<[1.0e-20, -1.0e-20, 1.1754944e-38]> : tensor<3xf32>
  %cst_10 = stablehlo.constant dense<[1.0e-20, 1.0e-20, 5.0e-01]> : tensor<3xf32>
  %6 = stablehlo.multiply %cst_9, %cst_10 : tensor<3xf32>
  check.expect_eq_const %6, dense<[1.0e-40, -1.0e-40, 5.877472e-39]> : tensor<3xf32>
  // Subnormal results are kept (IEEE 754; no flush to zero).
  %cst_11 = stablehlo.constant dense<[1.0e-160, -1.0e-160, 2.2250738585072014e-308]> : tensor<3xf64>
  %cst_12 = stablehlo.constant dense<[1.0e-160, 1.0e-160, 5.0e-01]> : tensor<3xf64>
  %7 = stablehlo.multiply %cst_11, %cst_12 : tensor<3xf64>
  check.expect_eq_const %7, dense<[1.0e-320, -1.0e-320, 1.1125369292536007e-308]> : tensor<3xf64>
  %c_13 = stablehlo.constant dense<[6, 2147483647, -2147483648, -3, 65536, -2147483648]> : tensor<6xi32>
  %c_14 = stablehlo.constant dense<[7, 2, -1, 4, 65536, 0]> : tensor<6xi32>
  %8 = stablehlo.multiply %c_13, %c_14 : tensor<6xi32>
  check.expect_eq_const %8, dense<[42, -2, -2147483648, -12, 0, 0]> : tensor<6xi32>
  %c_15 = stablehlo.constant dense<[6, 9223372036854775807, -9223372036854775808, -3, 65536, -9223372036854775808]> : tensor<6xi64>
  %c_16 = stablehlo.constant dense<[7, 2, -1, 4, 65536, 0]> : tensor<6xi64>
  %9 = stablehlo.multiply %c_15, %c_16 : tensor<6xi64>
  check.expect_eq_const %9, dense<[42, -2, -9223372036854775808, -12, 4294967296, 0]> : tensor<6xi64>
  %c_17 = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %c_18 = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %10 = stablehlo.multiply %c_17, %c_18 : tensor<4xi1>
  check.expect_eq_const %10, dense<[false, false, false, true]> : tensor<4xi1>
  return
}
