// Narrow signed integers i8 and i16 (si8, si16): wrapping arithmetic,
// truncating division with INT_MIN / -1 = INT_MIN and x / 0 = -1, abs and
// negate of INT_MIN, popcnt and count_leading_zeros in the width, shifts
// with counts past the width or negative, power with negative exponents,
// conversions (sign extension, wrapping truncation, saturating float ->
// integer). Expected values: Python integers.
func.func @main() {
  // i8: wrapping +, -, *
  %c0 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c1 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %2 = stablehlo.add %c0, %c1 : tensor<8xi8>
  check.expect_eq_const %2, dense<[3, -128, 127, 0, 3, 0, 7, -5]> : tensor<8xi8>
  %c3 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c4 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %5 = stablehlo.subtract %c3, %c4 : tensor<8xi8>
  check.expect_eq_const %5, dense<[-1, 126, -127, -10, -3, 0, 7, -9]> : tensor<8xi8>
  %c6 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c7 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %8 = stablehlo.multiply %c6, %c7 : tensor<8xi8>
  check.expect_eq_const %8, dense<[2, 127, -128, -25, 0, 0, 0, -14]> : tensor<8xi8>
  // division truncates toward zero; INT_MIN/-1 is INT_MIN, x/0 is -1, x%0 is x
  %c9 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c10 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %11 = stablehlo.divide %c9, %c10 : tensor<8xi8>
  check.expect_eq_const %11, dense<[0, 127, -128, -1, 0, 1, -1, -3]> : tensor<8xi8>
  %c12 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c13 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %14 = stablehlo.remainder %c12, %c13 : tensor<8xi8>
  check.expect_eq_const %14, dense<[1, 0, 0, 0, 0, 0, 7, -1]> : tensor<8xi8>
  %c15 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c16 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %17 = stablehlo.maximum %c15, %c16 : tensor<8xi8>
  check.expect_eq_const %17, dense<[2, 127, -1, 5, 3, -128, 7, 2]> : tensor<8xi8>
  %c18 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  // abs and negate of INT_MIN wrap to INT_MIN; popcnt and count_leading_zeros count in the width
  %19 = stablehlo.abs %c18 : tensor<8xi8>
  check.expect_eq_const %19, dense<[1, 127, -128, 5, 0, -128, 7, 7]> : tensor<8xi8>
  %20 = stablehlo.negate %c18 : tensor<8xi8>
  check.expect_eq_const %20, dense<[-1, -127, -128, 5, 0, -128, -7, 7]> : tensor<8xi8>
  %21 = stablehlo.popcnt %c18 : tensor<8xi8>
  check.expect_eq_const %21, dense<[1, 7, 1, 7, 0, 1, 3, 6]> : tensor<8xi8>
  %22 = stablehlo.count_leading_zeros %c18 : tensor<8xi8>
  check.expect_eq_const %22, dense<[7, 1, 0, 0, 8, 0, 5, 0]> : tensor<8xi8>
  // shifts: a negative count is a huge unsigned one
  %c23 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c24 = stablehlo.constant dense<[1, 7, 8, -1, 0, 1, 3, 1]> : tensor<8xi8>
  %25 = stablehlo.shift_left %c23, %c24 : tensor<8xi8>
  check.expect_eq_const %25, dense<[2, -128, 0, 0, 0, 0, 56, -14]> : tensor<8xi8>
  %c26 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c27 = stablehlo.constant dense<[1, 7, 8, -1, 0, 1, 3, 1]> : tensor<8xi8>
  %28 = stablehlo.shift_right_arithmetic %c26, %c27 : tensor<8xi8>
  check.expect_eq_const %28, dense<[0, 0, -1, -1, 0, -64, 0, -4]> : tensor<8xi8>
  %c29 = stablehlo.constant dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi8>
  %c30 = stablehlo.constant dense<[1, 7, 8, -1, 0, 1, 3, 1]> : tensor<8xi8>
  %31 = stablehlo.shift_right_logical %c29, %c30 : tensor<8xi8>
  check.expect_eq_const %31, dense<[0, 0, 0, 0, 0, 64, 0, 124]> : tensor<8xi8>
  // compare is SIGNED by default
  %c32 = stablehlo.constant dense<[2, 1, -1, 5, 3, -128, 0, 2]> : tensor<8xi8>
  %33 = stablehlo.compare  LT, %c18, %c32 : (tensor<8xi8>, tensor<8xi8>) -> tensor<8xi1>
  check.expect_eq_const %33, dense<[true, false, true, true, true, false, false, true]> : tensor<8xi1>
  // power with negative exponents: 1, +-1 or 0
  %c34 = stablehlo.constant dense<[2, -1, -1, 3, 0, 1, 1, -2]> : tensor<8xi8>
  %c35 = stablehlo.constant dense<[3, 2, -1, 2, 0, 1, -2, 3]> : tensor<8xi8>
  %36 = stablehlo.power %c34, %c35 : tensor<8xi8>
  check.expect_eq_const %36, dense<[8, 1, -1, 9, 1, 1, 1, -8]> : tensor<8xi8>
  // sign extension to i32, truncation from i32, exact to f32
  %37 = stablehlo.convert %c18 : (tensor<8xi8>) -> tensor<8xi32>
  check.expect_eq_const %37, dense<[1, 127, -128, -5, 0, -128, 7, -7]> : tensor<8xi32>
  %38 = stablehlo.convert %c18 : (tensor<8xi8>) -> tensor<8xf32>
  check.expect_eq_const %38, dense<[0x3F800000, 0x42FE0000, 0xC3000000, 0xC0A00000, 0x00000000, 0xC3000000, 0x40E00000, 0xC0E00000]> : tensor<8xf32>
  %39 = stablehlo.convert %c18 : (tensor<8xi8>) -> tensor<8xui16>
  check.expect_eq_const %39, dense<[1, 127, 65408, 65531, 0, 65408, 7, 65529]> : tensor<8xui16>
  // i16: wrapping +, -, *
  %c40 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c41 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %42 = stablehlo.add %c40, %c41 : tensor<8xi16>
  check.expect_eq_const %42, dense<[3, -32768, 32767, 0, 3, 0, 7, -5]> : tensor<8xi16>
  %c43 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c44 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %45 = stablehlo.subtract %c43, %c44 : tensor<8xi16>
  check.expect_eq_const %45, dense<[-1, 32766, -32767, -10, -3, 0, 7, -9]> : tensor<8xi16>
  %c46 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c47 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %48 = stablehlo.multiply %c46, %c47 : tensor<8xi16>
  check.expect_eq_const %48, dense<[2, 32767, -32768, -25, 0, 0, 0, -14]> : tensor<8xi16>
  // division truncates toward zero; INT_MIN/-1 is INT_MIN, x/0 is -1, x%0 is x
  %c49 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c50 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %51 = stablehlo.divide %c49, %c50 : tensor<8xi16>
  check.expect_eq_const %51, dense<[0, 32767, -32768, -1, 0, 1, -1, -3]> : tensor<8xi16>
  %c52 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c53 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %54 = stablehlo.remainder %c52, %c53 : tensor<8xi16>
  check.expect_eq_const %54, dense<[1, 0, 0, 0, 0, 0, 7, -1]> : tensor<8xi16>
  %c55 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c56 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %57 = stablehlo.maximum %c55, %c56 : tensor<8xi16>
  check.expect_eq_const %57, dense<[2, 32767, -1, 5, 3, -32768, 7, 2]> : tensor<8xi16>
  %c58 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  // abs and negate of INT_MIN wrap to INT_MIN; popcnt and count_leading_zeros count in the width
  %59 = stablehlo.abs %c58 : tensor<8xi16>
  check.expect_eq_const %59, dense<[1, 32767, -32768, 5, 0, -32768, 7, 7]> : tensor<8xi16>
  %60 = stablehlo.negate %c58 : tensor<8xi16>
  check.expect_eq_const %60, dense<[-1, -32767, -32768, 5, 0, -32768, -7, 7]> : tensor<8xi16>
  %61 = stablehlo.popcnt %c58 : tensor<8xi16>
  check.expect_eq_const %61, dense<[1, 15, 1, 15, 0, 1, 3, 14]> : tensor<8xi16>
  %62 = stablehlo.count_leading_zeros %c58 : tensor<8xi16>
  check.expect_eq_const %62, dense<[15, 1, 0, 0, 16, 0, 13, 0]> : tensor<8xi16>
  // shifts: a negative count is a huge unsigned one
  %c63 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c64 = stablehlo.constant dense<[1, 15, 16, -1, 0, 1, 3, 1]> : tensor<8xi16>
  %65 = stablehlo.shift_left %c63, %c64 : tensor<8xi16>
  check.expect_eq_const %65, dense<[2, -32768, 0, 0, 0, 0, 56, -14]> : tensor<8xi16>
  %c66 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c67 = stablehlo.constant dense<[1, 15, 16, -1, 0, 1, 3, 1]> : tensor<8xi16>
  %68 = stablehlo.shift_right_arithmetic %c66, %c67 : tensor<8xi16>
  check.expect_eq_const %68, dense<[0, 0, -1, -1, 0, -16384, 0, -4]> : tensor<8xi16>
  %c69 = stablehlo.constant dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi16>
  %c70 = stablehlo.constant dense<[1, 15, 16, -1, 0, 1, 3, 1]> : tensor<8xi16>
  %71 = stablehlo.shift_right_logical %c69, %c70 : tensor<8xi16>
  check.expect_eq_const %71, dense<[0, 0, 0, 0, 0, 16384, 0, 32764]> : tensor<8xi16>
  // compare is SIGNED by default
  %c72 = stablehlo.constant dense<[2, 1, -1, 5, 3, -32768, 0, 2]> : tensor<8xi16>
  %73 = stablehlo.compare  LT, %c58, %c72 : (tensor<8xi16>, tensor<8xi16>) -> tensor<8xi1>
  check.expect_eq_const %73, dense<[true, false, true, true, true, false, false, true]> : tensor<8xi1>
  // power with negative exponents: 1, +-1 or 0
  %c74 = stablehlo.constant dense<[2, -1, -1, 3, 0, 1, 1, -2]> : tensor<8xi16>
  %c75 = stablehlo.constant dense<[3, 2, -1, 2, 0, 1, -2, 3]> : tensor<8xi16>
  %76 = stablehlo.power %c74, %c75 : tensor<8xi16>
  check.expect_eq_const %76, dense<[8, 1, -1, 9, 1, 1, 1, -8]> : tensor<8xi16>
  // sign extension to i32, truncation from i32, exact to f32
  %77 = stablehlo.convert %c58 : (tensor<8xi16>) -> tensor<8xi32>
  check.expect_eq_const %77, dense<[1, 32767, -32768, -5, 0, -32768, 7, -7]> : tensor<8xi32>
  %78 = stablehlo.convert %c58 : (tensor<8xi16>) -> tensor<8xf32>
  check.expect_eq_const %78, dense<[0x3F800000, 0x46FFFE00, 0xC7000000, 0xC0A00000, 0x00000000, 0xC7000000, 0x40E00000, 0xC0E00000]> : tensor<8xf32>
  %79 = stablehlo.convert %c58 : (tensor<8xi16>) -> tensor<8xui16>
  check.expect_eq_const %79, dense<[1, 32767, 32768, 65531, 0, 32768, 7, 65529]> : tensor<8xui16>
  %c80 = stablehlo.constant dense<[70000, -70000, 200, -129, 127, 65535]> : tensor<6xi32>
  %81 = stablehlo.convert %c80 : (tensor<6xi32>) -> tensor<6xi8>
  check.expect_eq_const %81, dense<[112, -112, -56, 127, 127, -1]> : tensor<6xi8>
  %82 = stablehlo.convert %c80 : (tensor<6xi32>) -> tensor<6xi16>
  check.expect_eq_const %82, dense<[4464, -4464, 200, -129, 127, -1]> : tensor<6xi16>
  %c83 = stablehlo.constant dense<[0x3FF33333, 0xBFF33333, 0x43480000, 0xC3480000, 0x501502F9, 0x7FC00000, 0xFF800000, 0xC3008000]> : tensor<8xf32>
  // f32 -> i8 and i16 truncate and saturate; NaN -> 0
  %84 = stablehlo.convert %c83 : (tensor<8xf32>) -> tensor<8xi8>
  check.expect_eq_const %84, dense<[1, -1, 127, -128, 127, 0, -128, -128]> : tensor<8xi8>
  %85 = stablehlo.convert %c83 : (tensor<8xf32>) -> tensor<8xi16>
  check.expect_eq_const %85, dense<[1, -1, 200, -200, 32767, 0, -32768, -128]> : tensor<8xi16>
  return
}
