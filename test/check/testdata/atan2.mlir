// stablehlo.atan2(y, x) on f32 and f64: the angle of (x, y) in (-pi, pi].
// The signs of zeros pick the quadrant: atan2(+0, -0) = pi, atan2(-0, -0) = -pi,
// atan2(-0, +0) = -0. Values within a few ULP of the correctly rounded result.
func.func @main() {
  %cst = stablehlo.constant dense<[1.0e+00, 1.0e+00, -1.0e+00, -1.0e+00, 2.0e+00, 1.0e-03, 3.0e+00]> : tensor<7xf32>
  %cst_0 = stablehlo.constant dense<[1.0e+00, -1.0e+00, -1.0e+00, 1.0e+00, 5.0e-01, 5.0e+00, -1.0e-03]> : tensor<7xf32>
  %0 = stablehlo.atan2 %cst, %cst_0 : tensor<7xf32>
  %cst_1 = stablehlo.constant dense<[7.853982e-01, 2.3561945e+00, -2.3561945e+00, -7.853982e-01, 1.3258177e+00, 2.0000001e-04, 1.5711297e+00]> : tensor<7xf32>
  check.expect_close %0, %cst_1, max_ulp_difference = 4 : tensor<7xf32>, tensor<7xf32>
  // Axes, zeros and infinities: exactly the rounded multiples of pi/4.
  %cst_2 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 1.0e+00, -1.0e+00, 0x7F800000, 1.0e+00, 1.0e+00, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<16xf32>
  %cst_3 = stablehlo.constant dense<[1.0e+00, 1.0e+00, -1.0e+00, -1.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, -0.000000e+00, 0.000000e+00, 0.000000e+00, 1.0e+00, 0x7F800000, 0xFF800000, 0x7F800000, 0xFF800000, 1.0e+00]> : tensor<16xf32>
  %1 = stablehlo.atan2 %cst_2, %cst_3 : tensor<16xf32>
  check.expect_eq_const %1, dense<[0.000000e+00, -0.000000e+00, 3.1415927e+00, -3.1415927e+00, 0.000000e+00, -0.000000e+00, 3.1415927e+00, -3.1415927e+00, 1.5707964e+00, -1.5707964e+00, 1.5707964e+00, 0.000000e+00, 3.1415927e+00, 7.853982e-01, -2.3561945e+00, 0x7FC00000]> : tensor<16xf32>
  // The zeros again: 1/x tells -0 from +0.
  %cst_4 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 1.0e+00]> : tensor<5xf32>
  %cst_5 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 0.000000e+00, 0.000000e+00, 0x7F800000]> : tensor<5xf32>
  %2 = stablehlo.atan2 %cst_4, %cst_5 : tensor<5xf32>
  %cst_6 = stablehlo.constant dense<1.0e+00> : tensor<5xf32>
  %3 = stablehlo.divide %cst_6, %2 : tensor<5xf32>
  check.expect_eq_const %3, dense<[0x7F800000, 0xFF800000, 0x7F800000, 0xFF800000, 0x7F800000]> : tensor<5xf32>
  %cst_7 = stablehlo.constant dense<[1.0e+00, 1.0e+00, -1.0e+00, -1.0e+00, 2.0e+00, 1.0e-03, 3.0e+00]> : tensor<7xf64>
  %cst_8 = stablehlo.constant dense<[1.0e+00, -1.0e+00, -1.0e+00, 1.0e+00, 5.0e-01, 5.0e+00, -1.0e-03]> : tensor<7xf64>
  %4 = stablehlo.atan2 %cst_7, %cst_8 : tensor<7xf64>
  %cst_9 = stablehlo.constant dense<[7.853981633974483e-01, 2.356194490192345e+00, -2.356194490192345e+00, -7.853981633974483e-01, 1.3258176636680326e+00, 1.999999973333334e-04, 1.5711296601158842e+00]> : tensor<7xf64>
  check.expect_close %4, %cst_9, max_ulp_difference = 2 : tensor<7xf64>, tensor<7xf64>
  // Axes, zeros and infinities: exactly the rounded multiples of pi/4.
  %cst_10 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 1.0e+00, -1.0e+00, 0x7FF0000000000000, 1.0e+00, 1.0e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<16xf64>
  %cst_11 = stablehlo.constant dense<[1.0e+00, 1.0e+00, -1.0e+00, -1.0e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, -0.000000e+00, 0.000000e+00, 0.000000e+00, 1.0e+00, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 1.0e+00]> : tensor<16xf64>
  %5 = stablehlo.atan2 %cst_10, %cst_11 : tensor<16xf64>
  check.expect_eq_const %5, dense<[0.000000e+00, -0.000000e+00, 3.141592653589793e+00, -3.141592653589793e+00, 0.000000e+00, -0.000000e+00, 3.141592653589793e+00, -3.141592653589793e+00, 1.5707963267948966e+00, -1.5707963267948966e+00, 1.5707963267948966e+00, 0.000000e+00, 3.141592653589793e+00, 7.853981633974483e-01, -2.356194490192345e+00, 0x7FF8000000000000]> : tensor<16xf64>
  // The zeros again: 1/x tells -0 from +0.
  %cst_12 = stablehlo.constant dense<[0.000000e+00, -0.000000e+00, 0.000000e+00, -0.000000e+00, 1.0e+00]> : tensor<5xf64>
  %cst_13 = stablehlo.constant dense<[1.0e+00, 1.0e+00, 0.000000e+00, 0.000000e+00, 0x7FF0000000000000]> : tensor<5xf64>
  %6 = stablehlo.atan2 %cst_12, %cst_13 : tensor<5xf64>
  %cst_14 = stablehlo.constant dense<1.0e+00> : tensor<5xf64>
  %7 = stablehlo.divide %cst_14, %6 : tensor<5xf64>
  check.expect_eq_const %7, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000]> : tensor<5xf64>
  return
}
