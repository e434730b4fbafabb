package ir

import (
	"slices"
	"sort"
)

// Autodiff rules of data movement and the compute ops. The VJP of a
// linear op is its transpose (a broadcast's is a sum, a slice's a pad, a
// gather's a scatter-add); its JVP is the op itself applied to the
// tangent. The contractions follow JAX's transpose rules
// (jax/_src/lax/lax.py, convolution.py), whose dimension bookkeeping they
// port.

// linearJVP makes the JVP of an op that is linear in its operands, with
// zeros for missing tangents: the op applied to the tangents. The
// operands in fixed (index or start) positions keep their primal values.
// (No indices: all operands are linear ones.)
func linearJVP(tangentArgs ...int) JVPFunc {
	return func(a *AD, t []*Value) []*Value {
		lin := tangentArgs
		if lin == nil {
			lin = allArgs(len(t))
		}
		some := false
		for _, i := range lin {
			if i < len(t) && t[i] != nil {
				some = true
			}
		}
		if !some {
			return make([]*Value, len(a.In.Results))
		}
		args := make([]*Value, len(a.In.Args))
		for i := range args {
			args[i] = a.Arg(i)
		}
		for _, i := range lin {
			if i >= len(t) {
				continue
			}
			if t[i] != nil {
				args[i] = t[i]
			} else {
				args[i] = a.ZerosLike(a.Arg(i))
			}
		}
		return a.Emit(a.In.Op, args, a.Attr(), cloneRegions(a.In.Regions)...)
	}
}

// allArgs lists 0..n-1.
func allArgs(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func cloneRegions(rs []*Func) []*Func {
	out := make([]*Func, len(rs))
	for i, r := range rs {
		out[i] = CloneFunc(r)
	}
	return out
}

// one1 is a one-element result slice.
func one1(v *Value) []*Value { return []*Value{v} }

func vjpBroadcastInDim(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	x := a.In.Args[0].Type
	attr := a.Attr().(BroadcastInDimAttr)
	mapped := map[int]int{} // result dim → operand dim, for the kept ones
	var sum []int
	for rd := range attr.Shape {
		i := slices.Index(attr.Dims, rd)
		if i < 0 || (x.Shape[i] == 1 && attr.Shape[rd] != 1) {
			sum = append(sum, rd)
			continue
		}
		mapped[rd] = i
	}
	s := a.Sum(ct[0], sum...)
	// The kept result dims, in increasing order, hold operand dims in the
	// order their mapping gives; transpose them back to the operand's.
	var kept []int
	for rd := range attr.Shape {
		if i, ok := mapped[rd]; ok {
			kept = append(kept, i)
		}
	}
	perm := make([]int, len(kept))
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(p, q int) bool { return kept[perm[p]] < kept[perm[q]] })
	s = a.Transpose(s, perm...)
	return one1(a.Reshape(s, x.Shape...))
}

func vjpReshape(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	return one1(a.Reshape(ct[0], a.In.Args[0].Type.Shape...))
}

func vjpTranspose(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	perm := a.Attr().(TransposeAttr).Perm
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return one1(a.Transpose(ct[0], inv...))
}

func vjpReverse(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	return one1(a.Emit1(OpReverse, ct, a.Attr()))
}

// vjpSlice pads the cotangent back to the operand's shape: zeros between
// the strided elements and around the slice.
func vjpSlice(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	x := a.In.Args[0].Type
	attr := a.Attr().(SliceAttr)
	r := ct[0].Type
	if r.NumElements() == 0 {
		return one1(a.ZerosLike(a.Arg(0)))
	}
	lo, hi, in := make([]int, x.Rank()), make([]int, x.Rank()), make([]int, x.Rank())
	for d := range x.Rank() {
		lo[d] = attr.Start[d]
		in[d] = attr.Stride[d] - 1
		hi[d] = x.Shape[d] - (attr.Start[d] + (r.Shape[d]-1)*attr.Stride[d] + 1)
	}
	return one1(a.Pad(ct[0], a.Const(r.DType, 0), lo, hi, in))
}

// vjpDynamicSlice writes the cotangent into zeros at the same (clamped)
// start: dynamic_update_slice clamps the start exactly as dynamic_slice
// did, since the sizes are the same.
func vjpDynamicSlice(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if ct[0] == nil || !a.Need(0) {
		return out
	}
	args := append([]*Value{a.ZerosLike(a.Arg(0)), ct[0]}, starts(a, 1)...)
	out[0] = a.Emit1(OpDynamicUpdateSlice, args, nil)
	return out
}

func starts(a *AD, from int) []*Value {
	var s []*Value
	for i := from; i < len(a.In.Args); i++ {
		s = append(s, a.Arg(i))
	}
	return s
}

func vjpDynamicUpdateSlice(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if ct[0] == nil {
		return out
	}
	st := starts(a, 2)
	if a.Need(0) {
		out[0] = a.Emit1(OpDynamicUpdateSlice, append([]*Value{ct[0], a.ZerosLike(a.Arg(1))}, st...), nil)
	}
	if a.Need(1) {
		out[1] = a.Emit1(OpDynamicSlice, append([]*Value{ct[0]}, st...), DynamicSliceAttr{Sizes: slices.Clone(a.In.Args[1].Type.Shape)})
	}
	return out
}

