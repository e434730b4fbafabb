package xla

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/ir"
)

// Cases for constants, data movement, contractions, reductions, gather and
// scatter, and control flow.

func tt(d ir.DType, dims ...int) ir.Type { return ir.TensorOf(d, dims...) }

// structCase makes a case of a sweep over element types (a type the op's
// rule rejects is dropped). Data movement compares bit for bit.
func structCase(name string, op ir.Op, d ir.DType, in []*ir.Literal, build func(b *fb, p []*ir.Value) []*ir.Value) *tcase {
	return &tcase{name: name, op: op, dtype: d, in: in, build: build, sweep: true, ulp: -1}
}

func moveCase(name string, op ir.Op, d ir.DType, in []*ir.Literal, build func(b *fb, p []*ir.Value) []*ir.Value) *tcase {
	c := structCase(name, op, d, in, build)
	c.bits = true
	return c
}

func one(v *ir.Value) []*ir.Value { return []*ir.Value{v} }

func structuralCases() []*tcase {
	var cs []*tcase
	for _, d := range ir.AllDTypes {
		cs = append(cs, moveCases(d)...)
		cs = append(cs, computeCases(d)...)
	}
	cs = append(cs, indexCases()...)
	cs = append(cs, sortCases()...)
	cs = append(cs, fftCases()...)
	cs = append(cs, controlCases()...)
	return cs
}

