package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// gather, scatter, dynamic_slice and dynamic_update_slice on every element
// type, against ir.Eval, bit-exact: random dimension numbers (batching
// dimensions included), indices of both integer types with values out of
// range on both sides (clamped by gather and the dynamic slices, windows
// skipped by scatter), duplicate scatter indices combined through add,
// overwrite and two-input update regions.

// randSubset returns a random subset of dims in random order.
func randSubset(r *rand.Rand, dims []int) []int {
	var out []int
	for _, d := range r.Perm(len(dims)) {
		if r.IntN(2) == 0 {
			out = append(out, dims[d])
		}
	}
	return out
}

// randIndices makes an index literal with values in [lo, hi] and some
// extreme ones.
func randIndices(r *rand.Rand, t ir.Type, lo, hi int64) *ir.Literal {
	v := make([]int64, t.NumElements())
	for i := range v {
		switch r.IntN(12) {
		case 0:
			v[i] = math.MinInt32
		case 1:
			v[i] = math.MaxInt32
		default:
			v[i] = lo + r.Int64N(hi-lo+1)
		}
	}
	return ir.LiteralFromInt64s(t, v)
}

// indexShape builds the shape of an indices tensor: the batch shape with
// a dimension of size n inserted at ivd (or not, when ivd is the rank and
// n is 1).
func indexShape(batch []int, ivd, n int) []int {
	if ivd == len(batch) && n == 1 {
		return slices.Clone(batch)
	}
	return slices.Insert(slices.Clone(batch), ivd, n)
}

// placeBatchingDims gives each operand batching dimension d (of size
// shape[d]) a random position among the index batch dimensions (making
// one if there are none) and returns the batch shape, the index vector
// dimension and each one's position in the indices (past ivd, one more).
func placeBatchingDims(r *rand.Rand, batch []int, ivd int, dims, shape []int) ([]int, int, []int) {
	var pos []int
	for _, d := range dims {
		if len(batch) == 0 {
			batch = []int{1}
			ivd = min(ivd, 1)
		}
		k := r.IntN(len(batch))
		batch[k] = shape[d]
		if k >= ivd {
			k++
		}
		pos = append(pos, k)
	}
	return batch, ivd, pos
}

// randGather emits a gather with random, valid dimension numbers on x.
func randGather(r *rand.Rand, b *builder, x *ir.Value, idxType ir.DType) (*ir.Value, *ir.Literal) {
	xs := x.Type.Shape
	xr := len(xs)
	for {
		var a ir.GatherAttr
		all := make([]int, xr)
		for i := range all {
			all[i] = i
		}
		var batchDims []int
		if xr >= 2 && r.IntN(3) == 0 {
			batchDims = []int{r.IntN(xr)}
		}
		free := slices.DeleteFunc(slices.Clone(all), func(d int) bool { return slices.Contains(batchDims, d) })
		a.StartIndexMap = randSubset(r, free)
		if len(a.StartIndexMap) == 0 && len(free) > 0 {
			a.StartIndexMap = []int{free[r.IntN(len(free))]}
		}
		a.CollapsedSliceDims = randSubset(r, free)
		slices.Sort(a.CollapsedSliceDims)
		a.SliceSizes = make([]int, xr)
		for d := range xr {
			switch {
			case slices.Contains(a.CollapsedSliceDims, d) || slices.Contains(batchDims, d):
				a.SliceSizes[d] = 1
			default:
				a.SliceSizes[d] = 1 + r.IntN(xs[d])
			}
		}
		// Indices: a batch shape of rank 0..2, index_vector_dim anywhere.
		batch := randShape(r, 2)
		nidx := len(a.StartIndexMap)
		ivd := r.IntN(len(batch) + 1)
		if nidx == 0 {
			continue
		}
		var pos []int
		batch, ivd, pos = placeBatchingDims(r, batch, ivd, batchDims, xs)
		a.OperandBatchingDims = append(a.OperandBatchingDims, batchDims...)
		a.StartIndicesBatchingDims = append(a.StartIndicesBatchingDims, pos...)
		a.IndexVectorDim = ivd
		ishape := indexShape(batch, ivd, nidx)
		window := len(free) - len(a.CollapsedSliceDims)
		rr := len(batch) + window
		perm := r.Perm(rr)[:window]
		slices.Sort(perm)
		a.OffsetDims = perm
		it := ir.TensorOf(idxType, ishape...)
		maxDim := 1
		for _, s := range xs {
			maxDim = max(maxDim, s)
		}
		idx := randIndices(r, it, -2, int64(maxDim+1))
		iv := b.f.AddParam(it, ir.UnknownLoc)
		v, err := b.f.Emit1(ir.UnknownLoc, ir.OpGather, []*ir.Value{x, iv}, a)
		if err != nil {
			b.f.Params = b.f.Params[:len(b.f.Params)-1]
			continue
		}
		return v, idx
	}
}

