package autodiff_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/gradcases"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes/autodiff"
)

func eval(t *testing.T, f *ir.Func, args []*ir.Literal) []*ir.Literal {
	t.Helper()
	out, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatalf("eval @%s: %v", f.Name, err)
	}
	return out
}

// shift returns args with args[p] moved by d·dir.
func shift(args []*ir.Literal, p int, dir []float64, d float64) []*ir.Literal {
	out := append([]*ir.Literal{}, args...)
	v := args[p].Float64s()
	w := make([]float64, len(v))
	for i := range v {
		w[i] = v[i] + d*dir[i]
	}
	out[p] = ir.LiteralFromFloat64s(args[p].Type, w)
	return out
}

// dot is Re(Σ a·b) over the float and complex results: the loss whose
// gradient a VJP with cotangents b computes (JAX's convention, which
// does not conjugate).
func dot(a, b []*ir.Literal) float64 {
	s := 0.0
	for i := range a {
		if !ir.Differentiable(a[i].Type.DType) {
			continue
		}
		x, y := a[i].Complex128s(), b[i].Complex128s()
		for k := range x {
			s += real(x[k] * y[k])
		}
	}
	return s
}

func closeTo(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*(1+math.Abs(want))
}

// secondOrder are the ops whose second derivatives the test checks too:
// the elementwise ops, products and reductions (jit.Grad of jit.Grad).
var secondOrder = map[ir.Op]bool{
	ir.OpNegate: true, ir.OpExp: true, ir.OpExpm1: true, ir.OpLog: true, ir.OpLog1p: true,
	ir.OpLogistic: true, ir.OpSqrt: true, ir.OpRsqrt: true, ir.OpCbrt: true, ir.OpTanh: true,
	ir.OpSine: true, ir.OpCosine: true, ir.OpTan: true, ir.OpErf: true, ir.OpAbs: true,
	ir.OpAdd: true, ir.OpSubtract: true, ir.OpMultiply: true, ir.OpDivide: true, ir.OpPower: true,
	ir.OpMaximum: true, ir.OpMinimum: true, ir.OpAtan2: true, ir.OpSelect: true,
	ir.OpDotGeneral: true, ir.OpReduce: true, ir.OpBroadcastInDim: true, ir.OpTranspose: true,
	ir.OpReshape: true, ir.OpConvolution: true, ir.OpReduceWindow: true,
}

