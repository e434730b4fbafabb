module @jit_dense {
  func.func public @main() -> tensor<i1> {
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    %c_1 = stablehlo.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
    %c_2 = stablehlo.constant dense<[-128, -1, 0, 127]> : tensor<4xi8>
    %c_3 = stablehlo.constant dense<[0, 1, 255]> : tensor<3xui8>
    %c_4 = stablehlo.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
    %c_5 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
    %c_6 = stablehlo.constant dense<[-8, 7, 0]> : tensor<3xi4>
    %c_7 = stablehlo.constant dense<[0, 15]> : tensor<2xui4>
    %c_8 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
    %c_9 = stablehlo.constant dense<-1> : tensor<2x3xi16>
    %c_10 = stablehlo.constant dense<4294967295> : tensor<ui32>
    %cst = stablehlo.constant dense<[1.000000e+00, -2.500000e+00, 0.000000e+00, -0.000000e+00]> : tensor<4xf32>
    %cst_11 = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF]> : tensor<5xf32>
    %cst_12 = stablehlo.constant dense<[3.14159274, 0.707106769, 0.333333343, 6.28318548, 1.000000e-01]> : tensor<5xf32>
    %cst_13 = stablehlo.constant dense<[3.40282347E+38, -3.40282347E+38, 1.17549435E-38, 1.401300e-45, 9.99999997E-7]> : tensor<5xf32>
    %cst_14 = stablehlo.constant dense<[0.33333333333333331, 1.000000e-01, 1.7976931348623157E+308, 4.940660e-324, 0x7FF8000000000000, 0xFFF0000000000000]> : tensor<6xf64>
    %cst_15 = stablehlo.constant dense<[1.000000e+00, 6.550400e+04, 0x7C00, 0xFE00, 5.960460e-08, 3.332520e-01]> : tensor<6xf16>
    %cst_16 = stablehlo.constant dense<[1.000000e+00, 1.000980e-01, 0x7F80, 0xFF80, 3.389530e+38, -1.250000e-01]> : tensor<6xbf16>
    %cst_17 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %cst_18 = stablehlo.constant dense<(1.500000e+00,2.500000e+00)> : tensor<complex<f32>>
    %cst_19 = stablehlo.constant dense<[(1.000000e+00,0.000000e+00), (0x7FF0000000000000,-3.000000e+00)]> : tensor<2xcomplex<f64>>
    %cst_20 = stablehlo.constant dense<"0x000000000000003F0000803F0000C03F0000004000002040000040400000604000008040000090400000A0400000B0400000C0400000D0400000E0400000F0400000004100000841000010410000184100002041000028410000304100003841000040410000484100005041000058410000604100006841000070410000784100008041000084410000884100008C4100009041000094410000984100009C410000A0410000A4410000A8410000AC410000B0410000B4410000B8410000BC410000C0410000C4410000C8410000CC410000D0410000D4410000D8410000DC410000E0410000E4410000E8410000EC410000F0410000F4410000F8410000FC41000000420000024200000442000006420000084200000A4200000C4200000E42000010420000124200001442000016420000184200001A4200001C4200001E42000020420000224200002442000026420000284200002A4200002C4200002E42000030420000324200003442000036420000384200003A4200003C4200003E42000040420000424200004442000046420000484200004A4200004C4200004E42000050420000524200005442000056420000584200005A4200005C4200005E42000060420000624200006442000066420000684200006A4200006C4200006E42"> : tensor<120xf32>
    %cst_21 = stablehlo.constant dense<> : tensor<0xf32>
    %c_22 = stablehlo.constant dense<> : tensor<2x0x3xi32>
    %cst_23 = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf8E4M3FN>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<4x1024xf32>
    %c_25 = stablehlo.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<1xf32>
    %cst_27 = stablehlo.constant dense<0x4B800000> : tensor<f32>
    %cst_28 = stablehlo.constant dense<1.000000e+10> : tensor<f32>
    %cst_29 = stablehlo.constant dense<1.000000e+10> : tensor<f64>
    return %c : tensor<i1>
  }
}
