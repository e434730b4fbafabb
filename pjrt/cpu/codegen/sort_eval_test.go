package codegen_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// The ir sort op, lowered as the lowering emits it, against the reference
// evaluator (ir.Eval) on every element type: several operands, every
// dimension of a rank-3 shape, stable and not, ascending and descending
// with the comparators the frontend builds (floats: NaNs last and -0 == +0,
// as jax.lax.sort; complex numbers: by real part, then imaginary part),
// and a comparator that is no order at all. The evaluator merges exactly
// as the plugin does, so every result must match bit for bit.

// sortLess appends to r the i1 "a goes before b" of the frontend's
// ascending order on scalars of one element type.
func sortLess(r *builder, a, b *ir.Value) *ir.Value {
	d := a.Type.DType
	cmp := func(dir ir.ComparisonDirection, x, y *ir.Value) *ir.Value {
		return r.emit(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y)
	}
	switch {
	case d.IsComplex():
		ar, br := r.emit(ir.OpReal, nil, a), r.emit(ir.OpReal, nil, b)
		ai, bi := r.emit(ir.OpImag, nil, a), r.emit(ir.OpImag, nil, b)
		return r.emit(ir.OpOr, nil, sortLess(r, ar, br), r.emit(ir.OpAnd, nil, sortEq(r, ar, br), sortLess(r, ai, bi)))
	case d.IsFloat():
		// a < b, or b alone is NaN.
		aNaN, bNaN := cmp(ir.CmpNE, a, a), cmp(ir.CmpNE, b, b)
		return r.emit(ir.OpOr, nil, cmp(ir.CmpLT, a, b), r.emit(ir.OpAnd, nil, r.emit(ir.OpNot, nil, aNaN), bNaN))
	}
	return cmp(ir.CmpLT, a, b)
}

// sortEq is equivalence in sortLess's order (floats only): equal, or both
// NaN.
func sortEq(r *builder, a, b *ir.Value) *ir.Value {
	cmp := func(dir ir.ComparisonDirection, x, y *ir.Value) *ir.Value {
		return r.emit(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y)
	}
	return r.emit(ir.OpOr, nil, cmp(ir.CmpEQ, a, b), r.emit(ir.OpAnd, nil, cmp(ir.CmpNE, a, a), cmp(ir.CmpNE, b, b)))
}

// sortRegion is a comparator over operands of the given element types
// that orders by operand key alone: ascending, descending (the pair
// swapped), or "always" (true whatever it is given).
func sortRegion(t *testing.T, how string, key int, dts ...ir.DType) *ir.Func {
	var ps []ir.Type
	for _, d := range dts {
		ps = append(ps, ir.Scalar(d), ir.Scalar(d))
	}
	r := newBuilder(t, "less", ps...)
	a, b := r.f.Params[2*key], r.f.Params[2*key+1]
	var res *ir.Value
	switch how {
	case "asc":
		res = sortLess(r, a, b)
	case "desc":
		res = sortLess(r, b, a)
	case "always":
		res = r.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.MustLiteral(ir.Scalar(ir.Bool), []bool{true})})
	}
	r.f.Return(res)
	return r.f
}

// sameBytes compares results bit for bit: a sort only moves elements.
func sameBytes(got, want *ir.Literal, _ int) (uint64, error) {
	if !got.Type.Equal(want.Type) {
		return 0, fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	gb, wb := got.Bytes(), want.Bytes()
	sz := want.Type.DType.Size()
	for i := 0; i < len(wb); i += sz {
		if !bytes.Equal(gb[i:i+sz], wb[i:i+sz]) {
			return 0, fmt.Errorf("element %d: got %v (% x), want %v (% x)", i/sz, got.Elem(i/sz), gb[i:i+sz], want.Elem(i/sz), wb[i:i+sz])
		}
	}
	return 0, nil
}

// sortKeysAny is sortKeys for every element type: complex keys take their
// parts from a few values (NaN among them), so ties are common.
func sortKeysAny(r *rand.Rand, t ir.Type) *ir.Literal {
	if !t.DType.IsComplex() {
		return sortKeys(r, t)
	}
	pool := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.NaN()}
	v := make([]complex128, t.NumElements())
	for i := range v {
		v[i] = complex(pool[r.IntN(len(pool))], pool[r.IntN(len(pool))])
	}
	return ir.LiteralFromComplex128s(t, v)
}

