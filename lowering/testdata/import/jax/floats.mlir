module @jit_floats attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}, tensor<6xf32> {jax.result_info = "result[3]"}, tensor<6xf32> {jax.result_info = "result[4]"}, tensor<6xf32> {jax.result_info = "result[5]"}, tensor<6xf32> {jax.result_info = "result[6]"}, tensor<6xf32> {jax.result_info = "result[7]"}, tensor<6xf32> {jax.result_info = "result[8]"}, tensor<6xf32> {jax.result_info = "result[9]"}, tensor<6xf32> {jax.result_info = "result[10]"}, tensor<6xf32> {jax.result_info = "result[11]"}, tensor<6xf32> {jax.result_info = "result[12]"}, tensor<6xi1> {jax.result_info = "result[13]"}, tensor<6xf32> {jax.result_info = "result[14]"}, tensor<6xf32> {jax.result_info = "result[15]"}, tensor<6xf32> {jax.result_info = "result[16]"}, tensor<6xf32> {jax.result_info = "result[17]"}, tensor<6xf32> {jax.result_info = "result[18]"}, tensor<6xf32> {jax.result_info = "result[19]"}, tensor<6xf32> {jax.result_info = "result[20]"}, tensor<6xf32> {jax.result_info = "result[21]"}, tensor<6xi32> {jax.result_info = "result[22]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<6xf32>
    %1 = stablehlo.exponential_minus_one %arg0 : tensor<6xf32>
    %2 = stablehlo.abs %arg0 : tensor<6xf32>
    %3 = stablehlo.log_plus_one %2 : tensor<6xf32>
    %4 = stablehlo.abs %arg1 : tensor<6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.add %4, %5 : tensor<6xf32>
    %7 = stablehlo.log %6 : tensor<6xf32>
    %8 = stablehlo.negate %arg0 : tensor<6xf32>
    %9 = stablehlo.exponential %8 : tensor<6xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %11 = stablehlo.add %10, %9 : tensor<6xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %13 = stablehlo.divide %12, %11 : tensor<6xf32>
    %14 = stablehlo.abs %arg1 : tensor<6xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %16 = stablehlo.add %14, %15 : tensor<6xf32>
    %17 = stablehlo.rsqrt %16 : tensor<6xf32>
    %18 = stablehlo.cbrt %arg0 : tensor<6xf32>
    %19 = stablehlo.floor %arg0 : tensor<6xf32>
    %20 = stablehlo.ceil %arg0 : tensor<6xf32>
    %21 = call @round(%arg0) : (tensor<6xf32>) -> tensor<6xf32>
    %22 = stablehlo.round_nearest_afz %arg0 : tensor<6xf32>
    %23 = stablehlo.atan2 %arg0, %arg1 : tensor<6xf32>
    %24 = stablehlo.abs %arg0 : tensor<6xf32>
    %25 = stablehlo.power %24, %arg1 : tensor<6xf32>
    %26 = stablehlo.divide %arg0, %arg1 : tensor<6xf32>
    %27 = stablehlo.is_finite %26 : (tensor<6xf32>) -> tensor<6xi1>
    %28 = stablehlo.sine %arg0 : tensor<6xf32>
    %29 = stablehlo.cosine %arg0 : tensor<6xf32>
    %30 = stablehlo.tan %arg0 : tensor<6xf32>
    %31 = call @remainder(%arg0, %arg1) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %32 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %33 = call @_where(%32, %arg0, %arg1) : (tensor<6xi1>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %34 = stablehlo.abs %arg0 : tensor<6xf32>
    %35 = stablehlo.sqrt %34 : tensor<6xf32>
    %36 = stablehlo.sign %arg0 : tensor<6xf32>
    %37 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<6xf32>
    %38 = stablehlo.bitcast_convert %arg0 : (tensor<6xf32>) -> tensor<6xi32>
    return %0, %1, %3, %7, %13, %17, %18, %19, %20, %21, %22, %23, %25, %27, %28, %29, %30, %31, %33, %35, %36, %37, %38 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xi1>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xi32>
  }
  func.func private @round(%arg0: tensor<6xf32>) -> tensor<6xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<6xf32>
    return %0 : tensor<6xf32>
  }
  func.func private @remainder(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> tensor<6xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<6xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %8 = stablehlo.and %7, %2 : tensor<6xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<6xf32>
    %10 = stablehlo.select %8, %9, %0 : tensor<6xi1>, tensor<6xf32>
    return %10 : tensor<6xf32>
  }
  func.func private @_where(%arg0: tensor<6xi1>, %arg1: tensor<6xf32>, %arg2: tensor<6xf32>) -> tensor<6xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<6xi1>, tensor<6xf32>
    return %0 : tensor<6xf32>
  }
}
