// stablehlo.convert between integers (i32, i64, i1) and floats (f32, f64),
// for values the target can hold: rounding to nearest even, truncation toward
// zero.
func.func @main() {
  // i32 -> f32 rounds to nearest even above 2^24: 16777217 -> 16777216, 16777219 -> 16777220.
  %c = stablehlo.constant dense<[0, 1, -1, 16777216, 16777217, 16777219, 2147483647, -2147483648]> : tensor<8xi32>
  %0 = stablehlo.convert %c : (tensor<8xi32>) -> tensor<8xf32>
  check.expect_eq_const %0, dense<[0.000000e+00, 1.0e+00, -1.0e+00, 1.6777216e+07, 1.6777216e+07, 1.677722e+07, 2.1474836e+09, -2.1474836e+09]> : tensor<8xf32>
  %c_0 = stablehlo.constant dense<[0, -7, 2147483647, -2147483648]> : tensor<4xi32>
  %1 = stablehlo.convert %c_0 : (tensor<4xi32>) -> tensor<4xf64>
  check.expect_eq_const %1, dense<[0.000000e+00, -7.0e+00, 2.147483647e+09, -2.147483648e+09]> : tensor<4xf64>
  // i64 -> f64 rounds above 2^53; i64 -> f32 rounds once, not through f64.
  %c_1 = stablehlo.constant dense<[9007199254740992, 9007199254740993, 9007199254740995, 9223372036854775807, -9223372036854775808, -5]> : tensor<6xi64>
  %2 = stablehlo.convert %c_1 : (tensor<6xi64>) -> tensor<6xf64>
  check.expect_eq_const %2, dense<[9.007199254740992e+15, 9.007199254740992e+15, 9.007199254740996e+15, 9.223372036854776e+18, -9.223372036854776e+18, -5.0e+00]> : tensor<6xf64>
  %c_2 = stablehlo.constant dense<[16777217, 1152921573326323713, -1099511627776, 9223372036854775807]> : tensor<4xi64>
  %3 = stablehlo.convert %c_2 : (tensor<4xi64>) -> tensor<4xf32>
  check.expect_eq_const %3, dense<[1.6777216e+07, 1.1529216e+18, -1.0995116e+12, 9.223372e+18]> : tensor<4xf32>
  // Floats to integers truncate toward zero; -0.9 becomes 0.
  %cst_3 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 9.0e-01, -9.0e-01, 2.5e+00, -2.5e+00, 1.0099e+02, -1.6777216e+07, 2.1474835e+09]> : tensor<9xf32>
  %4 = stablehlo.convert %cst_3 : (tensor<9xf32>) -> tensor<9xi32>
  check.expect_eq_const %4, dense<[0, 0, 0, 0, 2, -2, 100, -16777216, 2147483520]> : tensor<9xi32>
  %cst_4 = stablehlo.constant dense<[9.0e-01, -9.0e-01, 1.0000000000000005e+15, -4.611686018427388e+18, 9.223372036854775e+18]> : tensor<5xf64>
  %5 = stablehlo.convert %cst_4 : (tensor<5xf64>) -> tensor<5xi64>
  check.expect_eq_const %5, dense<[0, 0, 1000000000000000, -4611686018427387904, 9223372036854774784]> : tensor<5xi64>
  %cst_5 = stablehlo.constant dense<[2.1474836479e+09, -2.1474836489e+09, 7.5e+00]> : tensor<3xf64>
  %6 = stablehlo.convert %cst_5 : (tensor<3xf64>) -> tensor<3xi32>
  check.expect_eq_const %6, dense<[2147483647, -2147483648, 7]> : tensor<3xi32>
  %cst_6 = stablehlo.constant dense<[-3.75e+00, 1.0e+18]> : tensor<2xf32>
  %7 = stablehlo.convert %cst_6 : (tensor<2xf32>) -> tensor<2xi64>
  check.expect_eq_const %7, dense<[-3, 999999984306749440]> : tensor<2xi64>
  // i1 <-> floats: true is 1; any nonzero float (NaN too) is true, -0 is false.
  %c_7 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %8 = stablehlo.convert %c_7 : (tensor<2xi1>) -> tensor<2xf32>
  check.expect_eq_const %8, dense<[1.0e+00, 0.000000e+00]> : tensor<2xf32>
  %c_8 = stablehlo.constant dense<[false, true]> : tensor<2xi1>
  %9 = stablehlo.convert %c_8 : (tensor<2xi1>) -> tensor<2xf64>
  check.expect_eq_const %9, dense<[0.000000e+00, 1.0e+00]> : tensor<2xf64>
  %cst_9 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 1.0e+00, -5.0e-01, 1.0e-45, 0x7F800000, 0x7FC00000]> : tensor<7xf32>
  %10 = stablehlo.convert %cst_9 : (tensor<7xf32>) -> tensor<7xi1>
  check.expect_eq_const %10, dense<[false, false, true, true, true, true, true]> : tensor<7xi1>
  %cst_10 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 2.0e+00, 0x7FF8000000000000]> : tensor<4xf64>
  %11 = stablehlo.convert %cst_10 : (tensor<4xf64>) -> tensor<4xi1>
  check.expect_eq_const %11, dense<[false, false, true, true]> : tensor<4xi1>
  return
}
