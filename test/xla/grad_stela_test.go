package xla

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/internal/gradcases"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes/autodiff"
)

// TestGradientsMatchJAX differentiates every case of internal/gradcases
// (the functions that exercise each differentiable op, which
// passes/autodiff's finite-difference test also checks) with Stela's
// autodiff (VJP and JVP, evaluated by ir.Eval) and with JAX (jax.vjp and
// jax.jvp of the same lowered program, grad_xla.py), with the same inputs,
// cotangents and tangents, and requires them to agree to rounding. Stela's
// rules follow JAX's, so the two compute the same formulas; a case whose
// rule departs from JAX's on purpose says why and is skipped.
func TestGradientsMatchJAX(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs JAX")
	}
	type pending struct {
		c          gradcases.Case
		args       []*ir.Literal
		grads      []*ir.Literal // Stela's, one per WRT
		tangents   []*ir.Literal // Stela's, one per result
		vjp, jvp   *job
		cts, tin   []*ir.Literal
		skipReason string
	}
	var b jaxBatch
	var ps []*pending
	for _, c := range gradcases.Cases() {
		p := &pending{c: c}
		ps = append(ps, p)
		if c.NotJAX != "" {
			p.skipReason = c.NotJAX
			continue
		}
		r := rand.New(rand.NewPCG(3, uint64(len(c.Name))))
		p.args = c.Inputs(r)
		outs, err := ir.Eval(c.F, p.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, o := range outs {
			if o.Type.DType.IsComplex() {
				p.cts = append(p.cts, gradcases.ComplexNormal(r, o.Type))
			} else {
				p.cts = append(p.cts, gradcases.Normal(r, o.Type))
			}
		}
		vjp, err := autodiff.VJP(c.F, c.WRT, autodiff.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, err := ir.Eval(vjp, append(append([]*ir.Literal{}, p.args...), p.cts...)...)
		if err != nil {
			t.Fatalf("%s: vjp: %v", c.Name, err)
		}
		p.grads = got[len(outs):]
		// Tangents: random for the WRT parameters, zero for the other
		// float ones, none for the others (JAX takes one per argument).
		var ts []*ir.Literal
		p.tin = make([]*ir.Literal, len(p.args))
		for i, a := range p.args {
			if inexact(a.Type) {
				p.tin[i] = ir.Zeros(a.Type)
			}
		}
		for _, w := range c.WRT {
			p.tin[w] = gradcases.Normal(r, p.args[w].Type)
			ts = append(ts, p.tin[w])
		}
		jvp, err := autodiff.JVP(c.F, c.WRT, autodiff.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, err = ir.Eval(jvp, append(append([]*ir.Literal{}, p.args...), ts...)...)
		if err != nil {
			t.Fatalf("%s: jvp: %v", c.Name, err)
		}
		p.tangents = got[len(outs):]
		if c.NoJAXVJP == "" {
			p.vjp = b.vjp(c.Name, c.F, p.args, p.cts)
		}
		p.jvp = b.jvp(c.Name, c.F, p.args, p.tin)
	}
	b.run(t)
	for _, p := range ps {
		t.Run(p.c.Name, func(t *testing.T) {
			if p.skipReason != "" {
				t.Skip(p.skipReason)
			}
			switch {
			case p.c.NoJAXVJP != "":
				t.Logf("vjp not compared: %s", p.c.NoJAXVJP)
			case !p.vjp.result.ok:
				t.Fatalf("JAX vjp: %s", p.vjp.result.err)
			default:
				for i, w := range p.c.WRT {
					gradsClose(t, "vjp cotangent of parameter", w, p.grads[i], p.vjp.result.derivs[w])
				}
			}
			if !p.jvp.result.ok {
				t.Fatalf("JAX jvp: %s", p.jvp.result.err)
			}
			for j, tg := range p.tangents {
				if !inexact(tg.Type) {
					continue
				}
				gradsClose(t, "jvp tangent of result", j, tg, p.jvp.result.derivs[j])
			}
		})
	}
}

// gradsClose compares Stela's derivative with JAX's: within 1e-9 of the
// larger magnitude in the pair, and 1e-12 absolutely (the two differ in
// how they round the same formulas, and in the order of a few sums).
func gradsClose(t *testing.T, what string, i int, got, want *ir.Literal) {
	t.Helper()
	if want == nil {
		t.Errorf("%s #%d: JAX gives none", what, i)
		return
	}
	if !got.Type.Equal(want.Type) {
		t.Errorf("%s #%d: Stela's is %v, JAX's %v", what, i, got.Type, want.Type)
		return
	}
	g, w := got.Complex128s(), want.Complex128s()
	bad := 0
	for k := range g {
		d := math.Max(math.Abs(real(g[k])-real(w[k])), math.Abs(imag(g[k])-imag(w[k])))
		scale := math.Max(cabs(g[k]), cabs(w[k]))
		if d > 1e-12+1e-9*scale || math.IsNaN(d) != (math.IsNaN(real(g[k])) && math.IsNaN(real(w[k]))) {
			if bad < 5 {
				t.Errorf("%s #%d[%d]: Stela %v, JAX %v", what, i, k, g[k], w[k])
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("%s #%d: %d elements differ", what, i, bad)
	}
}

func cabs(c complex128) float64 { return math.Hypot(real(c), imag(c)) }
