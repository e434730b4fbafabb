// Data movement, iota, dot_general and reduce on the element types
// beyond f32/f64/i32/i64/i1: ui8, i8, i16, ui32, f16, bf16, complex<f32>,
// complex<f64>. Moves are byte copies of the element size; iota wraps (ui8)
// and rounds (f16); integer dot products wrap; the float and complex values
// are chosen so that sums are exact in any order and precision. Expected
// values: Python and numpy.
func.func @main() {
  // transpose, reverse, slice, pad, concatenate and broadcast_in_dim move elements of 1, 2, 8 and 16 bytes
  %c0 = stablehlo.constant dense<[0, 50, 100, 150, 200, 250]> : tensor<6xui8>
  %1 = stablehlo.reshape %c0 : (tensor<6xui8>) -> tensor<2x3xui8>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x3xui8>) -> tensor<3x2xui8>
  %3 = stablehlo.reshape %2 : (tensor<3x2xui8>) -> tensor<6xui8>
  check.expect_eq_const %3, dense<[0, 150, 50, 200, 100, 250]> : tensor<6xui8>
  %c4 = stablehlo.constant dense<[0x3E00, 0xC000, 0x7BFF, 0x1019, 0x8000]> : tensor<5xf16>
  %5 = stablehlo.reverse %c4, dims = [0] : tensor<5xf16>
  check.expect_eq_const %5, dense<[0x8000, 0x1019, 0x7BFF, 0xC000, 0x3E00]> : tensor<5xf16>
  %c6 = stablehlo.constant dense<[0x4700]> : tensor<1xf16>
  %7 = stablehlo.reshape %c6 : (tensor<1xf16>) -> tensor<f16>
  %8 = stablehlo.pad %c4, %7, low = [1], high = [-1], interior = [1] : (tensor<5xf16>, tensor<f16>) -> tensor<9xf16>
  check.expect_eq_const %8, dense<[0x4700, 0x3E00, 0x4700, 0xC000, 0x4700, 0x7BFF, 0x4700, 0x1019, 0x4700]> : tensor<9xf16>
  %c9 = stablehlo.constant dense<[0x3F80, 0xC040, 0x7E96, 0x3DCD]> : tensor<4xbf16>
  %10 = stablehlo.slice %c9 [1:4:2] : (tensor<4xbf16>) -> tensor<2xbf16>
  check.expect_eq_const %10, dense<[0xC040, 0x3DCD]> : tensor<2xbf16>
  %c11 = stablehlo.constant dense<[(1.0, 2.0), (-3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %12 = stablehlo.concatenate %c11, %c11, dim = 0 : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_eq_const %12, dense<[(1.0, 2.0), (-3.0, -4.0), (1.0, 2.0), (-3.0, -4.0)]> : tensor<4xcomplex<f64>>
  %c13 = stablehlo.constant dense<[(0.5, -1.0), (2.0, 0.25)]> : tensor<2xcomplex<f32>>
  %14 = stablehlo.broadcast_in_dim %c13, dims = [1] : (tensor<2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  %15 = stablehlo.reshape %14 : (tensor<3x2xcomplex<f32>>) -> tensor<6xcomplex<f32>>
  check.expect_eq_const %15, dense<[(0.5, -1.0), (2.0, 0.25), (0.5, -1.0), (2.0, 0.25), (0.5, -1.0), (2.0, 0.25)]> : tensor<6xcomplex<f32>>
  // iota wraps in narrow integer types and rounds in f16 (2049 -> 2048)
  %16 = stablehlo.iota dim = 0 : tensor<300xui8>
  check.expect_eq_const %16, dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43]> : tensor<300xui8>
  %17 = stablehlo.iota dim = 0 : tensor<2052xf16>
  %18 = stablehlo.slice %17 [2046:2052] : (tensor<2052xf16>) -> tensor<6xf16>
  check.expect_eq_const %18, dense<[0x67FE, 0x67FF, 0x6800, 0x6800, 0x6801, 0x6802]> : tensor<6xf16>
  // dot_general: i8 wraps, ui8 too; f16 products summed exactly; complex<f32>
  %c19 = stablehlo.constant dense<[100, -100, 50, 1, 2, 3]> : tensor<6xi8>
  %c20 = stablehlo.constant dense<[2, 1, 3]> : tensor<3xi8>
  %21 = stablehlo.reshape %c19 : (tensor<6xi8>) -> tensor<2x3xi8>
  %22 = stablehlo.reshape %c20 : (tensor<3xi8>) -> tensor<3x1xi8>
  %23 = stablehlo.dot_general %21, %22, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x1xi8>) -> tensor<2x1xi8>
  %24 = stablehlo.reshape %23 : (tensor<2x1xi8>) -> tensor<2xi8>
  check.expect_eq_const %24, dense<[-6, 13]> : tensor<2xi8>
  %c25 = stablehlo.constant dense<[100, 156, 50, 1, 2, 3]> : tensor<6xui8>
  %c26 = stablehlo.constant dense<[2, 1, 3]> : tensor<3xui8>
  %27 = stablehlo.reshape %c25 : (tensor<6xui8>) -> tensor<2x3xui8>
  %28 = stablehlo.reshape %c26 : (tensor<3xui8>) -> tensor<3x1xui8>
  %29 = stablehlo.dot_general %27, %28, contracting_dims = [1] x [0] : (tensor<2x3xui8>, tensor<3x1xui8>) -> tensor<2x1xui8>
  %30 = stablehlo.reshape %29 : (tensor<2x1xui8>) -> tensor<2xui8>
  check.expect_eq_const %30, dense<[250, 13]> : tensor<2xui8>
  %c31 = stablehlo.constant dense<[0x3E00, 0xC000, 0x4400, 0x3400, 0x4800, 0xBC00]> : tensor<6xf16>
  %c32 = stablehlo.constant dense<[0x4000, 0x3800, 0xBC00]> : tensor<3xf16>
  %33 = stablehlo.reshape %c31 : (tensor<6xf16>) -> tensor<2x3xf16>
  %34 = stablehlo.reshape %c32 : (tensor<3xf16>) -> tensor<3x1xf16>
  %35 = stablehlo.dot_general %33, %34, contracting_dims = [1] x [0] : (tensor<2x3xf16>, tensor<3x1xf16>) -> tensor<2x1xf16>
  %36 = stablehlo.reshape %35 : (tensor<2x1xf16>) -> tensor<2xf16>
  check.expect_eq_const %36, dense<[0xC000, 0x4580]> : tensor<2xf16>
  %c37 = stablehlo.constant dense<[(1.0, 1.0), (2.0, -1.0)]> : tensor<2xcomplex<f32>>
  %c38 = stablehlo.constant dense<[(3.0, 0.0), (1.0, 2.0)]> : tensor<2xcomplex<f32>>
  %39 = stablehlo.dot_general %c37, %c38, contracting_dims = [0] x [0] : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<complex<f32>>
  %40 = stablehlo.reshape %39 : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %40, dense<[(7.0, 6.0)]> : tensor<1xcomplex<f32>>
  // reduce: ui32 maximum, f16 and complex<f64> sums (exact), i16 product wraps
  %c41 = stablehlo.constant dense<[5, 4000000000, 7, 2147483648]> : tensor<4xui32>
  %c42 = stablehlo.constant dense<[0]> : tensor<1xui32>
  %43 = stablehlo.reshape %c42 : (tensor<1xui32>) -> tensor<ui32>
  %44 = stablehlo.reduce(%c41 init: %43) applies stablehlo.maximum across dimensions = [0] : (tensor<4xui32>, tensor<ui32>) -> tensor<ui32>
  %45 = stablehlo.reshape %44 : (tensor<ui32>) -> tensor<1xui32>
  check.expect_eq_const %45, dense<[4000000000]> : tensor<1xui32>
  %c46 = stablehlo.constant dense<[0x3E00, 0x4080, 0xBA00, 0x6400]> : tensor<4xf16>
  %c47 = stablehlo.constant dense<[0x0000]> : tensor<1xf16>
  %48 = stablehlo.reshape %c47 : (tensor<1xf16>) -> tensor<f16>
  %49 = stablehlo.reduce(%c46 init: %48) applies stablehlo.add across dimensions = [0] : (tensor<4xf16>, tensor<f16>) -> tensor<f16>
  %50 = stablehlo.reshape %49 : (tensor<f16>) -> tensor<1xf16>
  check.expect_eq_const %50, dense<[0x6403]> : tensor<1xf16>
  %c51 = stablehlo.constant dense<[(1.0, 2.0), (-0.5, 0.25), (3.0, -1.0)]> : tensor<3xcomplex<f64>>
  %c52 = stablehlo.constant dense<[(0.0, 0.0)]> : tensor<1xcomplex<f64>>
  %53 = stablehlo.reshape %c52 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
  %54 = stablehlo.reduce(%c51 init: %53) applies stablehlo.add across dimensions = [0] : (tensor<3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  %55 = stablehlo.reshape %54 : (tensor<complex<f64>>) -> tensor<1xcomplex<f64>>
  check.expect_eq_const %55, dense<[(3.5, 1.25)]> : tensor<1xcomplex<f64>>
  %c56 = stablehlo.constant dense<[300, 300, -2]> : tensor<3xi16>
  %c57 = stablehlo.constant dense<[1]> : tensor<1xi16>
  %58 = stablehlo.reshape %c57 : (tensor<1xi16>) -> tensor<i16>
  %59 = stablehlo.reduce(%c56 init: %58) applies stablehlo.multiply across dimensions = [0] : (tensor<3xi16>, tensor<i16>) -> tensor<i16>
  %60 = stablehlo.reshape %59 : (tensor<i16>) -> tensor<1xi16>
  check.expect_eq_const %60, dense<[16608]> : tensor<1xi16>
  return
}
