// bf16: stored as such, computed in f32 and rounded once to nearest even, as
// XLA does (for +, -, *, /, sqrt that is the correctly rounded result):
// ties, overflow to Inf, subnormals (f16 only: bf16 subnormals are f32
// subnormals, which XLA flushes), signed zeros, NaN; maximum, compare
// (FLOAT and TOTALORDER); conversions from f32, f64 and i64 (rounded once;
// the cases where rounding twice through f32 would differ are in the Go
// differential tests, pjrt/cpu/codegen/types_ext_test.go), and to f32, i32
// and the other 16-bit float. Expected values: exact rational arithmetic in
// Python (fractions), rounded to the format.
func.func @main() {
  // bf16 add: one rounding to nearest even (ties 256 + 1, 256 + 3), overflow to Inf, subnormals, signed zeros, Inf - Inf
  %c0 = stablehlo.constant dense<[0x4380, 0x4380, 0x7F7F, 0x7F7F, 0x0D80, 0x3F80, 0x8000, 0x0000, 0x7F80, 0x3FC0]> : tensor<10xbf16>
  %c1 = stablehlo.constant dense<[0x3F80, 0x4040, 0x7AFF, 0x7B7F, 0x0D80, 0x3B80, 0x8000, 0x8000, 0xFF80, 0xBFC0]> : tensor<10xbf16>
  %2 = stablehlo.add %c0, %c1 : tensor<10xbf16>
  check.expect_eq_const %2, dense<[0x4380, 0x4382, 0x7F7F, 0x7F80, 0x0E00, 0x3F80, 0x8000, 0x0000, 0x7FC0, 0x0000]> : tensor<10xbf16>
  // multiply: rounding, overflow, underflow of a subnormal half (a tie: to 0), -0
  %c3 = stablehlo.constant dense<[0x3DCD, 0x4040, 0x7F7F, 0x0D80, 0xC000, 0x3F81]> : tensor<6xbf16>
  %c4 = stablehlo.constant dense<[0x3DCD, 0x3EAB, 0x4000, 0x3F00, 0x0000, 0x3F81]> : tensor<6xbf16>
  %5 = stablehlo.multiply %c3, %c4 : tensor<6xbf16>
  check.expect_eq_const %5, dense<[0x3C24, 0x3F80, 0x7F80, 0x0D00, 0x8000, 0x3F82]> : tensor<6xbf16>
  // divide: rounding, x/0, 0/0
  %c6 = stablehlo.constant dense<[0x3F80, 0x4000, 0x3F80, 0xBF80, 0x0000]> : tensor<5xbf16>
  %c7 = stablehlo.constant dense<[0x4040, 0x4040, 0x0000, 0x0000, 0x0000]> : tensor<5xbf16>
  %8 = stablehlo.divide %c6, %c7 : tensor<5xbf16>
  check.expect_eq_const %8, dense<[0x3EAB, 0x3F2B, 0x7F80, 0xFF80, 0x7FC0]> : tensor<5xbf16>
  // remainder is exact (fmod), sign of x
  %c9 = stablehlo.constant dense<[0x4040, 0xC020, 0x3F81, 0x42C8]> : tensor<4xbf16>
  %c10 = stablehlo.constant dense<[0x4000, 0x3F40, 0x3F80, 0x40E0]> : tensor<4xbf16>
  %11 = stablehlo.remainder %c9, %c10 : tensor<4xbf16>
  check.expect_eq_const %11, dense<[0x3F80, 0xBE80, 0x3C00, 0x4000]> : tensor<4xbf16>
  // maximum: NaN wins, max(-0, +0) = +0
  %c12 = stablehlo.constant dense<[0x7FC0, 0x3F80, 0x8000, 0x0000, 0xFF80]> : tensor<5xbf16>
  %c13 = stablehlo.constant dense<[0x3F80, 0x7FC0, 0x0000, 0x8000, 0x4000]> : tensor<5xbf16>
  %14 = stablehlo.maximum %c12, %c13 : tensor<5xbf16>
  check.expect_eq_const %14, dense<[0x7FC0, 0x7FC0, 0x0000, 0x0000, 0x4000]> : tensor<5xbf16>
  %c15 = stablehlo.constant dense<[0x4000, 0x3C24, 0x0D80, 0xBF80, 0x7F80]> : tensor<5xbf16>
  // sqrt: correctly rounded (via float64, which is innocuous for one sqrt)
  %16 = stablehlo.sqrt %c15 : tensor<5xbf16>
  check.expect_eq_const %16, dense<[0x3FB5, 0x3DCD, 0x2680, 0x7FC0, 0x7F80]> : tensor<5xbf16>
  // exponential and log within 1 ULP (glibc in f32, then rounded)
  %c17 = stablehlo.constant dense<[0x3F00, 0x3F80, 0xC040, 0x4020, 0x3DCD]> : tensor<5xbf16>
  %18 = stablehlo.exponential %c17 : tensor<5xbf16>
  %c19 = stablehlo.constant dense<[0x3FD3, 0x402E, 0x3D4C, 0x4143, 0x3F8D]> : tensor<5xbf16>
  check.expect_close %18, %c19, max_ulp_difference = 1 : tensor<5xbf16>, tensor<5xbf16>
  %20 = stablehlo.log %c17 : tensor<5xbf16>
  %c21 = stablehlo.constant dense<[0xBF31, 0x0000, 0x7FC0, 0x3F6B, 0xC013]> : tensor<5xbf16>
  check.expect_close %20, %c21, max_ulp_difference = 1 : tensor<5xbf16>, tensor<5xbf16>
  %c22 = stablehlo.constant dense<[0x3F80, 0x7FC0, 0x8000, 0xFF80, 0x4000]> : tensor<5xbf16>
  %c23 = stablehlo.constant dense<[0x3F80, 0x7FC0, 0x0000, 0x3F80, 0x3F80]> : tensor<5xbf16>
  // compare FLOAT: NaN unordered, -0 == +0; TOTALORDER: -0 < +0, NaN above everything
  %24 = stablehlo.compare  EQ, %c22, %c23,  FLOAT : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  check.expect_eq_const %24, dense<[true, false, true, false, false]> : tensor<5xi1>
  %25 = stablehlo.compare  NE, %c22, %c23 : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  check.expect_eq_const %25, dense<[false, true, false, true, true]> : tensor<5xi1>
  %26 = stablehlo.compare  LT, %c22, %c23,  TOTALORDER : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  check.expect_eq_const %26, dense<[false, false, true, true, false]> : tensor<5xi1>
  // f32 -> bf16: one rounding, ties to even, overflow to Inf, underflow to 0, NaN stays NaN
  %c27 = stablehlo.constant dense<[0x3F808000, 0x3F818000, 0x7F7F7F80, 0x7F7FFEBF, 0x7F7FFF00, 0x0D000000, 0x0D400000, 0x80000000, 0x7FC00000, 0xFF800000, 0x3DCCCCCD]> : tensor<11xf32>
  %28 = stablehlo.convert %c27 : (tensor<11xf32>) -> tensor<11xbf16>
  check.expect_eq_const %28, dense<[0x3F80, 0x3F82, 0x7F7F, 0x7F80, 0x7F80, 0x0D00, 0x0D40, 0x8000, 0x7FC0, 0xFF80, 0x3DCD]> : tensor<11xbf16>
  // f64 -> bf16 rounds to nearest even (values just off a tie, which must not round twice through f32, are in the Go differential tests)
  %c29 = stablehlo.constant dense<[0x3FF0100000000000, 0x3FF0300000000000, 0x7E37E43C8800759C, 0x01A56E1FC2F8F359, 0x81A56E1FC2F8F359, 0x400921FB54442D18, 0x3FB999999999999A]> : tensor<7xf64>
  %30 = stablehlo.convert %c29 : (tensor<7xf64>) -> tensor<7xbf16>
  check.expect_eq_const %30, dense<[0x3F80, 0x3F82, 0x7F80, 0x0000, 0x8000, 0x4049, 0x3DCD]> : tensor<7xbf16>
  // i64 -> bf16 rounds to nearest even
  %c31 = stablehlo.constant dense<[513, 515, 1103806595072, 1112396529664, -4629700416936869888, 65519, 65520, -65536]> : tensor<8xi64>
  %32 = stablehlo.convert %c31 : (tensor<8xi64>) -> tensor<8xbf16>
  check.expect_eq_const %32, dense<[0x4400, 0x4401, 0x5380, 0x5382, 0xDE80, 0x4780, 0x4780, 0xC780]> : tensor<8xbf16>
  // bf16 -> f32 is exact (subnormals too); -> i32 truncates and saturates
  %c33 = stablehlo.constant dense<[0x0D80, 0x8E40, 0x7F7F, 0xFF80, 0x4020, 0x8000]> : tensor<6xbf16>
  %34 = stablehlo.convert %c33 : (tensor<6xbf16>) -> tensor<6xf32>
  check.expect_eq_const %34, dense<[0x0D800000, 0x8E400000, 0x7F7F0000, 0xFF800000, 0x40200000, 0x80000000]> : tensor<6xf32>
  %35 = stablehlo.convert %c33 : (tensor<6xbf16>) -> tensor<6xi32>
  check.expect_eq_const %35, dense<[0, 0, 2147483647, -2147483648, 2, 0]> : tensor<6xi32>
  %36 = stablehlo.convert %c33 : (tensor<6xbf16>) -> tensor<6xf16>
  // bf16 -> f16 rounds once
  check.expect_eq_const %36, dense<[0x0000, 0x8000, 0x7C00, 0xFC00, 0x4100, 0x8000]> : tensor<6xf16>
  return
}
