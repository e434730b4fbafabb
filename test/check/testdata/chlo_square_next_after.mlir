// chlo.square (x·x rounded once; complex as stablehlo.multiply) and
// chlo.next_after in its two-operand pretty form (`%x, %y : A, B -> C`):
// the neighbor of x towards y, y itself when they are equal, NaN when
// either is NaN, the smallest subnormal from ±0. Expected values by hand
// (IEEE float32/float64 bit patterns).
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, -3.0, 0.0, 0x7FC00000, 0x7F7FFFFF]> : tensor<6xf32>
  %y = stablehlo.constant dense<[2.0, 2.0, 0.0, -1.0, 1.0, 0x7F800000]> : tensor<6xf32>
  %0 = chlo.next_after %x, %y : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  check.expect_eq_const %0, dense<[1.00000012, 2.0, -2.99999976, -1.40129846e-45, 0x7FC00000, 0x7F800000]> : tensor<6xf32>
  %d = stablehlo.constant dense<[1.0, 0.0]> : tensor<2xf64>
  %e = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf64>
  %1 = chlo.next_after %d, %e : tensor<2xf64>, tensor<2xf64> -> tensor<2xf64>
  check.expect_eq_const %1, dense<[0.99999999999999989, 4.9406564584124654e-324]> : tensor<2xf64>
  %2 = chlo.square %x : tensor<6xf32> -> tensor<6xf32>
  check.expect_eq_const %2, dense<[1.0, 4.0, 9.0, 0.0, 0x7FC00000, 0x7F800000]> : tensor<6xf32>
  %h = stablehlo.constant dense<[1.5, -300.0]> : tensor<2xf16>
  %3 = chlo.square %h : tensor<2xf16> -> tensor<2xf16>
  check.expect_eq_const %3, dense<[2.25, 0x7C00]> : tensor<2xf16>
  %c = stablehlo.constant dense<[(1.0, 2.0), (0.5, -0.5)]> : tensor<2xcomplex<f32>>
  %4 = chlo.square %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  check.expect_eq_const %4, dense<[(-3.0, 4.0), (0.0, -0.5)]> : tensor<2xcomplex<f32>>
  return
}
