// Mixed-precision dot_general and convolution: operands of a narrower
// type than the result (i8 × i8 → i32, ui8 × ui8 → ui32, bf16 × bf16 →
// f32, f32 × f32 → f64, real × complex) are converted exactly to the
// result type, then multiplied and summed in it. Expected values by hand
// and numpy (float64 arithmetic on the float32 values).
func.func @main() {
  %a = stablehlo.constant dense<[[100, -100], [3, 4]]> : tensor<2x2xi8>
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>
  check.expect_eq_const %0, dense<[[9700, -10400], [312, -284]]> : tensor<2x2xi32>
  %u = stablehlo.constant dense<[[255, 255]]> : tensor<1x2xui8>
  %ut = stablehlo.constant dense<[[255], [255]]> : tensor<2x1xui8>
  %1 = stablehlo.dot_general %u, %ut, contracting_dims = [1] x [0] : (tensor<1x2xui8>, tensor<2x1xui8>) -> tensor<1x1xui32>
  check.expect_eq_const %1, dense<[[130050]]> : tensor<1x1xui32>
  %h = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xbf16>
  %h2 = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xbf16>
  %2 = stablehlo.dot_general %h, %h2, contracting_dims = [0] x [0] : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<f32>
  check.expect_eq_const %2, dense<13.0> : tensor<f32>
  %f = stablehlo.constant dense<[0.100000001, 3.0]> : tensor<2xf32>
  %g = stablehlo.constant dense<[0.100000001, 1.0]> : tensor<2xf32>
  %3 = stablehlo.dot_general %f, %g, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f64>
  check.expect_eq_const %3, dense<3.0100000002980232> : tensor<f64>
  %r = stablehlo.constant dense<[1.5, 2.0]> : tensor<2xf32>
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -1.0)]> : tensor<2xcomplex<f32>>
  %4 = stablehlo.dot_general %r, %c, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2xcomplex<f32>>) -> tensor<complex<f32>>
  check.expect_eq_const %4, dense<(7.5, 1.0)> : tensor<complex<f32>>
  %x = stablehlo.constant dense<[[[100, 100, 100, 100]]]> : tensor<1x1x4xi8>
  %w = stablehlo.constant dense<[[[100]], [[-100]]]> : tensor<2x1x1xi8>
  %5 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[0, i, o]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x4xi8>, tensor<2x1x1xi8>) -> tensor<1x1x3xi32>
  check.expect_eq_const %5, dense<0> : tensor<1x1x3xi32>
  %w2 = stablehlo.constant dense<[[[100]], [[100]]]> : tensor<2x1x1xi8>
  %6 = stablehlo.convolution(%x, %w2) dim_numbers = [b, f, 0]x[0, i, o]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x4xi8>, tensor<2x1x1xi8>) -> tensor<1x1x3xi32>
  check.expect_eq_const %6, dense<20000> : tensor<1x1x3xi32>
  return
}
