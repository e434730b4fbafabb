// stablehlo.fft: FFT, IFFT, RFFT and IRFFT over 1 to 3 trailing
// dimensions, with batch dimensions, odd and even lengths, on complex<f32>,
// complex<f64>, f32 and f64. Expected values: numpy.fft in float64 on the
// same inputs; tolerances for f32 and f64 results.
func.func @main() {
  // FFT of length 4 on complex<f32>
  %x0 = stablehlo.constant dense<[(1.0, 0.0), (2.0, -1.0), (0.0, 0.5), (-1.0, 2.0)]> : tensor<4xcomplex<f32>>
  %f0 = stablehlo.fft %x0, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %f0, dense<[(2.0, 1.5), (-2.0, -3.5), (0.0, -0.5), (4.0, 2.5)]> : tensor<4xcomplex<f32>>, tolerance = 1.0e-05
  // IFFT of length 4 (divided by 4)
  %x4 = stablehlo.constant dense<[(1.0, 0.0), (2.0, -1.0), (0.0, 0.5), (-1.0, 2.0)]> : tensor<4xcomplex<f32>>
  %f4 = stablehlo.fft %x4, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %f4, dense<[(0.5, 0.375), (1.0, 0.625), (0.0, -0.125), (-0.5, -0.875)]> : tensor<4xcomplex<f32>>, tolerance = 1.0e-05
  // 2-D FFT of lengths 2x3 on complex<f64>, a batch of 2
  %x8 = stablehlo.constant dense<[[[(1.0, 1.0), (2.0, 0.0), (3.0, -2.0)], [(0.5, 0.0), (-0.0, -1.0), (4.0, 0.0)]], [[(-3.0, 0.0), (1.0, 1.0), (0.0, 0.0)], [(0.0, 2.0), (1.0, 0.0), (-1.0, 0.0)]]]> : tensor<2x2x3xcomplex<f64>>
  %f8 = stablehlo.fft %x8, type = FFT, length = [2, 3] : (tensor<2x2x3xcomplex<f64>>) -> tensor<2x2x3xcomplex<f64>>
  check.expect_almost_eq_const %f8, dense<[[[(10.5, -2.0), (-2.133974596215561, 6.830127018922193), (-3.8660254037844384, -1.830127018922193)], [(1.5, 0.0), (2.5980762113533156, -1.098076211353316), (-2.598076211353316, 4.098076211353316)]], [[(-2.0, 3.0), (-2.6339745962155616, -1.0980762113533158), (-4.366025403784438, 4.098076211353316)], [(-2.0, -1.0), (-2.6339745962155616, -1.6339745962155614), (-4.366025403784438, -3.3660254037844384)]]]> : tensor<2x2x3xcomplex<f64>>, tolerance = 1.0e-12
  // RFFT of odd length 5 on f32: 3 frequencies
  %x12 = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [0.5, -1.0, 0.0, 2.0, -3.0]]> : tensor<2x5xf32>
  %f12 = stablehlo.fft %x12, type = RFFT, length = [5] : (tensor<2x5xf32>) -> tensor<2x3xcomplex<f32>>
  check.expect_almost_eq_const %f12, dense<[[(15.0, 0.0), (-2.5, 3.4409548011779334), (-2.5, 0.8122992405822659)], [(-1.5, 0.0), (-2.3541019662496847, -0.7265425280053608), (4.354101966249685, -3.077683537175253)]]> : tensor<2x3xcomplex<f32>>, tolerance = 1.0e-05
  // 2-D RFFT of lengths 2x4 on f64
  %x16 = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 2.0, 0.0]]> : tensor<2x4xf64>
  %f16 = stablehlo.fft %x16, type = RFFT, length = [2, 4] : (tensor<2x4xf64>) -> tensor<2x3xcomplex<f64>>
  check.expect_almost_eq_const %f16, dense<[[(11.5, 0.0), (-5.0, 1.5), (-1.5, 0.0)], [(8.5, 0.0), (1.0, 2.5), (-2.5, 0.0)]]> : tensor<2x3xcomplex<f64>>, tolerance = 1.0e-12
  // IRFFT of even length 6 on complex<f32> (the spectrum of a real signal)
  %x20 = stablehlo.constant dense<[(3.5, 0.0), (-3.5, 1.1102230246251565e-16), (0.5, 1.7320507764816284), (8.5, 0.0)]> : tensor<4xcomplex<f32>>
  %f20 = stablehlo.fft %x20, type = IRFFT, length = [6] : (tensor<4xcomplex<f32>>) -> tensor<6xf32>
  check.expect_almost_eq_const %f20, dense<[1.0, -1.9999999910258843, 2.9999999910258843, 0.4999999999999999, 2.0000000089741157, -1.0000000089741157]> : tensor<6xf32>, tolerance = 1.0e-05
  // IRFFT of odd length 5 on complex<f64>
  %x24 = stablehlo.constant dense<[[(5.0, 0.0), (3.3541019662496847, 0.3632712640026804), (-3.3541019662496847, 1.5388417685876266)], [(1.0, 0.0), (-0.8090169943749475, -0.5877852522924731), (0.30901699437494745, 0.9510565162951535)]]> : tensor<2x3xcomplex<f64>>
  %f24 = stablehlo.fft %x24, type = IRFFT, length = [5] : (tensor<2x3xcomplex<f64>>) -> tensor<2x5xf64>
  check.expect_almost_eq_const %f24, dense<[[1.0, 2.0, -1.7763568394002506e-16, -1.0, 3.0], [0.0, -4.4408920985006264e-17, 1.0, 0.0, -4.4408920985006264e-17]]> : tensor<2x5xf64>, tolerance = 1.0e-12
  // 2-D IRFFT of lengths 2x4 on complex<f64>
  %x28 = stablehlo.constant dense<[[(11.5, 0.0), (-2.5, 5.0), (-2.5, 0.0)], [(8.5, 0.0), (-1.5, -1.0), (-1.5, 0.0)]]> : tensor<2x3xcomplex<f64>>
  %f28 = stablehlo.fft %x28, type = IRFFT, length = [2, 4] : (tensor<2x3xcomplex<f64>>) -> tensor<2x4xf64>
  check.expect_almost_eq_const %f28, dense<[[1.0, 2.0, 3.0, 4.0], [0.0, -1.0, 0.5, 2.0]]> : tensor<2x4xf64>, tolerance = 1.0e-12
  // 3-D FFT of lengths 2x2x2 on complex<f32>
  %x32 = stablehlo.constant dense<[[[(0.0, 1.0), (1.0, 0.0)], [(2.0, -1.0), (3.0, 2.0)]], [[(4.0, 0.0), (5.0, 0.0)], [(6.0, 3.0), (7.0, -2.0)]]]> : tensor<2x2x2xcomplex<f32>>
  %f32 = stablehlo.fft %x32, type = FFT, length = [2, 2, 2] : (tensor<2x2x2xcomplex<f32>>) -> tensor<2x2x2xcomplex<f32>>
  check.expect_almost_eq_const %f32, dense<[[[(28.0, 3.0), (-4.0, 3.0)], [(-8.0, -1.0), (0.0, -1.0)]], [[(-16.0, 1.0), (0.0, -7.0)], [(0.0, 1.0), (0.0, 9.0)]]]> : tensor<2x2x2xcomplex<f32>>, tolerance = 1.0e-05
  // 3-D IFFT of lengths 2x2x2 on complex<f32>
  %x36 = stablehlo.constant dense<[[[(0.0, 1.0), (1.0, 0.0)], [(2.0, -1.0), (3.0, 2.0)]], [[(4.0, 0.0), (5.0, 0.0)], [(6.0, 3.0), (7.0, -2.0)]]]> : tensor<2x2x2xcomplex<f32>>
  %f36 = stablehlo.fft %x36, type = IFFT, length = [2, 2, 2] : (tensor<2x2x2xcomplex<f32>>) -> tensor<2x2x2xcomplex<f32>>
  check.expect_almost_eq_const %f36, dense<[[[(3.5, 0.375), (-0.5, 0.375)], [(-1.0, -0.125), (0.0, -0.125)]], [[(-2.0, 0.125), (0.0, -0.875)], [(0.0, 0.125), (0.0, 1.125)]]]> : tensor<2x2x2xcomplex<f32>>, tolerance = 1.0e-05
  // Lengths past 1024 (the CPU plugin's old limit): RFFT then IRFFT of
  // length 2048 on f64, and FFT then IFFT of the prime length 1031
  // (Bluestein's algorithm on the CPU plugin) on complex<f64>, give the
  // signal back; bin 0 of the RFFT is the sum 0 + 1 + ... + 2047.
  %x40 = stablehlo.iota dim = 0 : tensor<2048xf64>
  %f40 = stablehlo.fft %x40, type = RFFT, length = [2048] : (tensor<2048xf64>) -> tensor<1025xcomplex<f64>>
  %g40 = stablehlo.fft %f40, type = IRFFT, length = [2048] : (tensor<1025xcomplex<f64>>) -> tensor<2048xf64>
  check.expect_almost_eq %g40, %x40, tolerance = 1.0e-09 : tensor<2048xf64>, tensor<2048xf64>
  %d40 = stablehlo.slice %f40 [0:1] : (tensor<1025xcomplex<f64>>) -> tensor<1xcomplex<f64>>
  check.expect_almost_eq_const %d40, dense<[(2096128.0, 0.0)]> : tensor<1xcomplex<f64>>, tolerance = 1.0e-06
  %x44 = stablehlo.iota dim = 0 : tensor<1031xf64>
  %h44 = stablehlo.constant dense<0.5> : tensor<1031xf64>
  %c44 = stablehlo.complex %x44, %h44 : tensor<1031xcomplex<f64>>
  %f44 = stablehlo.fft %c44, type = FFT, length = [1031] : (tensor<1031xcomplex<f64>>) -> tensor<1031xcomplex<f64>>
  %g44 = stablehlo.fft %f44, type = IFFT, length = [1031] : (tensor<1031xcomplex<f64>>) -> tensor<1031xcomplex<f64>>
  check.expect_almost_eq %g44, %c44, tolerance = 1.0e-09 : tensor<1031xcomplex<f64>>, tensor<1031xcomplex<f64>>
  return
}
