// The testdata style of StableHLO's repository: inputs and expected values
// come from helper functions, custom_call @check.expect_eq compares exactly
// and @check.eq(expected, actual) returns an i1 and fails when it is false.
// Here @expected is wrong at [1, 1]: 4 * 2 is 8, not 9.
// FAIL: 12: custom_call @check.expect_eq: element [1, 1]: actual 8, expected 9
// FAIL: 13: custom_call @check.eq: element [1, 1]: actual 8, expected 9
module @jit_testcase attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<i1> {jax.result_info = ""}) {
    %0:2 = call @inputs() : () -> (tensor<2x2xi32>, tensor<2x2xi32>)
    %1 = call @expected() : () -> tensor<2x2xi32>
    %2 = stablehlo.multiply %0#0, %0#1 : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%2, %1) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    %3 = stablehlo.custom_call @check.eq(%1, %2) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<i1>
    return %3 : tensor<i1>
  }
  func.func private @inputs() -> (tensor<2x2xi32> {mhlo.layout_mode = "default"}, tensor<2x2xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<2x2xi32>
    return %c, %c_0 : tensor<2x2xi32>, tensor<2x2xi32>
  }
  func.func private @expected() -> (tensor<2x2xi32> {mhlo.layout_mode = "default"}) {
    %c = stablehlo.constant dense<[[2, 4], [6, 9]]> : tensor<2x2xi32>
    return %c : tensor<2x2xi32>
  }
}
