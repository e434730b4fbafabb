// stablehlo.select_and_scatter: the spec's example (i32, select GE, scatter
// add, a window over padding), and the gradient of max pooling as JAX
// lowers it (NHWC f32 and f64, 3x3 stride 2 SAME, and 2x2 stride 2;
// overlapping windows add into the same element), with GT selecting the
// last of tied maxima, LE/LT selecting minima. Expected values: the spec's
// example as written; torch's max_pool2d gradient (autograd) for the pools;
// the tie cases by hand.
func.func @main() {
  // The spec's example.
  %v1 = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi32>
  %v2 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %v3 = stablehlo.constant dense<0> : tensor<i32>
  %v4 = "stablehlo.select_and_scatter"(%v1, %v2, %v3) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  check.expect_eq_const %v4, dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi32>
  // Max pool 3x3 stride 2 SAME gradient (distinct values).
  %v5 = stablehlo.constant dense<[[[[12.75, -8.5], [0.75, 14.5], [10.25, -2.75], [5.0, 7.5], [8.0, 13.75]], [[-2.25, 10.0], [-7.25, 14.25], [6.25, 12.5], [-7.5, 7.0], [-9.5, 11.0]], [[-2.5, -1.25], [12.25, 5.25], [0.0, 0.5], [3.75, 11.75], [-8.25, 11.25]], [[8.25, -9.75], [0.25, -0.75], [13.0, 7.75], [4.75, -1.5], [-3.0, 9.0]], [[-0.5, 14.75], [-9.25, 2.5], [-1.0, 1.75], [-8.75, 4.0], [-9.0, -5.5]]], [[[13.5, 1.0], [1.5, 7.25], [-6.0, -6.25], [-7.75, -5.0], [1.25, 10.5]], [[8.75, -6.5], [3.5, 2.25], [-4.75, 4.5], [11.5, 6.75], [-10.0, -0.25]], [[-5.25, -4.0], [-4.25, -3.75], [9.5, 10.75], [6.0, 8.5], [-6.75, -4.5]], [[4.25, -1.75], [13.25, -7.0], [-3.5, 6.5], [3.25, 5.75], [9.25, 12.0]], [[-8.0, 9.75], [3.0, 2.75], [-2.0, -5.75], [-3.25, 5.5], [2.0, 14.0]]]]> : tensor<2x5x5x2xf32>
  %v6 = stablehlo.constant dense<[[[[6.0, 3.5], [0.5, 2.5], [9.5, 1.5]], [[3.5, -2.5], [1.0, -9.5], [7.0, 5.5]], [[9.0, 5.0], [-6.0, 2.0], [9.0, -8.5]]], [[[8.0, -5.0], [2.0, 9.5], [0.5, -3.0]], [[-0.5, 0.5], [4.5, -2.5], [2.0, 2.5]], [[1.5, 0.0], [8.0, -8.5], [8.0, 2.5]]]]> : tensor<2x3x3x2xf32>
  %v7 = stablehlo.constant dense<0.0> : tensor<f32>
  %v8 = "stablehlo.select_and_scatter"(%v5, %v6, %v7) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x5x5x2xf32>, tensor<2x3x3x2xf32>, tensor<f32>) -> tensor<2x5x5x2xf32>
  check.expect_eq_const %v8, dense<[[[[6.0, 0.0], [0.0, 6.0], [0.5, 0.0], [0.0, 0.0], [9.5, 1.5]], [[0.0, 0.0], [0.0, -12.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [3.5, 0.0], [0.0, 0.0], [0.0, 5.5], [0.0, 0.0]], [[9.0, 0.0], [0.0, 0.0], [-5.0, 2.0], [16.0, 0.0], [0.0, -8.5]], [[0.0, 5.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]], [[[8.0, 0.0], [0.0, 4.5], [0.0, 0.0], [0.0, 0.0], [0.0, -3.0]], [[0.0, 0.0], [0.0, 0.5], [0.0, 0.0], [4.5, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, -2.5], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [13.5, 0.0], [0.0, -8.5], [0.0, 0.0], [8.0, 2.5]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 2.5]]]]> : tensor<2x5x5x2xf32>
  // Max pool 2x2 stride 2 gradient.
  %v9 = stablehlo.constant dense<[[[[-7.0, 0.0, 3.0], [34.0, 29.0, -25.0], [-24.0, -1.0, 37.0], [-5.0, -12.0, 8.0], [-19.0, 10.0, -23.0], [30.0, 38.0, -29.0]], [[13.0, 24.0, -4.0], [-21.0, -15.0, 7.0], [32.0, -10.0, 28.0], [-17.0, 40.0, 1.0], [11.0, 5.0, 22.0], [25.0, 2.0, 39.0]], [[-8.0, -18.0, -20.0], [17.0, 27.0, 23.0], [-27.0, 4.0, 20.0], [-11.0, 31.0, -13.0], [35.0, 15.0, -28.0], [6.0, -2.0, 9.0]], [[14.0, -26.0, 16.0], [18.0, -22.0, -14.0], [-6.0, 19.0, -16.0], [41.0, 33.0, 21.0], [12.0, -3.0, 26.0], [-9.0, 36.0, -30.0]]]]> : tensor<1x4x6x3xf64>
  %v10 = stablehlo.constant dense<[[[[9.0, 7.0, -8.0], [-6.0, -2.0, 3.0], [2.0, 5.0, 8.0]], [[4.0, -2.0, 9.0], [-6.0, -4.0, -6.0], [0.0, -1.0, 6.0]]]]> : tensor<1x2x3x3xf64>
  %v11 = stablehlo.constant dense<0.0> : tensor<f64>
  %v12 = "stablehlo.select_and_scatter"(%v9, %v10, %v11) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %c : tensor<f64>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x4x6x3xf64>, tensor<1x2x3x3xf64>, tensor<f64>) -> tensor<1x4x6x3xf64>
  check.expect_eq_const %v12, dense<[[[[0.0, 0.0, 0.0], [9.0, 7.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [2.0, 5.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, -8.0], [-6.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 8.0]], [[0.0, 0.0, 0.0], [0.0, -2.0, 9.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 0.0, 0.0], [-6.0, -4.0, -6.0], [0.0, 0.0, 6.0], [0.0, -1.0, 0.0]]]]> : tensor<1x4x6x3xf64>
  // Ties: GE selects the first maximum.
  %v13 = stablehlo.constant dense<[3.0, 7.0, 7.0, 1.0, 7.0]> : tensor<5xf32>
  %v14 = stablehlo.constant dense<[1.5, 10.0, 100.0]> : tensor<3xf32>
  %v15 = stablehlo.constant dense<0.0> : tensor<f32>
  %v16 = "stablehlo.select_and_scatter"(%v13, %v14, %v15) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, padding = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<5xf32>, tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %v16, dense<[0.0, 11.5, 100.0, 0.0, 0.0]> : tensor<5xf32>
  // GT selects the last maximum.
  %v17 = stablehlo.constant dense<[3.0, 7.0, 7.0, 1.0, 7.0]> : tensor<5xf32>
  %v18 = stablehlo.constant dense<[1.5, 10.0, 100.0]> : tensor<3xf32>
  %v19 = stablehlo.constant dense<0.0> : tensor<f32>
  %v20 = "stablehlo.select_and_scatter"(%v17, %v18, %v19) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, padding = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<5xf32>, tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %v20, dense<[0.0, 0.0, 11.5, 0.0, 100.0]> : tensor<5xf32>
  // LT selects the first minimum.
  %v21 = stablehlo.constant dense<[3.0, 7.0, 7.0, 1.0, 7.0]> : tensor<5xf32>
  %v22 = stablehlo.constant dense<[1.5, 10.0, 100.0]> : tensor<3xf32>
  %v23 = stablehlo.constant dense<0.0> : tensor<f32>
  %v24 = "stablehlo.select_and_scatter"(%v21, %v22, %v23) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, padding = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<5xf32>, tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %v24, dense<[1.5, 0.0, 0.0, 110.0, 0.0]> : tensor<5xf32>
  // i64, init 5, windows partly over padding (by hand).
  %v25 = stablehlo.constant dense<[[4, -2], [9, 9]]> : tensor<2x2xi64>
  %v26 = stablehlo.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi64>
  %v27 = stablehlo.constant dense<5> : tensor<i64>
  %v28 = "stablehlo.select_and_scatter"(%v25, %v26, %v27) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %c : tensor<i64>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<2x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  check.expect_eq_const %v28, dense<[[15, 25], [35, 45]]> : tensor<2x2xi64>
  return
}
