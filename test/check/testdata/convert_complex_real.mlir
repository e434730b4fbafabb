// stablehlo.convert from complex to real, integer and i1 types: the spec
// takes the real part (the imaginary part is dropped), then converts it
// as a real value (floats round to nearest even, float → integer
// truncates toward zero and saturates, NaN → 0; to i1: the real part is
// not zero). Expected values by hand and numpy (float32 rounding).
func.func @main() {
  %a = stablehlo.constant dense<[(1.5, 2.0), (-2.5, 1.0), (0.0, 7.0), (3.0e+10, -1.0), (0x7FC00000, 0.0), (-1.0e+10, 5.0)]> : tensor<6xcomplex<f32>>
  %0 = stablehlo.convert %a : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  check.expect_eq_const %0, dense<[1.5, -2.5, 0.0, 3.0e+10, 0x7FC00000, -1.0e+10]> : tensor<6xf32>
  %1 = stablehlo.convert %a : (tensor<6xcomplex<f32>>) -> tensor<6xi32>
  check.expect_eq_const %1, dense<[1, -2, 0, 2147483647, 0, -2147483648]> : tensor<6xi32>
  %2 = stablehlo.convert %a : (tensor<6xcomplex<f32>>) -> tensor<6xf64>
  check.expect_eq_const %2, dense<[1.5, -2.5, 0.0, 30000001024.0, 0x7FF8000000000000, -1.0e+10]> : tensor<6xf64>
  %3 = stablehlo.convert %a : (tensor<6xcomplex<f32>>) -> tensor<6xi1>
  check.expect_eq_const %3, dense<[true, true, false, true, true, true]> : tensor<6xi1>
  %b = stablehlo.constant dense<[(0.1, 9.0), (300.75, -1.0), (-0.0, 1.0)]> : tensor<3xcomplex<f64>>
  %4 = stablehlo.convert %b : (tensor<3xcomplex<f64>>) -> tensor<3xf32>
  check.expect_eq_const %4, dense<[0.100000001, 300.75, -0.0]> : tensor<3xf32>
  %5 = stablehlo.convert %b : (tensor<3xcomplex<f64>>) -> tensor<3xui8>
  check.expect_eq_const %5, dense<[0, 255, 0]> : tensor<3xui8>
  %6 = stablehlo.convert %b : (tensor<3xcomplex<f64>>) -> tensor<3xbf16>
  check.expect_eq_const %6, dense<[1.000980e-01, 3.000000e+02, -0.0]> : tensor<3xbf16>
  return
}