// randScatter emits a scatter with random, valid dimension numbers into
// the inputs xs (of one shape) with an update region made by region.
func randScatter(r *rand.Rand, b *builder, xs []*ir.Value, idxType ir.DType, region *ir.Func, updates func(ir.Type) *ir.Literal) ([]*ir.Value, []*ir.Literal) {
	shape := xs[0].Type.Shape
	xr := len(shape)
	for {
		var a ir.ScatterAttr
		all := make([]int, xr)
		for i := range all {
			all[i] = i
		}
		var batchDims []int
		if xr >= 2 && r.IntN(3) == 0 {
			batchDims = []int{r.IntN(xr)}
		}
		free := slices.DeleteFunc(slices.Clone(all), func(d int) bool { return slices.Contains(batchDims, d) })
		a.ScatterDimsToOperandDims = randSubset(r, free)
		if len(a.ScatterDimsToOperandDims) == 0 {
			if len(free) == 0 {
				continue
			}
			a.ScatterDimsToOperandDims = []int{free[r.IntN(len(free))]}
		}
		a.InsertedWindowDims = randSubset(r, free)
		slices.Sort(a.InsertedWindowDims)
		var windowDims []int
		for _, d := range free {
			if !slices.Contains(a.InsertedWindowDims, d) {
				windowDims = append(windowDims, d)
			}
		}
		batch := randShape(r, 2)
		nidx := len(a.ScatterDimsToOperandDims)
		ivd := r.IntN(len(batch) + 1)
		var pos []int
		batch, ivd, pos = placeBatchingDims(r, batch, ivd, batchDims, shape)
		a.InputBatchingDims = append(a.InputBatchingDims, batchDims...)
		a.ScatterIndicesBatchingDims = append(a.ScatterIndicesBatchingDims, pos...)
		a.IndexVectorDim = ivd
		ishape := indexShape(batch, ivd, nidx)
		// Updates: batch dims and window dims interleaved.
		ur := len(batch) + len(windowDims)
		a.UpdateWindowDims = r.Perm(ur)[:len(windowDims)]
		slices.Sort(a.UpdateWindowDims)
		ushape := make([]int, ur)
		bi, wi := 0, 0
		for d := range ur {
			if slices.Contains(a.UpdateWindowDims, d) {
				ushape[d] = 1 + r.IntN(shape[windowDims[wi]])
				wi++
			} else {
				ushape[d] = batch[bi]
				bi++
			}
		}
		a.UniqueIndices = r.IntN(2) == 0 // a hint: must change nothing
		it := ir.TensorOf(idxType, ishape...)
		maxDim := 1
		for _, s := range shape {
			maxDim = max(maxDim, s)
		}
		lits := []*ir.Literal{randIndices(r, it, -1, int64(maxDim))}
		args := append([]*ir.Value{}, xs...)
		np := len(b.f.Params)
		args = append(args, b.f.AddParam(it, ir.UnknownLoc))
		for _, x := range xs {
			ut := ir.TensorOf(x.Type.DType, ushape...)
			args = append(args, b.f.AddParam(ut, ir.UnknownLoc))
			lits = append(lits, updates(ut))
		}
		vs, err := b.f.Emit(ir.UnknownLoc, ir.OpScatter, args, a, region)
		if err != nil {
			b.f.Params = b.f.Params[:np]
			continue
		}
		return vs, lits
	}
}

// overwriteRegion is (cur, upd) → upd.
func overwriteRegion(t testing.TB, d ir.DType) *ir.Func {
	r := newBuilder(t, "overwrite", ir.Scalar(d), ir.Scalar(d))
	r.f.Return(r.f.Params[1])
	return r.f
}

// pairRegion is (c0, c1, u0, u1) → (c0 + u0, max(c1, u1)).
func pairRegion(t testing.TB, d0, d1 ir.DType) *ir.Func {
	r := newBuilder(t, "pair", ir.Scalar(d0), ir.Scalar(d1), ir.Scalar(d0), ir.Scalar(d1))
	p := r.f.Params
	r.f.Return(r.emit(ir.OpAdd, nil, p[0], p[2]), r.emit(ir.OpMaximum, nil, p[1], p[3]))
	return r.f
}

