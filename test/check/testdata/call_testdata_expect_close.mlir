// The newer testdata layout: @main returns nothing and checks with
// custom_call @check.expect_close (0 to 3 ULP) and @check.expect_almost_eq
// (absolute 1e-3). Here: tanh of f64 inputs.
module @jit_testcase attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() {
    %0 = call @inputs() : () -> tensor<5xf64>
    %1 = call @expected() : () -> tensor<5xf64>
    %2 = stablehlo.tanh %0 : tensor<5xf64>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<5xf64>, tensor<5xf64>) -> ()
    stablehlo.custom_call @check.expect_almost_eq(%2, %1) {has_side_effect = true} : (tensor<5xf64>, tensor<5xf64>) -> ()
    return
  }
  func.func private @inputs() -> (tensor<5xf64> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-2.000000e+00, -5.000000e-01, 1.000000e-01, 1.000000e+00, 4.000000e+00]> : tensor<5xf64>
    return %cst : tensor<5xf64>
  }
  func.func private @expected() -> (tensor<5xf64> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[-0.9640275800758169, -0.46211715726000974, 0.09966799462495582, 0.7615941559557649, 0.999329299739067]> : tensor<5xf64>
    return %cst : tensor<5xf64>
  }
}
