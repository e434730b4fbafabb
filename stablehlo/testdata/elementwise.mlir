module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<2x3xi32>) -> (tensor<2x3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<2x3xf32>
    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
    %1 = stablehlo.subtract %0, %cst : tensor<2x3xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<2x3xf32>
    %3 = stablehlo.divide %2, %cst : tensor<2x3xf32>
    %4 = stablehlo.maximum %3, %2 : tensor<2x3xf32>
    %5 = stablehlo.minimum %4, %3 : tensor<2x3xf32>
    %6 = stablehlo.power %5, %4 : tensor<2x3xf32>
    %7 = stablehlo.remainder %6, %5 : tensor<2x3xf32>
    %8 = stablehlo.atan2 %7, %6 : tensor<2x3xf32>
    %9 = stablehlo.abs %8 : tensor<2x3xf32>
    %10 = stablehlo.negate %9 : tensor<2x3xf32>
    %11 = stablehlo.exponential %10 : tensor<2x3xf32>
    %12 = stablehlo.exponential_minus_one %11 : tensor<2x3xf32>
    %13 = stablehlo.log %12 : tensor<2x3xf32>
    %14 = stablehlo.log_plus_one %13 : tensor<2x3xf32>
    %15 = stablehlo.logistic %14 : tensor<2x3xf32>
    %16 = stablehlo.sqrt %15 : tensor<2x3xf32>
    %17 = stablehlo.rsqrt %16 : tensor<2x3xf32>
    %18 = stablehlo.cbrt %17 : tensor<2x3xf32>
    %19 = stablehlo.sine %18 : tensor<2x3xf32>
    %20 = stablehlo.cosine %19 : tensor<2x3xf32>
    %21 = stablehlo.tan %20 : tensor<2x3xf32>
    %22 = stablehlo.tanh %21 : tensor<2x3xf32>
    %23 = stablehlo.floor %22 : tensor<2x3xf32>
    %24 = stablehlo.ceil %23 : tensor<2x3xf32>
    %25 = stablehlo.round_nearest_afz %24 : tensor<2x3xf32>
    %26 = stablehlo.round_nearest_even %25 : tensor<2x3xf32>
    %27 = stablehlo.sign %26 : tensor<2x3xf32>
    %28 = stablehlo.is_finite %27 : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %29 = stablehlo.not %28 : tensor<2x3xi1>
    %30 = stablehlo.and %29, %28 : tensor<2x3xi1>
    %31 = stablehlo.or %30, %29 : tensor<2x3xi1>
    %32 = stablehlo.xor %31, %30 : tensor<2x3xi1>
    %33 = stablehlo.convert %arg2 : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %34 = stablehlo.convert %33 : tensor<2x3xf32>
    %35 = stablehlo.popcnt %arg2 : tensor<2x3xi32>
    %36 = stablehlo.count_leading_zeros %35 : tensor<2x3xi32>
    %37 = stablehlo.shift_left %36, %35 : tensor<2x3xi32>
    %38 = stablehlo.shift_right_arithmetic %37, %36 : tensor<2x3xi32>
    %39 = stablehlo.shift_right_logical %38, %37 : tensor<2x3xi32>
    %40 = stablehlo.compare  GT, %34, %27,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %41 = stablehlo.compare  EQ, %39, %38,  SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %42 = stablehlo.compare  NE, %40, %41 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %43 = stablehlo.select %42, %34, %27 : tensor<2x3xi1>, tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %44 = stablehlo.clamp %cst_0, %43, %cst_1 : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %45 = stablehlo.clamp %43, %44, %43 : tensor<2x3xf32>
    %46 = stablehlo.select %42, %45, %44 : tensor<2x3xi1>, tensor<2x3xf32>
    %47 = stablehlo.reduce_precision %46, format = e5m10 : tensor<2x3xf32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %48 = stablehlo.complex %47, %46 : tensor<2x3xcomplex<f32>>
    %49 = stablehlo.real %48 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    %50 = stablehlo.imag %48 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    %51 = stablehlo.real %50 : tensor<2x3xf32>
    %52 = stablehlo.abs %48 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    %53 = stablehlo.add %51, %52 {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : tensor<2x3xf32>
    return %53 : tensor<2x3xf32>
  }
}