func vjpConcatenate(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if ct[0] == nil {
		return out
	}
	dim := a.Attr().(ConcatenateAttr).Dim
	r := ct[0].Type
	off := 0
	for i, x := range a.In.Args {
		n := x.Type.Shape[dim]
		if a.Need(i) {
			start, limit := make([]int, r.Rank()), slices.Clone(r.Shape)
			start[dim], limit[dim] = off, off+n
			out[i] = a.Slice(ct[0], start, limit, nil)
		}
		off += n
	}
	return out
}

// vjpPad is JAX's _pad_transpose: unpad by negative edge padding, take
// every (interior+1)-th element; the padding value collects the rest.
func vjpPad(a *AD, ct []*Value) []*Value {
	out := make([]*Value, 2)
	if ct[0] == nil {
		return out
	}
	attr := a.Attr().(PadAttr)
	g := ct[0]
	n := g.Type.Rank()
	var t *Value
	if a.Need(0) || a.Need(1) {
		neg := func(s []int) []int {
			o := make([]int, len(s))
			for i, v := range s {
				o[i] = -v
			}
			return o
		}
		un := a.Pad(g, a.Const(g.Type.DType, 0), neg(attr.Low), neg(attr.High), nil)
		st := make([]int, n)
		for d := range st {
			st[d] = attr.Interior[d] + 1
		}
		t = a.Slice(un, make([]int, n), un.Type.Shape, st)
		out[0] = t
	}
	if a.Need(1) {
		out[1] = a.Sub(a.Sum(g, allArgs(n)...), a.Sum(t, allArgs(n)...))
	}
	if !a.Need(0) {
		out[0] = nil
	}
	return out
}

func jvpPad(a *AD, t []*Value) []*Value {
	if t[0] == nil && t[1] == nil {
		return one1(nil)
	}
	x, v := t[0], t[1]
	if x == nil {
		x = a.ZerosLike(a.Arg(0))
	}
	if v == nil {
		v = a.ZerosLike(a.Arg(1))
	}
	return a.Emit(OpPad, []*Value{x, v}, a.Attr())
}

// remaining lists 0..n-1 without the given dims, in order.
func remaining(n int, without ...[]int) []int {
	var out []int
	for d := range n {
		skip := false
		for _, w := range without {
			if slices.Contains(w, d) {
				skip = true
			}
		}
		if !skip {
			out = append(out, d)
		}
	}
	return out
}

func seq(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// dotTransposeLHS is JAX's _dot_general_transpose_lhs: the cotangent of
// x in dot_general(x, y) (swap: of y in dot_general(y-role, x-role), whose
// result has y's free dims first).
func dotTransposeLHS(a *AD, g, x, y *Value, xContract, yContract, xBatch, yBatch []int, prec []Precision, swap bool) *Value {
	xKept := remaining(x.Type.Rank(), xContract, xBatch)
	yKept := remaining(y.Type.Rank(), yContract, yBatch)
	nb := len(xBatch)
	var ansBatch, ansY []int
	ansBatch = seq(0, nb)
	if swap {
		ansY = seq(nb, len(yKept))
	} else {
		ansY = seq(nb+len(xKept), len(yKept))
	}
	// dot(g, y)'s dims are x's batch, kept, then contracting dims in y's
	// order; a transpose puts them in x's order.
	order := make([]int, len(yContract))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(p, q int) bool { return yContract[order[p]] < yContract[order[q]] })
	unsorted := slices.Concat(xBatch, xKept)
	for _, i := range order {
		unsorted = append(unsorted, xContract[i])
	}
	perm := make([]int, len(unsorted)) // argsort of unsorted
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(p, q int) bool { return unsorted[perm[p]] < unsorted[perm[q]] })
	// When that transpose only swaps the kept and contracting blocks (a
	// weight's gradient, xᵀ·g), dot(y, g) has x's order already: no
	// transpose, which would copy the whole gradient.
	nk, nc := len(xKept), len(yContract)
	swapped := slices.Concat(seq(0, nb), seq(nb+nk, nc), seq(nb, nk))
	if nk > 0 && nc > 0 && slices.Equal(perm, swapped) {
		var p2 []Precision
		if len(prec) == 2 {
			p2 = []Precision{prec[1], prec[0]}
		}
		d := a.DotGeneral(y, g, DotGeneralAttr{LhsBatch: yBatch, RhsBatch: ansBatch, LhsContract: yKept, RhsContract: ansY, Precision: p2})
		return a.Convert(d, x.Type.DType)
	}
	d := a.DotGeneral(g, y, DotGeneralAttr{LhsBatch: ansBatch, RhsBatch: yBatch, LhsContract: ansY, RhsContract: yKept, Precision: prec})
	return a.Convert(a.Transpose(d, perm...), x.Type.DType)
}

func vjpDotGeneral(a *AD, ct []*Value) []*Value {
	out := make([]*Value, 2)
	if ct[0] == nil {
		return out
	}
	at := a.Attr().(DotGeneralAttr)
	x, y := a.Arg(0), a.Arg(1)
	if a.Need(0) {
		out[0] = dotTransposeLHS(a, ct[0], x, y, at.LhsContract, at.RhsContract, at.LhsBatch, at.RhsBatch, at.Precision, false)
	}
	if a.Need(1) {
		out[1] = dotTransposeLHS(a, ct[0], y, x, at.RhsContract, at.LhsContract, at.RhsBatch, at.LhsBatch, at.Precision, true)
	}
	return out
}

