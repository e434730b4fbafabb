package examples_test

import (
	"math"
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// runnable are the configs small enough for the reference evaluator in a
// unit test; the registry's big ones are only traced.
var runnable = map[string]examples.Example{
	"mlp":         examples.DefaultMLP(),
	"cnn":         &examples.CNN{Batch: 2, Height: 12, Width: 10, Channels: 2, C1: 4, C2: 8, Classes: 10},
	"transformer": examples.SmallTransformer(),
}

func TestRegistry(t *testing.T) {
	names := examples.Names()
	want := []string{"cnn", "gpt2-small", "mlp", "mlp-train", "transformer"}
	if len(names) != len(want) {
		t.Fatalf("Names = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("Names = %v, want %v", names, want)
		}
		if ex, err := examples.Get(want[i]); err != nil || ex.Name() != want[i] {
			t.Errorf("Get(%q) = %v, %v", want[i], ex, err)
		}
	}
	if _, err := examples.Get("nope"); err == nil {
		t.Error("Get of an unknown name succeeded")
	}
}

func TestTraceAll(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name(), func(t *testing.T) {
			r, err := examples.Trace(ex)
			if err != nil {
				t.Fatal(err)
			}
			if err := ir.Verify(r.Func); err != nil {
				t.Fatalf("verify: %v", err)
			}
			if len(r.Captured) != 0 || len(r.Func.Params) != len(ex.Specs()) {
				t.Errorf("%d parameters and %d captured tensors, want %d and none", len(r.Func.Params), len(r.Captured), len(ex.Specs()))
			}
			want := 1
			if ex.Name() == "mlp-train" {
				want = 7 // the loss and the six updated weights
			}
			if len(r.Func.Results) != want {
				t.Errorf("%d results, want %d", len(r.Func.Results), want)
			}
			if ex.Doc() == "" {
				t.Error("no doc")
			}
		})
	}
}

func TestEagerEqualsTraced(t *testing.T) {
	for name, ex := range runnable {
		t.Run(name, func(t *testing.T) {
			in := ex.Inputs(1)
			for i, s := range ex.Specs() {
				if !in[i].Type().Equal(s) {
					t.Fatalf("input #%d is %v, spec %v", i, in[i].Type(), s)
				}
			}
			eager, err := examples.Call(ex, in)
			if err != nil {
				t.Fatalf("eager: %v", err)
			}
			r, err := examples.Trace(ex)
			if err != nil {
				t.Fatal(err)
			}
			traced, err := r.Call(in...)
			if err != nil {
				t.Fatalf("traced: %v", err)
			}
			if name == "transformer" {
				// Compiled, the attention is one fused kernel (online
				// softmax, docs/cpu-plugin.md "Fused attention"), whose
				// rounding differs from the ops one by one: a few ulps of
				// the attention's output (bounded in pjrt/cpu/codegen's
				// TestAttentionFused), carried through the block's
				// projections and layer norms, well under 1e-5 here
				// (values of order 1; measured: 2.4e-7).
				if err := ir.LiteralsAllClose(traced[0].Literal(), eager.Literal(), 1e-5, 1e-5); err != nil {
					t.Errorf("traced result differs from eager: %v\n%v\n%v", err, traced[0], eager)
				}
			} else if !ir.LiteralEqual(eager.Literal(), traced[0].Literal()) {
				t.Errorf("traced result differs from eager:\n%v\n%v", traced[0], eager)
			}
			for i, v := range eager.Float32s() {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("element %d is %v", i, v)
				}
			}
		})
	}
}

func TestOutputs(t *testing.T) {
	ex := runnable["mlp"]
	p, err := examples.Call(ex, ex.Inputs(7))
	if err != nil {
		t.Fatal(err)
	}
	sums := tensor.Sum(p, -1).Float32s()
	for i, s := range sums {
		if math.Abs(float64(s)-1) > 1e-5 {
			t.Errorf("probabilities of row %d sum to %v", i, s)
		}
	}
	// Inputs are deterministic.
	a, b := ex.Inputs(3), ex.Inputs(3)
	for i := range a {
		if !ir.LiteralEqual(a[i].Literal(), b[i].Literal()) {
			t.Errorf("input #%d differs between two calls with the same seed", i)
		}
	}
	if ir.LiteralEqual(a[0].Literal(), ex.Inputs(4)[0].Literal()) {
		t.Error("different seeds give the same input")
	}
	// The causal mask: changing the last position leaves earlier outputs alone.
	tr := &examples.Transformer{Batch: 1, Seq: 6, DModel: 16, Heads: 2, MLP: 32, Eps: 1e-5}
	in := tr.Inputs(5)
	out1, err := examples.Call(tr, in)
	if err != nil {
		t.Fatal(err)
	}
	x := in[0]
	s := tr.Seq
	in[0] = tensor.Concat(1, tensor.SliceAxis(x, 1, 0, s-1), tensor.Neg(tensor.SliceAxis(x, 1, s-1, s)))
	out2, err := examples.Call(tr, in)
	if err != nil {
		t.Fatal(err)
	}
	early := func(o *tensor.Tensor) *ir.Literal { return tensor.SliceAxis(o, 1, 0, s-1).Literal() }
	if err := ir.LiteralsAllClose(early(out2), early(out1), 1e-6, 1e-6); err != nil {
		t.Errorf("a later position changed earlier outputs: %v", err)
	}
	if ir.LiteralEqual(tensor.SliceAxis(out1, 1, s-1, s).Literal(), tensor.SliceAxis(out2, 1, s-1, s).Literal()) {
		t.Error("changing the last position did not change its output")
	}
}
