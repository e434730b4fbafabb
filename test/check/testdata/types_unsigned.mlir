// Unsigned integers ui8, ui16, ui32, ui64: wrapping arithmetic, unsigned
// division (x/0 is all ones, x%0 is x), maximum/minimum and compare as
// unsigned (UNSIGNED is also the default), shifts past the width, power,
// negate and not, conversions (zero extension; floats truncate and saturate,
// NaN -> 0; ui64 -> f32 rounds once). Expected values: Python integers and
// numpy.
func.func @main() {
  // ui8: wrapping +, -, *
  %c0 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c1 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %2 = stablehlo.add %c0, %c1 : tensor<8xui8>
  check.expect_eq_const %2, dense<[3, 0, 0, 10, 3, 254, 7, 133]> : tensor<8xui8>
  %c3 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c4 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %5 = stablehlo.subtract %c3, %c4 : tensor<8xui8>
  check.expect_eq_const %5, dense<[255, 254, 0, 0, 253, 0, 7, 129]> : tensor<8xui8>
  %c6 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c7 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %8 = stablehlo.multiply %c6, %c7 : tensor<8xui8>
  check.expect_eq_const %8, dense<[2, 255, 0, 25, 0, 1, 0, 6]> : tensor<8xui8>
  // unsigned division truncates; x/0 is all ones, x%0 is x (XLA)
  %c9 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c10 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %11 = stablehlo.divide %c9, %c10 : tensor<8xui8>
  check.expect_eq_const %11, dense<[0, 255, 1, 1, 0, 1, 255, 65]> : tensor<8xui8>
  %c12 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c13 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %14 = stablehlo.remainder %c12, %c13 : tensor<8xui8>
  check.expect_eq_const %14, dense<[1, 0, 0, 0, 0, 0, 7, 1]> : tensor<8xui8>
  // maximum/minimum and compare order the values as unsigned: 128 > 1
  %c15 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c16 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %17 = stablehlo.maximum %c15, %c16 : tensor<8xui8>
  check.expect_eq_const %17, dense<[2, 255, 128, 5, 3, 255, 7, 131]> : tensor<8xui8>
  %c18 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c19 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %20 = stablehlo.minimum %c18, %c19 : tensor<8xui8>
  check.expect_eq_const %20, dense<[1, 1, 128, 5, 0, 255, 0, 2]> : tensor<8xui8>
  %c21 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c22 = stablehlo.constant dense<[2, 1, 128, 5, 3, 255, 0, 2]> : tensor<8xui8>
  %23 = stablehlo.compare  GT, %c21, %c22,  UNSIGNED : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xi1>
  check.expect_eq_const %23, dense<[false, true, false, false, false, false, true, true]> : tensor<8xi1>
  %24 = stablehlo.compare  LE, %c21, %c22,  UNSIGNED : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xi1>
  check.expect_eq_const %24, dense<[true, false, true, true, true, true, false, false]> : tensor<8xi1>
  %25 = stablehlo.compare  LT, %c21, %c22 : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xi1>
  check.expect_eq_const %25, dense<[true, false, false, false, true, false, false, false]> : tensor<8xi1>
  // shifts: counts are unsigned; >= the width gives 0 (or the sign fill)
  %c26 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c27 = stablehlo.constant dense<[1, 7, 8, 9, 0, 3, 1, 255]> : tensor<8xui8>
  %28 = stablehlo.shift_left %c26, %c27 : tensor<8xui8>
  check.expect_eq_const %28, dense<[2, 128, 0, 0, 0, 248, 14, 0]> : tensor<8xui8>
  %c29 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c30 = stablehlo.constant dense<[1, 7, 8, 9, 0, 3, 1, 255]> : tensor<8xui8>
  %31 = stablehlo.shift_right_logical %c29, %c30 : tensor<8xui8>
  check.expect_eq_const %31, dense<[0, 1, 0, 0, 0, 31, 3, 0]> : tensor<8xui8>
  %c32 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c33 = stablehlo.constant dense<[1, 7, 8, 9, 0, 3, 1, 255]> : tensor<8xui8>
  %34 = stablehlo.shift_right_arithmetic %c32, %c33 : tensor<8xui8>
  check.expect_eq_const %34, dense<[0, 255, 255, 0, 0, 255, 3, 255]> : tensor<8xui8>
  // power wraps; the exponent is unsigned
  %c35 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %c36 = stablehlo.constant dense<[3, 2, 1, 0, 5, 2, 3, 4]> : tensor<8xui8>
  %37 = stablehlo.power %c35, %c36 : tensor<8xui8>
  check.expect_eq_const %37, dense<[1, 1, 128, 1, 0, 1, 87, 81]> : tensor<8xui8>
  // negate and not wrap
  %c38 = stablehlo.constant dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xui8>
  %39 = stablehlo.negate %c38 : tensor<8xui8>
  check.expect_eq_const %39, dense<[255, 1, 128, 251, 0, 1, 249, 125]> : tensor<8xui8>
  %40 = stablehlo.not %c38 : tensor<8xui8>
  check.expect_eq_const %40, dense<[254, 0, 127, 250, 255, 0, 248, 124]> : tensor<8xui8>
  // conversions zero-extend; to floats from the unsigned value
  %41 = stablehlo.convert %c38 : (tensor<8xui8>) -> tensor<8xi64>
  check.expect_eq_const %41, dense<[1, 255, 128, 5, 0, 255, 7, 131]> : tensor<8xi64>
  %42 = stablehlo.convert %c38 : (tensor<8xui8>) -> tensor<8xf64>
  check.expect_eq_const %42, dense<[0x3FF0000000000000, 0x406FE00000000000, 0x4060000000000000, 0x4014000000000000, 0x0000000000000000, 0x406FE00000000000, 0x401C000000000000, 0x4060600000000000]> : tensor<8xf64>
  %43 = stablehlo.convert %c38 : (tensor<8xui8>) -> tensor<8xf32>
  check.expect_eq_const %43, dense<[0x3F800000, 0x437F0000, 0x43000000, 0x40A00000, 0x00000000, 0x437F0000, 0x40E00000, 0x43030000]> : tensor<8xf32>
  // ui16: wrapping +, -, *
  %c44 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c45 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %46 = stablehlo.add %c44, %c45 : tensor<8xui16>
  check.expect_eq_const %46, dense<[3, 0, 0, 10, 3, 65534, 7, 32773]> : tensor<8xui16>
  %c47 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c48 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %49 = stablehlo.subtract %c47, %c48 : tensor<8xui16>
  check.expect_eq_const %49, dense<[65535, 65534, 0, 0, 65533, 0, 7, 32769]> : tensor<8xui16>
  %c50 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c51 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %52 = stablehlo.multiply %c50, %c51 : tensor<8xui16>
  check.expect_eq_const %52, dense<[2, 65535, 0, 25, 0, 1, 0, 6]> : tensor<8xui16>
  // unsigned division truncates; x/0 is all ones, x%0 is x (XLA)
  %c53 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c54 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %55 = stablehlo.divide %c53, %c54 : tensor<8xui16>
  check.expect_eq_const %55, dense<[0, 65535, 1, 1, 0, 1, 65535, 16385]> : tensor<8xui16>
  %c56 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c57 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %58 = stablehlo.remainder %c56, %c57 : tensor<8xui16>
  check.expect_eq_const %58, dense<[1, 0, 0, 0, 0, 0, 7, 1]> : tensor<8xui16>
  // maximum/minimum and compare order the values as unsigned: 32768 > 1
  %c59 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c60 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %61 = stablehlo.maximum %c59, %c60 : tensor<8xui16>
  check.expect_eq_const %61, dense<[2, 65535, 32768, 5, 3, 65535, 7, 32771]> : tensor<8xui16>
  %c62 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c63 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %64 = stablehlo.minimum %c62, %c63 : tensor<8xui16>
  check.expect_eq_const %64, dense<[1, 1, 32768, 5, 0, 65535, 0, 2]> : tensor<8xui16>
  %c65 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c66 = stablehlo.constant dense<[2, 1, 32768, 5, 3, 65535, 0, 2]> : tensor<8xui16>
  %67 = stablehlo.compare  GT, %c65, %c66,  UNSIGNED : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
  check.expect_eq_const %67, dense<[false, true, false, false, false, false, true, true]> : tensor<8xi1>
  %68 = stablehlo.compare  LE, %c65, %c66,  UNSIGNED : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
  check.expect_eq_const %68, dense<[true, false, true, true, true, true, false, false]> : tensor<8xi1>
  %69 = stablehlo.compare  LT, %c65, %c66 : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
  check.expect_eq_const %69, dense<[true, false, false, false, true, false, false, false]> : tensor<8xi1>
  // shifts: counts are unsigned; >= the width gives 0 (or the sign fill)
  %c70 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c71 = stablehlo.constant dense<[1, 15, 16, 17, 0, 3, 1, 65535]> : tensor<8xui16>
  %72 = stablehlo.shift_left %c70, %c71 : tensor<8xui16>
  check.expect_eq_const %72, dense<[2, 32768, 0, 0, 0, 65528, 14, 0]> : tensor<8xui16>
  %c73 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c74 = stablehlo.constant dense<[1, 15, 16, 17, 0, 3, 1, 65535]> : tensor<8xui16>
  %75 = stablehlo.shift_right_logical %c73, %c74 : tensor<8xui16>
  check.expect_eq_const %75, dense<[0, 1, 0, 0, 0, 8191, 3, 0]> : tensor<8xui16>
  %c76 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c77 = stablehlo.constant dense<[1, 15, 16, 17, 0, 3, 1, 65535]> : tensor<8xui16>
  %78 = stablehlo.shift_right_arithmetic %c76, %c77 : tensor<8xui16>
  check.expect_eq_const %78, dense<[0, 65535, 65535, 0, 0, 65535, 3, 65535]> : tensor<8xui16>
  // power wraps; the exponent is unsigned
  %c79 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %c80 = stablehlo.constant dense<[3, 2, 1, 0, 5, 2, 3, 4]> : tensor<8xui16>
  %81 = stablehlo.power %c79, %c80 : tensor<8xui16>
  check.expect_eq_const %81, dense<[1, 1, 32768, 1, 0, 1, 343, 81]> : tensor<8xui16>
  // negate and not wrap
  %c82 = stablehlo.constant dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xui16>
  %83 = stablehlo.negate %c82 : tensor<8xui16>
  check.expect_eq_const %83, dense<[65535, 1, 32768, 65531, 0, 1, 65529, 32765]> : tensor<8xui16>
  %84 = stablehlo.not %c82 : tensor<8xui16>
  check.expect_eq_const %84, dense<[65534, 0, 32767, 65530, 65535, 0, 65528, 32764]> : tensor<8xui16>
  // conversions zero-extend; to floats from the unsigned value
  %85 = stablehlo.convert %c82 : (tensor<8xui16>) -> tensor<8xi64>
  check.expect_eq_const %85, dense<[1, 65535, 32768, 5, 0, 65535, 7, 32771]> : tensor<8xi64>
  %86 = stablehlo.convert %c82 : (tensor<8xui16>) -> tensor<8xf64>
  check.expect_eq_const %86, dense<[0x3FF0000000000000, 0x40EFFFE000000000, 0x40E0000000000000, 0x4014000000000000, 0x0000000000000000, 0x40EFFFE000000000, 0x401C000000000000, 0x40E0006000000000]> : tensor<8xf64>
  %87 = stablehlo.convert %c82 : (tensor<8xui16>) -> tensor<8xf32>
  check.expect_eq_const %87, dense<[0x3F800000, 0x477FFF00, 0x47000000, 0x40A00000, 0x00000000, 0x477FFF00, 0x40E00000, 0x47000300]> : tensor<8xf32>
  // ui32: wrapping +, -, *
  %c88 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c89 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %90 = stablehlo.add %c88, %c89 : tensor<8xui32>
  check.expect_eq_const %90, dense<[3, 0, 0, 10, 3, 4294967294, 7, 2147483653]> : tensor<8xui32>
  %c91 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c92 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %93 = stablehlo.subtract %c91, %c92 : tensor<8xui32>
  check.expect_eq_const %93, dense<[4294967295, 4294967294, 0, 0, 4294967293, 0, 7, 2147483649]> : tensor<8xui32>
  %c94 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c95 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %96 = stablehlo.multiply %c94, %c95 : tensor<8xui32>
  check.expect_eq_const %96, dense<[2, 4294967295, 0, 25, 0, 1, 0, 6]> : tensor<8xui32>
  // unsigned division truncates; x/0 is all ones, x%0 is x (XLA)
  %c97 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c98 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %99 = stablehlo.divide %c97, %c98 : tensor<8xui32>
  check.expect_eq_const %99, dense<[0, 4294967295, 1, 1, 0, 1, 4294967295, 1073741825]> : tensor<8xui32>
  %c100 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c101 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %102 = stablehlo.remainder %c100, %c101 : tensor<8xui32>
  check.expect_eq_const %102, dense<[1, 0, 0, 0, 0, 0, 7, 1]> : tensor<8xui32>
  // maximum/minimum and compare order the values as unsigned: 2147483648 > 1
  %c103 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c104 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %105 = stablehlo.maximum %c103, %c104 : tensor<8xui32>
  check.expect_eq_const %105, dense<[2, 4294967295, 2147483648, 5, 3, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c106 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c107 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %108 = stablehlo.minimum %c106, %c107 : tensor<8xui32>
  check.expect_eq_const %108, dense<[1, 1, 2147483648, 5, 0, 4294967295, 0, 2]> : tensor<8xui32>
  %c109 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c110 = stablehlo.constant dense<[2, 1, 2147483648, 5, 3, 4294967295, 0, 2]> : tensor<8xui32>
  %111 = stablehlo.compare  GT, %c109, %c110,  UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
  check.expect_eq_const %111, dense<[false, true, false, false, false, false, true, true]> : tensor<8xi1>
  %112 = stablehlo.compare  LE, %c109, %c110,  UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
  check.expect_eq_const %112, dense<[true, false, true, true, true, true, false, false]> : tensor<8xi1>
  %113 = stablehlo.compare  LT, %c109, %c110 : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
  check.expect_eq_const %113, dense<[true, false, false, false, true, false, false, false]> : tensor<8xi1>
  // shifts: counts are unsigned; >= the width gives 0 (or the sign fill)
  %c114 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c115 = stablehlo.constant dense<[1, 31, 32, 33, 0, 3, 1, 4294967295]> : tensor<8xui32>
  %116 = stablehlo.shift_left %c114, %c115 : tensor<8xui32>
  check.expect_eq_const %116, dense<[2, 2147483648, 0, 0, 0, 4294967288, 14, 0]> : tensor<8xui32>
  %c117 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c118 = stablehlo.constant dense<[1, 31, 32, 33, 0, 3, 1, 4294967295]> : tensor<8xui32>
  %119 = stablehlo.shift_right_logical %c117, %c118 : tensor<8xui32>
  check.expect_eq_const %119, dense<[0, 1, 0, 0, 0, 536870911, 3, 0]> : tensor<8xui32>
  %c120 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c121 = stablehlo.constant dense<[1, 31, 32, 33, 0, 3, 1, 4294967295]> : tensor<8xui32>
  %122 = stablehlo.shift_right_arithmetic %c120, %c121 : tensor<8xui32>
  check.expect_eq_const %122, dense<[0, 4294967295, 4294967295, 0, 0, 4294967295, 3, 4294967295]> : tensor<8xui32>
  // power wraps; the exponent is unsigned
  %c123 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %c124 = stablehlo.constant dense<[3, 2, 1, 0, 5, 2, 3, 4]> : tensor<8xui32>
  %125 = stablehlo.power %c123, %c124 : tensor<8xui32>
  check.expect_eq_const %125, dense<[1, 1, 2147483648, 1, 0, 1, 343, 81]> : tensor<8xui32>
  // negate and not wrap
  %c126 = stablehlo.constant dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xui32>
  %127 = stablehlo.negate %c126 : tensor<8xui32>
  check.expect_eq_const %127, dense<[4294967295, 1, 2147483648, 4294967291, 0, 1, 4294967289, 2147483645]> : tensor<8xui32>
  %128 = stablehlo.not %c126 : tensor<8xui32>
  check.expect_eq_const %128, dense<[4294967294, 0, 2147483647, 4294967290, 4294967295, 0, 4294967288, 2147483644]> : tensor<8xui32>
  // conversions zero-extend; to floats from the unsigned value
  %129 = stablehlo.convert %c126 : (tensor<8xui32>) -> tensor<8xi64>
  check.expect_eq_const %129, dense<[1, 4294967295, 2147483648, 5, 0, 4294967295, 7, 2147483651]> : tensor<8xi64>
  %130 = stablehlo.convert %c126 : (tensor<8xui32>) -> tensor<8xf64>
  check.expect_eq_const %130, dense<[0x3FF0000000000000, 0x41EFFFFFFFE00000, 0x41E0000000000000, 0x4014000000000000, 0x0000000000000000, 0x41EFFFFFFFE00000, 0x401C000000000000, 0x41E0000000600000]> : tensor<8xf64>
  %131 = stablehlo.convert %c126 : (tensor<8xui32>) -> tensor<8xf32>
  check.expect_eq_const %131, dense<[0x3F800000, 0x4F800000, 0x4F000000, 0x40A00000, 0x00000000, 0x4F800000, 0x40E00000, 0x4F000000]> : tensor<8xf32>
  // ui64: wrapping +, -, *
  %c132 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c133 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %134 = stablehlo.add %c132, %c133 : tensor<8xui64>
  check.expect_eq_const %134, dense<[3, 0, 0, 10, 3, 18446744073709551614, 7, 9223372036854775813]> : tensor<8xui64>
  %c135 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c136 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %137 = stablehlo.subtract %c135, %c136 : tensor<8xui64>
  check.expect_eq_const %137, dense<[18446744073709551615, 18446744073709551614, 0, 0, 18446744073709551613, 0, 7, 9223372036854775809]> : tensor<8xui64>
  %c138 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c139 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %140 = stablehlo.multiply %c138, %c139 : tensor<8xui64>
  check.expect_eq_const %140, dense<[2, 18446744073709551615, 0, 25, 0, 1, 0, 6]> : tensor<8xui64>
  // unsigned division truncates; x/0 is all ones, x%0 is x (XLA)
  %c141 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c142 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %143 = stablehlo.divide %c141, %c142 : tensor<8xui64>
  check.expect_eq_const %143, dense<[0, 18446744073709551615, 1, 1, 0, 1, 18446744073709551615, 4611686018427387905]> : tensor<8xui64>
  %c144 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c145 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %146 = stablehlo.remainder %c144, %c145 : tensor<8xui64>
  check.expect_eq_const %146, dense<[1, 0, 0, 0, 0, 0, 7, 1]> : tensor<8xui64>
  // maximum/minimum and compare order the values as unsigned: 9223372036854775808 > 1
  %c147 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c148 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %149 = stablehlo.maximum %c147, %c148 : tensor<8xui64>
  check.expect_eq_const %149, dense<[2, 18446744073709551615, 9223372036854775808, 5, 3, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c150 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c151 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %152 = stablehlo.minimum %c150, %c151 : tensor<8xui64>
  check.expect_eq_const %152, dense<[1, 1, 9223372036854775808, 5, 0, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %c153 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c154 = stablehlo.constant dense<[2, 1, 9223372036854775808, 5, 3, 18446744073709551615, 0, 2]> : tensor<8xui64>
  %155 = stablehlo.compare  GT, %c153, %c154,  UNSIGNED : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
  check.expect_eq_const %155, dense<[false, true, false, false, false, false, true, true]> : tensor<8xi1>
  %156 = stablehlo.compare  LE, %c153, %c154,  UNSIGNED : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
  check.expect_eq_const %156, dense<[true, false, true, true, true, true, false, false]> : tensor<8xi1>
  %157 = stablehlo.compare  LT, %c153, %c154 : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
  check.expect_eq_const %157, dense<[true, false, false, false, true, false, false, false]> : tensor<8xi1>
  // shifts: counts are unsigned; >= the width gives 0 (or the sign fill)
  %c158 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c159 = stablehlo.constant dense<[1, 63, 64, 65, 0, 3, 1, 18446744073709551615]> : tensor<8xui64>
  %160 = stablehlo.shift_left %c158, %c159 : tensor<8xui64>
  check.expect_eq_const %160, dense<[2, 9223372036854775808, 0, 0, 0, 18446744073709551608, 14, 0]> : tensor<8xui64>
  %c161 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c162 = stablehlo.constant dense<[1, 63, 64, 65, 0, 3, 1, 18446744073709551615]> : tensor<8xui64>
  %163 = stablehlo.shift_right_logical %c161, %c162 : tensor<8xui64>
  check.expect_eq_const %163, dense<[0, 1, 0, 0, 0, 2305843009213693951, 3, 0]> : tensor<8xui64>
  %c164 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c165 = stablehlo.constant dense<[1, 63, 64, 65, 0, 3, 1, 18446744073709551615]> : tensor<8xui64>
  %166 = stablehlo.shift_right_arithmetic %c164, %c165 : tensor<8xui64>
  check.expect_eq_const %166, dense<[0, 18446744073709551615, 18446744073709551615, 0, 0, 18446744073709551615, 3, 18446744073709551615]> : tensor<8xui64>
  // power wraps; the exponent is unsigned
  %c167 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %c168 = stablehlo.constant dense<[3, 2, 1, 0, 5, 2, 3, 4]> : tensor<8xui64>
  %169 = stablehlo.power %c167, %c168 : tensor<8xui64>
  check.expect_eq_const %169, dense<[1, 1, 9223372036854775808, 1, 0, 1, 343, 81]> : tensor<8xui64>
  // negate and not wrap
  %c170 = stablehlo.constant dense<[1, 18446744073709551615, 9223372036854775808, 5, 0, 18446744073709551615, 7, 9223372036854775811]> : tensor<8xui64>
  %171 = stablehlo.negate %c170 : tensor<8xui64>
  check.expect_eq_const %171, dense<[18446744073709551615, 1, 9223372036854775808, 18446744073709551611, 0, 1, 18446744073709551609, 9223372036854775805]> : tensor<8xui64>
  %172 = stablehlo.not %c170 : tensor<8xui64>
  check.expect_eq_const %172, dense<[18446744073709551614, 0, 9223372036854775807, 18446744073709551610, 18446744073709551615, 0, 18446744073709551608, 9223372036854775804]> : tensor<8xui64>
  // conversions zero-extend; to floats from the unsigned value
  %173 = stablehlo.convert %c170 : (tensor<8xui64>) -> tensor<8xi64>
  check.expect_eq_const %173, dense<[1, -1, -9223372036854775808, 5, 0, -1, 7, -9223372036854775805]> : tensor<8xi64>
  %174 = stablehlo.convert %c170 : (tensor<8xui64>) -> tensor<8xf64>
  check.expect_eq_const %174, dense<[0x3FF0000000000000, 0x43F0000000000000, 0x43E0000000000000, 0x4014000000000000, 0x0000000000000000, 0x43F0000000000000, 0x401C000000000000, 0x43E0000000000000]> : tensor<8xf64>
  %175 = stablehlo.convert %c170 : (tensor<8xui64>) -> tensor<8xf32>
  check.expect_eq_const %175, dense<[0x3F800000, 0x5F800000, 0x5F000000, 0x40A00000, 0x00000000, 0x5F800000, 0x40E00000, 0x5F000000]> : tensor<8xf32>
  %c176 = stablehlo.constant dense<[0x3FC00000, 0xBF000000, 0xC0400000, 0x437FE666, 0x43800000, 0x7149F2CA, 0x7FC00000, 0x7F800000, 0xFF800000, 0x4788B800]> : tensor<10xf32>
  // f32 -> unsigned: truncate toward zero, saturate to [0, max], NaN -> 0
  %177 = stablehlo.convert %c176 : (tensor<10xf32>) -> tensor<10xui8>
  check.expect_eq_const %177, dense<[1, 0, 0, 255, 255, 255, 0, 255, 0, 255]> : tensor<10xui8>
  %178 = stablehlo.convert %c176 : (tensor<10xf32>) -> tensor<10xui16>
  check.expect_eq_const %178, dense<[1, 0, 0, 255, 256, 65535, 0, 65535, 0, 65535]> : tensor<10xui16>
  %179 = stablehlo.convert %c176 : (tensor<10xf32>) -> tensor<10xui32>
  check.expect_eq_const %179, dense<[1, 0, 0, 255, 256, 4294967295, 0, 4294967295, 0, 70000]> : tensor<10xui32>
  %180 = stablehlo.convert %c176 : (tensor<10xf32>) -> tensor<10xui64>
  check.expect_eq_const %180, dense<[1, 0, 0, 255, 256, 18446744073709551615, 0, 18446744073709551615, 0, 70000]> : tensor<10xui64>
  %c181 = stablehlo.constant dense<[18446744073709551615, 16777217, 16777219, 9223372586610589697]> : tensor<4xui64>
  // ui64 -> f32 and f64 round once, to nearest even
  %182 = stablehlo.convert %c181 : (tensor<4xui64>) -> tensor<4xf32>
  check.expect_eq_const %182, dense<[0x5F800000, 0x4B800000, 0x4B800002, 0x5F000001]> : tensor<4xf32>
  %183 = stablehlo.convert %c181 : (tensor<4xui64>) -> tensor<4xf64>
  check.expect_eq_const %183, dense<[0x43F0000000000000, 0x4170000010000000, 0x4170000030000000, 0x43E0000010000000]> : tensor<4xf64>
  return
}
