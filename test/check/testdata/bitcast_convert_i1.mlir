// stablehlo.bitcast_convert between i1 and wider types, as the spec's
// shape rule allows (num_bits(i1) = 1): an N-bit element is N i1
// elements along a new last dimension, bit j (least significant first,
// the reference interpreter's order) at index j, and back. Expected
// values by hand.
func.func @main() {
  %x = stablehlo.constant dense<[5, -128]> : tensor<2xi8>
  %0 = stablehlo.bitcast_convert %x : (tensor<2xi8>) -> tensor<2x8xi1>
  check.expect_eq_const %0, dense<[[true, false, true, false, false, false, false, false], [false, false, false, false, false, false, false, true]]> : tensor<2x8xi1>
  %1 = stablehlo.bitcast_convert %0 : (tensor<2x8xi1>) -> tensor<2xi8>
  check.expect_eq_const %1, dense<[5, -128]> : tensor<2xi8>
  %u = stablehlo.constant dense<40961> : tensor<ui16>
  %2 = stablehlo.bitcast_convert %u : (tensor<ui16>) -> tensor<16xi1>
  check.expect_eq_const %2, dense<[true, false, false, false, false, false, false, false, false, false, false, false, false, true, false, true]> : tensor<16xi1>
  %f = stablehlo.constant dense<[-2.0]> : tensor<1xf32>
  %3 = stablehlo.bitcast_convert %f : (tensor<1xf32>) -> tensor<1x32xi1>
  %4 = stablehlo.bitcast_convert %3 : (tensor<1x32xi1>) -> tensor<1xf32>
  check.expect_eq_const %4, dense<[-2.0]> : tensor<1xf32>
  %5 = stablehlo.slice %3 [0:1, 30:32] : (tensor<1x32xi1>) -> tensor<1x2xi1>
  check.expect_eq_const %5, dense<[[true, true]]> : tensor<1x2xi1>
  %b = stablehlo.constant dense<[true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true]> : tensor<64xi1>
  %6 = stablehlo.bitcast_convert %b : (tensor<64xi1>) -> tensor<i64>
  check.expect_eq_const %6, dense<-9223372036854775805> : tensor<i64>
  return
}