// jvpBilinear is the JVP of an op bilinear in its two operands (dot,
// convolution): op(tx, y) + op(x, ty).
func jvpBilinear(a *AD, t []*Value) []*Value {
	var l, r *Value
	if t[0] != nil {
		l = a.Emit1(a.In.Op, []*Value{t[0], a.Arg(1)}, a.Attr())
	}
	if t[1] != nil {
		r = a.Emit1(a.In.Op, []*Value{a.Arg(0), t[1]}, a.Attr())
	}
	return one1(a.AddN(l, r))
}

// The reductions. A reduce or reduce_window is differentiable when its
// body is one of the plain binary ops (add, multiply, maximum, minimum)
// over one operand; a variadic reduce (argmax's (value, index) pairs) is
// differentiable only where no cotangent reaches it (its index result).

func reduceBodyOp(a *AD) Op {
	if len(a.In.Args) != 2 {
		return OpInvalid
	}
	return RegionOp(a.In.Regions[0])
}

func noCotangent(ct []*Value) bool {
	for _, c := range ct {
		if c != nil {
			return false
		}
	}
	return true
}

func vjpReduce(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	op := reduceBodyOp(a)
	x, init := a.Arg(0), a.Arg(1)
	dims := a.Attr().(ReduceAttr).Dims
	kept := remaining(x.Type.Rank(), dims)
	g := ct[0]
	bcast := func(v *Value) *Value { return a.BroadcastInDim(v, x.Type.Shape, kept) }
	switch op {
	case OpAdd:
		if a.Need(0) {
			out[0] = bcast(g)
		}
		if a.Need(1) {
			out[1] = a.Sum(g, allArgs(g.Type.Rank())...)
		}
	case OpMaximum, OpMinimum:
		mask, initEq, count := chooserMasks(a, x, init, a.Res(0), kept, dims)
		share := a.Div(g, count)
		if a.Need(0) {
			out[0] = a.Mul(mask, bcast(share))
		}
		if a.Need(1) {
			out[1] = a.Sum(a.Mul(initEq, share), allArgs(g.Type.Rank())...)
		}
	case OpMultiply:
		if a.Need(0) {
			others := exclusiveProducts(a, x, dims)
			out[0] = a.Mul(a.Mul(others, bcast(g)), init)
		}
		if a.Need(1) {
			p := a.Reduce(x, a.Const(x.Type.DType, 1), OpMultiply, dims...)
			out[1] = a.Sum(a.Mul(g, p), allArgs(g.Type.Rank())...)
		}
	default:
		a.Fail("the gradient of a reduction whose body is not a single add, multiply, maximum or minimum of one operand is not defined (argmax-like reductions have none: use their index result only)")
	}
	return out
}

func jvpReduce(a *AD, t []*Value) []*Value {
	out := make([]*Value, len(a.In.Results))
	if noCotangent(t) {
		return out
	}
	op := reduceBodyOp(a)
	x, init := a.Arg(0), a.Arg(1)
	dims := a.Attr().(ReduceAttr).Dims
	kept := remaining(x.Type.Rank(), dims)
	r := a.Res(0)
	tx, ti := t[0], t[1]
	bi := func(v *Value) *Value { return a.BroadcastInDim(v, r.Type.Shape, nil) }
	switch op {
	case OpAdd:
		var s, i *Value
		if tx != nil {
			s = a.Sum(tx, dims...)
		}
		if ti != nil {
			i = bi(ti)
		}
		out[0] = a.AddN(s, i)
	case OpMaximum, OpMinimum:
		mask, initEq, count := chooserMasks(a, x, init, r, kept, dims)
		var s, i *Value
		if tx != nil {
			s = a.Sum(a.Mul(tx, mask), dims...)
		}
		if ti != nil {
			i = a.Mul(bi(ti), initEq)
		}
		out[0] = a.Div(a.AddN(s, i), count)
	case OpMultiply:
		var s, i *Value
		if tx != nil {
			others := exclusiveProducts(a, x, dims)
			s = a.Mul(a.Sum(a.Mul(tx, others), dims...), bi(init))
		}
		if ti != nil {
			i = a.Mul(bi(ti), a.Reduce(x, a.Const(x.Type.DType, 1), OpMultiply, dims...))
		}
		out[0] = a.AddN(s, i)
	default:
		a.Fail("the derivative of a reduction whose body is not a single add, multiply, maximum or minimum of one operand is not defined")
	}
	return out
}

// chooserMasks are a max or min reduction's tie weights, as JAX's
// _reduce_chooser_jvp_rule has them: mask is 1 where x equals its
// group's result, initEq 1 where the initial value does (it counts as one
// more candidate), and count the number of candidates that tie.
func chooserMasks(a *AD, x, init, r *Value, kept, dims []int) (mask, initEq, count *Value) {
	dt := x.Type.DType
	eq := a.Compare(CmpEQ, x, a.BroadcastInDim(r, x.Type.Shape, kept))
	mask = a.Convert(eq, dt)
	initEq = a.Convert(a.Compare(CmpEQ, a.BroadcastInDim(init, r.Type.Shape, nil), r), dt)
	count = a.Add(a.Sum(mask, dims...), initEq)
	return mask, initEq, count
}

