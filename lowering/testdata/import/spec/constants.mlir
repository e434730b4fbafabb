// Constants of every element type the IR has, in the forms producers
// write them: lists, splats, hex floats, hex blobs, empty tensors.
module @jit_constants {
  func.func public @main() -> (tensor<2xi1>, tensor<3xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<3xf16>, tensor<3xbf16>, tensor<4xf32>, tensor<2xf64>, tensor<2xcomplex<f32>>, tensor<complex<f64>>, tensor<2x3xf32>, tensor<2x2xi32>, tensor<0xf32>, tensor<2xf32>, tensor<3xsi32>) {
    %0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %1 = stablehlo.constant dense<[-128, 0, 127]> : tensor<3xi8>
    %2 = stablehlo.constant dense<[-32768, 7]> : tensor<2xi16>
    %3 = stablehlo.constant dense<[-2147483648, -1]> : tensor<2xi32>
    %4 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
    %5 = stablehlo.constant dense<[255, 1]> : tensor<2xui8>
    %6 = stablehlo.constant dense<[65535, 2]> : tensor<2xui16>
    %7 = stablehlo.constant dense<[4294967295, 3]> : tensor<2xui32>
    %8 = stablehlo.constant dense<[18446744073709551615, 4]> : tensor<2xui64>
    %9 = stablehlo.constant dense<[0x7C00, 0x0001, -2.500000e+00]> : tensor<3xf16>
    %10 = stablehlo.constant dense<[0x7FC1, 1.000000e+00, 0xFF80]> : tensor<3xbf16>
    %11 = stablehlo.constant dense<[0x7FC00001, -0.000000e+00, 1.401300e-45, 0x7F7FFFFF]> : tensor<4xf32>
    %12 = stablehlo.constant dense<[4.9406564584124654E-324, 0xFFF0000000000000]> : tensor<2xf64>
    %13 = stablehlo.constant dense<[(1.500000e+00,-2.000000e+00), (0x7FC00000,0.000000e+00)]> : tensor<2xcomplex<f32>>
    %14 = stablehlo.constant dense<(1.000000e+00,-1.000000e+00)> : tensor<complex<f64>>
    %15 = stablehlo.constant dense<0xFF800000> : tensor<2x3xf32>
    %16 = stablehlo.constant dense<"0x01000000020000000300000004000000"> : tensor<2x2xi32>
    %17 = stablehlo.constant dense<> : tensor<0xf32>
    %18 = "stablehlo.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %19 = stablehlo.constant dense<[1, -2, 3]> : tensor<3xsi32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 : tensor<2xi1>, tensor<3xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<3xf16>, tensor<3xbf16>, tensor<4xf32>, tensor<2xf64>, tensor<2xcomplex<f32>>, tensor<complex<f64>>, tensor<2x3xf32>, tensor<2x2xi32>, tensor<0xf32>, tensor<2xf32>, tensor<3xsi32>
  }
}
