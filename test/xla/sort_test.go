package xla

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/stela-ml/stela/ir"
)

// sortCases sort on every element type, bit for bit (a sort only moves
// elements): keys with many ties, NaNs of both signs and several
// payloads, signed zeros and infinities, carried with their positions, so
// that the stable order of ties shows. The comparators are the frontend's
// (NaNs last, -0 == +0, complex numbers by real then imaginary part), IEEE
// totalOrder descending (lax.top_k's), two keys at once, and an unstable
// sort whose keys are all distinct.
func sortCases() []*tcase {
	var cs []*tcase
	for _, d := range ir.AllDTypes {
		r := rng("sort/" + d.String())
		name := func(what string) string { return fmt.Sprintf("%v/%v/%s", ir.OpSort, d, what) }
		keys, keys2 := sortKeys(r, tt(d, 5, 8)), sortKeys(r, tt(d, 5, 8))
		pos := iotaLit(tt(ir.S32, 5, 8))
		s, si := ir.Scalar(d), ir.Scalar(ir.S32)
		for _, sc := range []struct {
			what string
			in   []*ir.Literal
			a    ir.SortAttr
			less func() *ir.Func
		}{
			{"asc_1", []*ir.Literal{keys, pos}, ir.SortAttr{Dim: 1, IsStable: true}, func() *ir.Func {
				return region([]ir.Type{s, s, si, si}, func(r *fb, p []*ir.Value) []*ir.Value { return one(sortLess(r, p[0], p[1])) })
			}},
			{"desc_0", []*ir.Literal{keys, pos}, ir.SortAttr{Dim: 0, IsStable: true}, func() *ir.Func {
				return region([]ir.Type{s, s, si, si}, func(r *fb, p []*ir.Value) []*ir.Value {
					if d.IsComplex() {
						return one(sortLess(r, p[1], p[0]))
					}
					a := ir.CompareAttr{Direction: ir.CmpGT}
					if d.IsFloat() {
						a.Type = ir.CmpTotalOrder
					}
					return one(r.e1(ir.OpCompare, a, p[0], p[1]))
				})
			}},
			{"two_keys", []*ir.Literal{keys, keys2, pos}, ir.SortAttr{Dim: 1, IsStable: true}, func() *ir.Func {
				return region([]ir.Type{s, s, s, s, si, si}, func(r *fb, p []*ir.Value) []*ir.Value {
					return one(r.e1(ir.OpOr, nil, sortLess(r, p[0], p[1]), r.e1(ir.OpAnd, nil, sortEquiv(r, p[0], p[1]), sortLess(r, p[2], p[3]))))
				})
			}},
			{"unstable_distinct", []*ir.Literal{keys, pos}, ir.SortAttr{Dim: 1}, func() *ir.Func {
				return region([]ir.Type{s, s, si, si}, func(r *fb, p []*ir.Value) []*ir.Value {
					return one(r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, p[2], p[3]))
				})
			}},
		} {
			sc := sc
			cs = append(cs, moveCase(name(sc.what), ir.OpSort, d, sc.in,
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpSort, sc.a, p, sc.less()) }))
		}
	}
	return cs
}

// sortKeys is a tensor of type t drawn from a few values, so that ties are
// common: small integers and the extremes, and for floats (each part of a
// complex number) signed zeros, infinities, 1 and -2.5, with NaNs of both
// signs and several payloads.
func sortKeys(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	floats := []float64{0, math.Copysign(0, -1), 1, -2.5, math.Inf(1), math.Inf(-1), math.NaN()}
	switch {
	case d.IsBool():
		return randLit(r, t, true)
	case d.IsInteger():
		sp := intSpecials(d)
		v := make([]int64, n)
		for i := range v {
			v[i] = []int64{sp[0], sp[1], sp[2], sp[7], sp[8]}[r.IntN(5)] // 0, 1, -1, the extremes
		}
		return ir.LiteralFromInt64s(t, v)
	case d.IsComplex():
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(floats[r.IntN(len(floats))], floats[r.IntN(3)])
		}
		return withNaNs(ir.LiteralFromComplex128s(t, v))
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = floats[r.IntN(len(floats))]
	}
	return withNaNs(ir.LiteralFromFloat64s(t, v))
}

// sortLess is "a goes before b" in the frontend's ascending order
// (frontend/tensor/sort.go): for floats a < b, or b alone is NaN; complex
// numbers by real part, then imaginary part.
func sortLess(r *fb, a, b *ir.Value) *ir.Value {
	d := a.Type.DType
	cmp := func(dir ir.ComparisonDirection, x, y *ir.Value) *ir.Value {
		return r.e1(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y)
	}
	switch {
	case d.IsComplex():
		ar, br, ai, bi := r.e1(ir.OpReal, nil, a), r.e1(ir.OpReal, nil, b), r.e1(ir.OpImag, nil, a), r.e1(ir.OpImag, nil, b)
		return r.e1(ir.OpOr, nil, sortLess(r, ar, br), r.e1(ir.OpAnd, nil, sortEquiv(r, ar, br), sortLess(r, ai, bi)))
	case d.IsFloat():
		onlyB := r.e1(ir.OpAnd, nil, r.e1(ir.OpNot, nil, cmp(ir.CmpNE, a, a)), cmp(ir.CmpNE, b, b))
		return r.e1(ir.OpOr, nil, cmp(ir.CmpLT, a, b), onlyB)
	}
	return cmp(ir.CmpLT, a, b)
}

// sortEquiv is "neither goes before the other" in sortLess's order.
func sortEquiv(r *fb, a, b *ir.Value) *ir.Value {
	d := a.Type.DType
	cmp := func(dir ir.ComparisonDirection, x, y *ir.Value) *ir.Value {
		return r.e1(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y)
	}
	switch {
	case d.IsComplex():
		re := sortEquiv(r, r.e1(ir.OpReal, nil, a), r.e1(ir.OpReal, nil, b))
		return r.e1(ir.OpAnd, nil, re, sortEquiv(r, r.e1(ir.OpImag, nil, a), r.e1(ir.OpImag, nil, b)))
	case d.IsFloat():
		return r.e1(ir.OpOr, nil, cmp(ir.CmpEQ, a, b), r.e1(ir.OpAnd, nil, cmp(ir.CmpNE, a, a), cmp(ir.CmpNE, b, b)))
	}
	return cmp(ir.CmpEQ, a, b)
}
