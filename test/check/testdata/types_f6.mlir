// The f6 types (f6E2M3FN, f6E3M2FN): no Inf and no NaN;
// overflow and Inf saturate to the largest finite value. Conversion from
// f32 on the edge values, every code to f32, arithmetic in f32 rounded
// once, compare and select, conversion to and from i32, data movement.
// Results are checked bit for bit as the f32 they widen to (bitcast to
// i32, so -0 counts). Expected values: ml_dtypes 0.7.0 (numpy astype, f32
// arithmetic then one rounding).
func.func @main() {
  // f6E2M3FN: f32 -> f6E2M3FN on edge values: the largest finite value, beyond it (ties and overflow), the smallest subnormal and halves of it, -0, Inf
  %v1 = stablehlo.constant dense<[0x40F00000, 0x40FF0000, 0x41070000, 0x41700000, 0x3E000000, 0x3D800000, 0x3DC00000, 0x3E400000, 0x80000000, 0x3F800000, 0x3E99999A, 0xC0200000, 0x7F800000, 0xFF800000, 0x7F61B1E6]> : tensor<15xf32>
  %v2 = stablehlo.convert %v1 : (tensor<15xf32>) -> tensor<15xf6E2M3FN>
  %v3 = stablehlo.convert %v2 : (tensor<15xf6E2M3FN>) -> tensor<15xf32>
  %v4 = stablehlo.bitcast_convert %v3 : (tensor<15xf32>) -> tensor<15xi32>
  check.expect_eq_const %v4, dense<[1089470464, 1089470464, 1089470464, 1089470464, 1040187392, 0, 1040187392, 1048576000, -2147483648, 1065353216, 1048576000, -1071644672, 1089470464, -1058013184, 1089470464]> : tensor<15xi32>
  // every f6E2M3FN code -> f32 (exact)
  %v5 = stablehlo.constant dense<[0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F]> : tensor<64xf6E2M3FN>
  %v6 = stablehlo.convert %v5 : (tensor<64xf6E2M3FN>) -> tensor<64xf32>
  check.expect_eq_const %v6, dense<[0x00000000, 0x3E000000, 0x3E800000, 0x3EC00000, 0x3F000000, 0x3F200000, 0x3F400000, 0x3F600000, 0x3F800000, 0x3F900000, 0x3FA00000, 0x3FB00000, 0x3FC00000, 0x3FD00000, 0x3FE00000, 0x3FF00000, 0x40000000, 0x40100000, 0x40200000, 0x40300000, 0x40400000, 0x40500000, 0x40600000, 0x40700000, 0x40800000, 0x40900000, 0x40A00000, 0x40B00000, 0x40C00000, 0x40D00000, 0x40E00000, 0x40F00000, 0x80000000, 0xBE000000, 0xBE800000, 0xBEC00000, 0xBF000000, 0xBF200000, 0xBF400000, 0xBF600000, 0xBF800000, 0xBF900000, 0xBFA00000, 0xBFB00000, 0xBFC00000, 0xBFD00000, 0xBFE00000, 0xBFF00000, 0xC0000000, 0xC0100000, 0xC0200000, 0xC0300000, 0xC0400000, 0xC0500000, 0xC0600000, 0xC0700000, 0xC0800000, 0xC0900000, 0xC0A00000, 0xC0B00000, 0xC0C00000, 0xC0D00000, 0xC0E00000, 0xC0F00000]> : tensor<64xf32>
  %v7 = stablehlo.constant dense<[0x1F, 0x01, 0x0F, 0x03, 0x25, 0x10, 0x09, 0x29, 0x19, 0x24, 0x16, 0x24]> : tensor<12xf6E2M3FN>
  %v8 = stablehlo.constant dense<[0x1F, 0x01, 0x3E, 0x18, 0x14, 0x3E, 0x18, 0x29, 0x26, 0x03, 0x3E, 0x1E]> : tensor<12xf6E2M3FN>
  // add: in f32, rounded once to f6E2M3FN
  %v9 = stablehlo.add %v7, %v8 : tensor<12xf6E2M3FN>
  %v10 = stablehlo.convert %v9 : (tensor<12xf6E2M3FN>) -> tensor<12xf32>
  %v11 = stablehlo.bitcast_convert %v10 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v11, dense<[1089470464, 1048576000, -1063256064, 1083179008, 1075838976, -1063256064, 1084227584, -1072693248, 1081081856, -1107296256, -1067450368, 1087373312]> : tensor<12xi32>
  // subtract: in f32, rounded once to f6E2M3FN
  %v12 = stablehlo.subtract %v7, %v8 : tensor<12xf6E2M3FN>
  %v13 = stablehlo.convert %v12 : (tensor<12xf6E2M3FN>) -> tensor<12xf32>
  %v14 = stablehlo.bitcast_convert %v13 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v14, dense<[0, 0, 1089470464, -1067450368, -1067450368, 1089470464, -1069547520, 0, 1084227584, -1084227584, 1089470464, -1058013184]> : tensor<12xi32>
  // multiply: in f32, rounded once to f6E2M3FN
  %v15 = stablehlo.multiply %v7, %v8 : tensor<12xf6E2M3FN>
  %v16 = stablehlo.convert %v15 : (tensor<12xf6E2M3FN>) -> tensor<12xf32>
  %v17 = stablehlo.bitcast_convert %v16 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v17, dense<[1089470464, 0, -1058013184, 1069547520, -1074790400, -1058013184, 1083179008, 1067450368, -1067450368, -1098907648, -1058013184, -1067450368]> : tensor<12xi32>
  // divide: in f32, rounded once to f6E2M3FN
  %v18 = stablehlo.divide %v7, %v8 : tensor<12xf6E2M3FN>
  %v19 = stablehlo.convert %v18 : (tensor<12xf6E2M3FN>) -> tensor<12xf32>
  %v20 = stablehlo.bitcast_convert %v19 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v20, dense<[1065353216, 1065353216, -1098907648, 1040187392, -1098907648, -1098907648, 1048576000, 1065353216, -1061158912, -1078984704, -1090519040, -1107296256]> : tensor<12xi32>
  // maximum: in f32, rounded once to f6E2M3FN
  %v21 = stablehlo.maximum %v7, %v8 : tensor<12xf6E2M3FN>
  %v22 = stablehlo.convert %v21 : (tensor<12xf6E2M3FN>) -> tensor<12xf32>
  %v23 = stablehlo.bitcast_convert %v22 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v23, dense<[1089470464, 1040187392, 1072693248, 1082130432, 1077936128, 1073741824, 1082130432, -1081081856, 1083179008, 1052770304, 1080033280, 1088421888]> : tensor<12xi32>
  // compare LT / EQ (a NaN is unordered) and select
  %v24 = stablehlo.constant dense<[0x08, 0x28, 0x00, 0x1F, 0x01, 0x10]> : tensor<6xf6E2M3FN>
  %v25 = stablehlo.constant dense<[0x10, 0x28, 0x20, 0x1F, 0x00, 0x08]> : tensor<6xf6E2M3FN>
  %v26 = stablehlo.compare  LT, %v24, %v25,  FLOAT : (tensor<6xf6E2M3FN>, tensor<6xf6E2M3FN>) -> tensor<6xi1>
  check.expect_eq_const %v26, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  %v27 = stablehlo.select %v26, %v24, %v25 : tensor<6xi1>, tensor<6xf6E2M3FN>
  %v28 = stablehlo.convert %v27 : (tensor<6xf6E2M3FN>) -> tensor<6xf32>
  %v29 = stablehlo.bitcast_convert %v28 : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const %v29, dense<[1065353216, -1082130432, -2147483648, 1089470464, 0, 1065353216]> : tensor<6xi32>
  %v30 = stablehlo.compare  EQ, %v24, %v25,  FLOAT : (tensor<6xf6E2M3FN>, tensor<6xf6E2M3FN>) -> tensor<6xi1>
  check.expect_eq_const %v30, dense<[false, true, true, true, false, false]> : tensor<6xi1>
  // f6E2M3FN -> i32 truncates toward zero; i32 -> f6E2M3FN rounds once
  %v31 = stablehlo.convert %v7 : (tensor<12xf6E2M3FN>) -> tensor<12xi32>
  check.expect_eq_const %v31, dense<[7, 0, 1, 0, 0, 2, 1, -1, 4, 0, 3, 0]> : tensor<12xi32>
  %v32 = stablehlo.constant dense<[0, 1, -1, 3, 7, -9, 17, 100, -300, 1000, 5000, 123456]> : tensor<12xi32>
  %v33 = stablehlo.convert %v32 : (tensor<12xi32>) -> tensor<12xf6E2M3FN>
  %v34 = stablehlo.convert %v33 : (tensor<12xf6E2M3FN>) -> tensor<12xf32>
  %v35 = stablehlo.bitcast_convert %v34 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v35, dense<[0, 1065353216, -1082130432, 1077936128, 1088421888, -1058013184, 1089470464, 1089470464, -1058013184, 1089470464, 1089470464, 1089470464]> : tensor<12xi32>
  // data movement: reshape, transpose, reverse, slice, concatenate, broadcast_in_dim
  %v36 = stablehlo.reshape %v5 : (tensor<64xf6E2M3FN>) -> tensor<4x16xf6E2M3FN>
  %v37 = stablehlo.transpose %v36, dims = [1, 0] : (tensor<4x16xf6E2M3FN>) -> tensor<16x4xf6E2M3FN>
  %v38 = stablehlo.reverse %v37, dims = [0] : tensor<16x4xf6E2M3FN>
  %v39 = stablehlo.slice %v38 [1:16:2, 0:4] : (tensor<16x4xf6E2M3FN>) -> tensor<8x4xf6E2M3FN>
  %v40 = stablehlo.reshape %v39 : (tensor<8x4xf6E2M3FN>) -> tensor<32xf6E2M3FN>
  %v41 = stablehlo.broadcast_in_dim %v7, dims = [0] : (tensor<12xf6E2M3FN>) -> tensor<12x2xf6E2M3FN>
  %v42 = stablehlo.reshape %v41 : (tensor<12x2xf6E2M3FN>) -> tensor<24xf6E2M3FN>
  %v43 = stablehlo.concatenate %v40, %v42, dim = 0 : (tensor<32xf6E2M3FN>, tensor<24xf6E2M3FN>) -> tensor<56xf6E2M3FN>
  %v44 = stablehlo.convert %v43 : (tensor<56xf6E2M3FN>) -> tensor<56xf32>
  %v45 = stablehlo.bitcast_convert %v44 : (tensor<56xf32>) -> tensor<56xi32>
  check.expect_eq_const %v45, dense<[1071644672, 1088421888, -1075838976, -1059061760, 1069547520, 1086324736, -1077936128, -1061158912, 1067450368, 1084227584, -1080033280, -1063256064, 1065353216, 1082130432, -1082130432, -1065353216, 1061158912, 1080033280, -1086324736, -1067450368, 1056964608, 1077936128, -1090519040, -1069547520, 1048576000, 1075838976, -1098907648, -1071644672, 0, 1073741824, -2147483648, -1073741824, 1089470464, 1089470464, 1040187392, 1040187392, 1072693248, 1072693248, 1052770304, 1052770304, -1088421888, -1088421888, 1073741824, 1073741824, 1066401792, 1066401792, -1081081856, -1081081856, 1083179008, 1083179008, -1090519040, -1090519040, 1080033280, 1080033280, -1090519040, -1090519040]> : tensor<56xi32>
  // f6E3M2FN: f32 -> f6E3M2FN on edge values: the largest finite value, beyond it (ties and overflow), the smallest subnormal and halves of it, -0, Inf
  %v46 = stablehlo.constant dense<[0x41E00000, 0x41EE0000, 0x41FC0000, 0x42600000, 0x3D800000, 0x3D000000, 0x3D400000, 0x3DC00000, 0x80000000, 0x3F800000, 0x3E99999A, 0xC0200000, 0x7F800000, 0xFF800000, 0x7F61B1E6]> : tensor<15xf32>
  %v47 = stablehlo.convert %v46 : (tensor<15xf32>) -> tensor<15xf6E3M2FN>
  %v48 = stablehlo.convert %v47 : (tensor<15xf6E3M2FN>) -> tensor<15xf32>
  %v49 = stablehlo.bitcast_convert %v48 : (tensor<15xf32>) -> tensor<15xi32>
  check.expect_eq_const %v49, dense<[1105199104, 1105199104, 1105199104, 1105199104, 1031798784, 0, 1031798784, 1040187392, -2147483648, 1065353216, 1050673152, -1071644672, 1105199104, -1042284544, 1105199104]> : tensor<15xi32>
  // every f6E3M2FN code -> f32 (exact)
  %v50 = stablehlo.constant dense<[0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F]> : tensor<64xf6E3M2FN>
  %v51 = stablehlo.convert %v50 : (tensor<64xf6E3M2FN>) -> tensor<64xf32>
  check.expect_eq_const %v51, dense<[0x00000000, 0x3D800000, 0x3E000000, 0x3E400000, 0x3E800000, 0x3EA00000, 0x3EC00000, 0x3EE00000, 0x3F000000, 0x3F200000, 0x3F400000, 0x3F600000, 0x3F800000, 0x3FA00000, 0x3FC00000, 0x3FE00000, 0x40000000, 0x40200000, 0x40400000, 0x40600000, 0x40800000, 0x40A00000, 0x40C00000, 0x40E00000, 0x41000000, 0x41200000, 0x41400000, 0x41600000, 0x41800000, 0x41A00000, 0x41C00000, 0x41E00000, 0x80000000, 0xBD800000, 0xBE000000, 0xBE400000, 0xBE800000, 0xBEA00000, 0xBEC00000, 0xBEE00000, 0xBF000000, 0xBF200000, 0xBF400000, 0xBF600000, 0xBF800000, 0xBFA00000, 0xBFC00000, 0xBFE00000, 0xC0000000, 0xC0200000, 0xC0400000, 0xC0600000, 0xC0800000, 0xC0A00000, 0xC0C00000, 0xC0E00000, 0xC1000000, 0xC1200000, 0xC1400000, 0xC1600000, 0xC1800000, 0xC1A00000, 0xC1C00000, 0xC1E00000]> : tensor<64xf32>
  %v52 = stablehlo.constant dense<[0x1F, 0x01, 0x0F, 0x03, 0x25, 0x10, 0x09, 0x29, 0x19, 0x24, 0x16, 0x24]> : tensor<12xf6E3M2FN>
  %v53 = stablehlo.constant dense<[0x1F, 0x01, 0x3E, 0x18, 0x14, 0x3E, 0x18, 0x29, 0x26, 0x03, 0x3E, 0x1E]> : tensor<12xf6E3M2FN>
  // add: in f32, rounded once to f6E3M2FN
  %v54 = stablehlo.add %v52, %v53 : tensor<12xf6E3M2FN>
  %v55 = stablehlo.convert %v54 : (tensor<12xf6E3M2FN>) -> tensor<12xf32>
  %v56 = stablehlo.bitcast_convert %v55 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v56, dense<[1105199104, 1040187392, -1044381696, 1090519040, 1080033280, -1044381696, 1090519040, -1080033280, 1092616192, -1115684864, -1048576000, 1103101952]> : tensor<12xi32>
  // subtract: in f32, rounded once to f6E3M2FN
  %v57 = stablehlo.subtract %v52, %v53 : tensor<12xf6E3M2FN>
  %v58 = stablehlo.convert %v57 : (tensor<12xf6E3M2FN>) -> tensor<12xf32>
  %v59 = stablehlo.bitcast_convert %v58 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v59, dense<[0, 0, 1103101952, -1056964608, -1065353216, 1103101952, -1059061760, 0, 1092616192, -1092616192, 1105199104, -1044381696]> : tensor<12xi32>
  // multiply: in f32, rounded once to f6E3M2FN
  %v60 = stablehlo.multiply %v52, %v53 : tensor<12xf6E3M2FN>
  %v61 = stablehlo.convert %v60 : (tensor<12xf6E3M2FN>) -> tensor<12xf32>
  %v62 = stablehlo.bitcast_convert %v61 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v62, dense<[1105199104, 0, -1042284544, 1069547520, -1080033280, -1042284544, 1084227584, 1052770304, -1065353216, -1115684864, -1042284544, -1061158912]> : tensor<12xi32>
  // divide: in f32, rounded once to f6E3M2FN
  %v63 = stablehlo.divide %v52, %v53 : tensor<12xf6E3M2FN>
  %v64 = stablehlo.convert %v63 : (tensor<12xf6E3M2FN>) -> tensor<12xf32>
  %v65 = stablehlo.bitcast_convert %v64 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v65, dense<[1065353216, 1065353216, -1115684864, 0, -1115684864, -1115684864, 1031798784, 1065353216, -1042284544, -1080033280, -1098907648, -2147483648]> : tensor<12xi32>
  // maximum: in f32, rounded once to f6E3M2FN
  %v66 = stablehlo.maximum %v52, %v53 : tensor<12xf6E3M2FN>
  %v67 = stablehlo.convert %v66 : (tensor<12xf6E3M2FN>) -> tensor<12xf32>
  %v68 = stablehlo.bitcast_convert %v67 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v68, dense<[1105199104, 1031798784, 1071644672, 1090519040, 1082130432, 1073741824, 1090519040, -1088421888, 1092616192, 1044381696, 1086324736, 1103101952]> : tensor<12xi32>
  // compare LT / EQ (a NaN is unordered) and select
  %v69 = stablehlo.constant dense<[0x0C, 0x2C, 0x00, 0x1F, 0x01, 0x10]> : tensor<6xf6E3M2FN>
  %v70 = stablehlo.constant dense<[0x10, 0x2C, 0x20, 0x1F, 0x00, 0x0C]> : tensor<6xf6E3M2FN>
  %v71 = stablehlo.compare  LT, %v69, %v70,  FLOAT : (tensor<6xf6E3M2FN>, tensor<6xf6E3M2FN>) -> tensor<6xi1>
  check.expect_eq_const %v71, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  %v72 = stablehlo.select %v71, %v69, %v70 : tensor<6xi1>, tensor<6xf6E3M2FN>
  %v73 = stablehlo.convert %v72 : (tensor<6xf6E3M2FN>) -> tensor<6xf32>
  %v74 = stablehlo.bitcast_convert %v73 : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const %v74, dense<[1065353216, -1082130432, -2147483648, 1105199104, 0, 1065353216]> : tensor<6xi32>
  %v75 = stablehlo.compare  EQ, %v69, %v70,  FLOAT : (tensor<6xf6E3M2FN>, tensor<6xf6E3M2FN>) -> tensor<6xi1>
  check.expect_eq_const %v75, dense<[false, true, true, true, false, false]> : tensor<6xi1>
  // f6E3M2FN -> i32 truncates toward zero; i32 -> f6E3M2FN rounds once
  %v76 = stablehlo.convert %v52 : (tensor<12xf6E3M2FN>) -> tensor<12xi32>
  check.expect_eq_const %v76, dense<[28, 0, 1, 0, 0, 2, 0, 0, 10, 0, 6, 0]> : tensor<12xi32>
  %v77 = stablehlo.constant dense<[0, 1, -1, 3, 7, -9, 17, 100, -300, 1000, 5000, 123456]> : tensor<12xi32>
  %v78 = stablehlo.convert %v77 : (tensor<12xi32>) -> tensor<12xf6E3M2FN>
  %v79 = stablehlo.convert %v78 : (tensor<12xf6E3M2FN>) -> tensor<12xf32>
  %v80 = stablehlo.bitcast_convert %v79 : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %v80, dense<[0, 1065353216, -1082130432, 1077936128, 1088421888, -1056964608, 1098907648, 1105199104, -1042284544, 1105199104, 1105199104, 1105199104]> : tensor<12xi32>
  // data movement: reshape, transpose, reverse, slice, concatenate, broadcast_in_dim
  %v81 = stablehlo.reshape %v50 : (tensor<64xf6E3M2FN>) -> tensor<4x16xf6E3M2FN>
  %v82 = stablehlo.transpose %v81, dims = [1, 0] : (tensor<4x16xf6E3M2FN>) -> tensor<16x4xf6E3M2FN>
  %v83 = stablehlo.reverse %v82, dims = [0] : tensor<16x4xf6E3M2FN>
  %v84 = stablehlo.slice %v83 [1:16:2, 0:4] : (tensor<16x4xf6E3M2FN>) -> tensor<8x4xf6E3M2FN>
  %v85 = stablehlo.reshape %v84 : (tensor<8x4xf6E3M2FN>) -> tensor<32xf6E3M2FN>
  %v86 = stablehlo.broadcast_in_dim %v52, dims = [0] : (tensor<12xf6E3M2FN>) -> tensor<12x2xf6E3M2FN>
  %v87 = stablehlo.reshape %v86 : (tensor<12x2xf6E3M2FN>) -> tensor<24xf6E3M2FN>
  %v88 = stablehlo.concatenate %v85, %v87, dim = 0 : (tensor<32xf6E3M2FN>, tensor<24xf6E3M2FN>) -> tensor<56xf6E3M2FN>
  %v89 = stablehlo.convert %v88 : (tensor<56xf6E3M2FN>) -> tensor<56xf32>
  %v90 = stablehlo.bitcast_convert %v89 : (tensor<56xf32>) -> tensor<56xi32>
  check.expect_eq_const %v90, dense<[1069547520, 1103101952, -1077936128, -1044381696, 1065353216, 1098907648, -1082130432, -1048576000, 1061158912, 1094713344, -1086324736, -1052770304, 1056964608, 1090519040, -1090519040, -1056964608, 1052770304, 1086324736, -1094713344, -1061158912, 1048576000, 1082130432, -1098907648, -1065353216, 1040187392, 1077936128, -1107296256, -1069547520, 0, 1073741824, -2147483648, -1073741824, 1105199104, 1105199104, 1031798784, 1031798784, 1071644672, 1071644672, 1044381696, 1044381696, -1096810496, -1096810496, 1073741824, 1073741824, 1059061760, 1059061760, -1088421888, -1088421888, 1092616192, 1092616192, -1098907648, -1098907648, 1086324736, 1086324736, -1098907648, -1098907648]> : tensor<56xi32>
  return
}
