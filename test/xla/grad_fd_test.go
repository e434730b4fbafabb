package xla

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/ir"
)

// TestJAXGradOracle checks the gradient oracle itself: jax.vjp and jax.jvp
// of small f64 programs, run by grad_xla.py on their lowered StableHLO,
// against central finite differences of the same ir functions computed
// with ir.Eval. Each program covers ops whose derivative JAX defines in its
// own way (elementwise functions, contractions, reductions and windows,
// data movement, gather and scatter, while and case); random inputs stay
// away from the kinks of max, abs, select and clamp by far more than the
// step. Where it passes, the oracle's derivatives are those of the
// programs Stela runs, and Stela's autodiff can be compared with them.
func TestJAXGradOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("starts jax and compiles about 50 programs; skipped in -short mode")
	}
	start := time.Now()
	cases := gradCases()
	var b jaxBatch
	type pair struct {
		c        *tcase
		vjp, jvp *job
		cts, tns []*ir.Literal
	}
	var ps []pair
	for _, c := range cases {
		if err := c.prepare(); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		r := rng("grad/" + c.name)
		p := pair{c: c}
		for _, v := range c.fn.Results {
			p.cts = append(p.cts, seedLit(r, v.Type))
		}
		for _, v := range c.fn.Params {
			p.tns = append(p.tns, seedLit(r, v.Type))
		}
		p.vjp = b.vjp(c.name, c.fn, c.in, p.cts)
		p.jvp = b.jvp(c.name, c.fn, c.in, p.tns)
		ps = append(ps, p)
	}
	// Programs the oracle must refuse, with an error naming the op.
	refused := []struct {
		j    *job
		want string
	}{}
	for _, rc := range refusedCases() {
		// Built but not evaluated: ir.Eval runs no custom_call.
		rc.c.fn = ir.NewFunc(funcName(rc.c.name), rc.c.paramTypes()...)
		res, err := rc.c.instantiate(rc.c.fn, rc.c.fn.Params)
		if err != nil {
			t.Errorf("%s: %v", rc.c.name, err)
			continue
		}
		rc.c.fn.Return(res...)
		var cts []*ir.Literal
		for _, v := range rc.c.fn.Results {
			cts = append(cts, seedLit(rng(rc.c.name), v.Type))
		}
		refused = append(refused, struct {
			j    *job
			want string
		}{b.vjp(rc.c.name, rc.c.fn, rc.c.in, cts), rc.err})
	}
	// Every inexact element type gets derivatives: x·x at x with seeds of
	// ones is 2x exactly, through vjp for real types and jvp for all
	// (JAX's complex vjp convention is not this test's business).
	type typed struct {
		j *job
		x *ir.Literal
	}
	var typedJobs []typed
	for _, d := range []ir.DType{ir.F16, ir.BF16, ir.F32, ir.F64, ir.C64, ir.C128} {
		ty := tt(d, 5)
		x := mapFloat(randLit(rng("grad/typed/"+d.String()), ty, true), func(v float64) float64 { return math.Round(v*8) / 8 })
		f := ir.NewFunc("square_" + d.String())
		p := f.AddParam(ty, ir.UnknownLoc)
		sq, err := f.Emit1(ir.UnknownLoc, ir.OpMultiply, []*ir.Value{p, p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		f.Return(sq)
		ones := []*ir.Literal{ir.FullLiteral(ty, 1)}
		typedJobs = append(typedJobs, typed{b.jvp(f.Name, f, []*ir.Literal{x}, ones), x})
		if !d.IsComplex() {
			typedJobs = append(typedJobs, typed{b.vjp(f.Name, f, []*ir.Literal{x}, ones), x})
		}
	}
	b.run(t)
	ran := time.Now()
	for _, tj := range typedJobs {
		j := tj.j
		if !j.result.ok {
			t.Errorf("%s %s: %s", j.name, j.kind, j.result.err)
			continue
		}
		want := mapFloat(tj.x, func(v float64) float64 { return 2 * v })
		if len(j.result.derivs) != 1 || j.result.derivs[0] == nil {
			t.Errorf("%s %s: derivatives %v, want one", j.name, j.kind, j.result.derivs)
		} else if err := ir.LiteralsClose(j.result.derivs[0], want, 0); err != nil {
			t.Errorf("%s %s: derivative of x·x: %v", j.name, j.kind, err)
		}
	}
	for _, r := range refused {
		if r.j.result.ok || !strings.Contains(r.j.result.err, r.want) {
			t.Errorf("%s: grad_xla.py answered ok=%v, error %q; want an error containing %q", r.j.name, r.j.result.ok, r.j.result.err, r.want)
		} else if *verbose {
			t.Logf("%s: %s", r.j.name, r.j.result.err)
		}
	}

	for _, p := range ps {
		c := p.c
		fd, err := finiteDiffs(c.fn, c.in)
		if err != nil {
			t.Errorf("%s: finite differences: %v", c.name, err)
			continue
		}
		for _, j := range []*job{p.vjp, p.jvp} {
			name := c.name + " " + j.kind
			if !j.result.ok {
				t.Errorf("%s: grad_xla.py: %s", name, firstLines(j.result.err, 8))
				continue
			}
			for k, w := range c.want {
				if err := ir.LiteralsAllClose(j.result.outs[k], w, 1e-12, 1e-12); err != nil {
					t.Errorf("%s: result #%d: JAX vs ir.Eval: %v", name, k, err)
				}
			}
			if j.kind == jobVJP {
				checkDerivs(t, name, "cotangent of argument", j.result.derivs, fd.vjp(p.cts), c.fn.Params)
			} else {
				checkDerivs(t, name, "tangent of result", j.result.derivs, fd.jvp(p.tns), c.fn.Results)
			}
		}
	}
	t.Logf("%d programs, %d jobs; grad_xla.py %.1fs, finite differences %.1fs",
		len(ps), len(b.jobs), ran.Sub(start).Seconds(), time.Since(ran).Seconds())
}

// checkDerivs compares JAX's derivatives with the finite differences'
// (value, and the sum of |terms| that bounds its error). vals are the
// values the derivatives belong to: one whose type is not inexact must
// have none.
func checkDerivs(t *testing.T, name, what string, got []*ir.Literal, want []fdDeriv, vals []*ir.Value) {
	t.Helper()
	if len(got) != len(vals) {
		t.Errorf("%s: %d derivatives for %d values", name, len(got), len(vals))
		return
	}
	for k, v := range vals {
		g := got[k]
		if !inexact(v.Type) {
			if g != nil {
				t.Errorf("%s: %s #%d (%v) has a derivative; JAX gives none for %v", name, what, k, v.Type, v.Type.DType)
			}
			continue
		}
		if g == nil || !g.Type.Equal(v.Type) {
			t.Errorf("%s: %s #%d is %v, want %v", name, what, k, litType(g), v.Type)
			continue
		}
		gv := g.Float64s()
		var bad []string
		nonzero := false
		for i, x := range gv {
			w := want[k].val[i]
			// The central difference's error: truncation h²·f'''/6 and
			// rounding u·|f|/h, well under 1e-6 of the terms it sums for
			// these programs' values.
			tol := 1e-6*want[k].scale[i] + 1e-9
			if math.Abs(x-w) > tol || math.IsNaN(x) {
				bad = append(bad, fmt.Sprintf("[%d]: JAX %.12g, finite differences %.12g (tolerance %.3g)", i, x, w, tol))
			}
			nonzero = nonzero || x != 0
		}
		if len(bad) > 0 {
			if len(bad) > *show {
				bad = append(bad[:*show], fmt.Sprintf("... %d in all", len(bad)))
			}
			t.Errorf("%s: %s #%d disagrees:\n  %s", name, what, k, strings.Join(bad, "\n  "))
		}
		if !nonzero && want[k].anyNonzero {
			t.Errorf("%s: %s #%d is all zeros", name, what, k)
		}
	}
}

// seedLit is a random cotangent or tangent for a value of type t (nil when
// t is not inexact).
func seedLit(r interface{ Float64() float64 }, t ir.Type) *ir.Literal {
	if !inexact(t) {
		return nil
	}
	v := make([]float64, t.NumElements())
	for i := range v {
		v[i] = 2*r.Float64() - 1
	}
	return ir.LiteralFromFloat64s(t, v)
}

// fdTable holds central differences: d[k][i][o] is the derivative of
// result o (flattened) with respect to element i of argument k (nil for an
// argument that is not f64).
type fdTable struct {
	d    [][][][]float64
	outs []ir.Type
}

// fdDeriv is a derivative from finite differences, with the sum of the
// absolute values of the terms that make it, per element.
type fdDeriv struct {
	val, scale []float64
	anyNonzero bool
}

// finiteDiffs differentiates f at args by central differences in f64,
// with a step of 1e-5 relative to each element.
func finiteDiffs(f *ir.Func, args []*ir.Literal) (*fdTable, error) {
	fd := &fdTable{d: make([][][][]float64, len(args))}
	for _, r := range f.Results {
		fd.outs = append(fd.outs, r.Type)
	}
	for k, a := range args {
		if a.Type.DType != ir.F64 {
			continue
		}
		x := a.Float64s()
		fd.d[k] = make([][][]float64, len(x))
		for i := range x {
			h := 1e-5 * max(1, math.Abs(x[i]))
			eval := func(xi float64) ([]*ir.Literal, error) {
				v := append([]float64(nil), x...)
				v[i] = xi
				in := append([]*ir.Literal(nil), args...)
				in[k] = ir.LiteralFromFloat64s(a.Type, v)
				return ir.Eval(f, in...)
			}
			plus, err := eval(x[i] + h)
			if err != nil {
				return nil, err
			}
			minus, err := eval(x[i] - h)
			if err != nil {
				return nil, err
			}
			for o := range plus {
				var d []float64
				if fd.outs[o].DType == ir.F64 {
					p, m := plus[o].Float64s(), minus[o].Float64s()
					d = make([]float64, len(p))
					for j := range p {
						d[j] = (p[j] - m[j]) / (2 * h)
					}
				}
				fd.d[k][i] = append(fd.d[k][i], d)
			}
		}
	}
	return fd, nil
}

// vjp is Σ_o Σ_j cts[o][j]·∂out_o[j]/∂arg_k[i] for each argument k.
func (fd *fdTable) vjp(cts []*ir.Literal) []fdDeriv {
	out := make([]fdDeriv, len(fd.d))
	for k, dk := range fd.d {
		out[k] = fdDeriv{val: make([]float64, len(dk)), scale: make([]float64, len(dk))}
		for i, di := range dk {
			for o, d := range di {
				if d == nil || cts[o] == nil {
					continue
				}
				c := cts[o].Float64s()
				for j := range d {
					out[k].val[i] += c[j] * d[j]
					out[k].scale[i] += math.Abs(c[j] * d[j])
				}
			}
			out[k].anyNonzero = out[k].anyNonzero || out[k].val[i] != 0
		}
	}
	return out
}

// jvp is Σ_k Σ_i tns[k][i]·∂out_o[j]/∂arg_k[i] for each result o.
func (fd *fdTable) jvp(tns []*ir.Literal) []fdDeriv {
	out := make([]fdDeriv, len(fd.outs))
	for o, t := range fd.outs {
		if t.DType != ir.F64 {
			continue
		}
		n := t.NumElements()
		out[o] = fdDeriv{val: make([]float64, n), scale: make([]float64, n)}
		for k, dk := range fd.d {
			if tns[k] == nil {
				continue
			}
			tv := tns[k].Float64s()
			for i, di := range dk {
				for j, d := range di[o] {
					out[o].val[j] += tv[i] * d
					out[o].scale[j] += math.Abs(tv[i] * d)
				}
			}
		}
		for _, v := range out[o].val {
			out[o].anyNonzero = out[o].anyNonzero || v != 0
		}
	}
	return out
}

// refusedCases are programs the oracle cannot differentiate, with the
// error it must give.
func refusedCases() []struct {
	c   *tcase
	err string
} {
	f64 := tt(ir.F64, 3)
	in := []*ir.Literal{ir.FullLiteral(f64, 1.5), ints(ir.S32, []int{2, 1}, 0, 2), ir.FullLiteral(tt(ir.F64, 2), 2)}
	return []struct {
		c   *tcase
		err string
	}{
		{&tcase{name: "refused/custom_call", in: in[:1], ulp: -1, build: func(b *fb, p []*ir.Value) []*ir.Value {
			return b.emit(ir.OpCustomCall, ir.CustomCallAttr{Target: "stela_test_target", ResultTypes: []ir.Type{f64}}, p)
		}}, "stablehlo.custom_call"},
		// A scatter whose update computation is not one of the monoids
		// or overwrite JAX has derivative rules for.
		{&tcase{name: "refused/scatter_region", in: in, ulp: -1, build: func(b *fb, p []*ir.Value) []*ir.Value {
			s := ir.Scalar(ir.F64)
			body := region([]ir.Type{s, s}, func(r *fb, q []*ir.Value) []*ir.Value {
				return one(r.e1(ir.OpAdd, nil, r.e1(ir.OpMultiply, nil, q[0], q[0]), q[1]))
			})
			return b.emit(ir.OpScatter, ir.ScatterAttr{ScatterDimsToOperandDims: []int{0}, InsertedWindowDims: []int{0}, IndexVectorDim: 1},
				p, body)
		}}, "stablehlo.scatter: update computation"},
	}
}

// gradCases are the programs of TestJAXGradOracle, in f64 (and integer
// indices, counters and branch indices, which have no derivative).
func gradCases() []*tcase {
	f64 := func(dims ...int) ir.Type { return tt(ir.F64, dims...) }
	r := rng("grad")
	// uniform draws from [lo, hi): positive ranges for log, sqrt and the
	// base of power.
	uniform := func(lo, hi float64, dims ...int) *ir.Literal {
		v := make([]float64, f64(dims...).NumElements())
		for i := range v {
			v[i] = lo + (hi-lo)*r.Float64()
		}
		return ir.LiteralFromFloat64s(f64(dims...), v)
	}
	small := func(dims ...int) *ir.Literal { return uniform(-2, 2, dims...) }
	cst := func(b *fb, v float64, dims ...int) *ir.Value {
		return b.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.FullLiteral(f64(dims...), v)})
	}
	bin := func(b *fb, op ir.Op, x, y *ir.Value) *ir.Value { return b.e1(op, nil, x, y) }
	un := func(b *fb, op ir.Op, x *ir.Value) *ir.Value { return b.e1(op, nil, x) }
	gc := func(name string, in []*ir.Literal, build func(b *fb, p []*ir.Value) []*ir.Value) *tcase {
		return &tcase{name: name, in: in, build: build, ulp: -1}
	}
	s32 := func(v ...int64) *ir.Literal { return ints(ir.S32, nil, v...) }

	var cs []*tcase
	// Elementwise chains: every differentiable unary and binary op.
	cs = append(cs, gc("elementwise/unary", []*ir.Literal{uniform(0.5, 1.5, 6)}, func(b *fb, p []*ir.Value) []*ir.Value {
		x := p[0]
		var acc *ir.Value
		for _, op := range []ir.Op{ir.OpSine, ir.OpCosine, ir.OpTan, ir.OpTanh, ir.OpExp, ir.OpExpm1, ir.OpLog, ir.OpLog1p,
			ir.OpLogistic, ir.OpSqrt, ir.OpRsqrt, ir.OpCbrt, ir.OpNegate, ir.OpAbs} {
			y := un(b, op, x)
			if acc == nil {
				acc = y
			} else {
				acc = bin(b, ir.OpAdd, bin(b, ir.OpMultiply, acc, cst(b, 0.5, 6)), y)
			}
		}
		return one(acc)
	}))
	cs = append(cs, gc("elementwise/binary", []*ir.Literal{uniform(0.5, 2, 6), uniform(0.5, 2, 6)}, func(b *fb, p []*ir.Value) []*ir.Value {
		x, y := p[0], p[1]
		var outs []*ir.Value
		for _, op := range []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpPower, ir.OpAtan2,
			ir.OpMaximum, ir.OpMinimum, ir.OpRemainder} {
			outs = append(outs, bin(b, op, x, y))
		}
		return outs
	}))
	cs = append(cs, gc("elementwise/select_clamp", []*ir.Literal{small(8), small(8), small(), uniform(2, 3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		gt := b.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, p[0], p[1])
		sel := b.e1(ir.OpSelect, nil, gt, bin(b, ir.OpMultiply, p[0], p[1]), un(b, ir.OpSine, p[1]))
		cl := b.e1(ir.OpClamp, nil, p[2], bin(b, ir.OpMultiply, p[0], cst(b, 3, 8)), p[3])
		return []*ir.Value{sel, cl}
	}))

	// Contractions.
	cs = append(cs, gc("dot_general/matmul", []*ir.Literal{small(3, 4), small(4, 2)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, p)
	}))
	cs = append(cs, gc("dot_general/batch", []*ir.Literal{small(2, 3, 4), small(2, 4, 3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{1},
			Precision: []ir.Precision{ir.PrecisionHighest, ir.PrecisionHighest}}, p)
	}))
	nhwc := ir.ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
		KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
		OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2}, FeatureGroupCount: 1, BatchGroupCount: 1}
	conv := nhwc
	conv.WindowStrides, conv.Padding, conv.RhsDilation = []int{2, 1}, [][2]int{{1, 1}, {0, 1}}, []int{1, 2}
	cs = append(cs, gc("convolution/strided_dilated", []*ir.Literal{small(1, 5, 5, 2), small(2, 2, 2, 3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpConvolution, conv, p)
	}))
	grouped := nhwc
	grouped.FeatureGroupCount, grouped.WindowReversal = 2, []bool{true, false}
	cs = append(cs, gc("convolution/groups_reversed", []*ir.Literal{small(1, 4, 4, 4), small(2, 2, 2, 4)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpConvolution, grouped, p)
	}))

	// Reductions: a sum from a constant zero, a sum from an init value
	// that is a parameter, a maximum.
	cs = append(cs, gc("reduce/sum_max", []*ir.Literal{small(3, 4), small()}, func(b *fb, p []*ir.Value) []*ir.Value {
		zero := cst(b, 0)
		ninf := cst(b, math.Inf(-1))
		sum := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{1}}, []*ir.Value{p[0], zero}, binRegion(ir.OpAdd, ir.F64))[0]
		sumInit := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{0}}, []*ir.Value{un(b, ir.OpExp, p[0]), p[1]}, binRegion(ir.OpAdd, ir.F64))[0]
		mx := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{0}}, []*ir.Value{p[0], ninf}, binRegion(ir.OpMaximum, ir.F64))[0]
		return []*ir.Value{sum, sumInit, mx}
	}))
	cs = append(cs, gc("reduce_window/max_sum", []*ir.Literal{small(1, 6, 5, 2), small()}, func(b *fb, p []*ir.Value) []*ir.Value {
		ninf, zero := cst(b, math.Inf(-1)), cst(b, 0)
		mx := b.emit(ir.OpReduceWindow, ir.ReduceWindowAttr{WindowDims: []int{1, 2, 2, 1}, Strides: []int{1, 2, 2, 1},
			Padding: [][2]int{{0, 0}, {0, 0}, {0, 1}, {0, 0}}}, []*ir.Value{p[0], ninf}, binRegion(ir.OpMaximum, ir.F64))[0]
		sum := b.emit(ir.OpReduceWindow, ir.ReduceWindowAttr{WindowDims: []int{1, 3, 3, 1},
			Padding: [][2]int{{0, 0}, {1, 1}, {1, 1}, {0, 0}}}, []*ir.Value{p[0], zero}, binRegion(ir.OpAdd, ir.F64))[0]
		// An init value that is a parameter: the spec pads with it.
		dil := b.emit(ir.OpReduceWindow, ir.ReduceWindowAttr{WindowDims: []int{1, 2, 3, 1}, Strides: []int{1, 2, 1, 1},
			BaseDilations: []int{1, 2, 1, 1}, WindowDilations: []int{1, 1, 2, 1}, Padding: [][2]int{{0, 0}, {1, 0}, {0, 2}, {0, 0}}},
			[]*ir.Value{p[0], p[1]}, binRegion(ir.OpAdd, ir.F64))[0]
		return []*ir.Value{mx, sum, dil}
	}))

	// Data movement.
	cs = append(cs, gc("movement/broadcast_transpose_reshape_reverse", []*ir.Literal{small(2, 3), small(3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		bc := b.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{2, 3, 2}, Dims: []int{1}}, p[1])
		tr := b.e1(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, p[0])
		rs := b.e1(ir.OpReshape, ir.ReshapeAttr{Shape: []int{3, 2, 1}}, un(b, ir.OpSine, tr))
		rv := b.e1(ir.OpReverse, ir.ReverseAttr{Dims: []int{0, 2}}, bc)
		return []*ir.Value{bin(b, ir.OpMultiply, rv, b.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{2, 3, 2}, Dims: []int{1, 0, 2}},
			b.e1(ir.OpReshape, ir.ReshapeAttr{Shape: []int{3, 2, 1}}, tr))), rs}
	}))
	cs = append(cs, gc("movement/slice_pad_concatenate", []*ir.Literal{small(4, 5), small(), small(4, 2)}, func(b *fb, p []*ir.Value) []*ir.Value {
		sl := b.e1(ir.OpSlice, ir.SliceAttr{Start: []int{1, 0}, Limit: []int{4, 5}, Stride: []int{2, 2}}, p[0])
		pd := b.e1(ir.OpPad, ir.PadAttr{Low: []int{1, -1}, High: []int{0, 2}, Interior: []int{1, 1}}, p[0], p[1])
		cc := b.e1(ir.OpConcatenate, ir.ConcatenateAttr{Dim: 1}, p[2], un(b, ir.OpExp, p[0]), p[2])
		return []*ir.Value{sl, pd, cc}
	}))
	// dynamic_slice and dynamic_update_slice with integer indices, one
	// clamped.
	cs = append(cs, gc("movement/dynamic_slice_update", []*ir.Literal{small(5, 4), small(2, 3), s32(1), s32(3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		ds := b.e1(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 3}}, p[0], p[2], p[3])
		du := b.e1(ir.OpDynamicUpdateSlice, nil, un(b, ir.OpSine, p[0]), bin(b, ir.OpMultiply, p[1], p[1]), p[3], p[2])
		return []*ir.Value{ds, du}
	}))

	// gather: an embedding lookup with a repeated index and indices out of
	// range (clamped); scatter-add with duplicates and a window that does
	// not fit (skipped).
	cs = append(cs, gc("gather/embedding", []*ir.Literal{small(5, 3), ints(ir.S32, []int{5, 1}, 0, 4, 7, -1, 4)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpGather, ir.GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0},
			IndexVectorDim: 1, SliceSizes: []int{1, 3}}, p)
	}))
	cs = append(cs, gc("gather/window2d", []*ir.Literal{small(4, 5), ints(ir.S64, []int{3, 2}, 1, 1, 3, 4, -2, 9)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpGather, ir.GatherAttr{OffsetDims: []int{1, 2}, StartIndexMap: []int{0, 1}, IndexVectorDim: 1, SliceSizes: []int{2, 3}}, p)
	}))
	cs = append(cs, gc("scatter/add", []*ir.Literal{small(5, 3), ints(ir.S32, []int{6, 1}, 1, 3, 1, 0, 7, -1), small(6, 3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		x := un(b, ir.OpSine, p[0])
		return b.emit(ir.OpScatter, ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1},
			[]*ir.Value{x, p[1], bin(b, ir.OpMultiply, p[2], p[2])}, binRegion(ir.OpAdd, ir.F64))
	}))
	cs = append(cs, gc("scatter/overwrite", []*ir.Literal{small(5, 3), ints(ir.S32, []int{3, 1}, 4, 0, 2), small(3, 3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		return b.emit(ir.OpScatter, ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0},
			IndexVectorDim: 1, UniqueIndices: true}, p, secondRegion(ir.F64))
	}))

	// Control flow: a while loop with a trip count from an integer
	// argument, returning its counter too; a case with the index in range
	// and out of it; a while whose body holds a case (replayed path); a
	// composite.
	s, v4 := ir.Scalar(ir.S32), f64(4)
	whileProg := func(withCase bool) func(b *fb, p []*ir.Value) []*ir.Value {
		return func(b *fb, p []*ir.Value) []*ir.Value {
			st := []ir.Type{s, v4, v4, s}
			cond := region(st, func(r *fb, q []*ir.Value) []*ir.Value {
				return one(r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, q[0], q[3]))
			})
			body := region(st, func(r *fb, q []*ir.Value) []*ir.Value {
				oneI := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.S32, 1)})
				acc := r.e1(ir.OpAdd, nil, r.e1(ir.OpMultiply, nil, q[1], q[2]), r.e1(ir.OpSine, nil, q[1]))
				if withCase {
					twoI := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.S32, 2)})
					parity := r.e1(ir.OpRemainder, nil, q[0], twoI)
					br := []*ir.Func{
						region([]ir.Type{v4, v4}, func(r *fb, a []*ir.Value) []*ir.Value {
							return one(r.e1(ir.OpTanh, nil, r.e1(ir.OpAdd, nil, a[0], a[1])))
						}),
						region([]ir.Type{v4, v4}, func(r *fb, a []*ir.Value) []*ir.Value {
							return one(r.e1(ir.OpMultiply, nil, a[0], r.e1(ir.OpCosine, nil, a[1])))
						}),
					}
					acc = r.emit(ir.OpCase, nil, []*ir.Value{parity, acc, q[2]}, br...)[0]
				}
				return []*ir.Value{r.e1(ir.OpAdd, nil, q[0], oneI), acc, q[2], q[3]}
			})
			res := b.emit(ir.OpWhile, nil, p, cond, body)
			return []*ir.Value{res[1], res[0]}
		}
	}
	cs = append(cs, gc("while/fixed_trips", []*ir.Literal{s32(0), uniform(-0.5, 0.5, 4), uniform(-0.9, 0.9, 4), s32(4)}, whileProg(false)))
	cs = append(cs, gc("while/with_case", []*ir.Literal{s32(0), uniform(-0.5, 0.5, 4), uniform(-0.9, 0.9, 4), s32(3)}, whileProg(true)))
	for _, idx := range []int64{1, 5} {
		cs = append(cs, gc(fmt.Sprintf("case/index%d", idx), []*ir.Literal{s32(idx), small(4), small(4)}, func(b *fb, p []*ir.Value) []*ir.Value {
			st := []ir.Type{v4, v4}
			var branches []*ir.Func
			for _, op := range []ir.Op{ir.OpAdd, ir.OpMultiply, ir.OpAtan2} {
				branches = append(branches, region(st, func(r *fb, q []*ir.Value) []*ir.Value {
					return []*ir.Value{r.e1(op, nil, q[0], q[1]), r.e1(ir.OpExp, nil, q[0])}
				}))
			}
			return b.emit(ir.OpCase, nil, p, branches...)
		}))
	}
	cs = append(cs, gc("composite/axpy", []*ir.Literal{small(4), small(4), small()}, func(b *fb, p []*ir.Value) []*ir.Value {
		dec := region([]ir.Type{v4, v4, f64()}, func(r *fb, q []*ir.Value) []*ir.Value {
			a := r.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{4}}, q[2])
			return one(r.e1(ir.OpAdd, nil, r.e1(ir.OpMultiply, nil, a, q[0]), q[1]))
		})
		return b.emit(ir.OpComposite, ir.CompositeAttr{Name: "stela.test.axpy", Version: 1}, p, dec)
	}))

	// A small network, as the frontend writes one: matmul, bias, relu,
	// matmul, log-softmax.
	cs = append(cs, gc("mlp", []*ir.Literal{small(4, 6), small(6, 5), small(5), small(5, 3)}, func(b *fb, p []*ir.Value) []*ir.Value {
		mm := ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}
		h := b.e1(ir.OpDotGeneral, mm, p[0], p[1])
		h = bin(b, ir.OpAdd, h, b.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{4, 5}, Dims: []int{1}}, p[2]))
		h = bin(b, ir.OpMaximum, h, cst(b, 0, 4, 5))
		z := b.e1(ir.OpDotGeneral, mm, h, p[3])
		mx := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{1}}, []*ir.Value{z, cst(b, math.Inf(-1))}, binRegion(ir.OpMaximum, ir.F64))[0]
		z = bin(b, ir.OpSubtract, z, b.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{4, 3}, Dims: []int{0}}, mx))
		se := b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{1}}, []*ir.Value{un(b, ir.OpExp, z), cst(b, 0)}, binRegion(ir.OpAdd, ir.F64))[0]
		lse := b.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{4, 3}, Dims: []int{0}}, un(b, ir.OpLog, se))
		return one(bin(b, ir.OpSubtract, z, lse))
	}))
	return cs
}