func moveCases(d ir.DType) []*tcase {
	var cs []*tcase
	name := func(op ir.Op, what string) string { return fmt.Sprintf("%v/%v/%s", op, d, what) }
	r := rng("move/" + d.String())
	lit := func(dims ...int) *ir.Literal { return withNaNs(randLit(r, tt(d, dims...), false)) }

	// constant: a short list, a hex blob (more than 100 elements), a splat.
	for _, n := range []int{5, 150} {
		v := withNaNs(vec(r, d, n))
		cs = append(cs, moveCase(name(ir.OpConstant, fmt.Sprint(n)), ir.OpConstant, d, nil, func(b *fb, _ []*ir.Value) []*ir.Value {
			return one(b.e1(ir.OpConstant, ir.ConstantAttr{Value: v}))
		}))
	}
	splat := ir.Zeros(tt(d, 4, 4))
	for i := range splat.Len() {
		splat.CopyElem(i, vec(r, d, 3), 2)
	}
	cs = append(cs, moveCase(name(ir.OpConstant, "splat"), ir.OpConstant, d, nil, func(b *fb, _ []*ir.Value) []*ir.Value {
		return one(b.e1(ir.OpConstant, ir.ConstantAttr{Value: splat}))
	}))

	// iota: both dimensions, and lengths where narrow types wrap or round.
	for _, it := range []struct {
		t   ir.Type
		dim int
	}{{tt(d, 3, 5), 0}, {tt(d, 3, 5), 1}, {tt(d, 300), 0}, {tt(d, 2, 2100), 1}} {
		a := ir.IotaAttr{Type: it.t, Dim: it.dim}
		cs = append(cs, moveCase(name(ir.OpIota, fmt.Sprintf("%v_%d", it.t.Shape, it.dim)), ir.OpIota, d, nil, func(b *fb, _ []*ir.Value) []*ir.Value {
			return one(b.e1(ir.OpIota, a))
		}))
	}

	for _, bc := range []struct {
		in    *ir.Literal
		shape []int
		dims  []int
	}{{lit(3), []int{2, 3, 4}, []int{1}}, {lit(2, 1), []int{2, 5}, []int{0, 1}}, {lit(), []int{2, 3}, nil}, {lit(2, 3), []int{3, 2}, []int{1, 0}}} {
		a := ir.BroadcastInDimAttr{Shape: bc.shape, Dims: bc.dims}
		cs = append(cs, moveCase(name(ir.OpBroadcastInDim, fmt.Sprint(bc.in.Type.Shape, bc.shape)), ir.OpBroadcastInDim, d, []*ir.Literal{bc.in},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpBroadcastInDim, a, p) }))
	}
	x := lit(2, 3, 4)
	for _, s := range [][]int{{6, 4}, {24}, {4, 3, 2}, {1, 24, 1}} {
		a := ir.ReshapeAttr{Shape: s}
		cs = append(cs, moveCase(name(ir.OpReshape, fmt.Sprint(s)), ir.OpReshape, d, []*ir.Literal{x},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpReshape, a, p) }))
	}
	for _, perm := range [][]int{{2, 0, 1}, {1, 0, 2}, {0, 1, 2}} {
		a := ir.TransposeAttr{Perm: perm}
		cs = append(cs, moveCase(name(ir.OpTranspose, fmt.Sprint(perm)), ir.OpTranspose, d, []*ir.Literal{x},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpTranspose, a, p) }))
	}
	y := lit(6, 7)
	for _, sl := range []ir.SliceAttr{
		{Start: []int{1, 0}, Limit: []int{5, 7}, Stride: []int{2, 3}},
		{Start: []int{0, 2}, Limit: []int{6, 6}, Stride: []int{1, 1}},
		{Start: []int{2, 2}, Limit: []int{2, 5}, Stride: []int{1, 1}}, // empty
	} {
		a := sl
		cs = append(cs, moveCase(name(ir.OpSlice, fmt.Sprint(a.Start, a.Limit, a.Stride)), ir.OpSlice, d, []*ir.Literal{y},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpSlice, a, p) }))
	}
	// dynamic_slice and dynamic_update_slice: in range, clamped low and
	// high, and index types of every width and signedness.
	z := lit(5, 6)
	upd := lit(2, 3)
	for _, st := range []struct {
		d    ir.DType
		i, j int64
	}{{ir.S32, 1, 2}, {ir.S64, -1, 5}, {ir.S32, 4, 10}, {ir.U8, 200, 0}, {ir.S8, -128, 3}, {ir.U32, 3, 4}, {ir.U64, 1 << 40, 1}, {ir.S16, 2, -7}, {ir.U16, 0, 65535}} {
		si, sj := ints(st.d, nil, st.i), ints(st.d, nil, st.j)
		what := fmt.Sprintf("%v_%d_%d", st.d, st.i, st.j)
		cs = append(cs, moveCase(name(ir.OpDynamicSlice, what), ir.OpDynamicSlice, d, []*ir.Literal{z, si, sj},
			func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 3}}, p)
			}))
		cs = append(cs, moveCase(name(ir.OpDynamicUpdateSlice, what), ir.OpDynamicUpdateSlice, d, []*ir.Literal{z, upd, si, sj},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpDynamicUpdateSlice, nil, p) }))
	}
	for _, dim := range []int{0, 1} {
		parts := []*ir.Literal{lit(2, 3), lit(2, 1), lit(2, 2)}
		if dim == 0 {
			parts = []*ir.Literal{lit(2, 3), lit(1, 3), lit(4, 3)}
		}
		a := ir.ConcatenateAttr{Dim: dim}
		cs = append(cs, moveCase(name(ir.OpConcatenate, fmt.Sprint(dim)), ir.OpConcatenate, d, parts,
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpConcatenate, a, p) }))
	}
	for _, pa := range []ir.PadAttr{
		{Low: []int{1, -1}, High: []int{2, 1}, Interior: []int{1, 0}},
		{Low: []int{0, 2}, High: []int{-2, 0}, Interior: []int{0, 2}},
	} {
		a := pa
		cs = append(cs, moveCase(name(ir.OpPad, fmt.Sprint(a.Low, a.High, a.Interior)), ir.OpPad, d, []*ir.Literal{lit(3, 4), lit()},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpPad, a, p) }))
	}
	for _, dims := range [][]int{{0, 2}, {1}} {
		a := ir.ReverseAttr{Dims: dims}
		cs = append(cs, moveCase(name(ir.OpReverse, fmt.Sprint(dims)), ir.OpReverse, d, []*ir.Literal{x},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpReverse, a, p) }))
	}
	return cs
}

// sumCase is a float or complex contraction or reduction: it compares
// within sumTerms·u·Σ|terms|; integers and i1 stay exact. The spec leaves
// a float sum's order open ("The order of reductions is
// implementation-defined ... What this means for numeric precision is
// implementation-defined", reduce; dot_general and convolution are reduces
// of products), so the bound is one that holds for any order: a sum of n
// terms, each rounded, in any order, is within (n-1)·u·Σ|terms| of the
// exact sum (Higham, Accuracy and Stability of Numerical Algorithms, §4.2),
// products add one rounding each, and both sides' errors count. The order
// of XLA's sums may differ between processors (its matmul blocking follows
// the caches); the bound does not depend on it.
func sumCase(name string, op ir.Op, d ir.DType, terms int, in []*ir.Literal, build func(b *fb, p []*ir.Value) []*ir.Value) *tcase {
	c := structCase(name, op, d, in, build)
	c.sumTerms = terms
	return c
}

