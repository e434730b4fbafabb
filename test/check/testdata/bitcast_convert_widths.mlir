// stablehlo.bitcast_convert: the same bits as another type of the same
// width, and across widths (a trailing dimension appears or goes; the
// low-order part comes first, as in memory on little-endian machines).
func.func @main() {
  %f = stablehlo.constant dense<[1.0, -2.0, 0x7FC00000]> : tensor<3xf32>
  %0 = stablehlo.bitcast_convert %f : (tensor<3xf32>) -> tensor<3xi32>
  check.expect_eq_const %0, dense<[1065353216, -1073741824, 2143289344]> : tensor<3xi32>
  %i = stablehlo.constant dense<1078530011> : tensor<i32>
  %1 = stablehlo.bitcast_convert %i : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %1, dense<3.14159274> : tensor<f32>
  %d = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf64>
  %2 = stablehlo.bitcast_convert %d : (tensor<2xf64>) -> tensor<2x2xi32>
  check.expect_eq_const %2, dense<[[0, 1072693248], [0, -1073741824]]> : tensor<2x2xi32>
  %3 = stablehlo.bitcast_convert %2 : (tensor<2x2xi32>) -> tensor<2xf64>
  check.expect_eq_const %3, dense<[1.0, -2.0]> : tensor<2xf64>
  %4 = stablehlo.bitcast_convert %d : (tensor<2xf64>) -> tensor<2xui64>
  check.expect_eq_const %4, dense<[4607182418800017408, 13835058055282163712]> : tensor<2xui64>
  %b = stablehlo.constant dense<[[1, 0, 0, 0], [255, 255, 255, 127]]> : tensor<2x4xui8>
  %5 = stablehlo.bitcast_convert %b : (tensor<2x4xui8>) -> tensor<2xi32>
  check.expect_eq_const %5, dense<[1, 2147483647]> : tensor<2xi32>
  %h = stablehlo.constant dense<[1.0, -5.0e-01]> : tensor<2xf16>
  %6 = stablehlo.bitcast_convert %h : (tensor<2xf16>) -> tensor<2xi16>
  check.expect_eq_const %6, dense<[15360, -18432]> : tensor<2xi16>
  return
}
