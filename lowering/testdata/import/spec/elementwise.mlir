// Elementwise and data-movement ops in JAX's pretty forms and in generic
// form, with the attribute spellings other producers use.
module @jit_elementwise attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xi32>, %arg2: tensor<2x3xui8>, %arg3: tensor<i1>, %arg4: tensor<3xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xbf16>, tensor<2x3x4xui8>, tensor<2x3xf32>, tensor<4x2x3xi32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<1x5xf32>, tensor<2x2xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
    %0 = stablehlo.compare  LT, %arg0, %arg0,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %1 = stablehlo.compare  EQ, %arg0, %arg0,  TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %2 = stablehlo.compare GE, %arg1, %arg1, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %3 = stablehlo.compare  NE, %arg2, %arg2 : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
    %4 = "stablehlo.compare"(%arg1, %arg1) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type UNSIGNED>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %5 = stablehlo.select %arg3, %arg0, %arg0 : tensor<i1>, tensor<2x3xf32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %6 = stablehlo.clamp %c, %arg1, %c_0 : (tensor<i32>, tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
    %7 = stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    %8 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
    %9 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<2x3xf32>
    %10 = stablehlo.iota dim = 0 : tensor<4x2x3xi32>
    %11 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %12 = stablehlo.dot_general %arg0, %11, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [HIGHEST, DEFAULT] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
    %13 = stablehlo.broadcast %12, sizes = [2] : (tensor<2xf32>) -> tensor<2x2xf32>
    %14 = "stablehlo.transpose"(%arg0) <{permutation = array<i32: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %15 = stablehlo.dot %arg0, %14, precision = [DEFAULT, HIGH] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %16 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.pad %arg0, %cst, low = [0, -1], high = [-1, 1], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x5xf32>
    %18 = stablehlo.slice %arg0 [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
    %19 = stablehlo.concatenate %arg0, %16, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %20 = stablehlo.dynamic_slice %19, %c_0, %c, sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %21 = stablehlo.dynamic_update_slice %20, %18, %c, %c_0 : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %22 = stablehlo.reshape %21 : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %23 = stablehlo.reshape %22 : (tensor<3x2xf32>) -> tensor<2x3xf32>
    %24 = stablehlo.exponential %23 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : tensor<2x3xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %13, %14, %15, %17, %18, %19, %21, %24 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xbf16>, tensor<2x3x4xui8>, tensor<2x3xf32>, tensor<4x2x3xi32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<1x5xf32>, tensor<2x2xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  }
}
