// stablehlo.rng_bit_generator: the specification leaves the bits to the
// implementation; Stela produces XLA's (its RngBitGeneratorExpander, with
// DEFAULT being PHILOX on CPU). Expected values: a Python model of
// xla/hlo/builder/lib/prng.cc (Threefry-2x32 and Philox-4x32 checked
// against the Random123 known answers), covering the shape split of
// 32-bit THREE_FRY outputs, 64-bit outputs, a scalar, the three-word
// PHILOX state and a counter that carries.
func.func @main() {
  %s0 = stablehlo.constant dense<[42, 7]> : tensor<2xui64>
  %0:2 = stablehlo.rng_bit_generator %s0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  check.expect_eq_const %0#0, dense<[42, 10]> : tensor<2xui64>
  check.expect_eq_const %0#1, dense<[[2642642533, 356970675, 4222757798], [3437982737, 1736384518, 1010817143]]> : tensor<2x3xui32>
  %s1 = stablehlo.constant dense<[1311768467463790320, 18446744073709551614]> : tensor<2xui64>
  %1:2 = stablehlo.rng_bit_generator %s1, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  check.expect_eq_const %1#0, dense<[1311768467463790320, 1]> : tensor<2xui64>
  check.expect_eq_const %1#1, dense<[8112081530999492730, 2445923859953712039, 5540413775124856893]> : tensor<3xui64>
  %s2 = stablehlo.constant dense<[5, 1]> : tensor<2xui64>
  %2:2 = stablehlo.rng_bit_generator %s2, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)
  check.expect_eq_const %2#0, dense<[5, 2]> : tensor<2xui64>
  check.expect_eq_const %2#1, dense<2544891230> : tensor<ui32>
  %3:2 = stablehlo.rng_bit_generator %s2, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x3xui32>)
  check.expect_eq_const %3#0, dense<[5, 7]> : tensor<2xui64>
  check.expect_eq_const %3#1, dense<[[2544891230, 349696651, 2907045216], [2061267011, 457712840, 1505917370], [3356996319, 635358152, 2857746084]]> : tensor<3x3xui32>
  %4:2 = stablehlo.rng_bit_generator %s0, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  check.expect_eq_const %4#0, dense<[42, 9]> : tensor<2xui64>
  check.expect_eq_const %4#1, dense<[1436477672, 1015822685, 1056814300, 3113490754, 1193696974]> : tensor<5xui32>
  %s5 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xui64>
  %5:2 = stablehlo.rng_bit_generator %s5, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xui64>)
  check.expect_eq_const %5#0, dense<[1, 4, 3]> : tensor<3xui64>
  check.expect_eq_const %5#1, dense<[5869932932755744586, 13107052260063114245, 8234580641674714347]> : tensor<3xui64>
  %s6 = stablehlo.constant dense<[9, 18446744073709551615]> : tensor<2xui64>
  %6:2 = stablehlo.rng_bit_generator %s6, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
  check.expect_eq_const %6#0, dense<[9, 0]> : tensor<2xui64>
  check.expect_eq_const %6#1, dense<[[2565951392, 441695103], [3278809395, 2535035705]]> : tensor<2x2xui32>
  return
}
