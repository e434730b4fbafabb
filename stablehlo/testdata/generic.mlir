module {
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<16x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.add %arg0, %arg0 {mhlo.sharding = "{replicated}"} : tensor<4xf32>
    %1 = "chlo.erf"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2:2 = "chlo.top_k"(%arg1) {k = 2 : i64} : (tensor<16x16xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %3 = "chlo.broadcast_add"(%1, %0) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %4 = "mydialect.frob"(%3) <{level = 3 : i32}> ({
    ^bb0(%arg2: tensor<f32>):
      "mydialect.yield"(%arg2) : (tensor<f32>) -> ()
    }) {extra = #mydialect.thing<[1, 2] -> {a = "}>"}>} : (tensor<4xf32>) -> tensor<4xf32>
    "mydialect.effect"() : () -> ()
    %5 = stablehlo.custom_call @foo(%4) {backend_config = "", has_side_effect = false} : (tensor<4xf32>) -> tensor<4xf32>
    %6 = stablehlo.convolution(%arg1, %arg1) dim_numbers = [b, f]x[i, o]->[b, f], window = {pad = []} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %7 = "stablehlo.convolution"(%arg1, %arg1) <{dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [], kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 1, kernel_spatial_dimensions = [], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = []>}> : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %8 = "stablehlo.transpose"(%arg1) <{permutation = array<i32: 1, 0>}> : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %9 = "stablehlo.compare"(%arg0, %arg0) <{comparison_direction = #chlo<comparison_direction GT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %10 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg0, dims = [0] {known_expanding_dimensions = array<i64>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    %cst = stablehlo.constant {attr_types = [i32, tensor<*xf32>, tuple<>, !stablehlo.token, f8E5M2, @sym::@nested, unit, 1.500000e+00, -7, 0x7FC00000 : f32, 5 : ui8, -1 : i8]} dense_resource<__elided__> : tensor<4xf32>
    %cst_0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<8xf32>
    return %arg0, %5 : tensor<4xf32>, tensor<4xf32>
  }
}