func computeCases(d ir.DType) []*tcase {
	var cs []*tcase
	name := func(op ir.Op, what string) string { return fmt.Sprintf("%v/%v/%s", op, d, what) }
	r := rng("compute/" + d.String())
	// Small values keep float sums in range; integers take any value and
	// wrap, which both sides must do alike.
	lit := func(dims ...int) *ir.Literal { return randLit(r, tt(d, dims...), d.IsFloat() || d.IsComplex()) }

	for _, dg := range []struct {
		what     string
		lhs, rhs *ir.Literal
		a        ir.DotGeneralAttr
		terms    int
	}{
		{"matmul", lit(3, 5), lit(5, 4), ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, 5},
		{"batch", lit(2, 3, 4), lit(2, 4, 5), ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{1}}, 4},
		{"two_contract", lit(2, 3, 4), lit(4, 3, 2), ir.DotGeneralAttr{LhsContract: []int{1, 2}, RhsContract: []int{1, 0}}, 12},
		{"vector", lit(33), lit(33), ir.DotGeneralAttr{LhsContract: []int{0}, RhsContract: []int{0}}, 33},
		{"outer", lit(3), lit(2), ir.DotGeneralAttr{}, 1},
		{"batch_last", lit(4, 3, 2), lit(3, 2, 4), ir.DotGeneralAttr{LhsBatch: []int{2}, RhsBatch: []int{1}, LhsContract: []int{1}, RhsContract: []int{0}}, 3},
	} {
		a := dg.a
		cs = append(cs, sumCase(name(ir.OpDotGeneral, dg.what), ir.OpDotGeneral, d, dg.terms, []*ir.Literal{dg.lhs, dg.rhs},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpDotGeneral, a, p) }))
	}

	// reduce: a sum along one dimension, a product and a maximum over
	// two, everything to a scalar, and no dimensions at all; the init
	// value is a parameter, so XLA cannot assume it is the identity.
	x := lit(3, 4, 5)
	if d.IsFloat() {
		x = withNaNs(x)
	}
	init := func(v float64) *ir.Literal { return ir.ScalarLiteral(d, v) }
	for _, rd := range []struct {
		what  string
		op    ir.Op
		dims  []int
		init  *ir.Literal
		terms int
	}{
		{"add_1", ir.OpAdd, []int{1}, init(0.5), 5},
		{"add_all", ir.OpAdd, []int{0, 1, 2}, init(0), 61},
		{"add_none", ir.OpAdd, nil, init(1), 2},
		{"mul_02", ir.OpMultiply, []int{0, 2}, init(1), 16},
		{"max_02", ir.OpMaximum, []int{0, 2}, init(-3), 0},
		{"min_1", ir.OpMinimum, []int{1}, init(2), 0},
		{"and_2", ir.OpAnd, []int{2}, ir.FullLiteral(ir.Scalar(d), -1), 0},
		{"or_0", ir.OpOr, []int{0}, init(0), 0},
		{"xor_01", ir.OpXor, []int{0, 1}, init(0), 0},
	} {
		rd := rd
		in := x
		if rd.op == ir.OpMultiply && (d.IsFloat() || d.IsComplex()) {
			in = randLit(rng(name(ir.OpReduce, rd.what)), x.Type, false)
			in = mapFloat(in, func(v float64) float64 { return 0.5 + math.Mod(math.Abs(v), 1) }) // products stay in range
		}
		cs = append(cs, sumCase(name(ir.OpReduce, rd.what), ir.OpReduce, d, rd.terms, []*ir.Literal{in, rd.init},
			func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpReduce, ir.ReduceAttr{Dims: rd.dims}, p, binRegion(rd.op, d))
			}))
	}
	// Variadic reduce: argmax with the lowest index on ties, as jnp.argmax.
	if d.IsFloat() || d.IsInteger() {
		vals := randLit(r, tt(d, 4, 6), true)
		idx := iotaLit(tt(ir.S32, 4, 6))
		for i := range idx.Len() {
			idx.SetElem(i, int32(i%6))
		}
		cs = append(cs, structCase(name(ir.OpReduce, "argmax"), ir.OpReduce, d, []*ir.Literal{vals, idx, init(-100), ints(ir.S32, nil, 0)},
			func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{1}}, p, argmaxRegion(d))
			}))
	}

	// reduce_window: max pooling, a padded 3x3 sum with strides, and
	// dilations.
	img := lit(2, 6, 7, 2)
	for _, rw := range []struct {
		what  string
		op    ir.Op
		a     ir.ReduceWindowAttr
		init  *ir.Literal
		terms int
	}{
		{"maxpool", ir.OpMaximum, ir.ReduceWindowAttr{WindowDims: []int{1, 2, 2, 1}, Strides: []int{1, 2, 2, 1}}, init(-100), 0},
		{"sum_same", ir.OpAdd, ir.ReduceWindowAttr{WindowDims: []int{1, 3, 3, 1}, Padding: [][2]int{{0, 0}, {1, 1}, {1, 1}, {0, 0}}}, init(0), 10},
		{"sum_dilated", ir.OpAdd, ir.ReduceWindowAttr{WindowDims: []int{1, 2, 3, 1}, Strides: []int{1, 2, 1, 1},
			BaseDilations: []int{1, 2, 1, 1}, WindowDilations: []int{1, 1, 2, 1}, Padding: [][2]int{{0, 0}, {1, 0}, {0, 2}, {0, 0}}}, init(0.25), 7},
		{"min_strided", ir.OpMinimum, ir.ReduceWindowAttr{WindowDims: []int{2, 3, 2, 2}, Strides: []int{1, 3, 2, 1}}, init(50), 0},
	} {
		rw := rw
		cs = append(cs, sumCase(name(ir.OpReduceWindow, rw.what), ir.OpReduceWindow, d, rw.terms, []*ir.Literal{img, rw.init},
			func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpReduceWindow, rw.a, p, binRegion(rw.op, d))
			}))
	}

	// convolution: NHWC/HWIO with padding and strides, dilations (a
	// transposed convolution), feature and batch groups, window reversal,
	// and a 1-d NCW/OIW layout.
	nhwc := ir.ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
		KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
		OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2}, FeatureGroupCount: 1, BatchGroupCount: 1}
	with := func(f func(a *ir.ConvolutionAttr)) ir.ConvolutionAttr {
		a := nhwc
		f(&a)
		return a
	}
	for _, cv := range []struct {
		what     string
		lhs, rhs *ir.Literal
		a        ir.ConvolutionAttr
		terms    int
	}{
		{"same_strided", lit(2, 7, 7, 3), lit(3, 3, 3, 4), with(func(a *ir.ConvolutionAttr) {
			a.WindowStrides, a.Padding = []int{2, 2}, [][2]int{{1, 1}, {1, 1}}
		}), 27},
		{"dilated", lit(1, 5, 6, 2), lit(2, 3, 2, 3), with(func(a *ir.ConvolutionAttr) {
			a.LhsDilation, a.RhsDilation, a.Padding = []int{2, 1}, []int{1, 2}, [][2]int{{1, 1}, {2, 0}}
		}), 12},
		{"feature_groups", lit(1, 5, 5, 6), lit(3, 3, 2, 6), with(func(a *ir.ConvolutionAttr) { a.FeatureGroupCount = 3 }), 18},
		{"batch_groups", lit(4, 5, 5, 3), lit(3, 3, 3, 4), with(func(a *ir.ConvolutionAttr) { a.BatchGroupCount = 2 }), 27},
		{"reversed", lit(1, 4, 4, 1), lit(2, 3, 1, 1), with(func(a *ir.ConvolutionAttr) { a.WindowReversal = []bool{true, false} }), 6},
		{"ncw", lit(2, 3, 9), lit(4, 3, 3), ir.ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 1, InputSpatialDims: []int{2},
			KernelOutputFeatureDim: 0, KernelInputFeatureDim: 1, KernelSpatialDims: []int{2},
			OutputBatchDim: 0, OutputFeatureDim: 1, OutputSpatialDims: []int{2}, FeatureGroupCount: 1, BatchGroupCount: 1,
			Padding: [][2]int{{2, 1}}, WindowStrides: []int{3}}, 9},
	} {
		a := cv.a
		cs = append(cs, sumCase(name(ir.OpConvolution, cv.what), ir.OpConvolution, d, cv.terms, []*ir.Literal{cv.lhs, cv.rhs},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpConvolution, a, p) }))
	}
	return cs
}

