module @jit_regions attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4xf32>, %arg1: tensor<5x4xi64>, %arg2: tensor<i32>, %arg3: tensor<3x1xi32>, %arg4: tensor<3x4xf32>) -> (tensor<5xf32>, tensor<5xi64>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [1] : (tensor<5x4xf32>, tensor<5x4xi64>, tensor<f32>, tensor<i64>) -> (tensor<5xf32>, tensor<5xi64>)
     reducer(%arg5: tensor<f32>, %arg7: tensor<f32>) (%arg6: tensor<i64>, %arg8: tensor<i64>)  {
      %15 = stablehlo.compare  GT, %arg5, %arg7,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %16 = stablehlo.select %15, %arg5, %arg7 : tensor<i1>, tensor<f32>
      %17 = stablehlo.select %15, %arg6, %arg8 : tensor<i1>, tensor<i64>
      stablehlo.return %16, %17 : tensor<f32>, tensor<i64>
    }
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) across dimensions = [0] : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%arg5: tensor<f32>, %arg6: tensor<f32>)  {
      %15 = stablehlo.multiply %arg5, %arg6 : tensor<f32>
      %16 = stablehlo.add %15, %arg6 : tensor<f32>
      stablehlo.return %16 : tensor<f32>
    }
    %2 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<f32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3:2 = stablehlo.while(%iterArg = %c_1, %iterArg_3 = %arg0) : tensor<i32>, tensor<5x4xf32>
     cond {
      %c_4 = stablehlo.constant dense<10> : tensor<i32>
      %15 = stablehlo.compare  LT, %iterArg, %c_4,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      %16 = stablehlo.sine %iterArg_3 : tensor<5x4xf32>
      %17 = stablehlo.while(%iterArg_5 = %15) : tensor<i32> attributes {mhlo.frontend_attributes = {inner = "true"}}
       cond {
        %18 = stablehlo.compare  LT, %iterArg_5, %arg2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %18 : tensor<i1>
      } do {
        stablehlo.return %iterArg_5 : tensor<i32>
      }
      stablehlo.return %17, %16 : tensor<i32>, tensor<5x4xf32>
    }
    %4 = "stablehlo.case"(%arg2) ({
      stablehlo.return %cst_0 : tensor<f32>
    }, {
      %15 = stablehlo.negate %cst_0 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<i32>) -> tensor<f32>
    %c_2 = stablehlo.constant dense<true> : tensor<i1>
    %5 = "stablehlo.if"(%c_2) ({
      stablehlo.return %2 : tensor<f32>
    }, {
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<i1>) -> tensor<f32>
    %6:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<i64>, %arg8: tensor<i64>):
      %15 = stablehlo.compare  LT, %arg5, %arg6,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    }) : (tensor<5x4xf32>, tensor<5x4xi64>) -> (tensor<5x4xf32>, tensor<5x4xi64>)
    %7 = "stablehlo.scatter"(%arg0, %arg3, %arg4) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %15 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    %8 = "stablehlo.gather"(%7, %arg3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
    %9 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %15 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<f32>) -> tensor<5x4xf32>
    %10 = "stablehlo.select_and_scatter"(%arg0, %9, %cst_0) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %15 = stablehlo.compare  GE, %arg5, %arg6,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    }, {
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %15 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<5x4xf32>, tensor<f32>) -> tensor<5x4xf32>
    %11 = "stablehlo.map"(%arg0, %10) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %15 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x4xf32>
    %12 = "stablehlo.all_reduce"(%11) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %15 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<5x4xf32>) -> tensor<5x4xf32>
    %13 = "stablehlo.all_gather"(%12) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<5x4xf32>) -> tensor<10x4xf32>
    %14 = "stablehlo.triangular_solve"(%arg4, %arg4) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0#0, %0#1 : tensor<5xf32>, tensor<5xi64>
  }
}
