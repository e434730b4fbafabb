// chlo.bessel_i1e: e^-|x|·I1(x), the exponentially scaled modified Bessel
// function of order 1 (odd; 0 at 0 and at ±inf), on f64 and f32, across
// the switch from the power series to the asymptotic series at |x| = 20.
// Expected values: mpmath at 40 digits, rounded to the type (f64 within
// 4 ULP: the series sum 70 products; f32 within 1).
func.func @main() {
  %x = stablehlo.constant dense<[0.0, -0.0, 0.5, -1.0, 2.5, 10.0, 19.5, 20.5, -35.0, 100.0, 1e-05, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<13xf64>
  %0 = chlo.bessel_i1e %x : tensor<13xf64> -> tensor<13xf64>
  %e = stablehlo.constant dense<[0.0, 0.0, 0.1564208031848717, -0.20791041534970844, 0.20658464953126657, 0.12126268138445552, 0.08857608609431485, 0.08647411349408725, -0.06670443172949143, 0.03974415302513025, 4.999950000312499e-06, 0.0, 0x7FF8000000000000]> : tensor<13xf64>
  check.expect_close %0, %e, max_ulp_difference = 4 : tensor<13xf64>, tensor<13xf64>
  %y = stablehlo.constant dense<[0.0, -0.0, 0.5, -1.0, 2.5, 10.0, 19.5, 20.5, -35.0, 100.0, 1e-05]> : tensor<11xf32>
  %1 = chlo.bessel_i1e %y : tensor<11xf32> -> tensor<11xf32>
  %g = stablehlo.constant dense<[0.0, 0.0, 0.15642079710960388, -0.207910418510437, 0.2065846472978592, 0.12126268446445465, 0.08857608586549759, 0.08647411316633224, -0.06670442968606949, 0.03974415361881256, 4.999949851480778e-06]> : tensor<11xf32>
  check.expect_close %1, %g, max_ulp_difference = 1 : tensor<11xf32>, tensor<11xf32>
  return
}