// argmaxRegion is (v1, i1, v2, i2) → the larger value and its index, the
// lower index on ties; NaN wins, as in jnp.argmax.
func argmaxRegion(d ir.DType) *ir.Func {
	s, si := ir.Scalar(d), ir.Scalar(ir.S32)
	return region([]ir.Type{s, si, s, si}, func(r *fb, p []*ir.Value) []*ir.Value {
		gt := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, p[0], p[2])
		eq := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpEQ}, p[0], p[2])
		lower := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, p[1], p[3])
		pick := r.e1(ir.OpOr, nil, gt, r.e1(ir.OpAnd, nil, eq, lower))
		return []*ir.Value{r.e1(ir.OpSelect, nil, pick, p[0], p[2]), r.e1(ir.OpSelect, nil, pick, p[1], p[3])}
	})
}

// mapFloat applies f to each element of a float or complex literal (to
// each part of a complex one).
func mapFloat(l *ir.Literal, f func(float64) float64) *ir.Literal {
	if l.Type.DType.IsComplex() {
		v := l.Complex128s()
		for i, z := range v {
			v[i] = complex(f(real(z)), f(imag(z)))
		}
		return ir.LiteralFromComplex128s(l.Type, v)
	}
	v := l.Float64s()
	for i := range v {
		v[i] = f(v[i])
	}
	return ir.LiteralFromFloat64s(l.Type, v)
}

