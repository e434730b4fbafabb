// chlo.sinh, chlo.cosh and chlo.tan on complex numbers: sinh(a+ib) =
// sinh a·cos b + i·cosh a·sin b, cosh(a+ib) = cosh a·cos b + i·sinh a·sin b,
// tan as stablehlo.tan; a zero imaginary part stays an exact zero (cosh of
// ∞ + 0i is ∞ + 0i). Expected values: numpy in complex128 (rounded to
// complex64 for the complex<f32> results); within 4 ULP per part.
func.func @main() {
  %z = stablehlo.constant dense<[(0.5, 0.25), (-1.5, 2.0), (3.0, -0.75), (0.0, 1.0), (-2.0, 0.0)]> : tensor<5xcomplex<f64>>
  %w = stablehlo.constant dense<[(0.5, 0.25), (-1.5, 2.0), (3.0, -0.75), (0.0, 1.0), (-2.0, 0.0)]> : tensor<5xcomplex<f32>>
  %r0 = chlo.sinh %z : tensor<5xcomplex<f64>> -> tensor<5xcomplex<f64>>
  %e0 = stablehlo.constant dense<[(0.504895714387995, 0.2789791283502615), (0.8860929093625314, 2.139040009980677), (7.329967574155963, -6.862508639136001), (0.0, 0.8414709848078965), (-3.626860407847019, 0.0)]> : tensor<5xcomplex<f64>>
  check.expect_close %r0, %e0, max_ulp_difference = 4 : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>
  %r1 = chlo.sinh %w : tensor<5xcomplex<f32>> -> tensor<5xcomplex<f32>>
  %e1 = stablehlo.constant dense<[(0.5048956871032715, 0.2789791226387024), (0.8860929012298584, 2.139039993286133), (7.329967498779297, -6.862508773803711), (0.0, 0.8414709568023682), (-3.6268603801727295, 0.0)]> : tensor<5xcomplex<f32>>
  check.expect_close %r1, %e1, max_ulp_difference = 4 : tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>
  %r2 = chlo.cosh %z : tensor<5xcomplex<f64>> -> tensor<5xcomplex<f64>>
  %e2 = stablehlo.constant dense<[(1.0925708047319176, 0.12892104172809826), (-0.9789478196465577, -1.936148329510507), (7.366396217894588, -6.828571843588534), (0.5403023058681398, 0.0), (3.7621956910836314, -0.0)]> : tensor<5xcomplex<f64>>
  check.expect_close %r2, %e2, max_ulp_difference = 4 : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>
  %r3 = chlo.cosh %w : tensor<5xcomplex<f32>> -> tensor<5xcomplex<f32>>
  %e3 = stablehlo.constant dense<[(1.0925707817077637, 0.1289210468530655), (-0.9789478182792664, -1.9361482858657837), (7.366396427154541, -6.828571796417236), (0.5403022766113281, 0.0), (3.762195587158203, -0.0)]> : tensor<5xcomplex<f32>>
  check.expect_close %r3, %e3, max_ulp_difference = 4 : tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>
  %r4 = chlo.tan %z : tensor<5xcomplex<f64>> -> tensor<5xcomplex<f64>>
  %e4 = stablehlo.constant dense<[(0.504500702698564, 0.3124206925025888), (-0.0053620609220030565, 1.036920282100185), (-0.08434981388349302, -0.6427858400872474), (0.0, 0.7615941559557649), (2.185039863261519, 0.0)]> : tensor<5xcomplex<f64>>
  check.expect_close %r4, %e4, max_ulp_difference = 4 : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>
  %r5 = chlo.tan %w : tensor<5xcomplex<f32>> -> tensor<5xcomplex<f32>>
  %e5 = stablehlo.constant dense<[(0.504500687122345, 0.31242069602012634), (-0.0053620608523488045, 1.0369203090667725), (-0.08434981107711792, -0.6427858471870422), (0.0, 0.7615941762924194), (2.185039758682251, 0.0)]> : tensor<5xcomplex<f32>>
  check.expect_close %r5, %e5, max_ulp_difference = 4 : tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>
  %inf = stablehlo.constant dense<[(0x7FF0000000000000, 0.0), (0xFFF0000000000000, 0.0)]> : tensor<2xcomplex<f64>>
  %ci = chlo.cosh %inf : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  check.expect_eq_const %ci, dense<[(0x7FF0000000000000, 0.0), (0x7FF0000000000000, -0.0)]> : tensor<2xcomplex<f64>>
  return
}
