// stablehlo.reduce_window with add (sum pooling), and/or on i1: base and
// window dilations, strides larger than the window, negative padding,
// init values that are not zero (each padding element adds the init value
// once more), integer sums that wrap, a 1-d cumulative sum as JAX lowers
// cumsum (window = size, low padding size-1). Expected values: numpy (the
// input dilated and padded with the init value, sliding windows, np.sum
// in the type, which wraps; np.all / np.any).
func.func @main() {
  // Sum pool with padding.
  %v1 = stablehlo.constant dense<[[-6.0, 3.0, 5.0, 6.0, 0.0], [-2.0, 1.0, -6.0, 5.0, -8.0], [2.0, 1.0, -6.0, -1.0, 5.0], [8.0, -3.0, 7.0, -5.0, -4.0]]> : tensor<4x5xf32>
  %v2 = stablehlo.constant dense<0.0> : tensor<f32>
  %v3 = "stablehlo.reduce_window"(%v1, %v2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 1>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
  check.expect_eq_const %v3, dense<[[-3.0, 2.0, 14.0, 11.0, 6.0], [-4.0, -5.0, 14.0, 2.0, 3.0], [2.0, -10.0, -6.0, -11.0, 1.0], [8.0, 9.0, -7.0, -4.0, -5.0]]> : tensor<4x5xf32>
  // Base and window dilation, init 1.5.
  %v4 = stablehlo.constant dense<[[1.0, -1.0, -3.0, 6.0], [5.0, 4.0, 5.0, 8.0], [8.0, 3.0, -7.0, -2.0]]> : tensor<3x4xf64>
  %v5 = stablehlo.constant dense<1.5> : tensor<f64>
  %v6 = "stablehlo.reduce_window"(%v4, %v5) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %m = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %m : tensor<f64>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>, padding = dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<3x4xf64>, tensor<f64>) -> tensor<3x4xf64>
  check.expect_eq_const %v6, dense<[[2.5, 9.5, 3.0, 12.0], [14.5, 16.5, 11.0, 14.0], [5.5, 5.5, -1.0, 4.0]]> : tensor<3x4xf64>
  // cumsum of 1..8.
  %v7 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %v8 = stablehlo.constant dense<0.0> : tensor<f32>
  %v9 = "stablehlo.reduce_window"(%v7, %v8) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 8>, window_strides = array<i64: 1>, base_dilations = array<i64: 1>, window_dilations = array<i64: 1>, padding = dense<[[7, 0]]> : tensor<1x2xi64>} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  check.expect_eq_const %v9, dense<[1.0, 3.0, 6.0, 10.0, 15.0, 21.0, 28.0, 36.0]> : tensor<8xf32>
  // Negative padding, strides beyond the window.
  %v10 = stablehlo.constant dense<[[[4, 1, -3, 4, 7], [8, -9, -5, -3, -1], [-2, -3, 4, -7, -6], [-6, 5, -3, -8, -5], [1, 2, 7, 9, 2], [-2, 3, 5, 5, -4]], [[-4, 3, -2, 9, 1], [6, -3, 2, -4, 9], [9, -8, -9, -3, -4], [-6, -7, 2, -2, 4], [7, 7, 2, -7, 8], [-8, -8, -8, 9, 3]]]> : tensor<2x6x5xi32>
  %v11 = stablehlo.constant dense<0> : tensor<i32>
  %v12 = "stablehlo.reduce_window"(%v10, %v11) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 1, 2, 3>, window_strides = array<i64: 1, 3, 2>, base_dilations = array<i64: 1, 1, 1>, window_dilations = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [-1, 1], [1, -1]]> : tensor<3x2xi64>} : (tensor<2x6x5xi32>, tensor<i32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %v12, dense<[[[-6, -23], [4, 31]], [[4, -25], [-2, -5]]]> : tensor<2x2x2xi32>
  // i64 sums that wrap.
  %v13 = stablehlo.constant dense<[[4348093910265489135, 3348053386956669719, 2541178102451300362, 3975704330383301988], [2536232507405874717, 4591262251857211926, 2645907422184201201, 3411111205261971758]]> : tensor<2x4xi64>
  %v14 = stablehlo.constant dense<4611686018427387904> : tensor<i64>
  %v15 = "stablehlo.reduce_window"(%v13, %v14) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %m : tensor<i64>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<2x4xi64>, tensor<i64>) -> tensor<1x2xi64>
  check.expect_eq_const %v15, dense<[[988584001203081785, -1261156995001388403]]> : tensor<1x2xi64>
  // i1 and with init true.
  %v16 = stablehlo.constant dense<[[true, false, false, true, false], [true, false, false, false, false], [false, true, true, false, true]]> : tensor<3x5xi1>
  %v17 = stablehlo.constant dense<true> : tensor<i1>
  %v18 = "stablehlo.reduce_window"(%v16, %v17) ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %m = stablehlo.and %a, %b : tensor<i1>
    stablehlo.return %m : tensor<i1>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<3x5xi1>, tensor<i1>) -> tensor<3x5xi1>
  check.expect_eq_const %v18, dense<[[false, false, false, false, false], [false, false, false, false, false], [false, false, false, false, false]]> : tensor<3x5xi1>
  // i1 or with base dilation.
  %v19 = stablehlo.constant dense<[[true, false, false, true, false], [true, false, false, false, false], [false, true, true, false, true]]> : tensor<3x5xi1>
  %v20 = stablehlo.constant dense<false> : tensor<i1>
  %v21 = "stablehlo.reduce_window"(%v19, %v20) ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %m = stablehlo.or %a, %b : tensor<i1>
    stablehlo.return %m : tensor<i1>
  }) {window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 2, 3>, base_dilations = array<i64: 1, 2>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x5xi1>, tensor<i1>) -> tensor<1x3xi1>
  check.expect_eq_const %v21, dense<[[true, true, true]]> : tensor<1x3xi1>
  return
}
