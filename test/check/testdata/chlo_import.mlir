// The chlo ops that import to Stela IR (lowering/import_chlo.go), so that
// the reference evaluator (TestEvaluator) and the CPU plugin (TestPass)
// both run this file: each chlo.broadcast_* op with numpy-style
// broadcasting (a size-1 dimension stretching, a lower-rank operand
// aligned at the trailing dimensions) or broadcast_dimensions (in the
// prefix-padded form XLA's chlo legalization takes; chlo_top_k_broadcast
// has another), and
// chlo.tan, square, conj, is_inf, is_pos_inf, is_neg_inf (on f32, complex
// and f8 types with and without Inf), next_after on f8 types. Expected values
// worked out by hand (exact; tan and atan2 to 1e-6); next_after's by walking
// each type's values in order (ml_dtypes 0.7.0).
func.func @main() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = stablehlo.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %col = stablehlo.constant dense<[100.0, 200.0]> : tensor<2xf32>
  %add = chlo.broadcast_add %a, %r : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %add, dense<[[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>
  %sub = "chlo.broadcast_subtract"(%r, %a) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %sub, dense<[[9.0, 18.0, 27.0], [6.0, 15.0, 24.0]]> : tensor<2x3xf32>
  %one = stablehlo.constant dense<[[2.0], [0.5]]> : tensor<2x1xf32>
  %mul = chlo.broadcast_multiply %one, %r : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %mul, dense<[[20.0, 40.0, 60.0], [5.0, 10.0, 15.0]]> : tensor<2x3xf32>
  %div = chlo.broadcast_divide %r, %one : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %div, dense<[[5.0, 10.0, 15.0], [20.0, 40.0, 60.0]]> : tensor<2x3xf32>
  %mx = chlo.broadcast_maximum %a, %one : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %mx, dense<[[2.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %mn = chlo.broadcast_minimum %a, %one : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %mn, dense<[[1.0, 2.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<2x3xf32>
  %pw = chlo.broadcast_power %a, %one : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %pw, dense<[[1.0, 4.0, 9.0], [2.0, 2.236068, 2.4494898]]> : tensor<2x3xf32>, tolerance = 1.0e-06
  %y = stablehlo.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %x1 = stablehlo.constant dense<[[1.0], [-1.0]]> : tensor<2x1xf32>
  %at = chlo.broadcast_atan2 %y, %x1 : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %at, dense<[[0.78539816, -0.78539816], [2.3561945, -2.3561945]]> : tensor<2x2xf32>, tolerance = 1.0e-06
  %i = stablehlo.constant dense<[[7, -7, 12], [5, -9, 1]]> : tensor<2x3xi32>
  %j = stablehlo.constant dense<[3, 4, 5]> : tensor<3xi32>
  %rem = chlo.broadcast_remainder %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %rem, dense<[[1, -3, 2], [2, -1, 1]]> : tensor<2x3xi32>
  %and = chlo.broadcast_and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %and, dense<[[3, 0, 4], [1, 4, 1]]> : tensor<2x3xi32>
  %or = chlo.broadcast_or %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %or, dense<[[7, -3, 13], [7, -9, 5]]> : tensor<2x3xi32>
  %xor = chlo.broadcast_xor %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %xor, dense<[[4, -3, 9], [6, -13, 4]]> : tensor<2x3xi32>
  %sh = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %shl = chlo.broadcast_shift_left %i, %sh : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %shl, dense<[[14, -28, 96], [10, -36, 8]]> : tensor<2x3xi32>
  %sra = chlo.broadcast_shift_right_arithmetic %i, %sh : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %sra, dense<[[3, -2, 1], [2, -3, 0]]> : tensor<2x3xi32>
  %srl = chlo.broadcast_shift_right_logical %i, %sh : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %srl, dense<[[3, 1073741822, 1], [2, 1073741821, 0]]> : tensor<2x3xi32>
  %t = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %u = stablehlo.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %band = chlo.broadcast_and %t, %u : (tensor<2xi1>, tensor<2x1xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %band, dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %cmp = "chlo.broadcast_compare"(%a, %r) {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  check.expect_eq_const %cmp, dense<true> : tensor<2x3xi1>
  %cmpu = "chlo.broadcast_compare"(%i, %j) {comparison_direction = #chlo<comparison_direction GT>, compare_type = #chlo<comparison_type SIGNED>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  check.expect_eq_const %cmpu, dense<[[true, false, true], [true, false, false]]> : tensor<2x3xi1>
  %sel = chlo.broadcast_select %u, %a, %r : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %sel, dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
  %cx = chlo.broadcast_complex %col, %x1 : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<2x2xcomplex<f32>>
  %cxr = stablehlo.real %cx : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  %cxi = stablehlo.imag %cx : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  check.expect_eq_const %cxr, dense<[[100.0, 200.0], [100.0, 200.0]]> : tensor<2x2xf32>
  check.expect_eq_const %cxi, dense<[[1.0, 1.0], [-1.0, -1.0]]> : tensor<2x2xf32>
  // unary
  %v = stablehlo.constant dense<[0.0, 0.5, -1.0, 3.0]> : tensor<4xf32>
  %tan = chlo.tan %v : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %tan, dense<[0.0, 0.54630249, -1.5574077, -0.14254654]> : tensor<4xf32>, tolerance = 1.0e-06
  %sq = chlo.square %v : tensor<4xf32> -> tensor<4xf32>
  check.expect_eq_const %sq, dense<[0.0, 0.25, 1.0, 9.0]> : tensor<4xf32>
  %c = stablehlo.constant dense<[(1.0, 2.0), (-3.0, 0.5)]> : tensor<2xcomplex<f32>>
  %csq = chlo.square %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  check.expect_eq_const %csq, dense<[(-3.0, 4.0), (8.75, -3.0)]> : tensor<2xcomplex<f32>>
  %cj = chlo.conj %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  check.expect_eq_const %cj, dense<[(1.0, -2.0), (-3.0, -0.5)]> : tensor<2xcomplex<f32>>
  %rj = chlo.conj %v : tensor<4xf32> -> tensor<4xf32>
  check.expect_eq_const %rj, dense<[0.0, 0.5, -1.0, 3.0]> : tensor<4xf32>
  %w = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 1.0, 3.0e38]> : tensor<5xf32>
  %ii = chlo.is_inf %w : tensor<5xf32> -> tensor<5xi1>
  check.expect_eq_const %ii, dense<[true, true, false, false, false]> : tensor<5xi1>
  %ip = chlo.is_pos_inf %w : tensor<5xf32> -> tensor<5xi1>
  check.expect_eq_const %ip, dense<[true, false, false, false, false]> : tensor<5xi1>
  %in = chlo.is_neg_inf %w : tensor<5xf32> -> tensor<5xi1>
  check.expect_eq_const %in, dense<[false, true, false, false, false]> : tensor<5xi1>
  // f8E5M2 has ±Inf (0x7C, 0xFC); f8E4M3FN has none (0x7E is its largest value, 448; 0x7F is NaN).
  %e5 = stablehlo.constant dense<[0x7C, 0xFC, 0x7B, 0x7F]> : tensor<4xf8E5M2>
  %e5i = chlo.is_inf %e5 : tensor<4xf8E5M2> -> tensor<4xi1>
  check.expect_eq_const %e5i, dense<[true, true, false, false]> : tensor<4xi1>
  %e5n = chlo.is_neg_inf %e5 : tensor<4xf8E5M2> -> tensor<4xi1>
  check.expect_eq_const %e5n, dense<[false, true, false, false]> : tensor<4xi1>
  %e4 = stablehlo.constant dense<[0x7E, 0xFE, 0x7F, 0x38]> : tensor<4xf8E4M3FN>
  %e4i = chlo.is_inf %e4 : tensor<4xf8E4M3FN> -> tensor<4xi1>
  check.expect_eq_const %e4i, dense<false> : tensor<4xi1>
  %e4p = chlo.is_pos_inf %e4 : tensor<4xf8E4M3FN> -> tensor<4xi1>
  check.expect_eq_const %e4p, dense<false> : tensor<4xi1>
  %f4 = stablehlo.constant dense<[0x7, 0xF, 0x1, 0x0]> : tensor<4xf4E2M1FN>
  %f4i = chlo.is_inf %f4 : tensor<4xf4E2M1FN> -> tensor<4xi1>
  check.expect_eq_const %f4i, dense<false> : tensor<4xi1>
  %bn = chlo.broadcast_next_after %one, %r : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %bn, dense<[[0x40000001, 0x40000001, 0x40000001], [0x3F000001, 0x3F000001, 0x3F000001]]> : tensor<2x3xf32>
  // chlo.next_after on f8 types: one step in the type's codes (FNUZ: no -0; E8M0: no zero, no sign)
  %na_f8E4M3FNUZ_x = stablehlo.constant dense<[0x81, 0x00, 0x7F, 0x08, 0x88, 0x80]> : tensor<6xf8E4M3FNUZ>
  %na_f8E4M3FNUZ_y = stablehlo.constant dense<[0x00, 0x81, 0x00, 0x09, 0x08, 0x08]> : tensor<6xf8E4M3FNUZ>
  %na_f8E4M3FNUZ = chlo.next_after %na_f8E4M3FNUZ_x, %na_f8E4M3FNUZ_y : tensor<6xf8E4M3FNUZ>, tensor<6xf8E4M3FNUZ> -> tensor<6xf8E4M3FNUZ>
  %na_f8E4M3FNUZ_b = stablehlo.bitcast_convert %na_f8E4M3FNUZ : (tensor<6xf8E4M3FNUZ>) -> tensor<6xui8>
  check.expect_eq_const %na_f8E4M3FNUZ_b, dense<[0, 129, 126, 9, 135, 128]> : tensor<6xui8>
  %na_f8E5M2_x = stablehlo.constant dense<[0x7B, 0x7C, 0x80, 0x81, 0x3C, 0x7E]> : tensor<6xf8E5M2>
  %na_f8E5M2_y = stablehlo.constant dense<[0x7C, 0x00, 0x01, 0x00, 0x3C, 0x3C]> : tensor<6xf8E5M2>
  %na_f8E5M2 = chlo.next_after %na_f8E5M2_x, %na_f8E5M2_y : tensor<6xf8E5M2>, tensor<6xf8E5M2> -> tensor<6xf8E5M2>
  %na_f8E5M2_b = stablehlo.bitcast_convert %na_f8E5M2 : (tensor<6xf8E5M2>) -> tensor<6xui8>
  check.expect_eq_const %na_f8E5M2_b, dense<[124, 123, 1, 128, 60, 126]> : tensor<6xui8>
  %na_f8E8M0FNU_x = stablehlo.constant dense<[0x7F, 0x7F, 0x00, 0xFE, 0xFF, 0x10]> : tensor<6xf8E8M0FNU>
  %na_f8E8M0FNU_y = stablehlo.constant dense<[0x80, 0x00, 0x01, 0x00, 0x7F, 0x10]> : tensor<6xf8E8M0FNU>
  %na_f8E8M0FNU = chlo.next_after %na_f8E8M0FNU_x, %na_f8E8M0FNU_y : tensor<6xf8E8M0FNU>, tensor<6xf8E8M0FNU> -> tensor<6xf8E8M0FNU>
  %na_f8E8M0FNU_b = stablehlo.bitcast_convert %na_f8E8M0FNU : (tensor<6xf8E8M0FNU>) -> tensor<6xui8>
  check.expect_eq_const %na_f8E8M0FNU_b, dense<[128, 126, 1, 253, 255, 16]> : tensor<6xui8>
  return
}
