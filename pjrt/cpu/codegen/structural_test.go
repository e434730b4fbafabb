package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// TestStructuralDifferential runs the data-movement ops (broadcast_in_dim,
// reshape, transpose, slice, concatenate, iota, reverse, pad) on random
// shapes and element types, many ops per module, and compares bit-exactly
// with the reference evaluator.
func TestStructuralDifferential(t *testing.T) {
	for seed := range 3 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 11))
			var params []ir.Type
			for _, d := range dtypes {
				shape := randShape(r, 4)
				if len(shape) == 0 {
					shape = []int{3}
				}
				params = append(params, ir.TensorOf(d, shape...))
			}
			b := newBuilder(t, "structural", params...)
			var outs []*ir.Value
			var names []checked
			add := func(name string, v *ir.Value) {
				outs = append(outs, v)
				names = append(names, checked{name, -1})
			}
			for i, x := range b.f.Params {
				xt := params[i]
				rank := xt.Rank()
				// broadcast_in_dim: into a bigger shape, operand dims in a
				// random (possibly non-monotonic) order.
				out := append(randShape(r, 2), make([]int, rank)...)
				perm := r.Perm(len(out))[:rank]
				for k, d := range perm {
					out[d] = xt.Shape[k]
					if xt.Shape[k] == 1 && r.IntN(2) == 0 {
						out[d] = 1 + r.IntN(3)
					}
				}
				add("broadcast_in_dim", b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: out, Dims: perm}, x))
				// reshape to a flat vector, then back through a transpose.
				flat := b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{xt.NumElements()}}, x)
				add("reshape", flat)
				tp := r.Perm(rank)
				add("transpose", b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: tp}, x))
				// slice with random bounds and strides.
				var start, limit, stride []int
				for _, n := range xt.Shape {
					s := r.IntN(n)
					l := s + 1 + r.IntN(n-s)
					start, limit, stride = append(start, s), append(limit, l), append(stride, 1+r.IntN(2))
				}
				add("slice", b.emit(ir.OpSlice, ir.SliceAttr{Start: start, Limit: limit, Stride: stride}, x))
				add("concatenate", b.emit(ir.OpConcatenate, ir.ConcatenateAttr{Dim: r.IntN(rank)}, x, x, x))
				var rev []int
				for d := range rank {
					if r.IntN(2) == 0 {
						rev = append(rev, d)
					}
				}
				add("reverse", b.emit(ir.OpReverse, ir.ReverseAttr{Dims: rev}, x))
				var lo, hi, in []int
				for _, n := range xt.Shape {
					l, h, k := r.IntN(5)-2, r.IntN(5)-2, r.IntN(3)
					size := n + max(n-1, 0)*k
					l, h = max(l, -size/2), max(h, -size/2)
					lo, hi, in = append(lo, l), append(hi, h), append(in, k)
				}
				pv := b.emit(ir.OpSlice, ir.SliceAttr{Start: make([]int, 1), Limit: []int{1}, Stride: []int{1}}, flat)
				pv = b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{}}, pv)
				add("pad", b.emit(ir.OpPad, ir.PadAttr{Low: lo, High: hi, Interior: in}, x, pv))
				if xt.DType != ir.Bool {
					add("iota", b.emit(ir.OpIota, ir.IotaAttr{Type: xt, Dim: r.IntN(rank)}, nil...))
				}
			}
			b.f.Return(outs...)
			var args []*ir.Literal
			for _, p := range params {
				args = append(args, randLiteral(r, p))
			}
			evalAndCompare(t, b.f, names, args...)
		})
	}
}

// smallIntFloats makes a float literal of small integers, so that sums of
// products are exact whatever the order.
func smallIntFloats(r *rand.Rand, t ir.Type) *ir.Literal {
	v := make([]float64, t.NumElements())
	for i := range v {
		v[i] = float64(r.IntN(9) - 4)
	}
	return ir.LiteralFromFloat64s(t, v)
}

type dotCase struct {
	lhs, rhs []int
	attr     ir.DotGeneralAttr
}

