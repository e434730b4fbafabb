package xla

import (
	"os"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/stablehlo"
)

// TestXLADonation: the program Stela lowers for a donated argument
// (lowering.Options.Aliases: tf.aliasing_output on @main's argument, what
// jit.Donate compiles) is what XLA reads as donation: its compiler makes
// the attributes its input_output_alias, the same may-alias pairs JAX's
// donate_argnums gives it, and runs the program with ir.Eval's values.
// Stela's CPU plugin honours the same program (pjrt/cpu's TestDonation).
func TestXLADonation(t *testing.T) {
	o, err := findOracle()
	if err != nil {
		t.Skip(err)
	}
	// XLA's own optimization level: at fastXLAFlags' level 0 its CPU
	// compiler more often leaves a may-alias pair unshared (a fresh
	// result, the donated argument only freed), which may-alias allows.
	var env []string
	for _, e := range o.env {
		if !strings.HasPrefix(e, "XLA_FLAGS=") {
			env = append(env, e)
		}
	}
	if f := os.Getenv("XLA_FLAGS"); f != "" {
		env = append(env, "XLA_FLAGS="+f)
	}
	o = &oracle{python: o.python, env: env, script: o.script}
	m := ir.TensorOf(ir.F32, 64, 32)
	f := ir.NewFunc("step", m, m, m)
	b := &fb{f: f}
	w, g, mom := f.Params[0], f.Params[1], f.Params[2]
	nm := b.e1(ir.OpAdd, nil, mom, g)
	f.Return(b.e1(ir.OpSubtract, nil, w, nm), nm)
	mod, err := lowering.Lower(f, lowering.Options{Verify: true, Aliases: []int{0, -1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	vals := func(k float64) *ir.Literal {
		v := make([]float64, m.NumElements())
		for i := range v {
			v[i] = float64(i%9) * k
		}
		return ir.LiteralFromFloat64s(m, v)
	}
	args := []*ir.Literal{vals(1), vals(0.5), vals(0.25)}
	want, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	j := &job{name: "donate", mlir: string(stablehlo.Format(mod, stablehlo.PrintOptions{})), args: args, nOuts: 2,
		aliases: [][2]int{{0, 0}, {2, 1}}}
	if err := o.run(t.TempDir(), []*job{j}); err != nil {
		t.Fatal(err)
	}
	if !j.result.ok {
		t.Fatalf("XLA: %s\n%s", j.result.err, j.mlir)
	}
	// What XLA compiled: both pairs, as JAX's donate_argnums makes them.
	const want0, want1 = "{0}: (0, {}, may-alias)", "{1}: (2, {}, may-alias)"
	if h := j.result.hloAlias; !strings.Contains(h, want0) || !strings.Contains(h, want1) {
		t.Errorf("XLA compiled %q, want %s and %s", h, want0, want1)
	}
	// Whether it shared the memory this time: may-alias lets XLA's CPU
	// client decline at run time (it does, now and then, for buffers
	// with holds it cannot see past), so this is only logged.
	t.Logf("XLA: %s; results in the donated memory: %v", j.result.hloAlias, j.result.aliased)
	for k, l := range j.result.outs {
		if !ir.LiteralEqual(l, want[k]) {
			t.Errorf("result #%d differs from ir.Eval", k)
		}
	}
}
