// The layout of the files in StableHLO's testdata directory, as JAX exports
// them: a module with attributes, @main calling private @inputs (two results,
// `%0:2 = call`) and @expected, custom_call @check.expect_eq with a side
// effect, and @check.eq whose i1 result @main returns.
module @jit_testcase attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<i1> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0:2 = call @inputs() : () -> (tensor<2x3xf32>, tensor<2x3xf32>)
    %1 = call @expected() : () -> tensor<2x3xf32>
    %2 = stablehlo.subtract %0#0, %0#1 : tensor<2x3xf32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    %3 = stablehlo.custom_call @check.eq(%1, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<i1>
    return %3 : tensor<i1>
  }
  func.func private @inputs() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}, tensor<2x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.500000e+00, -2.000000e+00, 0.000000e+00], [3.25, 1.000000e+30, -4.000000e+00]]> : tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<[[5.000000e-01, 2.000000e+00, -0.000000e+00], [3.25, 1.000000e+00, 0x7F800000]]> : tensor<2x3xf32>
    return %cst, %cst_0 : tensor<2x3xf32>, tensor<2x3xf32>
  }
  func.func private @expected() -> (tensor<2x3xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, -4.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+30, 0xFF800000]]> : tensor<2x3xf32>
    return %cst : tensor<2x3xf32>
  }
}
