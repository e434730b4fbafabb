module @jit_constants {
  func.func public @main() -> (tensor<2xi1>, tensor<3xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<4xf16>, tensor<4xbf16>, tensor<3xf32>, tensor<3xf64>, tensor<2xcomplex<f32>>, tensor<1xcomplex<f64>>, tensor<f32>, tensor<2x2xi32>, tensor<0xf32>) {
    %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %c_0 = stablehlo.constant dense<[-128, 0, 127]> : tensor<3xi8>
    %c_1 = stablehlo.constant dense<[-32768, 7]> : tensor<2xi16>
    %c_2 = stablehlo.constant dense<[-2147483648, -1]> : tensor<2xi32>
    %c_3 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
    %c_4 = stablehlo.constant dense<[255, 1]> : tensor<2xui8>
    %c_5 = stablehlo.constant dense<[65535, 2]> : tensor<2xui16>
    %c_6 = stablehlo.constant dense<[4294967295, 3]> : tensor<2xui32>
    %c_7 = stablehlo.constant dense<[18446744073709551615, 4]> : tensor<2xui64>
    %cst = stablehlo.constant dense<[5.960460e-08, 6.550400e+04, 0x7E01, -0.000000e+00]> : tensor<4xf16>
    %cst_8 = stablehlo.constant dense<[1.007810e+00, 9.183550e-41, 0xFF80, 0x7FC1]> : tensor<4xbf16>
    %cst_9 = stablehlo.constant dense<[1.000000e-01, 0x7FA00001, 0xFF800000]> : tensor<3xf32>
    %cst_10 = stablehlo.constant dense<[1.000000e-01, 0x7FF0000000000001, 4.940660e-324]> : tensor<3xf64>
    %cst_11 = stablehlo.constant dense<[(1.000000e-01,-2.000000e+00), (0x7F800000,0.000000e+00)]> : tensor<2xcomplex<f32>>
    %cst_12 = stablehlo.constant dense<(3.1415926535897931,2.7182818284590451)> : tensor<1xcomplex<f64>>
    %cst_13 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %c_14 = stablehlo.constant dense<7> : tensor<2x2xi32>
    %cst_15 = stablehlo.constant dense<> : tensor<0xf32>
    return %c, %c_0, %c_1, %c_2, %c_3, %c_4, %c_5, %c_6, %c_7, %cst, %cst_8, %cst_9, %cst_10, %cst_11, %cst_12, %cst_13, %c_14, %cst_15 : tensor<2xi1>, tensor<3xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<4xf16>, tensor<4xbf16>, tensor<3xf32>, tensor<3xf64>, tensor<2xcomplex<f32>>, tensor<1xcomplex<f64>>, tensor<f32>, tensor<2x2xi32>, tensor<0xf32>
  }
}