// TestGatherScatterDifferential: for every element type, one module with
// several random gathers, scatters (add, overwrite, two inputs) and
// dynamic slices, compared bit-exactly with the evaluator.
func TestGatherScatterDifferential(t *testing.T) {
	for seed, d := range dtypes {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 77))
			xt := ir.TensorOf(d, 3, 4, 2)
			b := newBuilder(t, "gs", xt)
			x := b.f.Params[0]
			args := []*ir.Literal{randLiteral(r, xt)}
			// Floats: small integers, so that scatter-add is exact in any
			// order, and the order is still checked by the evaluator's bits.
			if d.IsFloat() {
				args[0] = smallIntFloats(r, xt)
			}
			var outs []*ir.Value
			var names []checked
			add := func(name string, v *ir.Value) {
				outs = append(outs, v)
				names = append(names, checked{name, -1})
			}
			vals := func(t ir.Type) *ir.Literal {
				if t.DType.IsFloat() {
					v := make([]float64, t.NumElements())
					for i := range v {
						v[i] = float64(r.IntN(2001)-1000) / 8
					}
					return ir.LiteralFromFloat64s(t, v)
				}
				return randLiteral(r, t)
			}
			for k := range 6 {
				sub := x
				if k%3 == 1 { // a rank-2 operand
					sub = b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{12, 2}}, x)
				} else if k%3 == 2 {
					sub = b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{24}}, x)
				}
				it := []ir.DType{ir.S32, ir.S64}[k%2]
				g, idx := randGather(r, b, sub, it)
				args = append(args, idx)
				add(fmt.Sprintf("gather %d %v", k, g.Type), g)
				region := sumRegion(t, d)
				if k%2 == 1 {
					region = overwriteRegion(t, d)
				}
				s, lits := randScatter(r, b, []*ir.Value{sub}, it, region, vals)
				args = append(args, lits...)
				add(fmt.Sprintf("scatter %d %v", k, s[0].Type), s[0])
			}
			// Two inputs of different element types.
			y := b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(ir.S32, 3, 4, 2), Dim: 1}, nil...)
			vs, lits := randScatter(r, b, []*ir.Value{x, y}, ir.S32, pairRegion(t, d, ir.S32), vals)
			args = append(args, lits...)
			add("scatter pair", vs[0])
			add("scatter pair #1", vs[1])
			// dynamic_slice and dynamic_update_slice with run-time starts.
			st := []*ir.Value{}
			for range 3 {
				st = append(st, b.f.AddParam(ir.Scalar(ir.S32), ir.UnknownLoc))
			}
			for _, s := range []int64{-3, 2, 1 << 20} {
				args = append(args, scalarI32(s))
			}
			add("dynamic_slice", b.emit(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 3, 1}}, append([]*ir.Value{x}, st...)...))
			upd := b.emit(ir.OpSlice, ir.SliceAttr{Start: []int{0, 0, 0}, Limit: []int{2, 2, 2}, Stride: []int{1, 2, 1}}, x)
			add("dynamic_update_slice", b.emit(ir.OpDynamicUpdateSlice, nil, append([]*ir.Value{x, upd}, st[1], st[2], st[0])...))
			b.f.Return(outs...)
			compileAndRun(t, b.f, names, args)
		})
	}
}

// TestDynamicSliceStarts: every start in and out of range on both sides,
// as si32 and si64 scalars, for dynamic_slice and dynamic_update_slice.
func TestDynamicSliceStarts(t *testing.T) {
	t.Parallel()
	xt := ir.TensorOf(ir.F32, 5, 3)
	b := newBuilder(t, "dyn", xt, ir.Scalar(ir.S64), ir.Scalar(ir.S32))
	x, i, j := b.f.Params[0], b.f.Params[1], b.f.Params[2]
	ds := b.emit(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 2}}, x, i, b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.S64}, j))
	u := b.emit(ir.OpNegate, nil, ds)
	dus := b.emit(ir.OpDynamicUpdateSlice, nil, x, u, b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.S32}, i), j)
	b.f.Return(ds, dus)
	r := rand.New(rand.NewPCG(1, 2))
	xv := randLiteral(r, xt)
	var sets [][]*ir.Literal
	for _, s := range [][2]int64{{0, 0}, {3, 1}, {4, 2}, {-1, -1}, {100, 7}, {math.MinInt64, math.MaxInt32}} {
		sets = append(sets, []*ir.Literal{xv, ir.LiteralFromInt64s(ir.Scalar(ir.S64), []int64{s[0]}), scalarI32(s[1])})
	}
	compileAndRun(t, b.f, []checked{{"dynamic_slice", -1}, {"dynamic_update_slice", -1}}, sets...)
}

