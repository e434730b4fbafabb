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
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x64xf32>
    %12 = stablehlo.add %7, %11 : tensor<8x64xf32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %14 = stablehlo.multiply %13, %12 : tensor<8x64xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %16 = stablehlo.multiply %15, %7 : tensor<8x64xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.tanh %14 : tensor<8x64xf32>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %19 = stablehlo.add %18, %17 : tensor<8x64xf32>
    %20 = stablehlo.multiply %16, %19 : tensor<8x64xf32>
    %21 = stablehlo.dot_general %20, %arg5, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x64xf32>, tensor<64x10xf32>) -> tensor<8x10xf32>
    %22 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<10xf32>) -> tensor<8x10xf32>
    %23 = stablehlo.add %21, %22 : tensor<8x10xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_4) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %25 = stablehlo.reshape %24 : (tensor<8xf32>) -> tensor<8x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %27 = stablehlo.subtract %23, %26 : tensor<8x10xf32>
    %28 = stablehlo.exponential %27 : tensor<8x10xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %30 = stablehlo.reshape %29 : (tensor<8xf32>) -> tensor<8x1xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %32 = stablehlo.divide %28, %31 : tensor<8x10xf32>
    return %32 : tensor<8x10xf32>
  }
}
