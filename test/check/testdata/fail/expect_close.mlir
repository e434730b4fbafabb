// ULP distances. 0.1 + 0.2 in f64 is 0.30000000000000004, one ULP above
// 0.3: max_ulp_difference = 0 fails, 1 passes. min_ulp_difference = 1 makes
// an exact result fail, and 4 ULP is beyond the 3 that custom_call
// @check.expect_close allows. -0 and +0 are 0 ULP apart; the smallest positive
// and negative subnormals are 2 apart (the distance is summed across zero).
// FAIL: 15: check.expect_close: element [0]: actual 0.30000000000000004, expected 0.3 (1 ULP, allowed [0, 0])
// FAIL: 18: check.expect_close: element [0]: actual 0.30000000000000004, expected 0.30000000000000004 (0 ULP, allowed [1, 2])
// FAIL: 21: check.expect_close: element [0]: actual 5e-324, expected -5e-324 (2 ULP, allowed [0, 1])
// FAIL: 23: custom_call @check.expect_close: element [0]: actual 0.30000000000000004, expected 0.30000000000000027 (4 ULP, allowed [0, 3])
func.func @main() {
  %cst = stablehlo.constant dense<[1.000000e-01, 5.000000e-01]> : tensor<2xf64>
  %cst_0 = stablehlo.constant dense<[2.000000e-01, 5.000000e-01]> : tensor<2xf64>
  %0 = stablehlo.add %cst, %cst_0 : tensor<2xf64>
  %cst_1 = stablehlo.constant dense<[3.000000e-01, 1.000000e+00]> : tensor<2xf64>
  check.expect_close %0, %cst_1, max_ulp_difference = 0 : tensor<2xf64>, tensor<2xf64>
  check.expect_close %0, %cst_1, max_ulp_difference = 1 : tensor<2xf64>, tensor<2xf64>
  %cst_2 = stablehlo.constant dense<[0.30000000000000004, 1.000000e+00]> : tensor<2xf64>
  check.expect_close %0, %cst_2, max_ulp_difference = 2, min_ulp_difference = 1 : tensor<2xf64>, tensor<2xf64>
  %cst_3 = stablehlo.constant dense<[4.940660e-324, 0.000000e+00]> : tensor<2xf64>
  %cst_4 = stablehlo.constant dense<[-4.940660e-324, -0.000000e+00]> : tensor<2xf64>
  check.expect_close %cst_3, %cst_4, max_ulp_difference = 1 : tensor<2xf64>, tensor<2xf64>
  %cst_5 = stablehlo.constant dense<[0.30000000000000027, 1.000000e+00]> : tensor<2xf64>
  stablehlo.custom_call @check.expect_close(%0, %cst_5) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
  return
}
