// chlo.mulhi: the high half of the double-width product, signed for the
// signless (signed) integers and unsigned for ui types. Expected values by
// hand (Python integers: (a*b) >> width).
func.func @main() {
  %a = stablehlo.constant dense<[2147483647, -1, 65536, -2147483648, 7]> : tensor<5xi32>
  %b = stablehlo.constant dense<[2, 1, 65536, -2147483648, -3]> : tensor<5xi32>
  %0 = chlo.mulhi %a, %b : tensor<5xi32>, tensor<5xi32> -> tensor<5xi32>
  check.expect_eq_const %0, dense<[0, -1, 1, 1073741824, -1]> : tensor<5xi32>
  %u = stablehlo.constant dense<[4294967295, 65536, 3]> : tensor<3xui32>
  %1 = chlo.mulhi %u, %u : tensor<3xui32>, tensor<3xui32> -> tensor<3xui32>
  check.expect_eq_const %1, dense<[4294967294, 1, 0]> : tensor<3xui32>
  %l = stablehlo.constant dense<[4611686018427387904, -9223372036854775808]> : tensor<2xi64>
  %f = stablehlo.constant dense<[4, -1]> : tensor<2xi64>
  %2 = chlo.mulhi %l, %f : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  check.expect_eq_const %2, dense<[1, 0]> : tensor<2xi64>
  %s = stablehlo.constant dense<[-128, 100]> : tensor<2xi8>
  %3 = chlo.mulhi %s, %s : tensor<2xi8>, tensor<2xi8> -> tensor<2xi8>
  check.expect_eq_const %3, dense<[64, 39]> : tensor<2xi8>
  return
}