func dotCases() []dotCase {
	dg := func(lb, rb, lc, rc []int) ir.DotGeneralAttr {
		return ir.DotGeneralAttr{LhsBatch: lb, RhsBatch: rb, LhsContract: lc, RhsContract: rc}
	}
	return []dotCase{
		{[]int{3, 5}, []int{5, 4}, dg(nil, nil, []int{1}, []int{0})},                             // matmul
		{[]int{5, 3}, []int{5, 4}, dg(nil, nil, []int{0}, []int{0})},                             // lhs transposed
		{[]int{3, 5}, []int{4, 5}, dg(nil, nil, []int{1}, []int{1})},                             // rhs transposed (x @ W^T)
		{[]int{7}, []int{7}, dg(nil, nil, []int{0}, []int{0})},                                   // vector dot
		{[]int{3, 7}, []int{7}, dg(nil, nil, []int{1}, []int{0})},                                // matvec
		{[]int{2, 3, 5}, []int{2, 5, 4}, dg([]int{0}, []int{0}, []int{2}, []int{1})},             // batched
		{[]int{2, 3, 4, 5}, []int{2, 3, 6, 5}, dg([]int{0, 1}, []int{0, 1}, []int{3}, []int{3})}, // attention q @ k^T
		{[]int{4, 2, 3}, []int{3, 4, 5}, dg([]int{0}, []int{1}, []int{2}, []int{0})},             // batch dims not leading
		{[]int{2, 3, 4}, []int{4, 3, 2}, dg(nil, nil, []int{1, 2}, []int{1, 0})},                 // two contracting dims
		{[]int{3, 1}, []int{1, 4}, dg(nil, nil, []int{1}, []int{0})},                             // outer product
		{[]int{0, 3}, []int{3, 2}, dg(nil, nil, []int{1}, []int{0})},                             // empty
		{[]int{2, 0}, []int{0, 3}, dg(nil, nil, []int{1}, []int{0})},                             // empty contraction: zeros
	}
}

// TestDotGeneralDifferential: every dot_general form on every element
// type, bit-exact (floats hold small integers, so every summation order
// gives the same exact result).
func TestDotGeneralDifferential(t *testing.T) {
	for seed, d := range dtypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			dotDifferential(t, rand.New(rand.NewPCG(3, uint64(seed))), d)
		})
	}
}

func dotDifferential(t *testing.T, r *rand.Rand, d ir.DType) {
	var params []ir.Type
	type use struct{ l, r int }
	var uses []use
	var attrs []ir.DotGeneralAttr
	for _, c := range dotCases() {
		uses = append(uses, use{len(params), len(params) + 1})
		attrs = append(attrs, c.attr)
		params = append(params, ir.TensorOf(d, c.lhs...), ir.TensorOf(d, c.rhs...))
	}
	b := newBuilder(t, "dots", params...)
	var outs []*ir.Value
	var names []checked
	for i, u := range uses {
		outs = append(outs, b.emit(ir.OpDotGeneral, attrs[i], b.f.Params[u.l], b.f.Params[u.r]))
		names = append(names, checked{fmt.Sprintf("dot %v %v", params[u.l], params[u.r]), -1})
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for _, p := range params {
		switch {
		case p.DType.IsFloat():
			args = append(args, smallIntFloats(r, p))
		default:
			args = append(args, randLiteral(r, p))
		}
	}
	evalAndCompare(t, b.f, names, args...)
}

// TestDotGeneralFloatAccuracy: f32 products of random values are summed
// in f32 (in order over the contracting dimension) where the evaluator
// sums in f64 and rounds once: the difference stays within the classic
// bound K·2^-24·Σ|a·b| (plus a half-ULP for the final rounding).
func TestDotGeneralFloatAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const M, K, N = 9, 300, 17
	lt, rt := ir.TensorOf(ir.F32, M, K), ir.TensorOf(ir.F32, K, N)
	b := newBuilder(t, "dotf32", lt, rt)
	b.f.Return(b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, b.f.Params[0], b.f.Params[1]))
	rnd := func(t ir.Type) *ir.Literal {
		v := make([]float64, t.NumElements())
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return ir.LiteralFromFloat64s(t, v)
	}
	x, y := rnd(lt), rnd(rt)
	want, err := ir.Eval(b.f, x, y)
	if err != nil {
		t.Fatal(err)
	}
	p := compile(t, lowerText(t, b.f))
	got, rc, msg := p.run(t, x, y)
	if rc != 0 {
		t.Fatal(msg)
	}
	xs, ys, gs, ws := x.Float64s(), y.Float64s(), got[0].Float64s(), want[0].Float64s()
	worst := 0.0
	for m := range M {
		for n := range N {
			s := 0.0
			for k := range K {
				s += math.Abs(xs[m*K+k] * ys[k*N+n])
			}
			bound := K*0x1p-24*s + math.Abs(ws[m*N+n])*0x1p-24
			e := math.Abs(gs[m*N+n] - ws[m*N+n])
			worst = max(worst, e/bound)
			if e > bound {
				t.Errorf("[%d,%d]: got %v, want %v: error %g > bound %g", m, n, gs[m*N+n], ws[m*N+n], e, bound)
			}
		}
	}
	t.Logf("worst error / bound: %.3f", worst)
}

// region builds a reduce body: (acc..., x...) → acc... by fn.
func region(t testing.TB, d ir.DType, n int, fn func(b *builder, acc, x []*ir.Value) []*ir.Value) *ir.Func {
	var params []ir.Type
	for range 2 * n {
		params = append(params, ir.TensorOf(d))
	}
	b := newBuilder(t, "body", params...)
	b.f.Return(fn(b, b.f.Params[:n], b.f.Params[n:])...)
	return b.f
}

