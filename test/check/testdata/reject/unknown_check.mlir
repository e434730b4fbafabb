// A check op this runner does not know (upstream's serialized probe).
// REJECT: unsupported: check.expect_serialized_eq
func.func @main() {
  %cst = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  check.expect_serialized_eq %cst, probe_id = "probe0" : tensor<2xf32>
  return
}
