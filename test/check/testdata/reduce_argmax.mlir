// A two-operand stablehlo.reduce as JAX lowers jnp.argmax(x, axis=1): the
// values and their indices (an iota) reduce together. The body keeps the
// larger value; on a tie the smaller index; a NaN beats everything. Rows:
// a plain maximum, a tie (the first index wins), a NaN, all -Inf (index 0).
// The same for argmin on i32, in the generic form with properties.
func.func @main() {
  %cst = stablehlo.constant dense<[[1.000000e+00, 5.000000e+00, 2.000000e+00, 4.000000e+00], [3.000000e+00, 7.000000e+00, 7.000000e+00, 1.000000e+00], [1.000000e+00, 9.000000e+00, 0x7FC00000, 2.000000e+00], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<4x4xf32>
  %0 = stablehlo.iota dim = 1 : tensor<4x4xi32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%cst init: %cst_0), (%0 init: %c) across dimensions = [1] : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%arg0: tensor<f32>, %arg2: tensor<f32>) (%arg1: tensor<i32>, %arg3: tensor<i32>)  {
    %2 = stablehlo.compare  GT, %arg0, %arg2,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare  NE, %arg0, %arg0,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare  EQ, %arg0, %arg2,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare  LT, %arg1, %arg3,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg0, %arg2 : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %arg1, %arg3 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  check.expect_eq_const %1#1, dense<[1, 1, 2, 0]> : tensor<4xi32>
  check.expect_eq_const %1#0, dense<[5.000000e+00, 7.000000e+00, 0x7FC00000, 0xFF800000]> : tensor<4xf32>
  %c_1 = stablehlo.constant dense<[[4, -2, 9], [3, 3, -2147483648], [2147483647, 8, 8]]> : tensor<3x3xi32>
  %11 = stablehlo.iota dim = 0 : tensor<3x3xi64>
  %c_2 = stablehlo.constant dense<2147483647> : tensor<i32>
  %c_3 = stablehlo.constant dense<0> : tensor<i64>
  %12:2 = "stablehlo.reduce"(%c_1, %11, %c_2, %c_3) <{dimensions = array<i64: 0>}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<i64>, %arg2: tensor<i32>, %arg3: tensor<i64>):
    %13 = "stablehlo.compare"(%arg0, %arg2) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %14 = "stablehlo.compare"(%arg0, %arg2) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %15 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %16 = "stablehlo.and"(%14, %15) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %17 = "stablehlo.or"(%13, %16) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %18 = "stablehlo.select"(%13, %arg0, %arg2) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %19 = "stablehlo.select"(%17, %arg1, %arg3) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%18, %19) : (tensor<i32>, tensor<i64>) -> ()
  }) : (tensor<3x3xi32>, tensor<3x3xi64>, tensor<i32>, tensor<i64>) -> (tensor<3xi32>, tensor<3xi64>)
  check.expect_eq_const %12#0, dense<[3, -2, -2147483648]> : tensor<3xi32>
  check.expect_eq_const %12#1, dense<[1, 0, 1]> : tensor<3xi64>
  return
}
