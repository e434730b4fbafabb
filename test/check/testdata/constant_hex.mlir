// Float constants written as raw bit patterns, as MLIR prints values that
// decimal cannot round-trip (NaN, ±Inf) and as JAX prints some others: in
// lists, as splats, and as little-endian hex blobs (dense<"0x...">).
func.func @main() {
  // 1, pi, -0, the smallest subnormal, the largest float, -123.456.
  %cst = stablehlo.constant dense<[0x3F800000, 0x40490FDB, 0x80000000, 0x00000001, 0x7F7FFFFF, 0xC2F6E979]> : tensor<6xf32>
  check.expect_eq_const %cst, dense<[1.000000e+00, 3.14159274, -0.000000e+00, 1.401298e-45, 3.40282347E+38, -1.234560e+02]> : tensor<6xf32>
  %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<6xf32>
  %0 = stablehlo.divide %cst_0, %cst : tensor<6xf32>
  %1 = stablehlo.slice %0 [2:3] : (tensor<6xf32>) -> tensor<1xf32>
  // 1 / -0 = -Inf: the hex pattern kept the sign of zero.
  check.expect_eq_const %1, dense<0xFF800000> : tensor<1xf32>
  // +Inf, -Inf, a quiet NaN, a NaN with every bit set.
  %cst_1 = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0xFFFFFFFF]> : tensor<4xf32>
  %2 = stablehlo.is_finite %cst_1 : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %2, dense<false> : tensor<4xi1>
  %3 = stablehlo.compare  EQ, %cst_1, %cst_1,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %3, dense<[true, true, false, false]> : tensor<4xi1>
  %cst_2 = stablehlo.constant dense<-3.40282347E+38> : tensor<4xf32>
  %4 = stablehlo.compare  LT, %cst_1, %cst_2,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %4, dense<[false, true, false, false]> : tensor<4xi1>
  // A hex splat.
  %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<3xf32>
  check.expect_eq_const %cst_3, dense<[0xFF800000, 0xFF800000, 0xFF800000]> : tensor<3xf32>
  // f64: 1, pi, -0, the smallest subnormal, the largest double, 0.1.
  %cst_4 = stablehlo.constant dense<[0x3FF0000000000000, 0x400921FB54442D18, 0x8000000000000000, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF, 0x3FB999999999999A]> : tensor<6xf64>
  check.expect_eq_const %cst_4, dense<[1.000000e+00, 3.1415926535897931, -0.000000e+00, 4.9406564584124654E-324, 1.7976931348623157E+308, 1.000000e-01]> : tensor<6xf64>
  %cst_5 = stablehlo.constant dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<3xf64>
  %5 = stablehlo.is_finite %cst_5 : (tensor<3xf64>) -> tensor<3xi1>
  check.expect_eq_const %5, dense<false> : tensor<3xi1>
  // Hex blobs: the elements' little-endian bytes.
  %cst_6 = stablehlo.constant dense<"0x0000803F000000400000404000008040"> : tensor<4xf32>
  check.expect_eq_const %cst_6, dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %cst_7 = stablehlo.constant dense<"0x000000000000E03F00000000000000C0"> : tensor<2x1xf64>
  check.expect_eq_const %cst_7, dense<[[5.000000e-01], [-2.000000e+00]]> : tensor<2x1xf64>
  %c = stablehlo.constant dense<"0x01000000FFFFFFFF00000080"> : tensor<3xi32>
  check.expect_eq_const %c, dense<[1, -1, -2147483648]> : tensor<3xi32>
  %c_8 = stablehlo.constant dense<"0x0000000000010000FDFFFFFFFFFFFFFF0000000000000080"> : tensor<3xi64>
  check.expect_eq_const %c_8, dense<[1099511627776, -3, -9223372036854775808]> : tensor<3xi64>
  return
}