// TestReduceDifferential: reductions over every subset of dimensions
// with add, max, min, and a two-output argmax body, on every element type
// that allows them; bit-exact (both sides reduce sequentially in input
// order).
func TestReduceDifferential(t *testing.T) {
	for seed, d := range dtypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			reduceDifferential(t, rand.New(rand.NewPCG(9, uint64(seed))), []ir.DType{d})
		})
	}
}

func reduceDifferential(t *testing.T, r *rand.Rand, dtypes []ir.DType) {
	shape := []int{3, 4, 5}
	var params []ir.Type
	for _, d := range dtypes {
		params = append(params, ir.TensorOf(d, shape...), ir.TensorOf(d))
	}
	params = append(params, ir.TensorOf(ir.S32, shape...), ir.TensorOf(ir.S32))
	b := newBuilder(t, "reduces", params...)
	var outs []*ir.Value
	var names []checked
	dimSets := [][]int{{0}, {1}, {2}, {0, 1}, {1, 2}, {0, 2}, {0, 1, 2}, {}, {2, 0}}
	idx, idxInit := b.f.Params[len(params)-2], b.f.Params[len(params)-1]
	for i, d := range dtypes {
		x, init := b.f.Params[2*i], b.f.Params[2*i+1]
		ops := []ir.Op{ir.OpAdd, ir.OpMaximum, ir.OpMinimum}
		if d == ir.Bool {
			ops = []ir.Op{ir.OpAnd, ir.OpOr}
		}
		for _, op := range ops {
			for _, dims := range dimSets {
				body := region(t, d, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
					return []*ir.Value{b.emit(op, nil, acc[0], x[0])}
				})
				vs := b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: dims}, []*ir.Func{body}, x, init)
				outs = append(outs, vs...)
				names = append(names, checked{fmt.Sprintf("reduce %v %s over %v", d, op, dims), -1})
			}
		}
		if d == ir.Bool {
			continue
		}
		// argmax: (max, index of the first max), NaN winning.
		for _, dims := range [][]int{{1}, {0, 2}} {
			body := region2(t, d, ir.S32)
			vs := b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: dims}, []*ir.Func{body}, x, idx, init, idxInit)
			outs = append(outs, vs...)
			names = append(names, checked{fmt.Sprintf("argmax %v over %v (value)", d, dims), -1},
				checked{fmt.Sprintf("argmax %v over %v (index)", d, dims), -1})
		}
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for i, p := range params {
		if i == len(params)-2 {
			v := make([]int64, p.NumElements())
			for j := range v {
				v[j] = int64(j)
			}
			args = append(args, ir.LiteralFromInt64s(p, v))
			continue
		}
		args = append(args, randLiteral(r, p))
	}
	evalAndCompare(t, b.f, names, args...)
}

// region2 is an argmax body over (value kind d, index kind it).
func region2(t *testing.T, d, it ir.DType) *ir.Func {
	b := newBuilder(t, "argmax", ir.TensorOf(d), ir.TensorOf(it), ir.TensorOf(d), ir.TensorOf(it))
	av, ai, xv, xi := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3]
	gt := b.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, xv, av)
	if d.IsFloat() {
		nan := b.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpNE}, xv, xv)
		gt = b.emit(ir.OpOr, nil, gt, nan)
	}
	b.f.Return(b.emit(ir.OpSelect, nil, gt, xv, av), b.emit(ir.OpSelect, nil, gt, xi, ai))
	return b.f
}

// TestTiledKernels: shapes big enough for the tiled paths (transposing
// copies in 16×16 tiles with remainders; dot tiles of 4 rows × 512
// columns with remainders), bit-exact.
func TestTiledKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	params := []ir.Type{ir.TensorOf(ir.F32, 37, 50), ir.TensorOf(ir.F64, 3, 20, 33), ir.TensorOf(ir.Bool, 17, 40),
		ir.TensorOf(ir.F32, 5, 20), ir.TensorOf(ir.F32, 20, 1030), ir.TensorOf(ir.S32, 600, 20)}
	b := newBuilder(t, "tiled", params...)
	p := b.f.Params
	outs := []*ir.Value{
		b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, p[0]),
		b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{2, 0, 1}}, p[1]),
		b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 2, 0}}, p[1]),
		b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, p[2]),
		b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, p[3], p[4]),
		b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{0}, RhsContract: []int{0}}, p[4], p[4]),
		b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{1}}, p[5], p[5]),
	}
	b.f.Return(outs...)
	var args []*ir.Literal
	for _, t := range params {
		if t.DType.IsFloat() {
			args = append(args, smallIntFloats(r, t))
		} else {
			args = append(args, smallInts2(r, t))
		}
	}
	evalAndCompare(t, b.f, nil, args...)
}

func smallInts2(r *rand.Rand, t ir.Type) *ir.Literal {
	if t.DType == ir.Bool {
		return randLiteral(r, t)
	}
	return smallInts(r, t, -100, 100)
}