// TestFiniteDifferences checks every op's VJP and JVP rules against
// central differences in f64 on random inputs, through the joint (VJP,
// JVP) and the residual (NewBackward, NewForward) forms of the
// transform, and fails when an op has no rule and no NotDifferentiable
// mark, or has a rule and no case here.
func TestFiniteDifferences(t *testing.T) {
	covered := map[ir.Op]bool{}
	for _, c := range gradcases.Cases() {
		covered[c.Op] = true
		t.Run(c.Name, func(t *testing.T) {
			if err := ir.Verify(c.F); err != nil {
				t.Fatalf("case does not verify: %v\n%v", err, c.F)
			}
			r := rand.New(rand.NewPCG(1, uint64(len(c.Name))))
			tol, h := c.Tol, c.H
			if tol == 0 {
				tol = 1e-6
			}
			if h == 0 {
				h = 1e-6
			}
			args := c.Inputs(r)
			outs := eval(t, c.F, args)
			cts := make([]*ir.Literal, len(outs))
			for j, o := range outs {
				if o.Type.DType.IsComplex() {
					cts[j] = gradcases.ComplexNormal(r, o.Type)
				} else {
					cts[j] = gradcases.Normal(r, o.Type)
				}
			}
			loss := func(a []*ir.Literal) float64 { return dot(eval(t, c.F, a), cts) }

			vjp, err := autodiff.VJP(c.F, c.WRT, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := eval(t, vjp, append(append([]*ir.Literal{}, args...), cts...))
			for j := range outs {
				if err := ir.LiteralsClose(got[j], outs[j], 0); err != nil {
					t.Errorf("vjp's forward result #%d: %v", j, err)
				}
			}
			grads := got[len(outs):]
			// Residual form: evaluate the residuals, then the derivative part.
			bwd, err := autodiff.NewBackward(c.F, c.WRT, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := residuals(t, c.F, bwd.Residuals, args)
			g2 := eval(t, bwd.Func, append(append([]*ir.Literal{}, cts...), res...))
			for i := range grads {
				if err := ir.LiteralsAllClose(g2[i], grads[i], 1e-12, 1e-12); err != nil {
					t.Errorf("NewBackward's gradient #%d differs from VJP's: %v", i, err)
				}
			}
			for i, w := range c.WRT {
				g := grads[i].Float64s()
				for e := range g {
					dir := make([]float64, len(g))
					dir[e] = 1
					fd := (loss(shift(args, w, dir, h)) - loss(shift(args, w, dir, -h))) / (2 * h)
					if !closeTo(g[e], fd, tol*100) {
						t.Errorf("∂/∂param#%d[%d]: vjp %v, finite difference %v", w, e, g[e], fd)
					}
				}
			}

			// Forward mode along a random direction per parameter.
			jvp, err := autodiff.JVP(c.F, c.WRT, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tans := make([]*ir.Literal, len(c.WRT))
			for i, w := range c.WRT {
				tans[i] = gradcases.Normal(r, args[w].Type)
			}
			jo := eval(t, jvp, append(append([]*ir.Literal{}, args...), tans...))
			plus, minus := append([]*ir.Literal{}, args...), append([]*ir.Literal{}, args...)
			for i, w := range c.WRT {
				plus = shift(plus, w, tans[i].Float64s(), h)
				minus = shift(minus, w, tans[i].Float64s(), -h)
			}
			op, om := eval(t, c.F, plus), eval(t, c.F, minus)
			for j := range outs {
				if !ir.Differentiable(outs[j].Type.DType) {
					continue
				}
				tg := jo[len(outs)+j].Complex128s()
				p, m := op[j].Complex128s(), om[j].Complex128s()
				for e := range tg {
					fd := (p[e] - m[e]) / complex(2*h, 0)
					if !closeTo(real(tg[e]), real(fd), tol*100) || !closeTo(imag(tg[e]), imag(fd), tol*100) {
						t.Errorf("jvp result #%d[%d]: %v, finite difference %v", j, e, tg[e], fd)
					}
				}
			}
			fwd, err := autodiff.NewForward(c.F, c.WRT, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fres := residuals(t, c.F, fwd.Residuals, args)
			t2 := eval(t, fwd.Func, append(append([]*ir.Literal{}, tans...), fres...))
			for j := range outs {
				if err := ir.LiteralsAllClose(t2[j], jo[len(outs)+j], 1e-12, 1e-12); err != nil {
					t.Errorf("NewForward's tangent #%d differs from JVP's: %v", j, err)
				}
			}

			// Second order: the VJP of the VJP (the gradient's own
			// gradient, for a random weighting v of the gradient) agrees
			// with differences of the gradient, for the ops whose rules
			// are made of differentiable ops.
			if !secondOrder[c.Op] || strings.HasPrefix(c.Name, "reduce/product") {
				// A product reduction's VJP takes running products with
				// reduce_window over multiply, which has a VJP only for add,
				// max and min bodies: first order only.
				return
			}
			g := ir.CloneFunc(vjp)
			g.Results = g.Results[len(outs):] // the gradients only
			vs := make([]*ir.Literal, len(g.Results))
			for i, res := range g.Results {
				vs[i] = gradcases.Normal(r, res.Type)
			}
			gg, err := autodiff.VJP(g, c.WRT, autodiff.Options{})
			if err != nil {
				t.Fatalf("second order: %v", err)
			}
			gargs := append(append([]*ir.Literal{}, args...), cts...)
			hv := eval(t, gg, append(append([]*ir.Literal{}, gargs...), vs...))[len(g.Results):]
			wloss := func(a []*ir.Literal) float64 { return dot(eval(t, g, a), vs) }
			for i, w := range c.WRT {
				got := hv[i].Float64s()
				for e := range got {
					dir := make([]float64, len(got))
					dir[e] = 1
					fd := (wloss(shift(gargs, w, dir, h)) - wloss(shift(gargs, w, dir, -h))) / (2 * h)
					if !closeTo(got[e], fd, 1e-4) {
						t.Errorf("second order ∂/∂param#%d[%d]: %v, finite difference %v", w, e, got[e], fd)
					}
				}
			}
		})
	}
	for _, op := range ir.AllOps() {
		info := op.Info()
		switch {
		case info.Has(ir.NotDifferentiable):
			if info.VJP != nil || info.JVP != nil {
				t.Errorf("%v is marked not differentiable but has a rule", op)
			}
		case info.VJP == nil:
			t.Errorf("%v has no VJP rule and is not marked NotDifferentiable", op)
		case !covered[op]:
			t.Errorf("%v has a VJP rule but no finite-difference case", op)
		}
	}
}

// residuals evaluates the given values of f on args, by making them f's
// results.
func residuals(t *testing.T, f *ir.Func, vs []*ir.Value, args []*ir.Literal) []*ir.Literal {
	t.Helper()
	if len(vs) == 0 {
		return nil
	}
	g := ir.CloneFunc(f)
	// CloneFunc keeps instruction order, so the i-th value of f maps to
	// the i-th of g; find them by position.
	pos := map[*ir.Value]*ir.Value{}
	for i, p := range f.Params {
		pos[p] = g.Params[i]
	}
	for i, in := range f.Body {
		for k, r := range in.Results {
			pos[r] = g.Body[i].Results[k]
		}
	}
	rs := make([]*ir.Value, len(vs))
	for i, v := range vs {
		rs[i] = pos[v]
	}
	g.Return(rs...)
	return eval(t, g, args)
}

// TestNotDifferentiable: a derivative that must go through an op without
// one is an error located at that op.
func TestNotDifferentiable(t *testing.T) {
	loc := ir.Loc{File: "user.go", Line: 42}
	f := ir.NewFunc("bits", ir.TensorOf(ir.F64, 3))
	b := ir.NewBuilder(f, loc)
	y := b.Emit1(ir.OpBitcastConvert, f.Params, ir.BitcastConvertAttr{To: ir.F64})
	f.Return(b.Mul(y, f.Params[0]))
	_, err := autodiff.VJP(f, []int{0}, autodiff.Options{})
	var e *ir.Error
	if !errors.As(err, &e) || e.Loc.Line != 42 || !strings.Contains(err.Error(), "bitcast_convert: is not differentiable") {
		t.Fatalf("err = %v, want a located bitcast_convert error", err)
	}
	if _, err := autodiff.JVP(f, []int{0}, autodiff.Options{}); err == nil || !strings.Contains(err.Error(), "bitcast_convert") {
		t.Fatalf("jvp err = %v", err)
	}
	// Integer parameters have no derivative.
	g := ir.NewFunc("int", ir.TensorOf(ir.S32, 2))
	g.Return(g.Params[0])
	if _, err := autodiff.VJP(g, []int{0}, autodiff.Options{}); err == nil || !strings.Contains(err.Error(), "only float") {
		t.Fatalf("err = %v", err)
	}
}
