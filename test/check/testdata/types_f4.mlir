// The f4 type f4E2M1FN: no Inf and no NaN;
// overflow and Inf saturate to the largest finite value. Conversion from
// f32 on the edge values, every code to f32, arithmetic in f32 rounded
// once, compare and select, conversion to and from i32, data movement.
// Results are checked bit for bit as the f32 they widen to (bitcast to
// i32, so -0 counts). Expected values: ml_dtypes 0.7.0 (numpy astype, f32
// arithmetic then one rounding).
func.func @main() {
  // f4E2M1FN: f32 -> f4E2M1FN on edge values: the largest finite value, beyond it (ties and overflow), the smallest subnormal and halves of it, -0, Inf
  %v1 = stablehlo.constant dense<[0x40C00000, 0x40CC0000, 0x40D80000, 0x41400000, 0x3F000000, 0x3E800000, 0x3EC00000, 0x3F400000, 0x80000000, 0x3F800000, 0x3E99999A, 0xC0200000, 0x7F800000, 0xFF800000, 0x7F61B1E6]> : tensor<15xf32>
  %v2 = stablehlo.convert %v1 : (tensor<15xf32>) -> tensor<15xf4E2M1FN>
  %v3 = stablehlo.convert %v2 : (tensor<15xf4E2M1FN>) -> tensor<15xf32>
  %v4 = stablehlo.bitcast_convert %v3 : (tensor<15xf32>) -> tensor<15xi32>
  check.expect_eq_const %v4, dense<[1086324736, 1086324736, 1086324736, 1086324736, 1056964608, 0, 1056964608, 1065353216, -2147483648, 1065353216, 1056964608, -1073741824, 1086324736, -1061158912, 1086324736]> : tensor<15xi32>
  // every f4E2M1FN code -> f32 (exact)
  %v5 = stablehlo.constant dense<[0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F]> : tensor<16xf4E2M1FN>
  %v6 = stablehlo.convert %v5 : (tensor<16xf4E2M1FN>) -> tensor<16xf32>
  check.expect_eq_const %v6, dense<[0x00000000, 0x3F000000, 0x3F800000, 0x3FC00000, 0x40000000, 0x40400000, 0x40800000, 0x40C00000, 0x80000000, 0xBF000000, 0xBF800000, 0xBFC00000, 0xC0000000, 0xC0400000, 0xC0800000, 0xC0C00000]> : tensor<16xf32>
  %v7 = stablehlo.constant dense<[0x07, 0x01, 0x09, 0x00, 0x06, 0x03, 0x01, 0x01, 0x07, 0x0B, 0x09, 0x04]> : tensor<12xf4E2M1FN>
  %v8 = stablehlo.constant dense<[0x07, 0x01, 0x0D, 0x01, 0x09, 0x05, 0x04, 0x0F, 0x0D, 0x0E, 0x04, 0x05]> : tensor<12xf4E2M1FN>
  // add: in f32, rounded once to f4E2M1FN
  %v9 = stablehlo.add %v7, %v8 : tensor<12xf4E2M1FN>
  %v10 = stablehlo.convert %v9 : (tensor<12xf4E2M1FN>) -> tensor<12xf32>
  %v11 = stablehlo.bitcast_convert %v10 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v11, dense<[1086324736, 1065353216, -1065353216, 1056964608, 1082130432, 1082130432, 1073741824, -1061158912, 1077936128, -1061158912, 1069547520, 1082130432]> : tensor<12xi32>
  // subtract: in f32, rounded once to f4E2M1FN
  %v12 = stablehlo.subtract %v7, %v8 : tensor<12xf4E2M1FN>
  %v13 = stablehlo.convert %v12 : (tensor<12xf4E2M1FN>) -> tensor<12xf32>
  %v14 = stablehlo.bitcast_convert %v13 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v14, dense<[0, 0, 1073741824, -1090519040, 1082130432, -1077936128, -1077936128, 1086324736, 1086324736, 1073741824, -1073741824, -1082130432]> : tensor<12xi32>
  // multiply: in f32, rounded once to f4E2M1FN
  %v15 = stablehlo.multiply %v7, %v8 : tensor<12xf4E2M1FN>
  %v16 = stablehlo.convert %v15 : (tensor<12xf4E2M1FN>) -> tensor<12xf32>
  %v17 = stablehlo.bitcast_convert %v16 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v17, dense<[1086324736, 0, 1069547520, 0, -1073741824, 1082130432, 1065353216, -1069547520, -1061158912, 1086324736, -1082130432, 1086324736]> : tensor<12xi32>
  // divide: in f32, rounded once to f4E2M1FN
  %v18 = stablehlo.divide %v7, %v8 : tensor<12xf4E2M1FN>
  %v19 = stablehlo.convert %v18 : (tensor<12xf4E2M1FN>) -> tensor<12xf32>
  %v20 = stablehlo.bitcast_convert %v19 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v20, dense<[1065353216, 1065353216, 0, 0, -1061158912, 1056964608, 0, -2147483648, -1073741824, 1056964608, -2147483648, 1056964608]> : tensor<12xi32>
  // maximum: in f32, rounded once to f4E2M1FN
  %v21 = stablehlo.maximum %v7, %v8 : tensor<12xf4E2M1FN>
  %v22 = stablehlo.convert %v21 : (tensor<12xf4E2M1FN>) -> tensor<12xf32>
  %v23 = stablehlo.bitcast_convert %v22 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v23, dense<[1086324736, 1056964608, -1090519040, 1056964608, 1082130432, 1077936128, 1073741824, 1056964608, 1086324736, -1077936128, 1073741824, 1077936128]> : tensor<12xi32>
  // compare LT / EQ (a NaN is unordered) and select
  %v24 = stablehlo.constant dense<[0x02, 0x0A, 0x00, 0x07, 0x01, 0x04]> : tensor<6xf4E2M1FN>
  %v25 = stablehlo.constant dense<[0x04, 0x0A, 0x08, 0x07, 0x00, 0x02]> : tensor<6xf4E2M1FN>
  %v26 = stablehlo.compare  LT, %v24, %v25,  FLOAT : (tensor<6xf4E2M1FN>, tensor<6xf4E2M1FN>) -> tensor<6xi1>
  check.expect_eq_const %v26, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  %v27 = stablehlo.select %v26, %v24, %v25 : tensor<6xi1>, tensor<6xf4E2M1FN>
  %v28 = stablehlo.convert %v27 : (tensor<6xf4E2M1FN>) -> tensor<6xf32>
  %v29 = stablehlo.bitcast_convert %v28 : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const %v29, dense<[1065353216, -1082130432, -2147483648, 1086324736, 0, 1065353216]> : tensor<6xi32>
  %v30 = stablehlo.compare  EQ, %v24, %v25,  FLOAT : (tensor<6xf4E2M1FN>, tensor<6xf4E2M1FN>) -> tensor<6xi1>
  check.expect_eq_const %v30, dense<[false, true, true, true, false, false]> : tensor<6xi1>
  // f4E2M1FN -> i32 truncates toward zero; i32 -> f4E2M1FN rounds once
  %v31 = stablehlo.convert %v7 : (tensor<12xf4E2M1FN>) -> tensor<12xi32>
  check.expect_eq_const %v31, dense<[6, 0, 0, 0, 4, 1, 0, 0, 6, -1, 0, 2]> : tensor<12xi32>
  %v32 = stablehlo.constant dense<[0, 1, -1, 3, 7, -9, 17, 100, -300, 1000, 5000, 123456]> : tensor<12xi32>
  %v33 = stablehlo.convert %v32 : (tensor<12xi32>) -> tensor<12xf4E2M1FN>
  %v34 = stablehlo.convert %v33 : (tensor<12xf4E2M1FN>) -> tensor<12xf32>
  %v35 = stablehlo.bitcast_convert %v34 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v35, dense<[0, 1065353216, -1082130432, 1077936128, 1086324736, -1061158912, 1086324736, 1086324736, -1061158912, 1086324736, 1086324736, 1086324736]> : tensor<12xi32>
  // data movement: reshape, transpose, reverse, slice, concatenate, broadcast_in_dim
  %v36 = stablehlo.reshape %v5 : (tensor<16xf4E2M1FN>) -> tensor<1x16xf4E2M1FN>
  %v37 = stablehlo.transpose %v36, dims = [1, 0] : (tensor<1x16xf4E2M1FN>) -> tensor<16x1xf4E2M1FN>
  %v38 = stablehlo.reverse %v37, dims = [0] : tensor<16x1xf4E2M1FN>
  %v39 = stablehlo.slice %v38 [1:16:2, 0:1] : (tensor<16x1xf4E2M1FN>) -> tensor<8x1xf4E2M1FN>
  %v40 = stablehlo.reshape %v39 : (tensor<8x1xf4E2M1FN>) -> tensor<8xf4E2M1FN>
  %v41 = stablehlo.broadcast_in_dim %v7, dims = [0] : (tensor<12xf4E2M1FN>) -> tensor<12x2xf4E2M1FN>
  %v42 = stablehlo.reshape %v41 : (tensor<12x2xf4E2M1FN>) -> tensor<24xf4E2M1FN>
  %v43 = stablehlo.concatenate %v40, %v42, dim = 0 : (tensor<8xf4E2M1FN>, tensor<24xf4E2M1FN>) -> tensor<32xf4E2M1FN>
  %v44 = stablehlo.convert %v43 : (tensor<32xf4E2M1FN>) -> tensor<32xf32>
  %v45 = stablehlo.bitcast_convert %v44 : (tensor<32xf32>) -> tensor<32xi32>
  check.expect_eq_const %v45, dense<[-1065353216, -1073741824, -1082130432, -2147483648, 1082130432, 1073741824, 1065353216, 0, 1086324736, 1086324736, 1056964608, 1056964608, -1090519040, -1090519040, 0, 0, 1082130432, 1082130432, 1069547520, 1069547520, 1056964608, 1056964608, 1056964608, 1056964608, 1086324736, 1086324736, -1077936128, -1077936128, -1090519040, -1090519040, 1073741824, 1073741824]> : tensor<32xi32>
  return
}
