module @jit_shapes attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<8x2x3xf32>, %arg3: tensor<i32>, %arg4: tensor<1x28x28x3xf32>, %arg5: tensor<3x3x3x16xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
    %0 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>
    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %2 = stablehlo.slice %arg0 [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
    %3 = stablehlo.slice %arg2 [1:8:2, 0:2, 0:3:3] : (tensor<8x2x3xf32>) -> tensor<4x2x1xf32>
    %4 = stablehlo.iota dim = 0 : tensor<4xi32>
    %5 = stablehlo.iota dim = 1 : tensor<2x3xf32>
    %6 = stablehlo.concatenate %arg0, %5, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.pad %arg0, %cst, low = [0, 1], high = [1, 0], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
    %8 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<2x3xf32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %10 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<8x2x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.dynamic_slice %arg0, %arg3, %c, sizes = [1, 3] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %12 = stablehlo.dynamic_update_slice %arg0, %11, %arg3, %c : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %13 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
    %14 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %15 = stablehlo.dot_general %arg2, %10, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<8x2x3xf32>, tensor<8x2x3xf32>) -> tensor<8x2x2xf32>
    %16 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %17 = stablehlo.dot %arg0, %arg1, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %18 = stablehlo.dot %arg0, %arg1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %19 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x28x28x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x28x28x16xf32>
    %20 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], reverse = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x28x28x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x13x13x16xf32>
    %21 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, 1, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x28x28x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x1x26x1xf32>
    %22 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
    %23 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
    %24 = stablehlo.tuple %arg0, %arg3 : tuple<tensor<2x3xf32>, tensor<i32>>
    %25 = stablehlo.get_tuple_element %24[1] : (tuple<tensor<2x3xf32>, tensor<i32>>) -> tensor<i32>
    %26:2 = stablehlo.optimization_barrier %arg0, %arg3 : tensor<2x3xf32>, tensor<i32>
    %27 = stablehlo.custom_call @Sharding(%26#0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %28:2 = stablehlo.custom_call @my_target(%27, %26#1) {api_version = 4 : i32, backend_config = {alpha = 1.000000e+00 : f32}, has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<i32>)
    stablehlo.custom_call @"weird name"() : () -> ()
    %29 = stablehlo.composite "my.gelu" %28#0 {composite_attributes = {approximate = true, name = "tanh"}, decomposition = @my.gelu.impl, version = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %30 = stablehlo.fft %26#0, type = RFFT, length = [3] : (tensor<2x3xf32>) -> tensor<2x2xcomplex<f32>>
    %c_0 = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
    %31:2 = stablehlo.rng_bit_generator %c_0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
    %c_1 = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
    %32 = stablehlo.rng %cst, %cst, %c_1, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
    %33 = stablehlo.einsum %arg0, %arg1, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %34 = stablehlo.cholesky %arg1, lower = true : tensor<3x4xf32>
    %35 = stablehlo.cholesky %arg1 : tensor<3x4xf32>
    %36 = stablehlo.create_token : !stablehlo.token
    %37 = stablehlo.after_all %36, %36 : !stablehlo.token
    %38 = stablehlo.replica_id : tensor<ui32>
    %39 = stablehlo.partition_id : tensor<ui32>
    %40 = stablehlo.broadcast %arg3, sizes = [2, 3] : (tensor<i32>) -> tensor<2x3xi32>
    %41 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
    %42 = stablehlo.uniform_dequantize %41 : (tensor<2x3x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>) -> tensor<2x3xf32>
    stablehlo.optimization_barrier()
    return %0, %1 : tensor<6xf32>, tensor<3x2xf32>
  }
  func.func private @my.gelu.impl(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %arg0 : tensor<2x3xf32>
  }
}
