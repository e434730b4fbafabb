package tensor

import (
	"math"
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Sorting. Every function here builds one sort op (ir.OpSort, StableHLO's
// sort): its operands are sorted together along one axis, stably, by a
// comparator region over scalars. The built-in order is jax.lax.sort's:
// ascending, -0 and +0 equivalent, NaNs (of either sign) after everything
// else and equivalent to each other, complex numbers by real part and then
// imaginary part, false before true. JAX canonicalizes -0 and NaN and then
// compares in IEEE totalOrder; the comparator here asks the same question
// with fewer ops: a < b (false on NaN), or b is NaN and a is not.

// sortLess appends to r the i1 "a goes before b" of the built-in
// ascending order; a and b are scalars of one element type.
func sortLess(r *regionBuilder, a, b *ir.Value) *ir.Value {
	d := a.Type.DType
	switch {
	case d.IsComplex():
		ar, br := r.op(ir.OpReal, nil, a), r.op(ir.OpReal, nil, b)
		ai, bi := r.op(ir.OpImag, nil, a), r.op(ir.OpImag, nil, b)
		return r.op(ir.OpOr, nil, sortLess(r, ar, br), r.op(ir.OpAnd, nil, sortEquiv(r, ar, br), sortLess(r, ai, bi)))
	case d.IsFloat():
		onlyB := r.op(ir.OpAnd, nil, r.op(ir.OpNot, nil, r.cmp(ir.CmpNE, a, a)), r.cmp(ir.CmpNE, b, b))
		return r.op(ir.OpOr, nil, r.cmp(ir.CmpLT, a, b), onlyB)
	}
	return r.cmp(ir.CmpLT, a, b)
}

// sortEquiv appends to r the i1 "neither of a and b goes before the
// other" of the built-in order: equal, both NaN (per part for complex).
func sortEquiv(r *regionBuilder, a, b *ir.Value) *ir.Value {
	d := a.Type.DType
	switch {
	case d.IsComplex():
		re := sortEquiv(r, r.op(ir.OpReal, nil, a), r.op(ir.OpReal, nil, b))
		return r.op(ir.OpAnd, nil, re, sortEquiv(r, r.op(ir.OpImag, nil, a), r.op(ir.OpImag, nil, b)))
	case d.IsFloat():
		both := r.op(ir.OpAnd, nil, r.cmp(ir.CmpNE, a, a), r.cmp(ir.CmpNE, b, b))
		return r.op(ir.OpOr, nil, r.cmp(ir.CmpEQ, a, b), both)
	}
	return r.cmp(ir.CmpEQ, a, b)
}

// keysRegion is the comparator of operands ts that orders by the first
// numKeys of them lexicographically in the built-in order (reversed when
// descending), as jax.lax.sort's num_keys does; the others ride along.
func keysRegion(name string, loc ir.Loc, ts []*Tensor, numKeys int, descending bool) *ir.Func {
	r := newRegion(name, loc, pairTypes(ts)...)
	lhs, rhs := func(k int) *ir.Value { return r.param(2 * k) }, func(k int) *ir.Value { return r.param(2*k + 1) }
	if descending {
		lhs, rhs = rhs, lhs
	}
	p := sortLess(r, lhs(numKeys-1), rhs(numKeys-1))
	for k := numKeys - 2; k >= 0; k-- {
		p = r.op(ir.OpOr, nil, sortLess(r, lhs(k), rhs(k)), r.op(ir.OpAnd, nil, sortEquiv(r, lhs(k), rhs(k)), p))
	}
	return r.ret(p)
}

// pairTypes is a comparator's parameter types: two scalars per operand.
func pairTypes(ts []*Tensor) []ir.Type {
	out := make([]ir.Type, 0, 2*len(ts))
	for _, t := range ts {
		s := ir.Scalar(t.typ.DType)
		out = append(out, s, s)
	}
	return out
}

// sortOp checks the operands of a sort along axis, resolves the axis and
// returns it. The sort op's type rule checks the rest (one shape).
func sortOp(name string, operands []*Tensor, axis int) int {
	if len(operands) == 0 {
		panic(fail(name, "no operands"))
	}
	checkNotNil(name, operands...)
	if operands[0].Rank() == 0 {
		panic(fail(name, "operand is a scalar (%v): want rank at least 1", operands[0].typ))
	}
	return normAxis(name, axis, operands[0].Rank())
}

// positions is IotaLike(x) of si32 along axis a: each element's index
// along the axis, the payload of ArgSort and TopK.
func positions(name string, x *Tensor, a int) *Tensor {
	if n := x.typ.Shape[a]; n > math.MaxInt32+1 {
		panic(fail(name, "axis %d has %d elements: indices do not fit si32", a, n))
	}
	return IotaLike(x, ir.S32, x.typ.Shape, a)
}

// sortKeys is a stable sort of operands along axis by the first numKeys of
// them in the built-in order (see keysRegion); name is the function the
// user called, for errors.
func sortKeys(name string, operands []*Tensor, axis, numKeys int, descending bool) []*Tensor {
	a := sortOp(name, operands, axis)
	if numKeys < 1 || numKeys > len(operands) {
		panic(fail(name, "numKeys %d is out of range for %d operands", numKeys, len(operands)))
	}
	body := keysRegion(name, ir.CallerLoc(), operands, numKeys, descending)
	return emit(nil, ir.OpSort, slices.Clone(operands), ir.SortAttr{Dim: a, IsStable: true}, body)
}

// Sort sorts x along axis in ascending order: jnp.sort(x, axis) and
// jax.lax.sort(x, dimension=axis), and for real types numpy.sort(x, axis).
// NaNs go last; equal elements (-0 and +0, NaNs among themselves) keep
// their order; complex numbers sort by real part, then imaginary part
// (each NaN last, as in JAX); i1 puts false first.
func Sort(x *Tensor, axis int) *Tensor {
	defer named(opSort)
	return sortKeys(opSort, []*Tensor{x}, axis, 1, false)[0]
}

// SortDescending sorts x along axis in descending order, NaNs first:
// jnp.sort(x, axis, descending=True), which is Sort reversed (so -0 and
// +0, equal, come out in the reverse of their order in x).
func SortDescending(x *Tensor, axis int) *Tensor {
	defer named(opSortDescending)
	s := Sort(x, axis)
	return Reverse(s, normAxis(opSortDescending, axis, x.Rank()))
}

// ArgSort is the si32 index along axis of the elements of x in Sort's
// order, the first of equal elements first (a stable sort):
// jnp.argsort(x, axis), numpy.argsort(x, axis, kind="stable").
func ArgSort(x *Tensor, axis int) *Tensor {
	defer named(opArgSort)
	return argSort(opArgSort, x, axis, false)
}

// ArgSortDescending is ArgSort for descending order (NaNs first), the
// first of equal elements still first: jnp.argsort(x, axis,
// descending=True).
func ArgSortDescending(x *Tensor, axis int) *Tensor {
	defer named(opArgSortDescending)
	return argSort(opArgSortDescending, x, axis, true)
}

func argSort(name string, x *Tensor, axis int, descending bool) *Tensor {
	a := sortOp(name, []*Tensor{x}, axis)
	return sortKeys(name, []*Tensor{x, positions(name, x, a)}, a, 1, descending)[1]
}

// SortMany sorts operands of one shape together along axis by the first
// numKeys of them, lexicographically (the first is the primary key), each
// in Sort's order; the others are permuted alike. Equal keys keep their
// order. It is jax.lax.sort(operands, dimension=axis, num_keys=numKeys);
// with two operands and numKeys = 1 it is jax.lax.sort_key_val.
func SortMany(operands []*Tensor, axis, numKeys int) []*Tensor {
	defer named(opSortMany)
	return sortKeys(opSortMany, operands, axis, numKeys, false)
}

// SortFunc sorts operands of one shape together along axis by a
// comparator: less gets one scalar per operand for each of two positions
// along the axis, a and b, and returns an i1 scalar, true when a goes
// before b. It must be a strict weak order (a < b and b < a are never
// both true; see sort.Interface); otherwise the result is some
// permutation. The sort is stable.
//
// less is traced once into the op's comparator region (as While traces
// its closures) with tensor ops on a and b; it may use outer scalar
// tensors, which become extra operands of the sort, but no larger ones.
// XLA's Sort with a custom comparator is the model; JAX does not expose
// it.
//
//	// By absolute value, ties by the second operand, descending.
//	out := SortFunc([]*Tensor{x, y}, -1, func(a, b []*Tensor) *Tensor {
//		ax, bx := Abs(a[0]), Abs(b[0])
//		return Or(Less(ax, bx), And(Equal(ax, bx), Greater(a[1], b[1])))
//	})
func SortFunc(operands []*Tensor, axis int, less func(a, b []*Tensor) *Tensor) []*Tensor {
	loc := ir.CallerLoc()
	a := sortOp(opSort, operands, axis)
	if less == nil {
		panic(ir.Errorf(loc, opSort, "nil comparator"))
	}
	n := len(operands)
	rt := traceRegion(opSort, "comparator", loc, pairTypes(operands), func(p []*Tensor) []*Tensor {
		lhs, rhs := make([]*Tensor, n), make([]*Tensor, n)
		for k := range n {
			lhs[k], rhs[k] = p[2*k], p[2*k+1]
		}
		return []*Tensor{less(lhs, rhs)}
	})
	// The comparator's parameters are pairs of elements of the operands,
	// so a captured scalar rides along as an operand of its own,
	// broadcast to the operands' shape: both elements of its pair are the
	// scalar, and the comparator reads the first.
	for _, c := range rt.caps {
		if c.Rank() != 0 {
			panic(ir.Errorf(loc, opSort, "comparator uses a tensor of type %v from outside it: a comparator can use outer scalars only", c.typ))
		}
	}
	if t := rt.fn.Results[0].Type; !t.Equal(ir.Scalar(ir.Bool)) {
		panic(ir.Errorf(loc, opSort, "comparator returns %v, want i1[]", t))
	}
	params := slices.Clone(rt.fn.Params[:rt.declared])
	var extra []*Tensor
	for _, c := range rt.caps {
		params = append(params, rt.capParam[c.key()], rt.fn.AddParam(c.Type(), loc))
		extra = append(extra, broadcastTo(strong(c), operands[0].typ.Shape))
	}
	for i, p := range params {
		p.Index = i
	}
	rt.fn.Params = params
	outs := emit(nil, ir.OpSort, slices.Concat(operands, extra), ir.SortAttr{Dim: a, IsStable: true}, rt.fn)
	return outs[:n]
}

// TopK is the k largest elements of x along its last axis, largest first,
// and their si32 indices: jax.lax.top_k(x, k). Equal elements come in
// index order. The order is IEEE totalOrder, as in XLA's TopK: NaN is
// above +Inf and -NaN below -Inf, +0 above -0. Complex numbers have no
// order here (as in JAX).
func TopK(x *Tensor, k int) (values, indices *Tensor) {
	defer named(opTopK)
	a := sortOp(opTopK, []*Tensor{x}, -1)
	d := x.typ.DType
	if d.IsComplex() {
		panic(fail(opTopK, "element type %v has no order", d))
	}
	if n := x.typ.Shape[a]; k < 0 || k > n {
		panic(fail(opTopK, "k = %d is out of range for the last axis of %v (size %d)", k, x.typ, n))
	}
	ts := []*Tensor{x, positions(opTopK, x, a)}
	r := newRegion(opTopK, ir.CallerLoc(), pairTypes(ts)...)
	attr := ir.CompareAttr{Direction: ir.CmpGT}
	if d.IsFloat() {
		attr.Type = ir.CmpTotalOrder
	}
	body := r.ret(r.op(ir.OpCompare, attr, r.param(0), r.param(1)))
	outs := emit(nil, ir.OpSort, ts, ir.SortAttr{Dim: a, IsStable: true}, body)
	return SliceAxis(outs[0], a, 0, k), SliceAxis(outs[1], a, 0, k)
}
