// f16: stored as such, computed in f32 and rounded once to nearest even, as
// XLA does (for +, -, *, /, sqrt that is the correctly rounded result):
// ties, overflow to Inf, subnormals (f16 only: bf16 subnormals are f32
// subnormals, which XLA flushes), signed zeros, NaN; maximum, compare
// (FLOAT and TOTALORDER); conversions from f32, f64 and i64 (rounded once;
// the cases where rounding twice through f32 would differ are in the Go
// differential tests, pjrt/cpu/codegen/types_ext_test.go), and to f32, i32
// and the other 16-bit float. Expected values: exact rational arithmetic in
// Python (fractions), rounded to the format.
func.func @main() {
  // f16 add: one rounding to nearest even (ties 2048 + 1, 2048 + 3), overflow to Inf, subnormals, signed zeros, Inf - Inf
  %c0 = stablehlo.constant dense<[0x6800, 0x6800, 0x7BFF, 0x7BFF, 0x0001, 0x3C00, 0x8000, 0x0000, 0x7C00, 0x3E00]> : tensor<10xf16>
  %c1 = stablehlo.constant dense<[0x3C00, 0x4200, 0x4BFF, 0x4FFF, 0x0001, 0x1000, 0x8000, 0x8000, 0xFC00, 0xBE00]> : tensor<10xf16>
  %2 = stablehlo.add %c0, %c1 : tensor<10xf16>
  check.expect_eq_const %2, dense<[0x6800, 0x6802, 0x7BFF, 0x7C00, 0x0002, 0x3C00, 0x8000, 0x0000, 0xFE00, 0x0000]> : tensor<10xf16>
  // multiply: rounding, overflow, underflow of a subnormal half (a tie: to 0), -0
  %c3 = stablehlo.constant dense<[0x2E66, 0x4200, 0x7BFF, 0x0001, 0xC000, 0x3C01]> : tensor<6xf16>
  %c4 = stablehlo.constant dense<[0x2E66, 0x3555, 0x4000, 0x3800, 0x0000, 0x3C01]> : tensor<6xf16>
  %5 = stablehlo.multiply %c3, %c4 : tensor<6xf16>
  check.expect_eq_const %5, dense<[0x211E, 0x3C00, 0x7C00, 0x0000, 0x8000, 0x3C02]> : tensor<6xf16>
  // divide: rounding, x/0, 0/0
  %c6 = stablehlo.constant dense<[0x3C00, 0x4000, 0x3C00, 0xBC00, 0x0000]> : tensor<5xf16>
  %c7 = stablehlo.constant dense<[0x4200, 0x4200, 0x0000, 0x0000, 0x0000]> : tensor<5xf16>
  %8 = stablehlo.divide %c6, %c7 : tensor<5xf16>
  check.expect_eq_const %8, dense<[0x3555, 0x3955, 0x7C00, 0xFC00, 0x7E00]> : tensor<5xf16>
  // remainder is exact (fmod), sign of x
  %c9 = stablehlo.constant dense<[0x4200, 0xC100, 0x3C01, 0x5640]> : tensor<4xf16>
  %c10 = stablehlo.constant dense<[0x4000, 0x3A00, 0x3C00, 0x4700]> : tensor<4xf16>
  %11 = stablehlo.remainder %c9, %c10 : tensor<4xf16>
  check.expect_eq_const %11, dense<[0x3C00, 0xB400, 0x1400, 0x4000]> : tensor<4xf16>
  // maximum: NaN wins, max(-0, +0) = +0
  %c12 = stablehlo.constant dense<[0x7E00, 0x3C00, 0x8000, 0x0000, 0xFC00]> : tensor<5xf16>
  %c13 = stablehlo.constant dense<[0x3C00, 0x7E00, 0x0000, 0x8000, 0x4000]> : tensor<5xf16>
  %14 = stablehlo.maximum %c12, %c13 : tensor<5xf16>
  check.expect_eq_const %14, dense<[0x7E00, 0x7E00, 0x0000, 0x0000, 0x4000]> : tensor<5xf16>
  %c15 = stablehlo.constant dense<[0x4000, 0x211F, 0x0001, 0xBC00, 0x7C00]> : tensor<5xf16>
  // sqrt: correctly rounded (via float64, which is innocuous for one sqrt)
  %16 = stablehlo.sqrt %c15 : tensor<5xf16>
  check.expect_eq_const %16, dense<[0x3DA8, 0x2E67, 0x0C00, 0x7E00, 0x7C00]> : tensor<5xf16>
  // exponential and log within 1 ULP (glibc in f32, then rounded)
  %c17 = stablehlo.constant dense<[0x3800, 0x3C00, 0xC200, 0x4100, 0x2E66]> : tensor<5xf16>
  %18 = stablehlo.exponential %c17 : tensor<5xf16>
  %c19 = stablehlo.constant dense<[0x3E98, 0x4170, 0x2A5F, 0x4A17, 0x3C6C]> : tensor<5xf16>
  check.expect_close %18, %c19, max_ulp_difference = 1 : tensor<5xf16>, tensor<5xf16>
  %20 = stablehlo.log %c17 : tensor<5xf16>
  %c21 = stablehlo.constant dense<[0xB98C, 0x0000, 0x7E00, 0x3B55, 0xC09B]> : tensor<5xf16>
  check.expect_close %20, %c21, max_ulp_difference = 1 : tensor<5xf16>, tensor<5xf16>
  %c22 = stablehlo.constant dense<[0x3C00, 0x7E00, 0x8000, 0xFC00, 0x4000]> : tensor<5xf16>
  %c23 = stablehlo.constant dense<[0x3C00, 0x7E00, 0x0000, 0x3C00, 0x3C00]> : tensor<5xf16>
  // compare FLOAT: NaN unordered, -0 == +0; TOTALORDER: -0 < +0, NaN above everything
  %24 = stablehlo.compare  EQ, %c22, %c23,  FLOAT : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xi1>
  check.expect_eq_const %24, dense<[true, false, true, false, false]> : tensor<5xi1>
  %25 = stablehlo.compare  NE, %c22, %c23 : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xi1>
  check.expect_eq_const %25, dense<[false, true, false, true, true]> : tensor<5xi1>
  %26 = stablehlo.compare  LT, %c22, %c23,  TOTALORDER : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xi1>
  check.expect_eq_const %26, dense<[false, false, true, true, false]> : tensor<5xi1>
  // f32 -> f16: one rounding, ties to even, overflow to Inf, underflow to 0, NaN stays NaN
  %c27 = stablehlo.constant dense<[0x3F801000, 0x3F803000, 0x477FEFFE, 0x477FFFF4, 0x477FFFFC, 0x33000000, 0x33400000, 0x80000000, 0x7FC00000, 0xFF800000, 0x3DCCCCCD]> : tensor<11xf32>
  %28 = stablehlo.convert %c27 : (tensor<11xf32>) -> tensor<11xf16>
  check.expect_eq_const %28, dense<[0x3C00, 0x3C02, 0x7BFF, 0x7C00, 0x7C00, 0x0000, 0x0001, 0x8000, 0x7E00, 0xFC00, 0x2E66]> : tensor<11xf16>
  // f64 -> f16 rounds to nearest even (values just off a tie, which must not round twice through f32, are in the Go differential tests)
  %c29 = stablehlo.constant dense<[0x3FF0020000000000, 0x3FF0060000000000, 0x7E37E43C8800759C, 0x01A56E1FC2F8F359, 0x81A56E1FC2F8F359, 0x400921FB54442D18, 0x3FB999999999999A]> : tensor<7xf64>
  %30 = stablehlo.convert %c29 : (tensor<7xf64>) -> tensor<7xf16>
  check.expect_eq_const %30, dense<[0x3C00, 0x3C02, 0x7C00, 0x0000, 0x8000, 0x4248, 0x2E66]> : tensor<7xf16>
  // i64 -> f16 rounds to nearest even
  %c31 = stablehlo.constant dense<[4097, 4099, 1103806595072, 1112396529664, -4629700416936869888, 65519, 65520, -65536]> : tensor<8xi64>
  %32 = stablehlo.convert %c31 : (tensor<8xi64>) -> tensor<8xf16>
  check.expect_eq_const %32, dense<[0x6C00, 0x6C01, 0x7C00, 0x7C00, 0xFC00, 0x7BFF, 0x7C00, 0xFC00]> : tensor<8xf16>
  // f16 -> f32 is exact (subnormals too); -> i32 truncates and saturates
  %c33 = stablehlo.constant dense<[0x0001, 0x8003, 0x7BFF, 0xFC00, 0x4100, 0x8000]> : tensor<6xf16>
  %34 = stablehlo.convert %c33 : (tensor<6xf16>) -> tensor<6xf32>
  check.expect_eq_const %34, dense<[0x33800000, 0xB4400000, 0x477FE000, 0xFF800000, 0x40200000, 0x80000000]> : tensor<6xf32>
  %35 = stablehlo.convert %c33 : (tensor<6xf16>) -> tensor<6xi32>
  check.expect_eq_const %35, dense<[0, 0, 65504, -2147483648, 2, 0]> : tensor<6xi32>
  %36 = stablehlo.convert %c33 : (tensor<6xf16>) -> tensor<6xbf16>
  // f16 -> bf16 rounds once
  check.expect_eq_const %36, dense<[0x3380, 0xB440, 0x4780, 0xFF80, 0x4020, 0x8000]> : tensor<6xbf16>
  return
}
