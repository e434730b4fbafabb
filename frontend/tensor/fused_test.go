package tensor_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	. "github.com/stela-ml/stela/frontend/tensor"
)

// Fused eager mode (fused.go) on the CPU plugin, the default device. Error
// lines are tested with the plain mode's cases (TestFusedErrorsAtCallSite).

// fusedDelta is the stats' change over fn.
func fusedDelta(fn func()) FusedStats {
	a := FusedEagerStats()
	fn()
	b := FusedEagerStats()
	return FusedStats{Ops: b.Ops - a.Ops, Windows: b.Windows - a.Windows, Compiles: b.Compiles - a.Compiles,
		Hits: b.Hits - a.Hits, Reruns: b.Reruns - a.Reruns}
}

// ulps is how many f32 values lie between a and b (0 when equal, NaNs
// equal to NaNs).
func ulps(a, b float32) int64 {
	if a == b || (a != a && b != b) {
		return 0
	}
	ord := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u & (1<<31 - 1))
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

// TestFusedExamplesMatchEager runs each example's forward pass (the MLP,
// the CNN, the small transformer, and the MLP's training step with its
// derivative) eagerly in plain mode and in fused mode: the results must
// agree to the last bits of their scale. The plugin's fused kernels
// evaluate the same elementwise formulas as its one-op programs; what may
// differ is a multiply-add contracted into one FMA (and, in principle, a
// reduction's order), so the test logs whether they are bitwise equal and
// allows 1e-6 of each output's largest magnitude.
func TestFusedExamplesMatchEager(t *testing.T) {
	for _, name := range []string{"mlp", "cnn", "transformer", "mlp-train"} {
		t.Run(name, func(t *testing.T) {
			ex, err := examples.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			inputs := ex.Inputs(3)
			call := func() []*Tensor {
				out, err := jit.Call(ex.Func(), inputs...)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			plain := call()
			var fused []*Tensor
			st := fusedDelta(func() {
				WithEagerMode(EagerFused, func() { fused = call() })
			})
			if st.Ops == 0 || st.Windows == 0 {
				t.Fatalf("fused mode recorded %d ops in %d windows: it did not run fused", st.Ops, st.Windows)
			}
			worst, bitwise, worstRel := int64(0), true, 0.0
			for i := range plain {
				p, f := plain[i].Float32s(), fused[i].Float32s()
				scale := 0.0
				for _, v := range p {
					scale = max(scale, math.Abs(float64(v)))
				}
				for j := range p {
					u := ulps(p[j], f[j])
					bitwise = bitwise && u == 0
					worst = max(worst, u)
					if scale > 0 {
						worstRel = max(worstRel, math.Abs(float64(p[j])-float64(f[j]))/scale)
					}
				}
			}
			t.Logf("%s: %d ops in %d windows; bitwise equal %v, max %d ULP, max difference %.2g of the output's largest magnitude",
				name, st.Ops, st.Windows, bitwise, worst, worstRel)
			// A window's kernels may contract a multiply and an add into
			// one FMA (one rounding, as compiled code does), which moves a
			// result that cancels to near zero (an SGD update w - lr*g) by
			// many of its own ULP but not by more than an ULP or so of the
			// values it came from.
			if worstRel > 1e-6 {
				t.Errorf("fused results differ from plain eager by %.2g of the output's scale", worstRel)
			}
		})
	}
}

// TestFusedFlushTriggers: a window runs at a host read, at the op limit,
// at a control-flow boundary, at Flush, when an input is freed, when a
// jit-compiled function takes a lazy tensor, and when fused mode ends;
// never before.
func TestFusedFlushTriggers(t *testing.T) {
	x := FromSlice([]float32{1, 2, 3, 4})
	y := FromSlice([]float32{0.5, 0.5, 0.5, 0.5})
	defer SetEagerMode(SetEagerMode(EagerFused))
	Flush()

	var z *Tensor
	if st := fusedDelta(func() { z = Mul(Add(x, y), y) }); st.Ops != 2 || st.Windows != 0 {
		t.Fatalf("two ops: %+v, want 2 ops recorded and no window run", st)
	}
	st := fusedDelta(func() {
		if got := z.Float32s(); got[0] != 0.75 || got[3] != 2.25 {
			t.Errorf("z = %v, want [0.75 1.25 1.75 2.25]", got)
		}
	})
	if st.Windows != 1 {
		t.Errorf("host read: %+v, want one window run", st)
	}

	// The op limit: a long chain runs in windows without a read.
	st = fusedDelta(func() {
		z = x
		for range 2500 {
			z = Add(z, y)
		}
	})
	if st.Windows != 2 {
		t.Errorf("2500 chained ops: %d windows ran before the read, want 2 (of 1024 ops)", st.Windows)
	}
	if got := z.Float32s(); got[0] != 1+2500*0.5 {
		t.Errorf("chain: %v, want %v", got[0], 1+2500*0.5)
	}

	// Control flow: While on a lazy tensor runs the window first.
	z = Add(x, y)
	st = fusedDelta(func() {
		While(func(s []*Tensor) *Tensor { return Less(Sum(s[0]), Scalar(float32(100))) },
			func(s []*Tensor) []*Tensor { return []*Tensor{Add(s[0], s[0])} }, z)
	})
	if st.Windows != 1 {
		t.Errorf("While: %+v, want the window run first", st)
	}

	for _, c := range []struct {
		name string
		fn   func(z *Tensor)
	}{
		{"Flush", func(*Tensor) { Flush() }},
		{"Err", func(z *Tensor) { z.Err() }},
		{"Free of an input", func(*Tensor) { y2 := Add(y, y); Flush(); w := Mul(x, y2); y2.Free(); _ = w }},
		{"jit", func(z *Tensor) { jit.Compile(func(a *Tensor) *Tensor { return Neg(a) })(z) }},
		{"plain mode", func(*Tensor) { WithEagerMode(EagerPlain, func() {}) }},
	} {
		z := Add(x, y)
		st := fusedDelta(func() { c.fn(z) })
		if st.Windows < 1 {
			t.Errorf("%s: %+v, want a window run", c.name, st)
		}
	}
	// Free of an input: the window ran before the buffer went.
	y2 := Add(y, y)
	Flush()
	w := Mul(x, y2)
	y2.Free()
	if got := w.Float32s(); got[1] != 2 {
		t.Errorf("x*(y+y) after freeing y+y: %v, want [1 2 3 4]", got)
	}
}

// TestFusedCacheHits: a loop that records the same window each iteration
// compiles its program once.
func TestFusedCacheHits(t *testing.T) {
	x := FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8})
	a := Scalar(float32(0.75))
	defer SetEagerMode(SetEagerMode(EagerFused))
	Flush()
	step := func(x *Tensor) *Tensor { return GELU(Add(Mul(x, a), x)) }
	var outs [][]float32
	st := fusedDelta(func() {
		for range 6 {
			outs = append(outs, step(x).Float32s())
		}
	})
	if st.Windows != 6 || st.Compiles != 1 || st.Hits != 5 {
		t.Errorf("6 iterations: %+v, want 6 windows, 1 compile, 5 cache hits", st)
	}
	var want []float32
	WithEagerMode(EagerPlain, func() { want = step(x).Float32s() })
	for i, v := range outs[5] {
		if u := ulps(v, want[i]); u > 2 {
			t.Errorf("element %d: fused %v, plain %v", i, v, want[i])
		}
	}
}