// indexCases are gather and scatter: every element type for the data,
// several index types, indices in range and out of it (gather clamps them;
// scatter skips windows that do not fit).
func indexCases() []*tcase {
	var cs []*tcase
	for _, d := range ir.AllDTypes {
		r := rng("index/" + d.String())
		lit := func(dims ...int) *ir.Literal { return withNaNs(randLit(r, tt(d, dims...), false)) }
		name := func(op ir.Op, what string) string { return fmt.Sprintf("%v/%v/%s", op, d, what) }
		for _, g := range []struct {
			what    string
			operand *ir.Literal
			idx     *ir.Literal
			a       ir.GatherAttr
		}{
			{"embedding", lit(5, 3), ints(ir.S32, []int{5, 1}, 0, 4, 7, -1, 2),
				ir.GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}}},
			{"window2d", lit(4, 5), ints(ir.S64, []int{3, 2}, 1, 1, 3, 4, -2, 9),
				ir.GatherAttr{OffsetDims: []int{1, 2}, StartIndexMap: []int{0, 1}, IndexVectorDim: 1, SliceSizes: []int{2, 3}}},
			{"scalar_indices", lit(6), ints(ir.U8, []int{2, 3}, 0, 5, 200, 3, 1, 2),
				ir.GatherAttr{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 2, SliceSizes: []int{1}}},
			{"transposed_map", lit(3, 4, 2), ints(ir.U32, []int{2, 2}, 1, 2, 3, 0),
				ir.GatherAttr{OffsetDims: []int{1, 2}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{1, 0}, IndexVectorDim: 1, SliceSizes: []int{2, 1, 2}}},
			{"batching", lit(2, 5, 3), ints(ir.S32, []int{2, 4, 1}, 0, 4, 2, 9, 1, 1, -3, 3),
				ir.GatherAttr{OffsetDims: []int{2}, CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0},
					StartIndexMap: []int{1}, IndexVectorDim: 2, SliceSizes: []int{1, 1, 3}}},
		} {
			a := g.a
			cs = append(cs, moveCase(name(ir.OpGather, g.what), ir.OpGather, d, []*ir.Literal{g.operand, g.idx},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpGather, a, p) }))
		}

		// scatter with add (duplicates, out-of-range windows), with
		// overwrite (unique indices), straddling the edge, with batching
		// dimensions, and on two inputs at once.
		small := func(dims ...int) *ir.Literal { return randLit(r, tt(d, dims...), true) }
		rows := ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
		for _, sc := range []struct {
			what     string
			in       []*ir.Literal
			a        ir.ScatterAttr
			body     func() *ir.Func
			terms    int
			bitExact bool
		}{
			{"add_dups", []*ir.Literal{small(5, 3), ints(ir.S32, []int{6, 1}, 1, 3, 1, 0, 7, -1), small(6, 3)}, rows,
				func() *ir.Func { return binRegion(ir.OpAdd, d) }, 3, false},
			{"overwrite", []*ir.Literal{lit(5, 3), ints(ir.S64, []int{3, 1}, 4, 0, 2), lit(3, 3)},
				ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1, UniqueIndices: true},
				func() *ir.Func { return secondRegion(d) }, 0, true},
			{"straddle", []*ir.Literal{lit(6), ints(ir.U32, []int{3, 1}, 4, 0, 3), lit(3, 3)},
				ir.ScatterAttr{UpdateWindowDims: []int{1}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1},
				func() *ir.Func { return secondRegion(d) }, 0, true},
			{"batching", []*ir.Literal{small(2, 4, 3), ints(ir.S32, []int{2, 2}, 1, 3, 0, 9), small(2, 2, 3)},
				ir.ScatterAttr{UpdateWindowDims: []int{2}, InsertedWindowDims: []int{1}, InputBatchingDims: []int{0}, ScatterIndicesBatchingDims: []int{0},
					ScatterDimsToOperandDims: []int{1}, IndexVectorDim: 2},
				func() *ir.Func { return binRegion(ir.OpAdd, d) }, 2, false},
			{"two_inputs", []*ir.Literal{small(4, 2), small(4, 2), ints(ir.S32, []int{3, 1}, 3, 3, 0), small(3, 2), small(3, 2)}, rows,
				func() *ir.Func { return pairRegion(d) }, 3, false},
		} {
			sc := sc
			c := sumCase(name(ir.OpScatter, sc.what), ir.OpScatter, d, sc.terms, sc.in,
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpScatter, sc.a, p, sc.body()) })
			c.bits = sc.bitExact
			cs = append(cs, c)
		}
	}
	return cs
}

