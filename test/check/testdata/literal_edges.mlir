// Integer literals at the edges of their types, in lists and splats:
// 18446744073709551615 as ui64, -9223372036854775808 as i64, and the
// limits of the narrow types; arithmetic wraps and unsigned compares see
// them as unsigned. Expected values by hand (two's complement).
func.func @main() {
  %u = stablehlo.constant dense<[18446744073709551615, 0, 9223372036854775808]> : tensor<3xui64>
  %one = stablehlo.constant dense<1> : tensor<3xui64>
  %0 = stablehlo.add %u, %one : tensor<3xui64>
  check.expect_eq_const %0, dense<[0, 1, 9223372036854775809]> : tensor<3xui64>
  %1 = stablehlo.compare GT, %u, %one, UNSIGNED : (tensor<3xui64>, tensor<3xui64>) -> tensor<3xi1>
  check.expect_eq_const %1, dense<[true, false, true]> : tensor<3xi1>
  %s = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %m = stablehlo.constant dense<-1> : tensor<2xi64>
  %2 = stablehlo.add %s, %m : tensor<2xi64>
  check.expect_eq_const %2, dense<[9223372036854775807, 9223372036854775806]> : tensor<2xi64>
  %3 = stablehlo.bitcast_convert %u : (tensor<3xui64>) -> tensor<3xi64>
  check.expect_eq_const %3, dense<[-1, 0, -9223372036854775808]> : tensor<3xi64>
  %b = stablehlo.constant dense<[-128, 127]> : tensor<2xi8>
  %ub = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
  %4 = stablehlo.bitcast_convert %b : (tensor<2xi8>) -> tensor<2xui8>
  check.expect_eq_const %4, dense<[128, 127]> : tensor<2xui8>
  %5 = stablehlo.convert %ub : (tensor<2xui8>) -> tensor<2xi32>
  check.expect_eq_const %5, dense<[255, 0]> : tensor<2xi32>
  %h = stablehlo.constant dense<[-32768, 32767]> : tensor<2xi16>
  %6 = stablehlo.negate %h : tensor<2xi16>
  check.expect_eq_const %6, dense<[-32768, -32767]> : tensor<2xi16>
  %w = stablehlo.constant dense<4294967295> : tensor<2xui32>
  %7 = stablehlo.convert %w : (tensor<2xui32>) -> tensor<2xui64>
  check.expect_eq_const %7, dense<4294967295> : tensor<2xui64>
  return
}
