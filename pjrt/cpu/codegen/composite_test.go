package codegen_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// TestComposite compiles a stablehlo.composite (a softmax, as the
// fuse-composites pass groups it) by expanding its decomposition, twice in
// one module so that the shared decomposition is inlined twice.
func TestComposite(t *testing.T) {
	f, err := ir.ParseFunc(`func @f(%0: f32[2,8]) -> (f32[2,8], f32[2,8]) {
  %1 = composite %0 {name = "stela.softmax", attrs = {axis = 1}} @softmax(%0: f32[2,8]) {
    %1 = constant {value = dense<-inf> : f32[]} : f32[]
    %2 = reduce %0, %1 {dims = [1]} @maximum(%0: f32[], %1: f32[]) {
      %2 = maximum %0, %1 : f32[]
      return %2
    } : f32[2]
    %3 = reshape %2 {shape = [2, 1]} : f32[2,1]
    %4 = broadcast_in_dim %3 {shape = [2, 8], dims = [0, 1]} : f32[2,8]
    %5 = subtract %0, %4 : f32[2,8]
    %6 = exponential %5 : f32[2,8]
    %7 = constant {value = dense<0.0> : f32[]} : f32[]
    %8 = reduce %6, %7 {dims = [1]} @add(%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[2]
    %9 = reshape %8 {shape = [2, 1]} : f32[2,1]
    %10 = broadcast_in_dim %9 {shape = [2, 8], dims = [0, 1]} : f32[2,8]
    %11 = divide %6, %10 : f32[2,8]
    return %11
  } : f32[2,8]
  %2 = exponential %1 : f32[2,8]
  %3 = composite %2 {name = "stela.softmax", attrs = {axis = 1}} @softmax(%0: f32[2,8]) {
    %1 = constant {value = dense<-inf> : f32[]} : f32[]
    %2 = reduce %0, %1 {dims = [1]} @maximum(%0: f32[], %1: f32[]) {
      %2 = maximum %0, %1 : f32[]
      return %2
    } : f32[2]
    %3 = reshape %2 {shape = [2, 1]} : f32[2,1]
    %4 = broadcast_in_dim %3 {shape = [2, 8], dims = [0, 1]} : f32[2,8]
    %5 = subtract %0, %4 : f32[2,8]
    %6 = exponential %5 : f32[2,8]
    %7 = constant {value = dense<0.0> : f32[]} : f32[]
    %8 = reduce %6, %7 {dims = [1]} @add(%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[2]
    %9 = reshape %8 {shape = [2, 1]} : f32[2,1]
    %10 = broadcast_in_dim %9 {shape = [2, 8], dims = [0, 1]} : f32[2,8]
    %11 = divide %6, %10 : f32[2,8]
    return %11
  } : f32[2,8]
  return %1, %3
}`)
	if err != nil {
		t.Fatal(err)
	}
	src := lowerText(t, f)
	if !strings.Contains(src, "stablehlo.composite") {
		t.Fatalf("lowered text has no stablehlo.composite:\n%s", src)
	}
	if !codegen.Handles("stablehlo.composite") {
		t.Error(`Handles("stablehlo.composite") = false`)
	}
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 16)
	for i := range vals {
		vals[i] = r.NormFloat64() * 4
	}
	x := ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 2, 8), vals)
	want, err := ir.Eval(f, x)
	if err != nil {
		t.Fatal(err)
	}
	p := compile(t, src)
	got, rc, msg := p.run(t, x)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, msg)
	}
	for i := range want {
		if err := ir.LiteralsAllClose(got[i], want[i], 1e-6, 1e-5); err != nil {
			t.Errorf("result %d: %v", i, err)
		}
	}
}