// secondRegion is (old, new) → new: overwrite.
func secondRegion(d ir.DType) *ir.Func {
	s := ir.Scalar(d)
	return region([]ir.Type{s, s}, func(_ *fb, p []*ir.Value) []*ir.Value { return []*ir.Value{p[1]} })
}

// pairRegion is (a, b, x, y) → (a + x, b * y): a scatter on two inputs.
func pairRegion(d ir.DType) *ir.Func {
	s := ir.Scalar(d)
	return region([]ir.Type{s, s, s, s}, func(r *fb, p []*ir.Value) []*ir.Value {
		return []*ir.Value{r.e1(ir.OpAdd, nil, p[0], p[2]), r.e1(ir.OpMultiply, nil, p[1], p[3])}
	})
}

// controlCases are while, case and composite.
func controlCases() []*tcase {
	var cs []*tcase
	f32, s32 := ir.Scalar(ir.F32), ir.Scalar(ir.S32)
	r := rng("control")
	x := randLit(r, tt(ir.F32, 4), true)

	// while: acc = acc*x + 0.5, n times, with an integer counter.
	for _, n := range []int64{0, 1, 7} {
		cs = append(cs, &tcase{name: fmt.Sprintf("while/f32/n%d", n), op: ir.OpWhile, dtype: ir.F32, ulp: 0,
			in: []*ir.Literal{ints(ir.S32, nil, 0), ir.FullLiteral(tt(ir.F32, 4), 1), x, ints(ir.S32, nil, n)},
			build: func(b *fb, p []*ir.Value) []*ir.Value {
				st := []ir.Type{s32, tt(ir.F32, 4), tt(ir.F32, 4), s32}
				cond := region(st, func(r *fb, q []*ir.Value) []*ir.Value {
					return one(r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, q[0], q[3]))
				})
				body := region(st, func(r *fb, q []*ir.Value) []*ir.Value {
					oneI := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.S32, 1)})
					half := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.FullLiteral(tt(ir.F32, 4), 0.5)})
					acc := r.e1(ir.OpAdd, nil, r.e1(ir.OpMultiply, nil, q[1], q[2]), half)
					return []*ir.Value{r.e1(ir.OpAdd, nil, q[0], oneI), acc, q[2], q[3]}
				})
				return b.emit(ir.OpWhile, nil, p, cond, body)[:2]
			}})
	}
	// case: three branches; indices in range, and out of it on both sides
	// (the last branch runs).
	for _, idx := range []int64{0, 1, 2, -1, 7} {
		cs = append(cs, &tcase{name: fmt.Sprintf("case/f32/index%d", idx), op: ir.OpCase, dtype: ir.F32, ulp: 0,
			in: []*ir.Literal{ints(ir.S32, nil, idx), x, randLit(r, tt(ir.F32, 4), true)},
			build: func(b *fb, p []*ir.Value) []*ir.Value {
				st := []ir.Type{tt(ir.F32, 4), tt(ir.F32, 4)}
				var branches []*ir.Func
				for _, op := range []ir.Op{ir.OpAdd, ir.OpMultiply, ir.OpSubtract} {
					branches = append(branches, region(st, func(r *fb, q []*ir.Value) []*ir.Value {
						return []*ir.Value{r.e1(op, nil, q[0], q[1]), r.e1(ir.OpNegate, nil, q[0])}
					}))
				}
				return b.emit(ir.OpCase, nil, p, branches...)
			}})
	}
	// composite: a named op whose decomposition XLA inlines.
	cs = append(cs, &tcase{name: "composite/f32/axpy", op: ir.OpComposite, dtype: ir.F32, ulp: 0,
		in: []*ir.Literal{x, randLit(r, tt(ir.F32, 4), true), ir.ScalarLiteral(ir.F32, 1.5)},
		build: func(b *fb, p []*ir.Value) []*ir.Value {
			dec := region([]ir.Type{tt(ir.F32, 4), tt(ir.F32, 4), f32}, func(r *fb, q []*ir.Value) []*ir.Value {
				a := r.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{4}}, q[2])
				return one(r.e1(ir.OpAdd, nil, r.e1(ir.OpMultiply, nil, a, q[0]), q[1]))
			})
			attr := ir.CompositeAttr{Name: "stela.test.axpy", Attrs: []ir.NamedAttr{{Name: "alpha", Value: 1.5}, {Name: "dims", Value: []int64{0}}}, Version: 1}
			return b.emit(ir.OpComposite, attr, p, dec)
		}})
	return cs
}

