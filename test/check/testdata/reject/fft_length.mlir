// stablehlo.fft is a product with an N×N DFT matrix per transformed
// dimension on the CPU plugin; past N = 1024 it is refused, naming the
// limit.
// REJECT: unsupported: stablehlo.fft: fft length 2048: at most 1024
func.func @main() {
  %x = stablehlo.iota dim = 0 : tensor<2048xf32>
  %0 = stablehlo.fft %x, type = RFFT, length = [2048] : (tensor<2048xf32>) -> tensor<1025xcomplex<f32>>
  check.expect_eq %0, %0 : tensor<1025xcomplex<f32>>
  return
}
