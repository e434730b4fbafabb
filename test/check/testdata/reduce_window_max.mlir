// stablehlo.reduce_window with maximum and minimum bodies: max pooling as
// JAX lowers it (NHWC, 3x3 stride 2 with SAME padding and a -inf init;
// 2x2 stride 2), a NaN that propagates to every window holding it, -0
// against +0, windows over padding only (the init value), and i32 and i64
// pooling. Expected values: numpy (the input padded with the init value,
// sliding windows, np.max / np.min, which propagate NaN).
func.func @main() {
  // Max pool 3x3 stride 2, SAME.
  %v1 = stablehlo.constant dense<[[[[16.0, 59.0], [44.0, -13.0], [-8.0, -15.0], [-7.0, -12.0], [40.0, -17.0]], [[15.0, 27.0], [20.0, -19.0], [-36.0, -3.0], [6.0, 13.0], [47.0, -10.0]], [[-6.0, 55.0], [-14.0, 33.0], [-39.0, 36.0], [14.0, 17.0], [5.0, 38.0]], [[-34.0, 57.0], [-21.0, 21.0], [52.0, -29.0], [23.0, 45.0], [-18.0, -32.0]], [[12.0, 2.0], [46.0, -35.0], [43.0, 9.0], [-30.0, 24.0], [0.0, 54.0]]], [[[53.0, 51.0], [-37.0, 18.0], [-24.0, 30.0], [4.0, 26.0], [35.0, 42.0]], [[28.0, 58.0], [48.0, 3.0], [-40.0, 11.0], [-25.0, 19.0], [-4.0, 7.0]], [[-23.0, 50.0], [39.0, -16.0], [-11.0, 25.0], [31.0, -1.0], [-9.0, 10.0]], [[8.0, -38.0], [22.0, 37.0], [-31.0, 29.0], [-22.0, 32.0], [1.0, -26.0]], [[41.0, 34.0], [-20.0, -2.0], [49.0, -33.0], [-27.0, -5.0], [56.0, -28.0]]]]> : tensor<2x5x5x2xf32>
  %v2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %v3 = "stablehlo.reduce_window"(%v1, %v2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, base_dilations = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x5x5x2xf32>, tensor<f32>) -> tensor<2x3x3x2xf32>
  check.expect_eq_const %v3, dense<[[[[44.0, 59.0], [44.0, 13.0], [47.0, 13.0]], [[20.0, 57.0], [52.0, 45.0], [47.0, 45.0]], [[46.0, 57.0], [52.0, 45.0], [23.0, 54.0]]], [[[53.0, 58.0], [48.0, 30.0], [35.0, 42.0]], [[48.0, 58.0], [48.0, 37.0], [31.0, 32.0]], [[41.0, 37.0], [49.0, 37.0], [56.0, 32.0]]]]> : tensor<2x3x3x2xf32>
  // Max pool 2x2 stride 2.
  %v4 = stablehlo.constant dense<[[[[-3.0, 9.0, 8.0], [-7.0, 0.0, -2.0], [-3.0, 8.0, -8.0], [9.0, 7.0, 5.0], [-7.0, 2.0, 0.0], [2.0, 6.0, -9.0]], [[3.0, -1.0, 6.0], [2.0, 2.0, -7.0], [5.0, -9.0, 2.0], [-4.0, -1.0, 9.0], [5.0, 5.0, -3.0], [7.0, -6.0, 6.0]], [[-7.0, -6.0, -8.0], [-4.0, 4.0, -6.0], [-4.0, 3.0, 8.0], [5.0, -7.0, 2.0], [0.0, 4.0, 6.0], [2.0, 4.0, 0.0]], [[-9.0, 4.0, 5.0], [5.0, 9.0, 7.0], [-5.0, -7.0, 6.0], [-9.0, 1.0, -6.0], [-5.0, 3.0, 9.0], [-4.0, 8.0, -3.0]]]]> : tensor<1x4x6x3xf32>
  %v5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %v6 = "stablehlo.reduce_window"(%v4, %v5) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, base_dilations = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x4x6x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
  check.expect_eq_const %v6, dense<[[[[3.0, 9.0, 8.0], [9.0, 8.0, 9.0], [7.0, 6.0, 6.0]], [[5.0, 9.0, 7.0], [5.0, 3.0, 8.0], [2.0, 8.0, 9.0]]]]> : tensor<1x2x3x3xf32>
  // NaN propagates; padding joins as the init value.
  %v7 = stablehlo.constant dense<[[1.0, 2.0, 0x7FF8000000000000, 4.0], [5.0, -6.0, 7.0, 8.0], [-0.0, 0.0, 9.0, -10.0]]> : tensor<3x4xf64>
  %v8 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %v9 = "stablehlo.reduce_window"(%v7, %v8) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %m = stablehlo.maximum %a, %b : tensor<f64>
    stablehlo.return %m : tensor<f64>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<3x4xf64>, tensor<f64>) -> tensor<3x4xf64>
  check.expect_eq_const %v9, dense<[[5.0, 5.0, 0x7FF8000000000000, 0x7FF8000000000000], [5.0, 5.0, 9.0, 9.0], [-0.0, 0.0, 9.0, 9.0]]> : tensor<3x4xf64>
  // min with init 4 (not the identity): windows over padding give 4.
  %v10 = stablehlo.constant dense<[[3.5, -1.25, 2.0], [0.5, 8.0, -7.75]]> : tensor<2x3xf32>
  %v11 = stablehlo.constant dense<4.0> : tensor<f32>
  %v12 = "stablehlo.reduce_window"(%v10, %v11) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[2, 1], [2, 2]]> : tensor<2x2xi64>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %v12, dense<[[4.0, 4.0, 4.0], [4.0, -1.25, -7.75]]> : tensor<2x3xf32>
  // i32.
  %v13 = stablehlo.constant dense<[[1278805377, -581066871, -2137929858, -2094245198, 713143035, 1671393747, -233084621], [1232583534, -1006023513, -1601392297, 1512538847, 845555046, -1420402991, -648278958]]> : tensor<2x7xi32>
  %v14 = stablehlo.constant dense<-2147483648> : tensor<i32>
  %v15 = "stablehlo.reduce_window"(%v13, %v14) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<2x7xi32>, tensor<i32>) -> tensor<2x4xi32>
  check.expect_eq_const %v15, dense<[[1278805377, -581066871, 1671393747, 1671393747], [1232583534, 1512538847, 1512538847, -648278958]]> : tensor<2x4xi32>
  // i64 min with window dilation.
  %v16 = stablehlo.constant dense<[[[204584707622033, 266744699737872], [560173994966752, -417484368144604], [321875185762039, 466380199568108], [929818481246916, 986031299544795]], [[509848816131726, -420482069740009], [-118656628250924, -477677906314062], [-241484008096546, -687048595343992], [402450467896617, -686874915715077]], [[559094683794932, -172843053547173], [-108123143978227, 918538335357687], [403695011522033, -905346235560811], [659951318876688, 184136094051282]]]> : tensor<3x4x2xi64>
  %v17 = stablehlo.constant dense<9223372036854775807> : tensor<i64>
  %v18 = "stablehlo.reduce_window"(%v16, %v17) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = stablehlo.minimum %a, %b : tensor<i64>
    stablehlo.return %m : tensor<i64>
  }) {window_dimensions = array<i64: 2, 2, 1>, window_strides = array<i64: 1, 2, 1>, base_dilations = array<i64: 1, 1, 1>, window_dilations = array<i64: 2, 1, 1>, padding = dense<[[0, 0], [0, 0], [0, 0]]> : tensor<3x2xi64>} : (tensor<3x4x2xi64>, tensor<i64>) -> tensor<1x2x2xi64>
  check.expect_eq_const %v18, dense<[[[-108123143978227, -417484368144604], [321875185762039, -905346235560811]]]> : tensor<1x2x2xi64>
  return
}
