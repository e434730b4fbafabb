// chlo.zeta (the Hurwitz zeta function ζ(x, q) = Σ (q+n)^-x) and
// chlo.polygamma (ψ⁽ⁿ⁾(x): digamma for n = 0, (-1)^(n+1)·n!·ζ(n+1, x),
// NaN for a non-integer or negative n), with their broadcasting forms,
// on f64 and f32: the poles (x = 1; q = 0, -3: +∞), the domain (x < 1:
// NaN), large and tiny q, and (the last two elements, checked apart) a
// negative non-integer q with an integer x: shifted up term by term, the
// sum cancels (ζ(3, -1.5) = 0.118 = -8.296 + 8.414), so those get 256
// ULP.
// Expected values: mpmath at 40 digits rounded to the type, the special
// cases as scipy.special (Cephes) defines them. Also chlo.conj on complex
// and chlo.broadcast_complex, by hand.
func.func @main() {
  %zx = stablehlo.constant dense<[2.0, 2.0, 3.0, 1.5, 4.0, 10.0, 2.0, 1.0, 0.5, 2.0, 30.0, 2.0, 2.0, 6.0, 3.0]> : tensor<15xf64>
  %zq = stablehlo.constant dense<[1.0, 0.5, 2.0, 3.0, 0.001, 1.0, 100.0, 2.0, 2.0, 0.0, 1.5, 10000000000.0, -3.0, -7.25, -1.5]> : tensor<15xf64>
  %z = chlo.zeta %zx, %zq : tensor<15xf64>, tensor<15xf64> -> tensor<15xf64>
  %ze = stablehlo.constant dense<[1.6449340668482264, 4.934802200544679, 0.2020569031595943, 1.2588219580922146, 1000000000001.0781, 1.000994575127818, 0.010050166663333571, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 5.215096203815732e-06, 1.00000000005e-10, 0x7FF0000000000000, 4101.927218912731, 0.1181020258208637]> : tensor<15xf64>
  %zh = stablehlo.slice %z [0:13] : (tensor<15xf64>) -> tensor<13xf64>
  %zeh = stablehlo.slice %ze [0:13] : (tensor<15xf64>) -> tensor<13xf64>
  check.expect_close %zh, %zeh, max_ulp_difference = 8 : tensor<13xf64>, tensor<13xf64>
  %zt = stablehlo.slice %z [13:15] : (tensor<15xf64>) -> tensor<2xf64>
  %zet = stablehlo.slice %ze [13:15] : (tensor<15xf64>) -> tensor<2xf64>
  check.expect_close %zt, %zet, max_ulp_difference = 256 : tensor<2xf64>, tensor<2xf64>
  %zx32 = stablehlo.convert %zx : (tensor<15xf64>) -> tensor<15xf32>
  %zq32 = stablehlo.convert %zq : (tensor<15xf64>) -> tensor<15xf32>
  %z32 = chlo.zeta %zx32, %zq32 : tensor<15xf32>, tensor<15xf32> -> tensor<15xf32>
  %ze32 = stablehlo.constant dense<[1.644934058189392, 4.934802055358887, 0.2020568996667862, 1.258821964263916, 999999799296.0, 1.0009945631027222, 0.01005016639828682, 0x7F800000, 0x7FC00000, 0x7F800000, 5.215096280153375e-06, 1.000000013351432e-10, 0x7F800000, 4101.92724609375, 0.11810202896595001]> : tensor<15xf32>
  check.expect_close %z32, %ze32, max_ulp_difference = 1 : tensor<15xf32>, tensor<15xf32>
  %pn = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 1.0, 1.0, 4.0, 1.5, -1.0, 2.0, 0.0, 1.0]> : tensor<12xf64>
  %px = stablehlo.constant dense<[1.0, 1.0, 0.5, 2.5, -0.5, 10.0, 3.0, 1.0, 1.0, 100.0, -2.5, 0.0]> : tensor<12xf64>
  %p = chlo.polygamma %pn, %px : tensor<12xf64>, tensor<12xf64> -> tensor<12xf64>
  %pe = stablehlo.constant dense<[-0.5772156649015329, 1.6449340668482264, -16.82879664423432, 0.22390584881725206, 8.934802200544679, 0.10516633568168575, -0.13626612344087824, 0x7FF8000000000000, 0x7FF8000000000000, -0.00010100499983335, 1.103156640645243, 0x7FF0000000000000]> : tensor<12xf64>
  check.expect_close %p, %pe, max_ulp_difference = 8 : tensor<12xf64>, tensor<12xf64>
  %pn32 = stablehlo.convert %pn : (tensor<12xf64>) -> tensor<12xf32>
  %px32 = stablehlo.convert %px : (tensor<12xf64>) -> tensor<12xf32>
  %p32 = chlo.polygamma %pn32, %px32 : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>
  %pe32 = stablehlo.constant dense<[-0.5772156715393066, 1.644934058189392, -16.82879638671875, 0.22390584647655487, 8.934802055358887, 0.10516633838415146, -0.13626612722873688, 0x7FC00000, 0x7FC00000, -0.00010100499639520422, 1.1031566858291626, 0x7F800000]> : tensor<12xf32>
  check.expect_close %p32, %pe32, max_ulp_difference = 1 : tensor<12xf32>, tensor<12xf32>
  %two = stablehlo.constant dense<2.0> : tensor<f64>
  %qs = stablehlo.constant dense<[1.0, 0.5]> : tensor<2xf64>
  %bz = chlo.broadcast_zeta %two, %qs : (tensor<f64>, tensor<2xf64>) -> tensor<2xf64>
  %bze = stablehlo.constant dense<[1.6449340668482264, 4.934802200544679]> : tensor<2xf64>
  check.expect_close %bz, %bze, max_ulp_difference = 8 : tensor<2xf64>, tensor<2xf64>
  %ns = stablehlo.constant dense<[[0.0], [1.0]]> : tensor<2x1xf64>
  %one = stablehlo.constant dense<[1.0]> : tensor<1xf64>
  %bp = chlo.broadcast_polygamma %ns, %one : (tensor<2x1xf64>, tensor<1xf64>) -> tensor<2x1xf64>
  %bpe = stablehlo.constant dense<[[-0.5772156649015329], [1.6449340668482264]]> : tensor<2x1xf64>
  check.expect_close %bp, %bpe, max_ulp_difference = 8 : tensor<2x1xf64>, tensor<2x1xf64>
  %c = stablehlo.constant dense<[(1.5, -2.0), (-0.0, 0.0), (3.0, 0x7F800000)]> : tensor<3xcomplex<f32>>
  %cj = chlo.conj %c : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  check.expect_eq_const %cj, dense<[(1.5, 2.0), (-0.0, -0.0), (3.0, 0xFF800000)]> : tensor<3xcomplex<f32>>
  %re = stablehlo.constant dense<[[1.0, -2.0], [0.5, 4.0]]> : tensor<2x2xf64>
  %im = stablehlo.constant dense<[3.0, -1.0]> : tensor<2xf64>
  %bc = chlo.broadcast_complex %re, %im : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xcomplex<f64>>
  check.expect_eq_const %bc, dense<[[(1.0, 3.0), (-2.0, -1.0)], [(0.5, 3.0), (4.0, -1.0)]]> : tensor<2x2xcomplex<f64>>
  return
}