func TestSortOpMatchesEvaluator(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 11))
	shape := []int{3, 5, 6}
	pos := ir.Zeros(ir.TensorOf(ir.S32, shape...))
	for i := range pos.Len() {
		pos.SetElem(i, int32(i))
	}
	params := []ir.Type{pos.Type}
	args := []*ir.Literal{pos}
	for _, d := range ir.AllDTypes {
		params = append(params, ir.TensorOf(d, shape...))
		args = append(args, sortKeysAny(r, ir.TensorOf(d, shape...)))
	}
	b := newBuilder(t, "sorts", params...)
	var outs []*ir.Value
	var names []checked
	p := b.f.Params
	for k, d := range ir.AllDTypes {
		keys := p[1+k]
		// An operand of another type rides along: the next type's keys.
		other := p[1+(k+1)%len(ir.AllDTypes)]
		od := other.Type.DType
		for _, v := range []struct {
			how    string
			dim    int
			stable bool
		}{{"asc", 0, true}, {"asc", 1, false}, {"asc", 2, true}, {"desc", 2, true}, {"desc", 1, false}, {"always", 2, true}} {
			rs := b.emitN(ir.OpSort, ir.SortAttr{Dim: v.dim, IsStable: v.stable}, []*ir.Func{sortRegion(t, v.how, 0, d, ir.S32, od)}, keys, p[0], other)
			outs = append(outs, rs...)
			for i, what := range []string{"keys", "positions", "other"} {
				names = append(names, checked{name: fmt.Sprintf("%v %s dim %d stable %v: %s #%d", d, v.how, v.dim, v.stable, what, i), ulp: -1})
			}
		}
	}
	// Sorting by the positions, descending, with every key type riding
	// along: reverses every row of every operand.
	rs := b.emitN(ir.OpSort, ir.SortAttr{Dim: 1}, []*ir.Func{sortRegion(t, "desc", 0, typesOf(p)...)}, p...)
	outs = append(outs, rs...)
	b.f.Return(outs...)
	evalAndCompareBy(t, sameBytes, b.f, names, args...)
}

// TestSortOpLongRows sorts rows longer than any merge width above (not a
// power of two), with many ties and NaNs, against the evaluator.
func TestSortOpLongRows(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 1))
	kt, pt := ir.TensorOf(ir.F32, 2, 1337), ir.TensorOf(ir.S32, 2, 1337)
	keys := sortKeysAny(r, kt)
	pos := ir.Zeros(pt)
	for i := range pos.Len() {
		pos.SetElem(i, int32(i%1337))
	}
	b := newBuilder(t, "long", kt, pt)
	asc := b.emitN(ir.OpSort, ir.SortAttr{Dim: 1, IsStable: true}, []*ir.Func{sortRegion(t, "asc", 0, ir.F32, ir.S32)}, b.f.Params...)
	desc := b.emitN(ir.OpSort, ir.SortAttr{Dim: 1, IsStable: true}, []*ir.Func{sortRegion(t, "desc", 0, ir.F32, ir.S32)}, b.f.Params...)
	b.f.Return(append(asc, desc...)...)
	evalAndCompareBy(t, sameBytes, b.f, []checked{{"asc keys", -1}, {"asc positions", -1}, {"desc keys", -1}, {"desc positions", -1}}, keys, pos)
}

func typesOf(vs []*ir.Value) []ir.DType {
	out := make([]ir.DType, len(vs))
	for i, v := range vs {
		out[i] = v.Type.DType
	}
	return out
}
