// Complex exponential, log, log_plus_one and sqrt at the edges, as C99
// Annex G (G.6.3.1, G.6.3.2, G.6.4.2) defines them and StableHLO's spec
// follows: exp of an infinite imaginary part is NaN + NaN i, of ±∞ with a
// finite imaginary part ±0 or ±∞ times cis y (signs from cos y and sin y);
// log of ±0 is -∞ with the argument's signed zero or ±π, of an infinity
// +∞ with the quadrant's angle; sqrt of an infinite imaginary part is
// +∞ with that infinity, sqrt(-∞ ± yi) = 0 ± ∞i, the cut along the
// negative real axis sided by the sign of the zero. Finite operands near
// overflow and underflow (|z| beyond the largest float, exp(710 + 1.5i)
// whose modulus overflows but whose real part does not) must not
// overflow. Expected values: Annex G's for the special ones, mpmath at
// 3000 bits rounded once for the rest; within 2 ULP per part. The sign
// bit of every part is checked (a NaN part's is masked: it is unspecified).
func.func @main() {
  %x0 = stablehlo.constant dense<[(0.0, 0.0), (-0.0, -0.0), (2.0, -0.0), (0x7FF0000000000000, 0.0), (0x7FF0000000000000, -0.0), (0xFFF0000000000000, 1.0), (0xFFF0000000000000, -2.0), (0x7FF0000000000000, 1.0), (0x7FF0000000000000, 2.0), (0x7FF0000000000000, -3.0), (1.0, 0x7FF0000000000000), (0.0, 0xFFF0000000000000), (0x7FF8000000000000, 0.0), (0x7FF8000000000000, -0.0), (1.0, 0x7FF8000000000000), (710.0, 1.5), (0.5, 0.25), (-745.0, 1.0)]> : tensor<18xcomplex<f64>>
  %r0 = stablehlo.exponential %x0 : tensor<18xcomplex<f64>>
  %e0 = stablehlo.constant dense<[(1.0, 0.0), (1.0, -0.0), (7.38905609893065, -0.0), (0x7FF0000000000000, 0.0), (0x7FF0000000000000, -0.0), (0.0, 0.0), (-0.0, -0.0), (0x7FF0000000000000, 0x7FF0000000000000), (0xFFF0000000000000, 0x7FF0000000000000), (0xFFF0000000000000, 0xFFF0000000000000), (0x7FF8000000000000, 0x7FF8000000000000), (0x7FF8000000000000, 0x7FF8000000000000), (0x7FF8000000000000, 0.0), (0x7FF8000000000000, -0.0), (0x7FF8000000000000, 0x7FF8000000000000), (1.5802653829857376e+307, 0x7FF0000000000000), (1.5974665191199127, 0.40790017007835977), (0.0, 0.0)]> : tensor<18xcomplex<f64>>
  check.expect_close %r0, %e0, max_ulp_difference = 2 : tensor<18xcomplex<f64>>, tensor<18xcomplex<f64>>
  %pr0 = stablehlo.real %r0 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
  %pr0b = stablehlo.bitcast_convert %pr0 : (tensor<18xf64>) -> tensor<18xi64>
  %pr0k = stablehlo.constant dense<63> : tensor<18xi64>
  %pr0s = stablehlo.shift_right_logical %pr0b, %pr0k : tensor<18xi64>
  %pr0m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1]> : tensor<18xi64>
  %pr0a = stablehlo.and %pr0s, %pr0m : tensor<18xi64>
  check.expect_eq_const %pr0a, dense<[0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<18xi64>
  %pi0 = stablehlo.imag %r0 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
  %pi0b = stablehlo.bitcast_convert %pi0 : (tensor<18xf64>) -> tensor<18xi64>
  %pi0k = stablehlo.constant dense<63> : tensor<18xi64>
  %pi0s = stablehlo.shift_right_logical %pi0b, %pi0k : tensor<18xi64>
  %pi0m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1]> : tensor<18xi64>
  %pi0a = stablehlo.and %pi0s, %pi0m : tensor<18xi64>
  check.expect_eq_const %pi0a, dense<[0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]> : tensor<18xi64>
  %x1 = stablehlo.constant dense<[(0.0, 0.0), (-0.0, -0.0), (2.0, -0.0), (0x7F800000, 0.0), (0x7F800000, -0.0), (0xFF800000, 1.0), (0xFF800000, -2.0), (0x7F800000, 1.0), (0x7F800000, 2.0), (0x7F800000, -3.0), (1.0, 0x7F800000), (0.0, 0xFF800000), (0x7FC00000, 0.0), (0x7FC00000, -0.0), (1.0, 0x7FC00000), (89.0, 1.5), (0.5, 0.25), (-104.0, 1.0)]> : tensor<18xcomplex<f32>>
  %r1 = stablehlo.exponential %x1 : tensor<18xcomplex<f32>>
  %e1 = stablehlo.constant dense<[(1.0, 0.0), (1.0, -0.0), (7.389056205749512, -0.0), (0x7F800000, 0.0), (0x7F800000, -0.0), (0.0, 0.0), (-0.0, -0.0), (0x7F800000, 0x7F800000), (0xFF800000, 0x7F800000), (0xFF800000, 0xFF800000), (0x7FC00000, 0x7FC00000), (0x7FC00000, 0x7FC00000), (0x7FC00000, 0.0), (0x7FC00000, -0.0), (0x7FC00000, 0x7FC00000), (3.17582654105302e+37, 0x7F800000), (1.5974664688110352, 0.4079001843929291), (0.0, 0.0)]> : tensor<18xcomplex<f32>>
  check.expect_close %r1, %e1, max_ulp_difference = 2 : tensor<18xcomplex<f32>>, tensor<18xcomplex<f32>>
  %pr1 = stablehlo.real %r1 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
  %pr1b = stablehlo.bitcast_convert %pr1 : (tensor<18xf32>) -> tensor<18xi32>
  %pr1k = stablehlo.constant dense<31> : tensor<18xi32>
  %pr1s = stablehlo.shift_right_logical %pr1b, %pr1k : tensor<18xi32>
  %pr1m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1]> : tensor<18xi32>
  %pr1a = stablehlo.and %pr1s, %pr1m : tensor<18xi32>
  check.expect_eq_const %pr1a, dense<[0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<18xi32>
  %pi1 = stablehlo.imag %r1 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
  %pi1b = stablehlo.bitcast_convert %pi1 : (tensor<18xf32>) -> tensor<18xi32>
  %pi1k = stablehlo.constant dense<31> : tensor<18xi32>
  %pi1s = stablehlo.shift_right_logical %pi1b, %pi1k : tensor<18xi32>
  %pi1m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1]> : tensor<18xi32>
  %pi1a = stablehlo.and %pi1s, %pi1m : tensor<18xi32>
  check.expect_eq_const %pi1a, dense<[0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]> : tensor<18xi32>
  %x2 = stablehlo.constant dense<[(0.0, 0.0), (-0.0, 0.0), (-0.0, -0.0), (0.0, -0.0), (1.0, 0x7FF0000000000000), (-3.0, 0xFFF0000000000000), (0xFFF0000000000000, 2.0), (0xFFF0000000000000, -2.0), (0x7FF0000000000000, 2.0), (0x7FF0000000000000, -2.0), (0xFFF0000000000000, 0x7FF0000000000000), (0x7FF0000000000000, 0xFFF0000000000000), (0x7FF0000000000000, 0x7FF8000000000000), (0xFFF0000000000000, 0x7FF8000000000000), (0x7FF8000000000000, 0x7FF0000000000000), (0x7FF8000000000000, 1.0), (1e+308, 1e+308), (-1.5e+308, -1e+308), (1e-308, 1e-310), (-4.0, 0.0), (-4.0, -0.0), (1.0, 1e-10), (0.5, 0.25)]> : tensor<23xcomplex<f64>>
  %r2 = stablehlo.log %x2 : tensor<23xcomplex<f64>>
  %e2 = stablehlo.constant dense<[(0xFFF0000000000000, 0.0), (0xFFF0000000000000, 3.141592653589793), (0xFFF0000000000000, -3.141592653589793), (0xFFF0000000000000, -0.0), (0x7FF0000000000000, 1.5707963267948966), (0x7FF0000000000000, -1.5707963267948966), (0x7FF0000000000000, 3.141592653589793), (0x7FF0000000000000, -3.141592653589793), (0x7FF0000000000000, 0.0), (0x7FF0000000000000, -0.0), (0x7FF0000000000000, 2.356194490192345), (0x7FF0000000000000, -0.7853981633974483), (0x7FF0000000000000, 0x7FF8000000000000), (0x7FF0000000000000, 0x7FF8000000000000), (0x7FF0000000000000, 0x7FF8000000000000), (0x7FF8000000000000, 0x7FF8000000000000), (709.542782232446, 0.7853981633974483), (709.785536140337, -2.5535900500422257), (-709.196158644666, 0.009999666686665208), (1.3862943611198906, 3.141592653589793), (1.3862943611198906, -3.141592653589793), (5.0000000000000005e-21, 1e-10), (-0.5815754049028404, 0.4636476090008061)]> : tensor<23xcomplex<f64>>
  check.expect_close %r2, %e2, max_ulp_difference = 2 : tensor<23xcomplex<f64>>, tensor<23xcomplex<f64>>
  %pr2 = stablehlo.real %r2 : (tensor<23xcomplex<f64>>) -> tensor<23xf64>
  %pr2b = stablehlo.bitcast_convert %pr2 : (tensor<23xf64>) -> tensor<23xi64>
  %pr2k = stablehlo.constant dense<63> : tensor<23xi64>
  %pr2s = stablehlo.shift_right_logical %pr2b, %pr2k : tensor<23xi64>
  %pr2m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1]> : tensor<23xi64>
  %pr2a = stablehlo.and %pr2s, %pr2m : tensor<23xi64>
  check.expect_eq_const %pr2a, dense<[1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]> : tensor<23xi64>
  %pi2 = stablehlo.imag %r2 : (tensor<23xcomplex<f64>>) -> tensor<23xf64>
  %pi2b = stablehlo.bitcast_convert %pi2 : (tensor<23xf64>) -> tensor<23xi64>
  %pi2k = stablehlo.constant dense<63> : tensor<23xi64>
  %pi2s = stablehlo.shift_right_logical %pi2b, %pi2k : tensor<23xi64>
  %pi2m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]> : tensor<23xi64>
  %pi2a = stablehlo.and %pi2s, %pi2m : tensor<23xi64>
  check.expect_eq_const %pi2a, dense<[0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0]> : tensor<23xi64>
  %x3 = stablehlo.constant dense<[(0.0, 0.0), (-0.0, 0.0), (-0.0, -0.0), (0.0, -0.0), (1.0, 0x7F800000), (-3.0, 0xFF800000), (0xFF800000, 2.0), (0xFF800000, -2.0), (0x7F800000, 2.0), (0x7F800000, -2.0), (0xFF800000, 0x7F800000), (0x7F800000, 0xFF800000), (0x7F800000, 0x7FC00000), (0xFF800000, 0x7FC00000), (0x7FC00000, 0x7F800000), (0x7FC00000, 1.0), (3.0000000054977558e+38, 3.0000000054977558e+38), (-3.19999997882106e+38, 0xFF800000), (9.999999350456404e-39, 9.99994610111476e-41), (-4.0, 0.0), (-4.0, -0.0), (1.0, 1.000000013351432e-10), (0.5, 0.25)]> : tensor<23xcomplex<f32>>
  %r3 = stablehlo.log %x3 : tensor<23xcomplex<f32>>
  %e3 = stablehlo.constant dense<[(0xFF800000, 0.0), (0xFF800000, 3.1415927410125732), (0xFF800000, -3.1415927410125732), (0xFF800000, -0.0), (0x7F800000, 1.5707963705062866), (0x7F800000, -1.5707963705062866), (0x7F800000, 3.1415927410125732), (0x7F800000, -3.1415927410125732), (0x7F800000, 0.0), (0x7F800000, -0.0), (0x7F800000, 2.356194496154785), (0x7F800000, -0.7853981852531433), (0x7F800000, 0x7FC00000), (0x7F800000, 0x7FC00000), (0x7F800000, 0x7FC00000), (0x7FC00000, 0x7FC00000), (88.94342041015625, 0.7853981852531433), (0x7F800000, -1.5707963705062866), (-87.49818420410156, 0.009999613277614117), (1.3862943649291992, 3.1415927410125732), (1.3862943649291992, -3.1415927410125732), (5.000000245224396e-21, 1.000000013351432e-10), (-0.5815753936767578, 0.46364760398864746)]> : tensor<23xcomplex<f32>>
  check.expect_close %r3, %e3, max_ulp_difference = 2 : tensor<23xcomplex<f32>>, tensor<23xcomplex<f32>>
  %pr3 = stablehlo.real %r3 : (tensor<23xcomplex<f32>>) -> tensor<23xf32>
  %pr3b = stablehlo.bitcast_convert %pr3 : (tensor<23xf32>) -> tensor<23xi32>
  %pr3k = stablehlo.constant dense<31> : tensor<23xi32>
  %pr3s = stablehlo.shift_right_logical %pr3b, %pr3k : tensor<23xi32>
  %pr3m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1]> : tensor<23xi32>
  %pr3a = stablehlo.and %pr3s, %pr3m : tensor<23xi32>
  check.expect_eq_const %pr3a, dense<[1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]> : tensor<23xi32>
  %pi3 = stablehlo.imag %r3 : (tensor<23xcomplex<f32>>) -> tensor<23xf32>
  %pi3b = stablehlo.bitcast_convert %pi3 : (tensor<23xf32>) -> tensor<23xi32>
  %pi3k = stablehlo.constant dense<31> : tensor<23xi32>
  %pi3s = stablehlo.shift_right_logical %pi3b, %pi3k : tensor<23xi32>
  %pi3m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]> : tensor<23xi32>
  %pi3a = stablehlo.and %pi3s, %pi3m : tensor<23xi32>
  check.expect_eq_const %pi3a, dense<[0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0]> : tensor<23xi32>
  %x4 = stablehlo.constant dense<[(0.0, 0.0), (0.0, -0.0), (-1.0, 0.0), (-1.0, -0.0), (-2.0, 0.0), (-2.0, -0.0), (0x7FF0000000000000, 0x7FF0000000000000), (0xFFF0000000000000, 2.0), (2.0, 0xFFF0000000000000), (0x7FF8000000000000, 0x7FF0000000000000), (1e-20, 1e-20), (-1e-10, 1e-10), (1e+308, 1e+308), (0.5, 0.25), (-0.5, 0.0)]> : tensor<15xcomplex<f64>>
  %r4 = stablehlo.log_plus_one %x4 : tensor<15xcomplex<f64>>
  %e4 = stablehlo.constant dense<[(0.0, 0.0), (0.0, -0.0), (0xFFF0000000000000, 0.0), (0xFFF0000000000000, -0.0), (0.0, 3.141592653589793), (0.0, -3.141592653589793), (0x7FF0000000000000, 0.7853981633974483), (0x7FF0000000000000, 3.141592653589793), (0x7FF0000000000000, -1.5707963267948966), (0x7FF0000000000000, 0x7FF8000000000000), (1e-20, 1e-20), (-1e-10, 1.0000000001000001e-10), (709.542782232446, 0.7853981633974483), (0.4191645952022216, 0.16514867741462683), (-0.6931471805599453, 0.0)]> : tensor<15xcomplex<f64>>
  check.expect_close %r4, %e4, max_ulp_difference = 2 : tensor<15xcomplex<f64>>, tensor<15xcomplex<f64>>
  %pr4 = stablehlo.real %r4 : (tensor<15xcomplex<f64>>) -> tensor<15xf64>
  %pr4b = stablehlo.bitcast_convert %pr4 : (tensor<15xf64>) -> tensor<15xi64>
  %pr4k = stablehlo.constant dense<63> : tensor<15xi64>
  %pr4s = stablehlo.shift_right_logical %pr4b, %pr4k : tensor<15xi64>
  %pr4m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<15xi64>
  %pr4a = stablehlo.and %pr4s, %pr4m : tensor<15xi64>
  check.expect_eq_const %pr4a, dense<[0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]> : tensor<15xi64>
  %pi4 = stablehlo.imag %r4 : (tensor<15xcomplex<f64>>) -> tensor<15xf64>
  %pi4b = stablehlo.bitcast_convert %pi4 : (tensor<15xf64>) -> tensor<15xi64>
  %pi4k = stablehlo.constant dense<63> : tensor<15xi64>
  %pi4s = stablehlo.shift_right_logical %pi4b, %pi4k : tensor<15xi64>
  %pi4m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]> : tensor<15xi64>
  %pi4a = stablehlo.and %pi4s, %pi4m : tensor<15xi64>
  check.expect_eq_const %pi4a, dense<[0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]> : tensor<15xi64>
  %x5 = stablehlo.constant dense<[(0.0, 0.0), (0.0, -0.0), (-1.0, 0.0), (-1.0, -0.0), (-2.0, 0.0), (-2.0, -0.0), (0x7F800000, 0x7F800000), (0xFF800000, 2.0), (2.0, 0xFF800000), (0x7FC00000, 0x7F800000), (9.999999682655225e-21, 9.999999682655225e-21), (-1.000000013351432e-10, 1.000000013351432e-10), (3.0000000054977558e+38, 3.0000000054977558e+38), (0.5, 0.25), (-0.5, 0.0)]> : tensor<15xcomplex<f32>>
  %r5 = stablehlo.log_plus_one %x5 : tensor<15xcomplex<f32>>
  %e5 = stablehlo.constant dense<[(0.0, 0.0), (0.0, -0.0), (0xFF800000, 0.0), (0xFF800000, -0.0), (0.0, 3.1415927410125732), (0.0, -3.1415927410125732), (0x7F800000, 0.7853981852531433), (0x7F800000, 3.1415927410125732), (0x7F800000, -1.5707963705062866), (0x7F800000, 0x7FC00000), (9.999999682655225e-21, 9.999999682655225e-21), (-1.000000013351432e-10, 1.000000013351432e-10), (88.94342041015625, 0.7853981852531433), (0.41916459798812866, 0.16514867544174194), (-0.6931471824645996, 0.0)]> : tensor<15xcomplex<f32>>
  check.expect_close %r5, %e5, max_ulp_difference = 2 : tensor<15xcomplex<f32>>, tensor<15xcomplex<f32>>
  %pr5 = stablehlo.real %r5 : (tensor<15xcomplex<f32>>) -> tensor<15xf32>
  %pr5b = stablehlo.bitcast_convert %pr5 : (tensor<15xf32>) -> tensor<15xi32>
  %pr5k = stablehlo.constant dense<31> : tensor<15xi32>
  %pr5s = stablehlo.shift_right_logical %pr5b, %pr5k : tensor<15xi32>
  %pr5m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<15xi32>
  %pr5a = stablehlo.and %pr5s, %pr5m : tensor<15xi32>
  check.expect_eq_const %pr5a, dense<[0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]> : tensor<15xi32>
  %pi5 = stablehlo.imag %r5 : (tensor<15xcomplex<f32>>) -> tensor<15xf32>
  %pi5b = stablehlo.bitcast_convert %pi5 : (tensor<15xf32>) -> tensor<15xi32>
  %pi5k = stablehlo.constant dense<31> : tensor<15xi32>
  %pi5s = stablehlo.shift_right_logical %pi5b, %pi5k : tensor<15xi32>
  %pi5m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]> : tensor<15xi32>
  %pi5a = stablehlo.and %pi5s, %pi5m : tensor<15xi32>
  check.expect_eq_const %pi5a, dense<[0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]> : tensor<15xi32>
  %x6 = stablehlo.constant dense<[(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), (-4.0, 0.0), (-4.0, -0.0), (4.0, -0.0), (1.0, 0x7FF0000000000000), (0xFFF0000000000000, 0x7FF0000000000000), (0x7FF8000000000000, 0x7FF0000000000000), (3.0, 0xFFF0000000000000), (0x7FF8000000000000, 0xFFF0000000000000), (0xFFF0000000000000, 2.0), (0xFFF0000000000000, -2.0), (0x7FF0000000000000, 2.0), (0x7FF0000000000000, -2.0), (0x7FF0000000000000, 0x7FF8000000000000), (0x7FF8000000000000, 1.0), (1e+308, 1e+308), (-1.7e+308, 1e-300), (1e-320, 1e-320), (0.5, 0.25), (-3.0, 4.0)]> : tensor<23xcomplex<f64>>
  %r6 = stablehlo.sqrt %x6 : tensor<23xcomplex<f64>>
  %e6 = stablehlo.constant dense<[(0.0, 0.0), (0.0, 0.0), (0.0, -0.0), (0.0, -0.0), (0.0, 2.0), (0.0, -2.0), (2.0, -0.0), (0x7FF0000000000000, 0x7FF0000000000000), (0x7FF0000000000000, 0x7FF0000000000000), (0x7FF0000000000000, 0x7FF0000000000000), (0x7FF0000000000000, 0xFFF0000000000000), (0x7FF0000000000000, 0xFFF0000000000000), (0.0, 0x7FF0000000000000), (0.0, 0xFFF0000000000000), (0x7FF0000000000000, 0.0), (0x7FF0000000000000, -0.0), (0x7FF0000000000000, 0x7FF8000000000000), (0x7FF8000000000000, 0x7FF8000000000000), (1.09868411346781e+154, 4.5508986056222734e+153), (0.0, 1.3038404810405297e+154), (1.0986779977260263e-160, 4.5508732733903664e-161), (0.7276733451126774, 0.17178037486125622), (1.0, 2.0)]> : tensor<23xcomplex<f64>>
  check.expect_close %r6, %e6, max_ulp_difference = 2 : tensor<23xcomplex<f64>>, tensor<23xcomplex<f64>>
  %pr6 = stablehlo.real %r6 : (tensor<23xcomplex<f64>>) -> tensor<23xf64>
  %pr6b = stablehlo.bitcast_convert %pr6 : (tensor<23xf64>) -> tensor<23xi64>
  %pr6k = stablehlo.constant dense<63> : tensor<23xi64>
  %pr6s = stablehlo.shift_right_logical %pr6b, %pr6k : tensor<23xi64>
  %pr6m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]> : tensor<23xi64>
  %pr6a = stablehlo.and %pr6s, %pr6m : tensor<23xi64>
  check.expect_eq_const %pr6a, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<23xi64>
  %pi6 = stablehlo.imag %r6 : (tensor<23xcomplex<f64>>) -> tensor<23xf64>
  %pi6b = stablehlo.bitcast_convert %pi6 : (tensor<23xf64>) -> tensor<23xi64>
  %pi6k = stablehlo.constant dense<63> : tensor<23xi64>
  %pi6s = stablehlo.shift_right_logical %pi6b, %pi6k : tensor<23xi64>
  %pi6m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1]> : tensor<23xi64>
  %pi6a = stablehlo.and %pi6s, %pi6m : tensor<23xi64>
  check.expect_eq_const %pi6a, dense<[0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]> : tensor<23xi64>
  %x7 = stablehlo.constant dense<[(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), (-4.0, 0.0), (-4.0, -0.0), (4.0, -0.0), (1.0, 0x7F800000), (0xFF800000, 0x7F800000), (0x7FC00000, 0x7F800000), (3.0, 0xFF800000), (0x7FC00000, 0xFF800000), (0xFF800000, 2.0), (0xFF800000, -2.0), (0x7F800000, 2.0), (0x7F800000, -2.0), (0x7F800000, 0x7FC00000), (0x7FC00000, 1.0), (3.0000000054977558e+38, 3.0000000054977558e+38), (-3.299999965482712e+38, 9.999999350456404e-39), (9.80908925027372e-45, 9.80908925027372e-45), (0.5, 0.25), (-3.0, 4.0)]> : tensor<23xcomplex<f32>>
  %r7 = stablehlo.sqrt %x7 : tensor<23xcomplex<f32>>
  %e7 = stablehlo.constant dense<[(0.0, 0.0), (0.0, 0.0), (0.0, -0.0), (0.0, -0.0), (0.0, 2.0), (0.0, -2.0), (2.0, -0.0), (0x7F800000, 0x7F800000), (0x7F800000, 0x7F800000), (0x7F800000, 0x7F800000), (0x7F800000, 0xFF800000), (0x7F800000, 0xFF800000), (0.0, 0x7F800000), (0.0, 0xFF800000), (0x7F800000, 0.0), (0x7F800000, -0.0), (0x7F800000, 0x7FC00000), (0x7FC00000, 0x7FC00000), (1.9029766711407542e+19, 7.882387864409866e+18), (0.0, 1.8165902415696495e+19), (1.08814602363747e-22, 4.5072486053896187e-23), (0.727673351764679, 0.17178037762641907), (1.0, 2.0)]> : tensor<23xcomplex<f32>>
  check.expect_close %r7, %e7, max_ulp_difference = 2 : tensor<23xcomplex<f32>>, tensor<23xcomplex<f32>>
  %pr7 = stablehlo.real %r7 : (tensor<23xcomplex<f32>>) -> tensor<23xf32>
  %pr7b = stablehlo.bitcast_convert %pr7 : (tensor<23xf32>) -> tensor<23xi32>
  %pr7k = stablehlo.constant dense<31> : tensor<23xi32>
  %pr7s = stablehlo.shift_right_logical %pr7b, %pr7k : tensor<23xi32>
  %pr7m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]> : tensor<23xi32>
  %pr7a = stablehlo.and %pr7s, %pr7m : tensor<23xi32>
  check.expect_eq_const %pr7a, dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<23xi32>
  %pi7 = stablehlo.imag %r7 : (tensor<23xcomplex<f32>>) -> tensor<23xf32>
  %pi7b = stablehlo.bitcast_convert %pi7 : (tensor<23xf32>) -> tensor<23xi32>
  %pi7k = stablehlo.constant dense<31> : tensor<23xi32>
  %pi7s = stablehlo.shift_right_logical %pi7b, %pi7k : tensor<23xi32>
  %pi7m = stablehlo.constant dense<[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1]> : tensor<23xi32>
  %pi7a = stablehlo.and %pi7s, %pi7m : tensor<23xi32>
  check.expect_eq_const %pi7a, dense<[0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]> : tensor<23xi32>
  return
}