// TestScatterDuplicateOrder: float updates that all land on one element
// are summed in update order, as the evaluator does; with values whose sum
// depends on the order, the bits show it.
func TestScatterDuplicateOrder(t *testing.T) {
	t.Parallel()
	xt := ir.TensorOf(ir.F32, 2)
	ut := ir.TensorOf(ir.F32, 6)
	it := ir.TensorOf(ir.S32, 6, 1)
	b := newBuilder(t, "dup", xt, it, ut)
	a := ir.ScatterAttr{UpdateWindowDims: []int{}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	s := b.emitN(ir.OpScatter, a, []*ir.Func{sumRegion(t, ir.F32)}, b.f.Params...)[0]
	b.f.Return(s)
	x := ir.LiteralFromFloat64s(xt, []float64{0, 0})
	idx := ir.LiteralFromInt64s(it, []int64{1, 1, 1, 1, 1, 2})
	u := ir.LiteralFromFloat64s(ut, []float64{1e8, 1, -1e8, 1, 0.25, 99})
	compileAndRun(t, b.f, []checked{{"scatter", -1}}, []*ir.Literal{x, idx, u})
}

// newTypes samples the element types beyond dtypes: a narrow signed and
// a narrow unsigned integer, a 64-bit unsigned one, both half floats and
// a complex type (the kernels only load, store and call the scalar code,
// which types_ext_test.go covers on every type).
var newTypes = []ir.DType{ir.S8, ir.U16, ir.U64, ir.F16, ir.BF16, ir.C128}

// anyLiteral makes a literal of any element type: small dyadic values
// for floats and complex numbers (exact through sums), any bits for
// integers.
func anyLiteral(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	switch d := t.DType; {
	case d.IsComplex():
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(float64(r.IntN(17)-8)/4, float64(r.IntN(17)-8)/4)
		}
		return ir.LiteralFromComplex128s(t, v)
	case d.IsFloat():
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(17)-8) / 4
		}
		return ir.LiteralFromFloat64s(t, v)
	case d == ir.Bool:
		return randLiteral(r, t)
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(r.Uint64())
	}
	return ir.LiteralFromInt64s(t, v)
}

// TestNewTypesControlIndexing runs a loop (with a reduction in its body),
// a case, gathers, a scatter-add with duplicate and out-of-range indices
// and the dynamic slices on a sample of the element types beyond the
// first five.
func TestNewTypesControlIndexing(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(31, 31))
	it := ir.TensorOf(ir.S32, 5, 1)
	params := []ir.Type{ir.Scalar(ir.S32), it}
	for _, d := range newTypes {
		params = append(params, ir.TensorOf(d, 4, 3), ir.TensorOf(d, 5, 3))
	}
	b := newBuilder(t, "types", params...)
	n, idx := b.f.Params[0], b.f.Params[1]
	var outs []*ir.Value
	var names []checked
	var vals []*ir.Literal
	for k, d := range newTypes {
		xt, ut := params[2+2*k], params[3+2*k]
		x, upd := b.f.Params[2+2*k], b.f.Params[3+2*k]
		loop := b.countedLoop(n, []*ir.Value{x, b.reduceSum(x, 0)}, func(rb *builder, i *ir.Value, st []*ir.Value) []*ir.Value {
			nx := rb.step(st[0])
			return []*ir.Value{nx, rb.emit(ir.OpAdd, nil, st[1], rb.reduceSum(nx, 0))}
		})
		br0 := newBuilder(t, "b0", xt)
		br0.f.Return(br0.step(br0.f.Params[0]))
		br1 := newBuilder(t, "b1", xt)
		br1.f.Return(br1.f.Params[0])
		cs := b.emitN(ir.OpCase, nil, []*ir.Func{br0.f, br1.f}, n, x)[0]
		rows := ir.GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}}
		g := b.emit(ir.OpGather, rows, x, idx)
		sa := ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
		s := b.emitN(ir.OpScatter, sa, []*ir.Func{sumRegion(t, d)}, x, idx, upd)[0]
		ds := b.emit(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 2}}, x, n, n)
		dus := b.emit(ir.OpDynamicUpdateSlice, nil, x, ds, n, b.constOf(ir.S32, 0))
		outs = append(outs, loop[0], loop[1], cs, g, s, ds, dus)
		for _, name := range []string{"loop x", "loop acc", "case", "gather", "scatter", "dynamic_slice", "dynamic_update_slice"} {
			names = append(names, checked{d.String() + " " + name, -1})
		}
		vals = append(vals, anyLiteral(r, xt), anyLiteral(r, ut))
	}
	b.f.Return(outs...)
	iv := ir.LiteralFromInt64s(it, []int64{2, 0, 2, 9, -1})
	compileAndRun(t, b.f, names, append([]*ir.Literal{scalarI32(0), iv}, vals...), append([]*ir.Literal{scalarI32(3), iv}, vals...))
}