// exclusiveProducts gives each element of x the product of the other
// elements of its reduction group, without dividing (exact with zeros):
// the product of the elements before it times that of those after it,
// each a running product made with reduce_window.
func exclusiveProducts(a *AD, x *Value, dims []int) *Value {
	n := x.Type.Rank()
	kept := remaining(n, dims)
	perm := slices.Concat(kept, dims)
	xt := a.Transpose(x, perm...)
	m, k := 1, 1
	for _, d := range kept {
		m *= x.Type.Shape[d]
	}
	for _, d := range dims {
		k *= x.Type.Shape[d]
	}
	flat := a.Reshape(xt, m, k)
	oneV := a.Const(x.Type.DType, 1)
	before := func(v *Value) *Value { // product of the elements before each
		incl := a.Emit1(OpReduceWindow, []*Value{v, oneV}, ReduceWindowAttr{WindowDims: []int{1, k}, Padding: [][2]int{{0, 0}, {k - 1, 0}}},
			BinaryRegion(OpMultiply, x.Type.DType, a.Loc))
		shifted := a.Pad(incl, oneV, []int{0, 1}, []int{0, -1}, nil)
		return shifted
	}
	rev := func(v *Value) *Value { return a.Emit1(OpReverse, []*Value{v}, ReverseAttr{Dims: []int{1}}) }
	others := a.Mul(before(flat), rev(before(rev(flat))))
	others = a.Reshape(others, xt.Type.Shape...)
	inv := make([]int, n)
	for i, p := range perm {
		inv[p] = i
	}
	return a.Transpose(others, inv...)
}

// reduceWindowGeometry fills in reduce_window's defaults.
func reduceWindowGeometry(at ReduceWindowAttr, rank int) (strides, base, wdil []int, pad [][2]int) {
	ones := func(s []int) []int {
		if len(s) > 0 {
			return s
		}
		o := make([]int, rank)
		for i := range o {
			o[i] = 1
		}
		return o
	}
	pad = at.Padding
	if len(pad) == 0 {
		pad = make([][2]int, rank)
	}
	return ones(at.Strides), ones(at.BaseDilations), ones(at.WindowDilations), pad
}

func dilateDim(d, dil int) int {
	if d == 0 {
		return 0
	}
	return 1 + dil*(d-1)
}

func vjpReduceWindow(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	if a.Need(1) {
		a.Fail("the gradient with respect to reduce_window's initial value is not supported (make it a constant)")
	}
	if !a.Need(0) {
		return out
	}
	switch reduceBodyOp(a) {
	case OpAdd:
		out[0] = reduceWindowSumTranspose(a, ct[0])
	case OpMaximum, OpMinimum:
		out[0] = reduceWindowChooserVJP(a, ct[0])
	default:
		a.Fail("the gradient of a reduce_window whose body is not a single add, maximum or minimum of one operand is not defined")
	}
	return out
}

// reduceWindowSumTranspose is JAX's _reduce_window_sum_transpose_rule:
// pad the cotangent (interior by the strides) and sum it over the same
// windows.
func reduceWindowSumTranspose(a *AD, g *Value) *Value {
	at := a.Attr().(ReduceWindowAttr)
	x := a.In.Args[0].Type
	n := x.Rank()
	strides, base, wdil, pad := reduceWindowGeometry(at, n)
	lo, hi, in := make([]int, n), make([]int, n), make([]int, n)
	for d := range n {
		ld := dilateDim(x.Shape[d], base[d])
		rd := dilateDim(at.WindowDims[d], wdil[d])
		od := dilateDim(g.Type.Shape[d], strides[d])
		lo[d] = rd - pad[d][0] - 1
		hi[d] = ld + rd - 1 - od - lo[d]
		in[d] = strides[d] - 1
	}
	pg := a.Pad(g, a.Const(g.Type.DType, 0), lo, hi, in)
	return a.Emit1(OpReduceWindow, []*Value{pg, a.Const(g.Type.DType, 0)},
		ReduceWindowAttr{WindowDims: slices.Clone(at.WindowDims), Strides: slices.Clone(base), WindowDilations: slices.Clone(wdil)},
		BinaryRegion(OpAdd, g.Type.DType, a.Loc))
}