// fftCases: the four kinds on their element types, over 1 to 3 trailing
// dimensions, power-of-two and odd lengths. A transform is a sum of N
// terms per element whose twiddles have modulus 1: it compares within
// N·u·Σ|x| (sumScale: the whole input's Σ|re|+|im|, divided by N for the
// inverse kinds), which bounds both a direct DFT's error (ir.Eval) and
// an FFT's (XLA's ducc kernels).
func fftCases() []*tcase {
	var cs []*tcase
	r := rng("fft")
	for _, k := range []struct {
		kind   ir.FFTType
		dtypes []ir.DType
		shape  []int
		lens   []int
	}{
		{ir.FFTForward, []ir.DType{ir.C64, ir.C128}, []int{3, 16}, []int{16}},
		{ir.FFTForward, []ir.DType{ir.C64, ir.C128}, []int{2, 5, 6}, []int{5, 6}},
		{ir.FFTInverse, []ir.DType{ir.C64, ir.C128}, []int{2, 3, 4, 8}, []int{3, 4, 8}},
		{ir.FFTInverse, []ir.DType{ir.C64, ir.C128}, []int{7}, []int{7}},
		{ir.FFTReal, []ir.DType{ir.F32, ir.F64}, []int{4, 10}, []int{10}},
		{ir.FFTReal, []ir.DType{ir.F32, ir.F64}, []int{3, 9}, []int{3, 9}},
		{ir.FFTInverseReal, []ir.DType{ir.C64, ir.C128}, []int{4, 5}, []int{8}},
		{ir.FFTInverseReal, []ir.DType{ir.C64, ir.C128}, []int{2, 3, 4}, []int{2, 3, 7}},
	} {
		for _, d := range k.dtypes {
			x := randLit(r, tt(d, k.shape...), true)
			a := ir.FFTAttr{Type: k.kind, Length: k.lens}
			n := 1
			for _, l := range k.lens {
				n *= l
			}
			c := sumCase(fmt.Sprintf("%v/%v/%v%v", ir.OpFFT, d, k.kind, k.lens), ir.OpFFT, d, n, []*ir.Literal{x},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpFFT, a, p) })
			for _, v := range x.Complex128s() {
				c.sumScale += math.Abs(real(v)) + math.Abs(imag(v))
			}
			if k.kind == ir.FFTInverse || k.kind == ir.FFTInverseReal {
				c.sumScale /= float64(n)
			}
			cs = append(cs, c)
		}
	}
	return cs
}
