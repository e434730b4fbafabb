// The sub-byte integers i2, i4 (signed) and ui2, ui4: every elementwise
// op on every pair of values (wrapping arithmetic, division by zero and
// INT_MIN / -1, shifts past the width, popcnt and count_leading_zeros in the
// type's width, power with negative exponents), conversions (from f32
// truncating and saturating into the narrow range with NaN -> 0, from i32
// wrapping, to f32), bitcast_convert between the signed and unsigned type
// of a width, and data movement. Results are checked as i32. Expected
// values: Python integers.
func.func @main() {
  // i2: every pair of values
  %v1 = stablehlo.constant dense<[-2, -2, -2, -2, -1, -1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 1]> : tensor<16xi2>
  %v2 = stablehlo.constant dense<[-2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1]> : tensor<16xi2>
  %v3 = stablehlo.add %v1, %v2 : tensor<16xi2>
  // add wraps modulo 2^2
  %v4 = stablehlo.convert %v3 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v4, dense<[0, 1, -2, -1, 1, -2, -1, 0, -2, -1, 0, 1, -1, 0, 1, -2]> : tensor<16xi32>
  %v5 = stablehlo.subtract %v1, %v2 : tensor<16xi2>
  // subtract wraps
  %v6 = stablehlo.convert %v5 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v6, dense<[0, -1, -2, 1, 1, 0, -1, -2, -2, 1, 0, -1, -1, -2, 1, 0]> : tensor<16xi32>
  %v7 = stablehlo.multiply %v1, %v2 : tensor<16xi2>
  // multiply wraps
  %v8 = stablehlo.convert %v7 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v8, dense<[0, -2, 0, -2, -2, 1, 0, -1, 0, 0, 0, 0, -2, -1, 0, 1]> : tensor<16xi32>
  %v9 = stablehlo.divide %v1, %v2 : tensor<16xi2>
  // divide truncates; x/0 is all ones, INT_MIN/-1 is INT_MIN
  %v10 = stablehlo.convert %v9 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v10, dense<[1, -2, -1, -2, 0, 1, -1, -1, 0, 0, -1, 0, 0, -1, -1, 1]> : tensor<16xi32>
  %v11 = stablehlo.remainder %v1, %v2 : tensor<16xi2>
  // remainder sign of x; x%0 is x
  %v12 = stablehlo.convert %v11 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v12, dense<[0, 0, -2, 0, -1, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 0]> : tensor<16xi32>
  %v13 = stablehlo.maximum %v1, %v2 : tensor<16xi2>
  // maximum 
  %v14 = stablehlo.convert %v13 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v14, dense<[-2, -1, 0, 1, -1, -1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1]> : tensor<16xi32>
  %v15 = stablehlo.minimum %v1, %v2 : tensor<16xi2>
  // minimum 
  %v16 = stablehlo.convert %v15 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v16, dense<[-2, -2, -2, -2, -2, -1, -1, -1, -2, -1, 0, 0, -2, -1, 0, 1]> : tensor<16xi32>
  %v17 = stablehlo.and %v1, %v2 : tensor<16xi2>
  // and 
  %v18 = stablehlo.convert %v17 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v18, dense<[-2, -2, 0, 0, -2, -1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1]> : tensor<16xi32>
  %v19 = stablehlo.xor %v1, %v2 : tensor<16xi2>
  // xor 
  %v20 = stablehlo.convert %v19 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v20, dense<[0, 1, -2, -1, 1, 0, -1, -2, -2, -1, 0, 1, -1, -2, 1, 0]> : tensor<16xi32>
  %v21 = stablehlo.shift_left %v1, %v2 : tensor<16xi2>
  // shift_left counts past the width (or negative) give 0
  %v22 = stablehlo.convert %v21 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v22, dense<[0, 0, -2, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 1, -2]> : tensor<16xi32>
  %v23 = stablehlo.shift_right_arithmetic %v1, %v2 : tensor<16xi2>
  // shift_right_arithmetic past the width: the sign
  %v24 = stablehlo.convert %v23 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v24, dense<[-1, -1, -2, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 1, 0]> : tensor<16xi32>
  %v25 = stablehlo.shift_right_logical %v1, %v2 : tensor<16xi2>
  // shift_right_logical past the width: 0
  %v26 = stablehlo.convert %v25 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v26, dense<[0, 0, -2, 1, 0, 0, -1, 1, 0, 0, 0, 0, 0, 0, 1, 0]> : tensor<16xi32>
  %v27 = stablehlo.power %v1, %v2 : tensor<16xi2>
  // power negative exponents: 1, -1 alternating, else 0
  %v28 = stablehlo.convert %v27 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v28, dense<[0, 0, 1, -2, 1, -1, 1, -1, 0, 0, 1, 0, 1, 1, 1, 1]> : tensor<16xi32>
  %v29 = stablehlo.compare  LT, %v1, %v2 : (tensor<16xi2>, tensor<16xi2>) -> tensor<16xi1>
  check.expect_eq_const %v29, dense<[false, true, true, true, false, false, true, true, false, false, false, true, false, false, false, false]> : tensor<16xi1>
  %v30 = stablehlo.popcnt %v1 : tensor<16xi2>
  // popcnt counts the 2 bits
  %v31 = stablehlo.convert %v30 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v31, dense<[1, 1, 1, 1, -2, -2, -2, -2, 0, 0, 0, 0, 1, 1, 1, 1]> : tensor<16xi32>
  %v32 = stablehlo.count_leading_zeros %v1 : tensor<16xi2>
  // count_leading_zeros in 2 bits
  %v33 = stablehlo.convert %v32 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v33, dense<[0, 0, 0, 0, 0, 0, 0, 0, -2, -2, -2, -2, 1, 1, 1, 1]> : tensor<16xi32>
  %v34 = stablehlo.not %v1 : tensor<16xi2>
  // not
  %v35 = stablehlo.convert %v34 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v35, dense<[1, 1, 1, 1, 0, 0, 0, 0, -1, -1, -1, -1, -2, -2, -2, -2]> : tensor<16xi32>
  %v36 = stablehlo.negate %v1 : tensor<16xi2>
  // negate: -INT_MIN is INT_MIN
  %v37 = stablehlo.convert %v36 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v37, dense<[-2, -2, -2, -2, 1, 1, 1, 1, 0, 0, 0, 0, -1, -1, -1, -1]> : tensor<16xi32>
  %v38 = stablehlo.constant dense<[0x00000000, 0xBF000000, 0x3FF33333, 0xC0200000, 0x407F5C29, 0xC1080000, 0x40F00000, 0x42C80000, 0xC2C80000, 0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<12xf32>
  %v39 = stablehlo.convert %v38 : (tensor<12xf32>) -> tensor<12xi2>
  // f32 -> i2 truncates and saturates, NaN -> 0
  %v40 = stablehlo.convert %v39 : (tensor<12xi2>) -> tensor<12xi32>
  check.expect_eq_const %v40, dense<[0, 0, 1, -2, 1, -2, 1, 1, -2, 0, 1, -2]> : tensor<12xi32>
  %v41 = stablehlo.constant dense<[0, 1, -1, 5, -5, 9, 17, -129, 1073741824]> : tensor<9xi32>
  %v42 = stablehlo.convert %v41 : (tensor<9xi32>) -> tensor<9xi2>
  // i32 -> i2 wraps
  %v43 = stablehlo.convert %v42 : (tensor<9xi2>) -> tensor<9xi32>
  check.expect_eq_const %v43, dense<[0, 1, -1, 1, -1, 1, 1, -1, 0]> : tensor<9xi32>
  %v44 = stablehlo.convert %v1 : (tensor<16xi2>) -> tensor<16xf32>
  check.expect_eq_const %v44, dense<[-2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]> : tensor<16xf32>
  %v45 = stablehlo.bitcast_convert %v1 : (tensor<16xi2>) -> tensor<16xui2>
  // bitcast_convert to ui2: the same 2 bits
  %v46 = stablehlo.convert %v45 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v46, dense<[2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 1, 1]> : tensor<16xi32>
  %v47 = stablehlo.reshape %v1 : (tensor<16xi2>) -> tensor<4x4xi2>
  %v48 = stablehlo.transpose %v47, dims = [1, 0] : (tensor<4x4xi2>) -> tensor<4x4xi2>
  %v49 = stablehlo.slice %v48 [0:4, 1:2] : (tensor<4x4xi2>) -> tensor<4x1xi2>
  %v50 = stablehlo.broadcast_in_dim %v49, dims = [0, 1] : (tensor<4x1xi2>) -> tensor<4x2xi2>
  %v51 = stablehlo.reshape %v50 : (tensor<4x2xi2>) -> tensor<8xi2>
  %v52 = stablehlo.reverse %v51, dims = [0] : tensor<8xi2>
  // reshape, transpose, slice, broadcast_in_dim, reverse
  %v53 = stablehlo.convert %v52 : (tensor<8xi2>) -> tensor<8xi32>
  check.expect_eq_const %v53, dense<[-1, -1, -1, -1, -1, -1, -1, -1]> : tensor<8xi32>
  // i4: every pair of values
  %v54 = stablehlo.constant dense<[-8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]> : tensor<256xi4>
  %v55 = stablehlo.constant dense<[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]> : tensor<256xi4>
  %v56 = stablehlo.add %v54, %v55 : tensor<256xi4>
  // add wraps modulo 2^4
  %v57 = stablehlo.convert %v56 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v57, dense<[0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -1, 0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2]> : tensor<256xi32>
  %v58 = stablehlo.subtract %v54, %v55 : tensor<256xi4>
  // subtract wraps
  %v59 = stablehlo.convert %v58 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v59, dense<[0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, 7, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0]> : tensor<256xi32>
  %v60 = stablehlo.multiply %v54, %v55 : tensor<256xi4>
  // multiply wraps
  %v61 = stablehlo.convert %v60 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v61, dense<[0, -8, 0, -8, 0, -8, 0, -8, 0, -8, 0, -8, 0, -8, 0, -8, -8, 1, -6, 3, -4, 5, -2, 7, 0, -7, 2, -5, 4, -3, 6, -1, 0, -6, 4, -2, -8, 2, -4, 6, 0, -6, 4, -2, -8, 2, -4, 6, -8, 3, -2, -7, 4, -1, -6, 5, 0, -5, 6, 1, -4, 7, 2, -3, 0, -4, -8, 4, 0, -4, -8, 4, 0, -4, -8, 4, 0, -4, -8, 4, -8, 5, 2, -1, -4, -7, 6, 3, 0, -3, -6, 7, 4, 1, -2, -5, 0, -2, -4, -6, -8, 6, 4, 2, 0, -2, -4, -6, -8, 6, 4, 2, -8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 4, 6, -8, -6, -4, -2, 0, 2, 4, 6, -8, -6, -4, -2, -8, -5, -2, 1, 4, 7, -6, -3, 0, 3, 6, -7, -4, -1, 2, 5, 0, 4, -8, -4, 0, 4, -8, -4, 0, 4, -8, -4, 0, 4, -8, -4, -8, -3, 2, 7, -4, 1, 6, -5, 0, 5, -6, -1, 4, -7, -2, 3, 0, 6, -4, 2, -8, -2, 4, -6, 0, 6, -4, 2, -8, -2, 4, -6, -8, -1, 6, -3, 4, -5, 2, -7, 0, 7, -2, 5, -4, 3, -6, 1]> : tensor<256xi32>
  %v62 = stablehlo.divide %v54, %v55 : tensor<256xi4>
  // divide truncates; x/0 is all ones, INT_MIN/-1 is INT_MIN
  %v63 = stablehlo.convert %v62 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v63, dense<[1, 1, 1, 1, 2, 2, 4, -8, -1, -8, -4, -2, -2, -1, -1, -1, 0, 1, 1, 1, 1, 2, 3, 7, -1, -7, -3, -2, -1, -1, -1, -1, 0, 0, 1, 1, 1, 2, 3, 6, -1, -6, -3, -2, -1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 2, 5, -1, -5, -2, -1, -1, -1, 0, 0, 0, 0, 0, 0, 1, 1, 2, 4, -1, -4, -2, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3, -1, -3, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, -1, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -3, -1, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -2, -4, -1, 4, 2, 1, 1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -2, -5, -1, 5, 2, 1, 1, 1, 0, 0, 0, 0, -1, -1, -1, -2, -3, -6, -1, 6, 3, 2, 1, 1, 1, 0, 0, -1, -1, -1, -1, -2, -3, -7, -1, 7, 3, 2, 1, 1, 1, 1]> : tensor<256xi32>
  %v64 = stablehlo.remainder %v54, %v55 : tensor<256xi4>
  // remainder sign of x; x%0 is x
  %v65 = stablehlo.convert %v64 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v65, dense<[0, -1, -2, -3, 0, -2, 0, 0, -8, 0, 0, -2, 0, -3, -2, -1, -7, 0, -1, -2, -3, -1, -1, 0, -7, 0, -1, -1, -3, -2, -1, 0, -6, -6, 0, -1, -2, 0, 0, 0, -6, 0, 0, 0, -2, -1, 0, -6, -5, -5, -5, 0, -1, -2, -1, 0, -5, 0, -1, -2, -1, 0, -5, -5, -4, -4, -4, -4, 0, -1, 0, 0, -4, 0, 0, -1, 0, -4, -4, -4, -3, -3, -3, -3, -3, 0, -1, 0, -3, 0, -1, 0, -3, -3, -3, -3, -2, -2, -2, -2, -2, -2, 0, 0, -2, 0, 0, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0, 0, 2, 0, 0, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 0, 1, 0, 3, 0, 1, 0, 3, 3, 3, 3, 4, 4, 4, 4, 0, 1, 0, 0, 4, 0, 0, 1, 0, 4, 4, 4, 5, 5, 5, 0, 1, 2, 1, 0, 5, 0, 1, 2, 1, 0, 5, 5, 6, 6, 0, 1, 2, 0, 0, 0, 6, 0, 0, 0, 2, 1, 0, 6, 7, 0, 1, 2, 3, 1, 1, 0, 7, 0, 1, 1, 3, 2, 1, 0]> : tensor<256xi32>
  %v66 = stablehlo.maximum %v54, %v55 : tensor<256xi4>
  // maximum 
  %v67 = stablehlo.convert %v66 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v67, dense<[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -7, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -6, -6, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -5, -5, -5, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -4, -4, -4, -4, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -3, -3, -3, -3, -3, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -2, -2, -2, -2, -2, -2, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 4, 5, 6, 7, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 5, 6, 7, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 6, 7, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]> : tensor<256xi32>
  %v68 = stablehlo.minimum %v54, %v55 : tensor<256xi4>
  // minimum 
  %v69 = stablehlo.convert %v68 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v69, dense<[-8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -8, -7, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -8, -7, -6, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -8, -7, -6, -5, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -8, -7, -6, -5, -4, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -8, -7, -6, -5, -4, -3, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -8, -7, -6, -5, -4, -3, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -8, -7, -6, -5, -4, -3, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 1, 1, 1, 1, 1, 1, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 2, 2, 2, 2, 2, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 3, 3, 3, 3, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 4, 4, 4, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 5, 5, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 6, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]> : tensor<256xi32>
  %v70 = stablehlo.and %v54, %v55 : tensor<256xi4>
  // and 
  %v71 = stablehlo.convert %v70 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v71, dense<[-8, -8, -8, -8, -8, -8, -8, -8, 0, 0, 0, 0, 0, 0, 0, 0, -8, -7, -8, -7, -8, -7, -8, -7, 0, 1, 0, 1, 0, 1, 0, 1, -8, -8, -6, -6, -8, -8, -6, -6, 0, 0, 2, 2, 0, 0, 2, 2, -8, -7, -6, -5, -8, -7, -6, -5, 0, 1, 2, 3, 0, 1, 2, 3, -8, -8, -8, -8, -4, -4, -4, -4, 0, 0, 0, 0, 4, 4, 4, 4, -8, -7, -8, -7, -4, -3, -4, -3, 0, 1, 0, 1, 4, 5, 4, 5, -8, -8, -6, -6, -4, -4, -2, -2, 0, 0, 2, 2, 4, 4, 6, 6, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 0, 4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 1, 0, 1, 4, 5, 4, 5, 0, 1, 0, 1, 4, 5, 4, 5, 0, 0, 2, 2, 4, 4, 6, 6, 0, 0, 2, 2, 4, 4, 6, 6, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]> : tensor<256xi32>
  %v72 = stablehlo.xor %v54, %v55 : tensor<256xi4>
  // xor 
  %v73 = stablehlo.convert %v72 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v73, dense<[0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1, 1, 0, 3, 2, 5, 4, 7, 6, -7, -8, -5, -6, -3, -4, -1, -2, 2, 3, 0, 1, 6, 7, 4, 5, -6, -5, -8, -7, -2, -1, -4, -3, 3, 2, 1, 0, 7, 6, 5, 4, -5, -6, -7, -8, -1, -2, -3, -4, 4, 5, 6, 7, 0, 1, 2, 3, -4, -3, -2, -1, -8, -7, -6, -5, 5, 4, 7, 6, 1, 0, 3, 2, -3, -4, -1, -2, -7, -8, -5, -6, 6, 7, 4, 5, 2, 3, 0, 1, -2, -1, -4, -3, -6, -5, -8, -7, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, -7, -8, -5, -6, -3, -4, -1, -2, 1, 0, 3, 2, 5, 4, 7, 6, -6, -5, -8, -7, -2, -1, -4, -3, 2, 3, 0, 1, 6, 7, 4, 5, -5, -6, -7, -8, -1, -2, -3, -4, 3, 2, 1, 0, 7, 6, 5, 4, -4, -3, -2, -1, -8, -7, -6, -5, 4, 5, 6, 7, 0, 1, 2, 3, -3, -4, -1, -2, -7, -8, -5, -6, 5, 4, 7, 6, 1, 0, 3, 2, -2, -1, -4, -3, -6, -5, -8, -7, 6, 7, 4, 5, 2, 3, 0, 1, -1, -2, -3, -4, -5, -6, -7, -8, 7, 6, 5, 4, 3, 2, 1, 0]> : tensor<256xi32>
  %v74 = stablehlo.shift_left %v54, %v55 : tensor<256xi4>
  // shift_left counts past the width (or negative) give 0
  %v75 = stablehlo.convert %v74 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v75, dense<[0, 0, 0, 0, 0, 0, 0, 0, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, 2, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5, 6, -4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -6, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, -4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, -4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, -6, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, -4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, -2, -4, -8, 0, 0, 0, 0]> : tensor<256xi32>
  %v76 = stablehlo.shift_right_arithmetic %v54, %v55 : tensor<256xi4>
  // shift_right_arithmetic past the width: the sign
  %v77 = stablehlo.convert %v76 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v77, dense<[-1, -1, -1, -1, -1, -1, -1, -1, -8, -4, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -7, -4, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -6, -3, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -5, -3, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -4, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -3, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3, 1, 0, 0, 0, 0, 0]> : tensor<256xi32>
  %v78 = stablehlo.shift_right_logical %v54, %v55 : tensor<256xi4>
  // shift_right_logical past the width: 0
  %v79 = stablehlo.convert %v78 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v79, dense<[0, 0, 0, 0, 0, 0, 0, 0, -8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 7, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 7, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3, 1, 0, 0, 0, 0, 0]> : tensor<256xi32>
  %v80 = stablehlo.power %v54, %v55 : tensor<256xi4>
  // power negative exponents: 1, -1 alternating, else 0
  %v81 = stablehlo.convert %v80 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v81, dense<[0, 0, 0, 0, 0, 0, 0, 0, 1, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -7, 1, -7, 1, -7, 1, -7, 0, 0, 0, 0, 0, 0, 0, 0, 1, -6, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -5, -7, 3, 1, -5, -7, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1, -4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -3, -7, 5, 1, -3, -7, 5, 0, 0, 0, 0, 0, 0, 0, 0, 1, -2, 4, -8, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, -7, -5, 1, 3, -7, -5, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 5, -7, -3, 1, 5, -7, -3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 6, 4, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 7, 1, 7, 1, 7, 1, 7]> : tensor<256xi32>
  %v82 = stablehlo.compare  LT, %v54, %v55 : (tensor<256xi4>, tensor<256xi4>) -> tensor<256xi1>
  check.expect_eq_const %v82, dense<[false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]> : tensor<256xi1>
  %v83 = stablehlo.popcnt %v54 : tensor<256xi4>
  // popcnt counts the 4 bits
  %v84 = stablehlo.convert %v83 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v84, dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]> : tensor<256xi32>
  %v85 = stablehlo.count_leading_zeros %v54 : tensor<256xi4>
  // count_leading_zeros in 4 bits
  %v86 = stablehlo.convert %v85 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v86, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<256xi32>
  %v87 = stablehlo.not %v54 : tensor<256xi4>
  // not
  %v88 = stablehlo.convert %v87 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v88, dense<[7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8]> : tensor<256xi32>
  %v89 = stablehlo.negate %v54 : tensor<256xi4>
  // negate: -INT_MIN is INT_MIN
  %v90 = stablehlo.convert %v89 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v90, dense<[-8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7]> : tensor<256xi32>
  %v91 = stablehlo.constant dense<[0x00000000, 0xBF000000, 0x3FF33333, 0xC0200000, 0x407F5C29, 0xC1080000, 0x40F00000, 0x42C80000, 0xC2C80000, 0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<12xf32>
  %v92 = stablehlo.convert %v91 : (tensor<12xf32>) -> tensor<12xi4>
  // f32 -> i4 truncates and saturates, NaN -> 0
  %v93 = stablehlo.convert %v92 : (tensor<12xi4>) -> tensor<12xi32>
  check.expect_eq_const %v93, dense<[0, 0, 1, -2, 3, -8, 7, 7, -8, 0, 7, -8]> : tensor<12xi32>
  %v94 = stablehlo.constant dense<[0, 1, -1, 5, -5, 9, 17, -129, 1073741824]> : tensor<9xi32>
  %v95 = stablehlo.convert %v94 : (tensor<9xi32>) -> tensor<9xi4>
  // i32 -> i4 wraps
  %v96 = stablehlo.convert %v95 : (tensor<9xi4>) -> tensor<9xi32>
  check.expect_eq_const %v96, dense<[0, 1, -1, 5, -5, -7, 1, -1, 0]> : tensor<9xi32>
  %v97 = stablehlo.convert %v54 : (tensor<256xi4>) -> tensor<256xf32>
  check.expect_eq_const %v97, dense<[-8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -8.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -6.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -5.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -4.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0]> : tensor<256xf32>
  %v98 = stablehlo.bitcast_convert %v54 : (tensor<256xi4>) -> tensor<256xui4>
  // bitcast_convert to ui4: the same 4 bits
  %v99 = stablehlo.convert %v98 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v99, dense<[8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]> : tensor<256xi32>
  %v100 = stablehlo.reshape %v54 : (tensor<256xi4>) -> tensor<16x16xi4>
  %v101 = stablehlo.transpose %v100, dims = [1, 0] : (tensor<16x16xi4>) -> tensor<16x16xi4>
  %v102 = stablehlo.slice %v101 [0:16, 1:2] : (tensor<16x16xi4>) -> tensor<16x1xi4>
  %v103 = stablehlo.broadcast_in_dim %v102, dims = [0, 1] : (tensor<16x1xi4>) -> tensor<16x2xi4>
  %v104 = stablehlo.reshape %v103 : (tensor<16x2xi4>) -> tensor<32xi4>
  %v105 = stablehlo.reverse %v104, dims = [0] : tensor<32xi4>
  // reshape, transpose, slice, broadcast_in_dim, reverse
  %v106 = stablehlo.convert %v105 : (tensor<32xi4>) -> tensor<32xi32>
  check.expect_eq_const %v106, dense<[-7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7]> : tensor<32xi32>
  // ui2: every pair of values
  %v107 = stablehlo.constant dense<[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]> : tensor<16xui2>
  %v108 = stablehlo.constant dense<[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]> : tensor<16xui2>
  %v109 = stablehlo.add %v107, %v108 : tensor<16xui2>
  // add wraps modulo 2^2
  %v110 = stablehlo.convert %v109 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v110, dense<[0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2]> : tensor<16xi32>
  %v111 = stablehlo.subtract %v107, %v108 : tensor<16xui2>
  // subtract wraps
  %v112 = stablehlo.convert %v111 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v112, dense<[0, 3, 2, 1, 1, 0, 3, 2, 2, 1, 0, 3, 3, 2, 1, 0]> : tensor<16xi32>
  %v113 = stablehlo.multiply %v107, %v108 : tensor<16xui2>
  // multiply wraps
  %v114 = stablehlo.convert %v113 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v114, dense<[0, 0, 0, 0, 0, 1, 2, 3, 0, 2, 0, 2, 0, 3, 2, 1]> : tensor<16xi32>
  %v115 = stablehlo.divide %v107, %v108 : tensor<16xui2>
  // divide truncates; x/0 is all ones, INT_MIN/-1 is INT_MIN
  %v116 = stablehlo.convert %v115 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v116, dense<[3, 0, 0, 0, 3, 1, 0, 0, 3, 2, 1, 0, 3, 3, 1, 1]> : tensor<16xi32>
  %v117 = stablehlo.remainder %v107, %v108 : tensor<16xui2>
  // remainder sign of x; x%0 is x
  %v118 = stablehlo.convert %v117 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v118, dense<[0, 0, 0, 0, 1, 0, 1, 1, 2, 0, 0, 2, 3, 0, 1, 0]> : tensor<16xi32>
  %v119 = stablehlo.maximum %v107, %v108 : tensor<16xui2>
  // maximum 
  %v120 = stablehlo.convert %v119 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v120, dense<[0, 1, 2, 3, 1, 1, 2, 3, 2, 2, 2, 3, 3, 3, 3, 3]> : tensor<16xi32>
  %v121 = stablehlo.minimum %v107, %v108 : tensor<16xui2>
  // minimum 
  %v122 = stablehlo.convert %v121 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v122, dense<[0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 2, 2, 0, 1, 2, 3]> : tensor<16xi32>
  %v123 = stablehlo.and %v107, %v108 : tensor<16xui2>
  // and 
  %v124 = stablehlo.convert %v123 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v124, dense<[0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0, 1, 2, 3]> : tensor<16xi32>
  %v125 = stablehlo.xor %v107, %v108 : tensor<16xui2>
  // xor 
  %v126 = stablehlo.convert %v125 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v126, dense<[0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0]> : tensor<16xi32>
  %v127 = stablehlo.shift_left %v107, %v108 : tensor<16xui2>
  // shift_left counts past the width (or negative) give 0
  %v128 = stablehlo.convert %v127 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v128, dense<[0, 0, 0, 0, 1, 2, 0, 0, 2, 0, 0, 0, 3, 2, 0, 0]> : tensor<16xi32>
  %v129 = stablehlo.shift_right_arithmetic %v107, %v108 : tensor<16xui2>
  // shift_right_arithmetic past the width: the sign
  %v130 = stablehlo.convert %v129 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v130, dense<[0, 0, 0, 0, 1, 0, 0, 0, 2, 3, 3, 3, 3, 3, 3, 3]> : tensor<16xi32>
  %v131 = stablehlo.shift_right_logical %v107, %v108 : tensor<16xui2>
  // shift_right_logical past the width: 0
  %v132 = stablehlo.convert %v131 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v132, dense<[0, 0, 0, 0, 1, 0, 0, 0, 2, 1, 0, 0, 3, 1, 0, 0]> : tensor<16xi32>
  %v133 = stablehlo.power %v107, %v108 : tensor<16xui2>
  // power negative exponents: 1, -1 alternating, else 0
  %v134 = stablehlo.convert %v133 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v134, dense<[1, 0, 0, 0, 1, 1, 1, 1, 1, 2, 0, 0, 1, 3, 1, 3]> : tensor<16xi32>
  %v135 = stablehlo.compare  LT, %v107, %v108 : (tensor<16xui2>, tensor<16xui2>) -> tensor<16xi1>
  check.expect_eq_const %v135, dense<[false, true, true, true, false, false, true, true, false, false, false, true, false, false, false, false]> : tensor<16xi1>
  %v136 = stablehlo.popcnt %v107 : tensor<16xui2>
  // popcnt counts the 2 bits
  %v137 = stablehlo.convert %v136 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v137, dense<[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2]> : tensor<16xi32>
  %v138 = stablehlo.count_leading_zeros %v107 : tensor<16xui2>
  // count_leading_zeros in 2 bits
  %v139 = stablehlo.convert %v138 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v139, dense<[2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
  %v140 = stablehlo.not %v107 : tensor<16xui2>
  // not
  %v141 = stablehlo.convert %v140 : (tensor<16xui2>) -> tensor<16xi32>
  check.expect_eq_const %v141, dense<[3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0]> : tensor<16xi32>
  %v142 = stablehlo.constant dense<[0x00000000, 0xBF000000, 0x3FF33333, 0xC0200000, 0x407F5C29, 0xC1080000, 0x40F00000, 0x42C80000, 0xC2C80000, 0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<12xf32>
  %v143 = stablehlo.convert %v142 : (tensor<12xf32>) -> tensor<12xui2>
  // f32 -> ui2 truncates and saturates, NaN -> 0
  %v144 = stablehlo.convert %v143 : (tensor<12xui2>) -> tensor<12xi32>
  check.expect_eq_const %v144, dense<[0, 0, 1, 0, 3, 0, 3, 3, 0, 0, 3, 0]> : tensor<12xi32>
  %v145 = stablehlo.constant dense<[0, 1, -1, 5, -5, 9, 17, -129, 1073741824]> : tensor<9xi32>
  %v146 = stablehlo.convert %v145 : (tensor<9xi32>) -> tensor<9xui2>
  // i32 -> ui2 wraps
  %v147 = stablehlo.convert %v146 : (tensor<9xui2>) -> tensor<9xi32>
  check.expect_eq_const %v147, dense<[0, 1, 3, 1, 3, 1, 1, 3, 0]> : tensor<9xi32>
  %v148 = stablehlo.convert %v107 : (tensor<16xui2>) -> tensor<16xf32>
  check.expect_eq_const %v148, dense<[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0]> : tensor<16xf32>
  %v149 = stablehlo.bitcast_convert %v107 : (tensor<16xui2>) -> tensor<16xi2>
  // bitcast_convert to i2: the same 2 bits
  %v150 = stablehlo.convert %v149 : (tensor<16xi2>) -> tensor<16xi32>
  check.expect_eq_const %v150, dense<[0, 0, 0, 0, 1, 1, 1, 1, -2, -2, -2, -2, -1, -1, -1, -1]> : tensor<16xi32>
  %v151 = stablehlo.reshape %v107 : (tensor<16xui2>) -> tensor<4x4xui2>
  %v152 = stablehlo.transpose %v151, dims = [1, 0] : (tensor<4x4xui2>) -> tensor<4x4xui2>
  %v153 = stablehlo.slice %v152 [0:4, 1:2] : (tensor<4x4xui2>) -> tensor<4x1xui2>
  %v154 = stablehlo.broadcast_in_dim %v153, dims = [0, 1] : (tensor<4x1xui2>) -> tensor<4x2xui2>
  %v155 = stablehlo.reshape %v154 : (tensor<4x2xui2>) -> tensor<8xui2>
  %v156 = stablehlo.reverse %v155, dims = [0] : tensor<8xui2>
  // reshape, transpose, slice, broadcast_in_dim, reverse
  %v157 = stablehlo.convert %v156 : (tensor<8xui2>) -> tensor<8xi32>
  check.expect_eq_const %v157, dense<[1, 1, 1, 1, 1, 1, 1, 1]> : tensor<8xi32>
  // ui4: every pair of values
  %v158 = stablehlo.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15]> : tensor<256xui4>
  %v159 = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<256xui4>
  %v160 = stablehlo.add %v158, %v159 : tensor<256xui4>
  // add wraps modulo 2^4
  %v161 = stablehlo.convert %v160 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v161, dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]> : tensor<256xi32>
  %v162 = stablehlo.subtract %v158, %v159 : tensor<256xui4>
  // subtract wraps
  %v163 = stablehlo.convert %v162 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v163, dense<[0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]> : tensor<256xi32>
  %v164 = stablehlo.multiply %v158, %v159 : tensor<256xui4>
  // multiply wraps
  %v165 = stablehlo.convert %v164 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v165, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14, 0, 3, 6, 9, 12, 15, 2, 5, 8, 11, 14, 1, 4, 7, 10, 13, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11, 0, 6, 12, 2, 8, 14, 4, 10, 0, 6, 12, 2, 8, 14, 4, 10, 0, 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2, 9, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7, 0, 10, 4, 14, 8, 2, 12, 6, 0, 10, 4, 14, 8, 2, 12, 6, 0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15, 10, 5, 0, 12, 8, 4, 0, 12, 8, 4, 0, 12, 8, 4, 0, 12, 8, 4, 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3, 0, 14, 12, 10, 8, 6, 4, 2, 0, 14, 12, 10, 8, 6, 4, 2, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]> : tensor<256xi32>
  %v166 = stablehlo.divide %v158, %v159 : tensor<256xui4>
  // divide truncates; x/0 is all ones, INT_MIN/-1 is INT_MIN
  %v167 = stablehlo.convert %v166 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v167, dense<[15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 4, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 5, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 6, 3, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 7, 3, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 15, 8, 4, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 15, 9, 4, 3, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 15, 10, 5, 3, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 15, 11, 5, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 15, 12, 6, 4, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 15, 13, 6, 4, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 15, 14, 7, 4, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 15, 15, 7, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<256xi32>
  %v168 = stablehlo.remainder %v158, %v159 : tensor<256xui4>
  // remainder sign of x; x%0 is x
  %v169 = stablehlo.convert %v168 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v169, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 0, 1, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 0, 0, 1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 0, 1, 2, 1, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 0, 0, 0, 2, 1, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 0, 1, 1, 3, 2, 1, 0, 7, 7, 7, 7, 7, 7, 7, 7, 8, 0, 0, 2, 0, 3, 2, 1, 0, 8, 8, 8, 8, 8, 8, 8, 9, 0, 1, 0, 1, 4, 3, 2, 1, 0, 9, 9, 9, 9, 9, 9, 10, 0, 0, 1, 2, 0, 4, 3, 2, 1, 0, 10, 10, 10, 10, 10, 11, 0, 1, 2, 3, 1, 5, 4, 3, 2, 1, 0, 11, 11, 11, 11, 12, 0, 0, 0, 0, 2, 0, 5, 4, 3, 2, 1, 0, 12, 12, 12, 13, 0, 1, 1, 1, 3, 1, 6, 5, 4, 3, 2, 1, 0, 13, 13, 14, 0, 0, 2, 2, 4, 2, 0, 6, 5, 4, 3, 2, 1, 0, 14, 15, 0, 1, 0, 3, 0, 3, 1, 7, 6, 5, 4, 3, 2, 1, 0]> : tensor<256xi32>
  %v170 = stablehlo.maximum %v158, %v159 : tensor<256xui4>
  // maximum 
  %v171 = stablehlo.convert %v170 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v171, dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 4, 4, 4, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 5, 5, 5, 5, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 6, 6, 6, 6, 6, 6, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 7, 7, 7, 7, 7, 7, 7, 7, 8, 9, 10, 11, 12, 13, 14, 15, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 10, 11, 12, 13, 14, 15, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 11, 12, 13, 14, 15, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11, 12, 13, 14, 15, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 13, 14, 15, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13, 14, 15, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 14, 15, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15]> : tensor<256xi32>
  %v172 = stablehlo.minimum %v158, %v159 : tensor<256xui4>
  // minimum 
  %v173 = stablehlo.convert %v172 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v173, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11, 11, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13, 13, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<256xi32>
  %v174 = stablehlo.and %v158, %v159 : tensor<256xui4>
  // and 
  %v175 = stablehlo.convert %v174 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v175, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 0, 4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 1, 0, 1, 4, 5, 4, 5, 0, 1, 0, 1, 4, 5, 4, 5, 0, 0, 2, 2, 4, 4, 6, 6, 0, 0, 2, 2, 4, 4, 6, 6, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 0, 1, 0, 1, 0, 1, 0, 1, 8, 9, 8, 9, 8, 9, 8, 9, 0, 0, 2, 2, 0, 0, 2, 2, 8, 8, 10, 10, 8, 8, 10, 10, 0, 1, 2, 3, 0, 1, 2, 3, 8, 9, 10, 11, 8, 9, 10, 11, 0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12, 0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<256xi32>
  %v176 = stablehlo.xor %v158, %v159 : tensor<256xui4>
  // xor 
  %v177 = stablehlo.convert %v176 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v177, dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 5, 4, 7, 6, 1, 0, 3, 2, 13, 12, 15, 14, 9, 8, 11, 10, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]> : tensor<256xi32>
  %v178 = stablehlo.shift_left %v158, %v159 : tensor<256xui4>
  // shift_left counts past the width (or negative) give 0
  %v179 = stablehlo.convert %v178 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v179, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 14, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 6, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 10, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 14, 12, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<256xi32>
  %v180 = stablehlo.shift_right_arithmetic %v158, %v159 : tensor<256xui4>
  // shift_right_arithmetic past the width: the sign
  %v181 = stablehlo.convert %v180 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v181, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 12, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 9, 12, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 10, 13, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 11, 13, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 12, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 13, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15]> : tensor<256xi32>
  %v182 = stablehlo.shift_right_logical %v158, %v159 : tensor<256xui4>
  // shift_right_logical past the width: 0
  %v183 = stablehlo.convert %v182 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v183, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 7, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 7, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<256xi32>
  %v184 = stablehlo.power %v158, %v159 : tensor<256xui4>
  // power negative exponents: 1, -1 alternating, else 0
  %v185 = stablehlo.convert %v184 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v185, dense<[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 9, 11, 1, 3, 9, 11, 1, 3, 9, 11, 1, 3, 9, 11, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 5, 9, 13, 1, 5, 9, 13, 1, 5, 9, 13, 1, 5, 9, 13, 1, 6, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 9, 1, 9, 1, 9, 1, 9, 1, 9, 1, 9, 1, 9, 1, 9, 1, 10, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 11, 9, 3, 1, 11, 9, 3, 1, 11, 9, 3, 1, 11, 9, 3, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 13, 9, 5, 1, 13, 9, 5, 1, 13, 9, 5, 1, 13, 9, 5, 1, 14, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 15, 1, 15, 1, 15, 1, 15, 1, 15, 1, 15, 1, 15, 1, 15]> : tensor<256xi32>
  %v186 = stablehlo.compare  LT, %v158, %v159 : (tensor<256xui4>, tensor<256xui4>) -> tensor<256xi1>
  check.expect_eq_const %v186, dense<[false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]> : tensor<256xi1>
  %v187 = stablehlo.popcnt %v158 : tensor<256xui4>
  // popcnt counts the 4 bits
  %v188 = stablehlo.convert %v187 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v188, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]> : tensor<256xi32>
  %v189 = stablehlo.count_leading_zeros %v158 : tensor<256xui4>
  // count_leading_zeros in 4 bits
  %v190 = stablehlo.convert %v189 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v190, dense<[4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<256xi32>
  %v191 = stablehlo.not %v158 : tensor<256xui4>
  // not
  %v192 = stablehlo.convert %v191 : (tensor<256xui4>) -> tensor<256xi32>
  check.expect_eq_const %v192, dense<[15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<256xi32>
  %v193 = stablehlo.constant dense<[0x00000000, 0xBF000000, 0x3FF33333, 0xC0200000, 0x407F5C29, 0xC1080000, 0x40F00000, 0x42C80000, 0xC2C80000, 0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<12xf32>
  %v194 = stablehlo.convert %v193 : (tensor<12xf32>) -> tensor<12xui4>
  // f32 -> ui4 truncates and saturates, NaN -> 0
  %v195 = stablehlo.convert %v194 : (tensor<12xui4>) -> tensor<12xi32>
  check.expect_eq_const %v195, dense<[0, 0, 1, 0, 3, 0, 7, 15, 0, 0, 15, 0]> : tensor<12xi32>
  %v196 = stablehlo.constant dense<[0, 1, -1, 5, -5, 9, 17, -129, 1073741824]> : tensor<9xi32>
  %v197 = stablehlo.convert %v196 : (tensor<9xi32>) -> tensor<9xui4>
  // i32 -> ui4 wraps
  %v198 = stablehlo.convert %v197 : (tensor<9xui4>) -> tensor<9xi32>
  check.expect_eq_const %v198, dense<[0, 1, 15, 5, 11, 9, 1, 15, 0]> : tensor<9xi32>
  %v199 = stablehlo.convert %v158 : (tensor<256xui4>) -> tensor<256xf32>
  check.expect_eq_const %v199, dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 13.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 14.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0, 15.0]> : tensor<256xf32>
  %v200 = stablehlo.bitcast_convert %v158 : (tensor<256xui4>) -> tensor<256xi4>
  // bitcast_convert to i4: the same 4 bits
  %v201 = stablehlo.convert %v200 : (tensor<256xi4>) -> tensor<256xi32>
  check.expect_eq_const %v201, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -3, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]> : tensor<256xi32>
  %v202 = stablehlo.reshape %v158 : (tensor<256xui4>) -> tensor<16x16xui4>
  %v203 = stablehlo.transpose %v202, dims = [1, 0] : (tensor<16x16xui4>) -> tensor<16x16xui4>
  %v204 = stablehlo.slice %v203 [0:16, 1:2] : (tensor<16x16xui4>) -> tensor<16x1xui4>
  %v205 = stablehlo.broadcast_in_dim %v204, dims = [0, 1] : (tensor<16x1xui4>) -> tensor<16x2xui4>
  %v206 = stablehlo.reshape %v205 : (tensor<16x2xui4>) -> tensor<32xui4>
  %v207 = stablehlo.reverse %v206, dims = [0] : tensor<32xui4>
  // reshape, transpose, slice, broadcast_in_dim, reverse
  %v208 = stablehlo.convert %v207 : (tensor<32xui4>) -> tensor<32xi32>
  check.expect_eq_const %v208, dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<32xi32>
  return
}
