// The dynamic-shape ops with shapes known at compile time: their shape
// operands fold to constants (directly, or through convert, concatenate
// and get_dimension_size), and each becomes its static op, as StableHLO's
// shape refinement does. Expected values by hand.
func.func @main() {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %0 = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %0, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %1 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %1, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  // The shape of the reshape: [get_dimension_size(%1, 1), 2] as i32.
  %d = stablehlo.get_dimension_size %1, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %dr = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %rs = stablehlo.concatenate %dr, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %2 = stablehlo.dynamic_reshape %1, %rs : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  check.expect_eq_const %2, dense<[[1.0, 2.0], [3.0, 1.0], [2.0, 3.0]]> : tensor<3x2xf32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %lo = stablehlo.constant dense<[1]> : tensor<1xi32>
  %hi = stablehlo.constant dense<[2]> : tensor<1xi32>
  %in = stablehlo.constant dense<[1]> : tensor<1xi32>
  %3 = stablehlo.dynamic_pad %x, %pv, %lo, %hi, %in : (tensor<3xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<8xf32>
  check.expect_eq_const %3, dense<[0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0]> : tensor<8xf32>
  %st = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %li = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %sd = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %4 = stablehlo.real_dynamic_slice %0, %st, %li, %sd : (tensor<2x3xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x1xi32>
  check.expect_eq_const %4, dense<[[1], [1]]> : tensor<2x1xi32>
  %idx = stablehlo.constant dense<[[1], [0]]> : tensor<2x1xi32>
  %ss = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %5 = "stablehlo.dynamic_gather"(%1, %idx, %ss) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x3xf32>
  check.expect_eq_const %5, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %img = stablehlo.constant dense<[[[1.0, 2.0, 3.0, 4.0]]]> : tensor<1x1x4xf32>
  %ker = stablehlo.constant dense<[[[1.0]], [[1.0]]]> : tensor<2x1x1xf32>
  %pad = stablehlo.constant dense<[[1, 1]]> : tensor<1x2xi32>
  %6 = "stablehlo.dynamic_conv"(%img, %ker, %pad) <{dimension_numbers = #stablehlo.conv<[b, f, 0]x[0, i, o]->[b, f, 0]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x1x4xf32>, tensor<2x1x1xf32>, tensor<1x2xi32>) -> tensor<1x1x5xf32>
  check.expect_eq_const %6, dense<[[[1.0, 3.0, 5.0, 7.0, 4.0]]]> : tensor<1x1x5xf32>
  return
}
