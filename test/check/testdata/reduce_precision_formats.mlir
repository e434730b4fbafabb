// stablehlo.reduce_precision: round the mantissa to nearest even, then
// flush what is below the reduced format's smallest normal number to ±0
// (the reduced format has no subnormals) and what is beyond its largest
// to ±Inf. Expected values: numpy's float16 and hand-rounded bfloat16,
// except for the flushed subnormal.
func.func @main() {
  %x = stablehlo.constant dense<[1.0001, 0.1, 65519.0, 65520.0, 1.0e-05, 1.0e+05, -2.5, 6.2e-05]> : tensor<8xf32>
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<8xf32>
  check.expect_eq_const %0, dense<[1.0, 0.0999755859375, 65504.0, 0x7F800000, 0.0, 0x7F800000, -2.5, 6.198883056640625e-05]> : tensor<8xf32>
  %y = stablehlo.constant dense<[1.00390625, 1.01171875, 3.0e+38, -0.3]> : tensor<4xf32>
  %1 = stablehlo.reduce_precision %y, format = e8m7 : tensor<4xf32>
  check.expect_eq_const %1, dense<[1.0, 1.015625, 3.00405527047391e+38, -0.30078125]> : tensor<4xf32>
  %n = stablehlo.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<3xf32>
  %2 = stablehlo.reduce_precision %n, format = e5m10 : tensor<3xf32>
  check.expect_almost_eq_const %2, dense<[0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<3xf32>
  %d = stablehlo.constant dense<[0.1, 1.0e-300, 3.5e+38, 1.0e-40]> : tensor<4xf64>
  %3 = stablehlo.reduce_precision %d, format = e8m23 : tensor<4xf64>
  check.expect_eq_const %3, dense<[0.10000000149011612, 0.0, 0x7FF0000000000000, 0.0]> : tensor<4xf64>
  %4 = stablehlo.reduce_precision %d, format = e11m52 : tensor<4xf64>
  check.expect_eq_const %4, dense<[0.1, 1.0e-300, 3.5e+38, 1.0e-40]> : tensor<4xf64>
  return
}
