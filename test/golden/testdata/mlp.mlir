module @jit_mlp {
  func.func public @main(%arg0: tensor<8x784xf32>, %arg1: tensor<784x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<64x10xf32>, %arg6: tensor<10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x784xf32>, tensor<784x128xf32>) -> tensor<8x128xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<128xf32>) -> tensor<8x128xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<8x128xf32>
    %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x128xf32>, tensor<128x64xf32>) -> tensor<8x64xf32>
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %7 = stablehlo.add %5, %6 : tensor<8x64xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<8x64xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<8x64xf32>
    %cst_0 = stablehlo.constant dense<1.59576917> : tensor<f32>
    %cst_1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x64xf32>
    %12 = stablehlo.add %7, %11 : tensor<8x64xf32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %14 = stablehlo.multiply %13, %12 : tensor<8x64xf32>
    %15 = stablehlo.logistic %14 : tensor<8x64xf32>
    %16 = stablehlo.multiply %7, %15 : tensor<8x64xf32>
    %17 = stablehlo.dot_general %16, %arg5, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x64xf32>, tensor<64x10xf32>) -> tensor<8x10xf32>
    %18 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<10xf32>) -> tensor<8x10xf32>
    %19 = stablehlo.add %17, %18 : tensor<8x10xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_2) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %21 = stablehlo.reshape %20 : (tensor<8xf32>) -> tensor<8x1xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %23 = stablehlo.subtract %19, %22 : tensor<8x10xf32>
    %24 = stablehlo.exponential %23 : tensor<8x10xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %26 = stablehlo.reshape %25 : (tensor<8xf32>) -> tensor<8x1xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %28 = stablehlo.divide %24, %27 : tensor<8x10xf32>
    return %28 : tensor<8x10xf32>
  }
}