// windowPatches calls fn for each position k of the window (row-major)
// with the slice of the padded, dilated operand p that holds, for every
// output element, the element at position k of its window, and that
// slice's start and limit in p.
func windowPatches(a *AD, p *Value, out Type, at ReduceWindowAttr, fn func(patch *Value, start, limit, stride []int)) {
	n := out.Rank()
	strides, _, wdil, _ := reduceWindowGeometry(at, n)
	k := make([]int, n)
	for {
		start, limit := make([]int, n), make([]int, n)
		for d := range n {
			start[d] = k[d] * wdil[d]
			limit[d] = start[d] + (out.Shape[d]-1)*strides[d] + 1
		}
		fn(a.Slice(p, start, limit, strides), start, limit, strides)
		d := n - 1
		for ; d >= 0; d-- {
			k[d]++
			if k[d] < at.WindowDims[d] {
				break
			}
			k[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// padWindowOperand pads and dilates x as reduce_window does, with v.
func padWindowOperand(a *AD, x, v *Value, at ReduceWindowAttr) *Value {
	n := x.Type.Rank()
	_, base, _, pad := reduceWindowGeometry(at, n)
	lo, hi, in := make([]int, n), make([]int, n), make([]int, n)
	for d := range n {
		lo[d], hi[d], in[d] = pad[d][0], pad[d][1], base[d]-1
	}
	return a.Pad(x, v, lo, hi, in)
}

// reduceWindowChooserVJP gives each window's cotangent to the first
// element of the window (in row-major window order) equal to the
// window's result, as XLA's select_and_scatter with GE/LE does; the
// cotangents of the window positions are padded back into place and
// summed, then the reduce_window's own padding and dilation are undone.
func reduceWindowChooserVJP(a *AD, g *Value) *Value {
	at := a.Attr().(ReduceWindowAttr)
	x, init, r := a.Arg(0), a.Arg(1), a.Res(0)
	n := x.Type.Rank()
	_, base, _, pad := reduceWindowGeometry(at, n)
	p := padWindowOperand(a, x, init, at)
	zero := a.ZerosLike(g)
	var taken, sum *Value
	windowPatches(a, p, r.Type, at, func(patch *Value, start, limit, stride []int) {
		win := a.Compare(CmpEQ, patch, r)
		if taken != nil {
			win = a.Emit1(OpAnd, []*Value{win, a.Unary(OpNot, taken)}, nil)
			taken = a.Emit1(OpOr, []*Value{taken, win}, nil)
		} else {
			taken = win
		}
		c := a.Select(win, g, zero)
		lo, hi, in := make([]int, n), make([]int, n), make([]int, n)
		for d := range n {
			lo[d], hi[d], in[d] = start[d], p.Type.Shape[d]-limit[d], stride[d]-1
		}
		if r.Type.NumElements() == 0 {
			return
		}
		sum = a.AddN(sum, a.Pad(c, a.Const(g.Type.DType, 0), lo, hi, in))
	})
	if sum == nil {
		return a.ZerosLike(x)
	}
	start, limit := make([]int, n), make([]int, n)
	for d := range n {
		start[d] = pad[d][0]
		limit[d] = pad[d][0] + dilateDim(x.Type.Shape[d], base[d])
	}
	return a.Slice(sum, start, limit, base)
}

func jvpReduceWindow(a *AD, t []*Value) []*Value {
	if noCotangent(t) {
		return one1(nil)
	}
	at := a.Attr().(ReduceWindowAttr)
	tx, ti := t[0], t[1]
	if tx == nil {
		tx = a.ZerosLike(a.Arg(0))
	}
	if ti == nil {
		ti = a.ZerosLike(a.Arg(1))
	}
	switch reduceBodyOp(a) {
	case OpAdd:
		if t[1] != nil {
			a.Fail("the derivative with respect to reduce_window's initial value is not supported (make it a constant)")
		}
		return a.Emit(OpReduceWindow, []*Value{tx, a.Const(tx.Type.DType, 0)}, at, BinaryRegion(OpAdd, tx.Type.DType, a.Loc))
	case OpMaximum, OpMinimum:
		x, init, r := a.Arg(0), a.Arg(1), a.Res(0)
		p := padWindowOperand(a, x, init, at)
		tp := padWindowOperand(a, tx, ti, at)
		var patches []*Value
		windowPatches(a, tp, r.Type, at, func(patch *Value, _, _, _ []int) { patches = append(patches, patch) })
		var taken, sum *Value
		i := 0
		zero := a.ZerosLike(r)
		windowPatches(a, p, r.Type, at, func(patch *Value, _, _, _ []int) {
			win := a.Compare(CmpEQ, patch, r)
			if taken != nil {
				win = a.Emit1(OpAnd, []*Value{win, a.Unary(OpNot, taken)}, nil)
				taken = a.Emit1(OpOr, []*Value{taken, win}, nil)
			} else {
				taken = win
			}
			sum = a.AddN(sum, a.Select(win, patches[i], zero))
			i++
		})
		return one1(sum)
	}
	a.Fail("the derivative of a reduce_window whose body is not a single add, maximum or minimum of one operand is not defined")
	return nil
}

// convSpecs are a convolution's dimension numbers in JAX's form: (batch,
// feature, spatial...) for lhs and out, (out feature, in feature,
// spatial...) for rhs.
type convSpecs struct{ lhs, rhs, out []int }

func specsOf(at ConvolutionAttr) convSpecs {
	return convSpecs{
		lhs: append([]int{at.InputBatchDim, at.InputFeatureDim}, at.InputSpatialDims...),
		rhs: append([]int{at.KernelOutputFeatureDim, at.KernelInputFeatureDim}, at.KernelSpatialDims...),
		out: append([]int{at.OutputBatchDim, at.OutputFeatureDim}, at.OutputSpatialDims...),
	}
}

func convAttr(s convSpecs, strides []int, pad [][2]int, lhsDil, rhsDil []int, fgc, bgc int, prec []Precision) ConvolutionAttr {
	return ConvolutionAttr{
		WindowStrides: strides, Padding: pad, LhsDilation: lhsDil, RhsDilation: rhsDil,
		InputBatchDim: s.lhs[0], InputFeatureDim: s.lhs[1], InputSpatialDims: slices.Clone(s.lhs[2:]),
		KernelOutputFeatureDim: s.rhs[0], KernelInputFeatureDim: s.rhs[1], KernelSpatialDims: slices.Clone(s.rhs[2:]),
		OutputBatchDim: s.out[0], OutputFeatureDim: s.out[1], OutputSpatialDims: slices.Clone(s.out[2:]),
		FeatureGroupCount: fgc, BatchGroupCount: bgc, Precision: prec,
	}
}

func specT(s []int) []int { return append([]int{s[1], s[0]}, s[2:]...) }

func take(shape, idx []int) []int {
	out := make([]int, len(idx))
	for i, d := range idx {
		out[i] = shape[d]
	}
	return out
}

// convGeometry fills in a convolution's defaults.
func convGeometry(at ConvolutionAttr, ns int) (strides []int, pad [][2]int, lhsDil, rhsDil []int) {
	ones := func(s []int) []int {
		if len(s) > 0 {
			return s
		}
		o := make([]int, ns)
		for i := range o {
			o[i] = 1
		}
		return o
	}
	pad = at.Padding
	if len(pad) == 0 {
		pad = make([][2]int, ns)
	}
	return ones(at.WindowStrides), pad, ones(at.LhsDilation), ones(at.RhsDilation)
}

// reshapeAxisOutOf splits dimension src into (size1, rest), size1 major.
func reshapeAxisOutOf(a *AD, src, size1 int, x *Value) *Value {
	shape := slices.Clone(x.Type.Shape)
	shape = slices.Concat(shape[:src], []int{size1, shape[src] / size1}, shape[src+1:])
	return a.Reshape(x, shape...)
}

// reshapeAxisInto merges dimension src into dimension dst (numbered
// after src is removed), src major.
func reshapeAxisInto(a *AD, src, dst int, x *Value) *Value {
	var perm []int
	for i := range x.Type.Rank() {
		if i != src {
			perm = append(perm, i)
		}
	}
	perm = slices.Insert(perm, dst, src)
	shape := slices.Delete(slices.Clone(x.Type.Shape), src, src+1)
	shape[dst] *= x.Type.Shape[src]
	return a.Reshape(a.Transpose(x, perm...), shape...)
}

func vjpConvolution(a *AD, ct []*Value) []*Value {
	out := make([]*Value, 2)
	if ct[0] == nil {
		return out
	}
	at := a.Attr().(ConvolutionAttr)
	if slices.Contains(at.WindowReversal, true) {
		a.Fail("the gradient of a convolution with window_reversal is not supported")
	}
	g, lhs, rhs := ct[0], a.Arg(0), a.Arg(1)
	s := specsOf(at)
	ns := len(at.InputSpatialDims)
	strides, pad, lhsDil, rhsDil := convGeometry(at, ns)
	fgc, bgc := max(at.FeatureGroupCount, 1), max(at.BatchGroupCount, 1)
	lhsS, rhsS, outS := take(lhs.Type.Shape, s.lhs[2:]), take(rhs.Type.Shape, s.rhs[2:]), take(g.Type.Shape, s.out[2:])
	if a.Need(0) {
		r := rhs
		f := fgc
		if fgc > 1 {
			r = reshapeAxisOutOf(a, s.rhs[0], fgc, r)
			r = reshapeAxisInto(a, s.rhs[0], s.rhs[1], r)
		} else if bgc > 1 {
			r = reshapeAxisOutOf(a, s.rhs[0], bgc, r)
			r = reshapeAxisInto(a, s.rhs[0], s.rhs[1], r)
			f = bgc
		}
		p := make([][2]int, ns)
		for d := range ns {
			ld, rd, od := dilateDim(lhsS[d], lhsDil[d]), dilateDim(rhsS[d], rhsDil[d]), dilateDim(outS[d], strides[d])
			p[d][0] = rd - pad[d][0] - 1
			p[d][1] = ld + rd - 1 - od - p[d][0]
		}
		rev := a.Emit1(OpReverse, []*Value{r}, ReverseAttr{Dims: slices.Clone(s.rhs[2:])})
		x := a.Emit1(OpConvolution, []*Value{g, a.Convert(rev, g.Type.DType)},
			convAttr(convSpecs{s.out, specT(s.rhs), s.lhs}, slices.Clone(lhsDil), p, slices.Clone(strides), slices.Clone(rhsDil), f, 1, at.Precision))
		if bgc > 1 {
			x = reshapeAxisOutOf(a, s.lhs[1], bgc, x)
			x = reshapeAxisInto(a, s.lhs[1], s.lhs[0], x)
		}
		out[0] = a.Convert(x, lhs.Type.DType)
	}
	if a.Need(1) {
		f, b := fgc, bgc
		if bgc > 1 {
			f, b = bgc, 1
		} else if fgc > 1 {
			f, b = 1, fgc
		}
		p := make([][2]int, ns)
		for d := range ns {
			ld, rd, od := dilateDim(lhsS[d], lhsDil[d]), dilateDim(rhsS[d], rhsDil[d]), dilateDim(outS[d], strides[d])
			p[d][0] = pad[d][0]
			p[d][1] = (od - ld) + (rd - pad[d][0] - 1)
		}
		w := a.Emit1(OpConvolution, []*Value{a.Convert(lhs, g.Type.DType), g},
			convAttr(convSpecs{specT(s.lhs), specT(s.out), specT(s.rhs)}, slices.Clone(rhsDil), p, slices.Clone(lhsDil), slices.Clone(strides), f, b, at.Precision))
		out[1] = a.Convert(w, rhs.Type.DType)
	}
	return out
}

// gatherBounds is the largest valid start index per index-vector
// component of a gather or scatter, broadcast along indices' index vector
// dimension (a rank-0 value when the index vector is implicit).
func gatherBounds(a *AD, idx *Value, startMap []int, ivd int, bound func(d int) int) *Value {
	n := len(startMap)
	vals := make([]int64, n)
	for k, d := range startMap {
		vals[k] = int64(bound(d))
	}
	if ivd == idx.Type.Rank() {
		return a.Literal(LiteralFromInt64s(Scalar(idx.Type.DType), vals))
	}
	c := a.Literal(LiteralFromInt64s(TensorOf(idx.Type.DType, n), vals))
	return a.BroadcastInDim(c, idx.Type.Shape, []int{ivd})
}

func vjpGather(a *AD, ct []*Value) []*Value {
	out := make([]*Value, 2)
	if ct[0] == nil || !a.Need(0) {
		return out
	}
	at := a.Attr().(GatherAttr)
	x, idx := a.Arg(0), a.Arg(1)
	// Gather clamps each start into range; scatter would drop a window
	// that does not fit. Clamp first, so the scatter adds where the
	// gather read.
	hi := gatherBounds(a, idx, at.StartIndexMap, at.IndexVectorDim, func(d int) int { return x.Type.Shape[d] - at.SliceSizes[d] })
	if hi.Type.Rank() == 0 && idx.Type.Rank() > 0 {
		hi = a.BroadcastInDim(hi, idx.Type.Shape, nil)
	}
	cidx := a.Emit1(OpClamp, []*Value{a.Const(idx.Type.DType, 0), idx, hi}, nil)
	sa := ScatterAttr{
		UpdateWindowDims: slices.Clone(at.OffsetDims), InsertedWindowDims: slices.Clone(at.CollapsedSliceDims),
		InputBatchingDims: slices.Clone(at.OperandBatchingDims), ScatterIndicesBatchingDims: slices.Clone(at.StartIndicesBatchingDims),
		ScatterDimsToOperandDims: slices.Clone(at.StartIndexMap), IndexVectorDim: at.IndexVectorDim, IndicesAreSorted: at.IndicesAreSorted,
	}
	out[0] = a.Emit1(OpScatter, []*Value{a.ZerosLike(x), cidx, ct[0]}, sa, BinaryRegion(OpAdd, x.Type.DType, a.Loc))
	return out
}

// scatterKind is how a scatter combines: by adding, by replacing (the
// region returns its update), or otherwise (no derivative).
func scatterKind(in *Instr) Op {
	if len(in.Args) != 3 {
		return OpInvalid
	}
	r := in.Regions[0]
	if len(r.Params) == 2 && len(r.Body) == 0 && len(r.Results) == 1 && r.Results[0] == r.Params[1] {
		return OpSelect // replace
	}
	if RegionOp(r) == OpAdd {
		return OpAdd
	}
	return OpInvalid
}

// scatterGather is the gather that reads, for every update element, the
// element of an input-shaped x that the scatter writes, with zeros where
// the scatter drops the update's window because it does not fit.
func scatterGather(a *AD, x, idx *Value, upd Type, at ScatterAttr) *Value {
	xr := x.Type.Rank()
	windowDims := remaining(xr, at.InsertedWindowDims, at.InputBatchingDims)
	sizes := make([]int, xr)
	for d := range sizes {
		sizes[d] = 1
	}
	for k, d := range windowDims {
		sizes[d] = upd.Shape[at.UpdateWindowDims[k]]
	}
	ga := GatherAttr{
		OffsetDims: slices.Clone(at.UpdateWindowDims), CollapsedSliceDims: slices.Clone(at.InsertedWindowDims),
		OperandBatchingDims: slices.Clone(at.InputBatchingDims), StartIndicesBatchingDims: slices.Clone(at.ScatterIndicesBatchingDims),
		StartIndexMap: slices.Clone(at.ScatterDimsToOperandDims), IndexVectorDim: at.IndexVectorDim, SliceSizes: sizes,
		IndicesAreSorted: at.IndicesAreSorted,
	}
	g := a.Emit1(OpGather, []*Value{x, idx}, ga)
	// In bounds: every start component within [0, dim - size].
	hi := gatherBounds(a, idx, at.ScatterDimsToOperandDims, at.IndexVectorDim, func(d int) int { return x.Type.Shape[d] - sizes[d] })
	ok := a.Emit1(OpAnd, []*Value{a.Compare(CmpGE, idx, a.ZerosLike(idx)), a.Compare(CmpLE, idx, a.match1(hi, idx))}, nil)
	if at.IndexVectorDim < idx.Type.Rank() {
		ok = a.Emit1(OpReduce, []*Value{ok, a.Literal(LiteralFromBools(Scalar(Bool), []bool{true}))}, ReduceAttr{Dims: []int{at.IndexVectorDim}}, BinaryRegion(OpAnd, Bool, a.Loc))
	}
	scatterDims := remaining(upd.Rank(), at.UpdateWindowDims)
	ok = a.BroadcastInDim(ok, upd.Shape, scatterDims)
	return a.Select(ok, g, a.ZerosLike(g))
}

// match1 broadcasts a rank-0 v to like's shape.
func (b *Builder) match1(v, like *Value) *Value {
	if v.Type.Rank() == 0 && like.Type.Rank() > 0 {
		return b.BroadcastInDim(v, like.Type.Shape, nil)
	}
	return v
}

func vjpScatter(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if ct[0] == nil {
		return out
	}
	at := a.Attr().(ScatterAttr)
	idx, upd := a.Arg(1), a.In.Args[2].Type
	switch scatterKind(a.In) {
	case OpAdd:
		if a.Need(0) {
			out[0] = ct[0]
		}
		if a.Need(2) {
			out[2] = scatterGather(a, ct[0], idx, upd, at)
		}
	case OpSelect:
		// Replace: the input's cotangent is cut where an update landed;
		// an update gets the cotangent of the element it wrote, if it is
		// the update that won among duplicates (found by scattering the
		// updates' own ids the same way and reading them back).
		if a.Need(0) {
			z := a.Zeros(upd)
			out[0] = a.Emit1(OpScatter, []*Value{ct[0], idx, z}, at, CloneFunc(a.In.Regions[0]))
		}
		if a.Need(2) {
			ids := a.Emit1(OpIota, nil, IotaAttr{Type: TensorOf(S32, upd.NumElements()), Dim: 0})
			ids = a.Reshape(ids, upd.Shape...)
			none := a.Full(a.In.Args[0].Type.WithDType(S32), -1)
			won := a.Emit1(OpScatter, []*Value{none, idx, ids}, at, replaceRegion(S32, a.Loc))
			back := scatterGather(a, won, idx, upd, at)
			g := scatterGather(a, ct[0], idx, upd, at)
			out[2] = a.Select(a.Compare(CmpEQ, back, ids), g, a.ZerosLike(g))
		}
	default:
		a.Fail("the gradient of a scatter whose update region is not an addition or a replacement of one input is not supported")
	}
	return out
}

// replaceRegion is the update region (current, update) → update.
func replaceRegion(dt DType, loc Loc) *Func {
	f := NewFunc("replace", Scalar(dt), Scalar(dt))
	for _, p := range f.Params {
		p.SetParamLoc(loc)
	}
	f.Return(f.Params[1])
	return f
}

func jvpScatter(a *AD, t []*Value) []*Value {
	if t[0] == nil && t[2] == nil {
		return one1(nil)
	}
	if scatterKind(a.In) == OpInvalid {
		a.Fail("the derivative of a scatter whose update region is not an addition or a replacement of one input is not supported")
	}
	return linearJVP(0, 2)(a, t)
}

// sortPermutation sorts, as a.In does, an iota along the sort dimension
// with the operands (the comparator ignores it) and returns where each
// sorted element came from, as full index vectors into the operands:
// shape operand shape + [rank], si32.
func sortPermutation(a *AD) *Value {
	at := a.Attr().(SortAttr)
	x := a.In.Args[0].Type
	n := len(a.In.Args)
	cmp := a.In.Regions[0]
	ext := NewFunc(cmp.Name, slices.Concat(typesOf(cmp.Params), []Type{Scalar(S32), Scalar(S32)})...)
	for _, p := range ext.Params {
		p.SetParamLoc(a.Loc)
	}
	ext.Return(NewBuilder(ext, a.Loc).Inline(cmp, ext.Params[:2*n]...)...)
	args := make([]*Value, 0, n+1)
	for i := range n {
		args = append(args, a.Arg(i))
	}
	iota := func(d int) *Value { return a.Emit1(OpIota, nil, IotaAttr{Type: x.WithDType(S32), Dim: d}) }
	args = append(args, iota(at.Dim))
	perm := a.Emit(OpSort, args, at, ext)[n]
	idx := make([]*Value, x.Rank())
	col := append(slices.Clone(x.Shape), 1)
	for d := range x.Rank() {
		v := perm
		if d != at.Dim {
			v = iota(d)
		}
		idx[d] = a.Reshape(v, col...)
	}
	return a.Emit1(OpConcatenate, idx, ConcatenateAttr{Dim: x.Rank()})
}

// fullIndexDims are the gather/scatter dimension numbers that address
// single elements of a rank-r operand with full index vectors.
func fullIndexDims(r int) (collapsed, startMap []int) {
	return allArgs(r), allArgs(r)
}

// vjpSort sends each sorted element's cotangent back to where it came
// from.
func vjpSort(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	idx := sortPermutation(a)
	r := a.In.Args[0].Type.Rank()
	all, _ := fullIndexDims(r)
	for i, c := range ct {
		if c == nil || !a.Need(i) {
			continue
		}
		sa := ScatterAttr{InsertedWindowDims: all, ScatterDimsToOperandDims: all, IndexVectorDim: r, UniqueIndices: true}
		out[i] = a.Emit1(OpScatter, []*Value{a.ZerosLike(a.Arg(i)), idx, c}, sa, BinaryRegion(OpAdd, c.Type.DType, a.Loc))
	}
	return out
}

// jvpSort sorts the tangents the way the operands were sorted.
func jvpSort(a *AD, t []*Value) []*Value {
	out := make([]*Value, len(a.In.Results))
	if noCotangent(t) {
		return out
	}
	idx := sortPermutation(a)
	x := a.In.Args[0].Type
	all, _ := fullIndexDims(x.Rank())
	ones := make([]int, x.Rank())
	for i := range ones {
		ones[i] = 1
	}
	for i, tt := range t {
		if tt == nil {
			continue
		}
		ga := GatherAttr{CollapsedSliceDims: all, StartIndexMap: all, IndexVectorDim: x.Rank(), SliceSizes: ones}
		out[i] = a.Emit1(OpGather, []*Value{tt, idx}, ga)
	}
	return out
}
