module @jit_transformer {
  func.func public @main(%arg0: tensor<2x16x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64x192xf32>, %arg4: tensor<192xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<64xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64x256xf32>, %arg10: tensor<256xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64xf32>) -> tensor<2x16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %2 = stablehlo.divide %0, %1 : tensor<2x16xf32>
    %3 = stablehlo.reshape %2 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x16x64xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<2x16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_2 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %9 = stablehlo.divide %7, %8 : tensor<2x16xf32>
    %10 = stablehlo.reshape %9 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %12 = stablehlo.add %10, %11 : tensor<2x16x1xf32>
    %13 = stablehlo.rsqrt %12 : tensor<2x16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %15 = stablehlo.multiply %5, %14 : tensor<2x16x64xf32>
    %16 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
    %17 = stablehlo.multiply %15, %16 : tensor<2x16x64xf32>
    %18 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
    %19 = stablehlo.add %17, %18 : tensor<2x16x64xf32>
    %20 = stablehlo.dot_general %19, %arg3, contracting_dims = [2] x [0], precision = [HIGHEST, HIGHEST] : (tensor<2x16x64xf32>, tensor<64x192xf32>) -> tensor<2x16x192xf32>
    %21 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<192xf32>) -> tensor<2x16x192xf32>
    %22 = stablehlo.add %20, %21 : tensor<2x16x192xf32>
    %23 = stablehlo.slice %22 [0:2, 0:16, 0:64] : (tensor<2x16x192xf32>) -> tensor<2x16x64xf32>
    %24 = stablehlo.reshape %23 : (tensor<2x16x64xf32>) -> tensor<2x16x4x16xf32>
    %25 = stablehlo.transpose %24, dims = [0, 2, 1, 3] : (tensor<2x16x4x16xf32>) -> tensor<2x4x16x16xf32>
    %26 = stablehlo.slice %22 [0:2, 0:16, 64:128] : (tensor<2x16x192xf32>) -> tensor<2x16x64xf32>
    %27 = stablehlo.reshape %26 : (tensor<2x16x64xf32>) -> tensor<2x16x4x16xf32>
    %28 = stablehlo.transpose %27, dims = [0, 2, 1, 3] : (tensor<2x16x4x16xf32>) -> tensor<2x4x16x16xf32>
    %29 = stablehlo.slice %22 [0:2, 0:16, 128:192] : (tensor<2x16x192xf32>) -> tensor<2x16x64xf32>
    %30 = stablehlo.reshape %29 : (tensor<2x16x64xf32>) -> tensor<2x16x4x16xf32>
    %31 = stablehlo.transpose %30, dims = [0, 2, 1, 3] : (tensor<2x16x4x16xf32>) -> tensor<2x4x16x16xf32>
    %32 = stablehlo.transpose %28, dims = [0, 1, 3, 2] : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %33 = stablehlo.dot_general %25, %32, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [HIGHEST, HIGHEST] : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %cst_4 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %35 = stablehlo.multiply %33, %34 : tensor<2x4x16x16xf32>
    %36 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %37 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %38 = stablehlo.compare  GE, %36, %37,  SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %40 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %41 = stablehlo.select %39, %35, %40 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %42 = stablehlo.reduce(%41 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %43 = stablehlo.reshape %42 : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %45 = stablehlo.subtract %41, %44 : tensor<2x4x16x16xf32>
    %46 = stablehlo.exponential %45 : tensor<2x4x16x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %48 = stablehlo.reshape %47 : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %50 = stablehlo.divide %46, %49 : tensor<2x4x16x16xf32>
    %51 = stablehlo.dot_general %50, %31, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [HIGHEST, HIGHEST] : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %52 = stablehlo.transpose %51, dims = [0, 2, 1, 3] : (tensor<2x4x16x16xf32>) -> tensor<2x16x4x16xf32>
    %53 = stablehlo.reshape %52 : (tensor<2x16x4x16xf32>) -> tensor<2x16x64xf32>
    %54 = stablehlo.dot_general %53, %arg5, contracting_dims = [2] x [0], precision = [HIGHEST, HIGHEST] : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
    %55 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
    %56 = stablehlo.add %54, %55 : tensor<2x16x64xf32>
    %57 = stablehlo.add %arg0, %56 : tensor<2x16x64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.reduce(%57 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_9 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %60 = stablehlo.divide %58, %59 : tensor<2x16xf32>
    %61 = stablehlo.reshape %60 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %63 = stablehlo.subtract %57, %62 : tensor<2x16x64xf32>
    %64 = stablehlo.multiply %63, %63 : tensor<2x16x64xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_11 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %67 = stablehlo.divide %65, %66 : tensor<2x16xf32>
    %68 = stablehlo.reshape %67 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %70 = stablehlo.add %68, %69 : tensor<2x16x1xf32>
    %71 = stablehlo.rsqrt %70 : tensor<2x16x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %73 = stablehlo.multiply %63, %72 : tensor<2x16x64xf32>
    %74 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
    %75 = stablehlo.multiply %73, %74 : tensor<2x16x64xf32>
    %76 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
    %77 = stablehlo.add %75, %76 : tensor<2x16x64xf32>
    %78 = stablehlo.dot_general %77, %arg9, contracting_dims = [2] x [0], precision = [HIGHEST, HIGHEST] : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
    %79 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<256xf32>) -> tensor<2x16x256xf32>
    %80 = stablehlo.add %78, %79 : tensor<2x16x256xf32>
    %81 = stablehlo.multiply %80, %80 : tensor<2x16x256xf32>
    %82 = stablehlo.multiply %81, %80 : tensor<2x16x256xf32>
    %cst_13 = stablehlo.constant dense<1.59576917> : tensor<f32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x16x256xf32>
    %84 = stablehlo.multiply %83, %82 : tensor<2x16x256xf32>
    %85 = stablehlo.add %80, %84 : tensor<2x16x256xf32>
    %86 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x16x256xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<2x16x256xf32>
    %88 = stablehlo.logistic %87 : tensor<2x16x256xf32>
    %89 = stablehlo.multiply %80, %88 : tensor<2x16x256xf32>
    %90 = stablehlo.dot_general %89, %arg11, contracting_dims = [2] x [0], precision = [HIGHEST, HIGHEST] : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
    %91 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
    %92 = stablehlo.add %90, %91 : tensor<2x16x64xf32>
    %93 = stablehlo.add %57, %92 : tensor<2x16x64xf32>
    return %93 : tensor<2x16x64xf32>
  }
}