// TestFusedIntermediates: a value used inside its window is not one of
// the window's results, but reading it later still gives its value (a
// program of its own computes it), and so does using it in a later op.
func TestFusedIntermediates(t *testing.T) {
	x := FromSlice([]float32{1, 2, 3})
	defer SetEagerMode(SetEagerMode(EagerFused))
	Flush()
	a := Add(x, x) // 2 4 6
	b := Mul(a, a) // 4 16 36
	if got := b.Float32s(); got[2] != 36 {
		t.Fatalf("b = %v", got)
	}
	var c *Tensor
	st := fusedDelta(func() {
		if got := a.Float32s(); got[0] != 2 || got[2] != 6 {
			t.Errorf("a read after its window ran = %v, want [2 4 6]", got)
		}
		c = Sub(a, x) // 1 2 3
	})
	if st.Reruns != 1 {
		t.Errorf("%+v, want one rerun for a", st)
	}
	if got := c.Float32s(); got[1] != 2 {
		t.Errorf("c = %v, want [1 2 3]", got)
	}
	// Freeing an input of a window that ran computes its intermediates
	// that are still alive first: they stay readable, as in plain mode.
	y := FromSlice([]float32{1, 2, 3})
	e := Add(y, y)   // 2 4 6, an intermediate
	f := Mul(e, e)   // 4 16 36, the window's result
	_ = f.Float32s() // runs the window
	st = fusedDelta(func() { y.Free() })
	if st.Reruns != 1 {
		t.Errorf("freeing a window's input: %+v, want its live intermediate computed (one rerun)", st)
	}
	if got := e.Float32s(); got[2] != 6 {
		t.Errorf("intermediate after its window's input was freed = %v, want [2 4 6]", got)
	}
	// A freed lazy tensor is not computed, and reading it fails.
	d := Add(x, x)
	d.Free()
	if err := Catch(func() { d.Float32s() }); err == nil || !strings.Contains(err.Error(), "freed") {
		t.Errorf("reading a freed fused result: %v, want an error saying it was freed", err)
	}
}

func TestEagerModeString(t *testing.T) {
	if EagerPlain.String() != "plain" || EagerFused.String() != "fused" {
		t.Errorf("%v %v", EagerPlain, EagerFused)
	}
}
