package stablehlo

import "testing"

// TestInlineRegionCallsNestedReturn: a region calls @outer, whose result
// is the result of its own call to @add (as JAX's closed_call returns a
// pjit's result). After inlining, the region's return must name the
// inlined add, not the removed call's result.
func TestInlineRegionCallsNestedReturn(t *testing.T) {
	src := `func.func private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @outer(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = call @add(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%p: tensor<f32>, %q: tensor<f32>) {
      %s = func.call @outer(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %t = stablehlo.multiply %s, %s : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0 : tensor<f32>
}
`
	m, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.InlineRegionCalls(); err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("after inlining: %v\n%s", err, m.String())
	}
	body := m.Func("main").Body.Blocks[0].Ops[1].Regions[0].Blocks[0]
	var names []string
	for _, op := range body.Ops {
		names = append(names, op.Name)
	}
	if len(body.Ops) != 3 || body.Ops[0].Name != "stablehlo.add" {
		t.Fatalf("reducer after inlining: %v, want add, multiply, return", names)
	}
	add := body.Ops[0].Results[0]
	for i, op := range body.Ops[1:] {
		for _, x := range op.Operands {
			if x != add {
				t.Errorf("%s (op %d) uses a value other than the inlined add's result", op.Name, i+1)
			}
		}
	}
}
