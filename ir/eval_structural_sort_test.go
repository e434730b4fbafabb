package ir

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// ---- sort ----

// sxLessRegion is the comparator (a0, b0, a1, b1, ...) → compare(a0, b0)
// with direction dir and comparison type ct, over one key of type key and
// further operands of the given types, which it ignores.
func sxLessRegion(t *testing.T, dir ComparisonDirection, ct ComparisonType, key DType, others ...DType) *Func {
	t.Helper()
	ps := []Type{Scalar(key), Scalar(key)}
	for _, d := range others {
		ps = append(ps, Scalar(d), Scalar(d))
	}
	f := NewFunc("less", ps...)
	f.Return(sxBuild(t, f, OpCompare, f.Params[:2], CompareAttr{Direction: dir, Type: ct}, []Type{Scalar(Bool)})...)
	return f
}

// sxSortKeys draws n keys of type dt from a few values, so that ties are
// common; floats include NaN of both signs, ±0 and ±Inf.
func sxSortKeys(r *rand.Rand, dt DType, shape ...int) *Literal {
	t := TensorOf(dt, shape...)
	l := Zeros(t)
	for i := range t.NumElements() {
		switch {
		case dt.IsFloat():
			pool := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), 7}
			l.CopyElem(i, sxNums(dt, nil, pool[r.IntN(len(pool))]), 0)
		case dt.IsComplex():
			z := complex(float64(r.IntN(3)-1), float64(r.IntN(3)-1))
			l.CopyElem(i, LiteralFromComplex128s(Scalar(dt), []complex128{z}), 0)
		default:
			l.CopyElem(i, sxNums(dt, nil, float64(r.IntN(5)-2)), 0)
		}
	}
	return l
}

// sxGoLess is "element i of l goes before element j" in Go for the
// comparator sxLessRegion(LT, ct) builds: IEEE totalOrder on the bits for
// floats (TOTALORDER), lexicographic for complex, signed or unsigned
// integers, false < true.
func sxGoLess(l *Literal) func(i, j int) bool {
	d := l.Type.DType
	switch {
	case d.IsFloat():
		key := func(i int) int64 {
			// Widening to f64 keeps the order (NaN payloads included, as
			// the sign and the quiet bit survive).
			b := int64(math.Float64bits(l.Float64s()[i]))
			if b < 0 {
				b ^= math.MaxInt64
			}
			return b
		}
		return func(i, j int) bool { return key(i) < key(j) }
	case d.IsComplex():
		z := l.Complex128s()
		return func(i, j int) bool {
			return real(z[i]) < real(z[j]) || real(z[i]) == real(z[j]) && imag(z[i]) < imag(z[j])
		}
	case d.IsUnsigned() || d == Bool:
		u := l.Uint64s()
		return func(i, j int) bool { return u[i] < u[j] }
	}
	v := l.Int64s()
	return func(i, j int) bool { return v[i] < v[j] }
}

// sxSameElem reports whether element i of l and element j of m have the
// same bits (per part for complex).
func sxSameElem(l *Literal, i int, m *Literal, j int) bool {
	if d := l.Type.DType; d.IsComplex() {
		a, b := sxScalarAt(l, i).Complex128s()[0], sxScalarAt(m, j).Complex128s()[0]
		return math.Float64bits(real(a)) == math.Float64bits(real(b)) && math.Float64bits(imag(a)) == math.Float64bits(imag(b))
	}
	return ElemBits(l.Type.DType, l.Elem(i)) == ElemBits(m.Type.DType, m.Elem(j))
}

func sxSortCompareType(d DType) ComparisonType {
	if d.IsFloat() {
		return CmpTotalOrder
	}
	return CmpNoType
}

func TestEvalSortByHand(t *testing.T) {
	nan := math.NaN()
	x := sxNums(F32, sxShape(2, 4), 3, nan, -1, math.Copysign(0, -1), 0, 2, math.Inf(-1), 2)
	idx := sxNums(S32, sxShape(2, 4), 0, 1, 2, 3, 0, 1, 2, 3)
	less := sxLessRegion(t, CmpLT, CmpTotalOrder, F32, S32)
	got := sxRun(t, OpSort, SortAttr{Dim: 1, IsStable: true}, []Type{x.Type, idx.Type}, []*Literal{x, idx}, less)
	if want := sxNums(F32, sxShape(2, 4), -1, math.Copysign(0, -1), 3, nan, math.Inf(-1), 0, 2, 2); !LiteralEqual(got[0], want) {
		t.Fatalf("got %v, want %v", got[0].Data, want.Data)
	}
	sxExpect(t, got[1], sxNums(S32, sxShape(2, 4), 2, 3, 0, 1, 2, 0, 1, 3))
	// Along dimension 0, descending: each column on its own.
	more := sxLessRegion(t, CmpGT, CmpTotalOrder, F32, S32)
	rows := sxNums(S32, sxShape(2, 4), 0, 0, 0, 0, 1, 1, 1, 1)
	got = sxRun(t, OpSort, SortAttr{Dim: 0}, []Type{x.Type, rows.Type}, []*Literal{x, rows}, more)
	if want := sxNums(F32, sxShape(2, 4), 3, nan, -1, 2, 0, 2, math.Inf(-1), math.Copysign(0, -1)); !LiteralEqual(got[0], want) {
		t.Fatalf("got %v, want %v", got[0].Data, want.Data)
	}
	sxExpect(t, got[1], sxNums(S32, sxShape(2, 4), 0, 0, 0, 1, 1, 1, 1, 0))
}

// TestEvalSortEveryTypeAndDimension sorts keys of every element type with
// an index operand along each dimension of a rank-3 shape and compares
// both results with Go's stable sort of each row.
func TestEvalSortEveryTypeAndDimension(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	shape := []int{3, 5, 6}
	for _, dt := range AllDTypes {
		keys := sxSortKeys(r, dt, shape...)
		pos := Zeros(TensorOf(S32, shape...))
		for i := range pos.Len() {
			pos.SetElem(i, int32(i))
		}
		less := sxGoLess(keys)
		st := Strides(shape)
		for dim := range shape {
			for _, stable := range []bool{true, false} {
				got := sxRun(t, OpSort, SortAttr{Dim: dim, IsStable: stable}, []Type{keys.Type, pos.Type}, []*Literal{keys, pos},
					sxLessRegion(t, CmpLT, sxSortCompareType(dt), dt, S32))
				rows := append([]int{}, shape...)
				rows[dim] = 1
				sxEach(rows, func(idx []int) error {
					base := sxOffset(idx, st)
					perm := make([]int, shape[dim])
					for e := range perm {
						perm[e] = base + e*st[dim]
					}
					sort.SliceStable(perm, func(a, b int) bool { return less(perm[a], perm[b]) })
					for e, p := range perm {
						at := base + e*st[dim]
						if g := got[1].Int64s()[at]; g != int64(p) {
							t.Fatalf("%v dim %d stable %v: element %d comes from %d, want %d", dt, dim, stable, at, g, p)
						}
						if !sxSameElem(got[0], at, keys, p) {
							t.Fatalf("%v dim %d: key %d is %v, want %v", dt, dim, at, got[0].Elem(at), keys.Elem(p))
						}
					}
					return nil
				})
			}
		}
	}
}

// TestEvalSortLexicographic sorts by two keys (si32 ascending, then f64
// descending) and carries a third operand along.
func TestEvalSortLexicographic(t *testing.T) {
	a := sxNums(S32, sxShape(6), 2, 1, 2, 1, 2, 0)
	b := sxNums(F64, sxShape(6), 1, 5, 3, 5, 3, 9)
	v := sxNums(F16, sxShape(6), 0, 1, 2, 3, 4, 5)
	f := NewFunc("lex", Scalar(S32), Scalar(S32), Scalar(F64), Scalar(F64), Scalar(F16), Scalar(F16))
	p := f.Params
	b1 := []Type{Scalar(Bool)}
	lt := sxBuild(t, f, OpCompare, []*Value{p[0], p[1]}, CompareAttr{Direction: CmpLT}, b1)[0]
	eq := sxBuild(t, f, OpCompare, []*Value{p[0], p[1]}, CompareAttr{Direction: CmpEQ}, b1)[0]
	gt := sxBuild(t, f, OpCompare, []*Value{p[2], p[3]}, CompareAttr{Direction: CmpGT}, b1)[0]
	both := sxBuild(t, f, OpAnd, []*Value{eq, gt}, nil, b1)[0]
	f.Return(sxBuild(t, f, OpOr, []*Value{lt, both}, nil, b1)...)
	got := sxRun(t, OpSort, SortAttr{Dim: 0, IsStable: true}, []Type{a.Type, b.Type, v.Type}, []*Literal{a, b, v}, f)
	sxExpect(t, got[0], sxNums(S32, sxShape(6), 0, 1, 1, 2, 2, 2))
	sxExpect(t, got[1], sxNums(F64, sxShape(6), 9, 5, 5, 3, 3, 1))
	sxExpect(t, got[2], sxNums(F16, sxShape(6), 5, 1, 3, 2, 4, 0))
}

// TestEvalSortInconsistentComparator: a comparator that is no strict weak
// order still gives a permutation of each row, the one the merge order
// (shared with the CPU plugin) makes: "always true" takes the right run
// first in every merge, which reverses the row.
func TestEvalSortInconsistentComparator(t *testing.T) {
	for _, n := range []int{1, 2, 5, 8, 13} {
		x := sxSeq(S32, 0, 2, n)
		always := NewFunc("always", Scalar(S32), Scalar(S32))
		always.Return(sxBuild(t, always, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(Bool), []bool{true})}, []Type{Scalar(Bool)})...)
		got := sxRun(t, OpSort, SortAttr{Dim: 1}, []Type{x.Type}, []*Literal{x}, always)
		m := make([]int, 2*n)
		for e := range m {
			m[e] = e/n*n + n - 1 - e%n
		}
		sxExpect(t, got[0], sxPick(x.Type, x, nil, m))
	}
	// "not equal" says a < b and b < a for any two different elements.
	x := sxNums(U8, sxShape(9), 4, 1, 4, 9, 0, 2, 2, 7, 1)
	got := sxRun(t, OpSort, SortAttr{Dim: 0}, []Type{x.Type}, []*Literal{x}, sxLessRegion(t, CmpNE, CmpNoType, U8))
	count := map[uint64]int{}
	for i := range 9 {
		count[x.Uint64s()[i]]++
		count[got[0].Uint64s()[i]]--
	}
	for v, c := range count {
		if c != 0 {
			t.Fatalf("sort with a NE comparator: value %d appears %d times more in the operand than in the result %v", v, c, got[0].Data)
		}
	}
}

func TestEvalSortEdges(t *testing.T) {
	less := sxLessRegion(t, CmpLT, CmpNoType, S64)
	empty := Zeros(TensorOf(S64, 0, 3))
	got := sxRun(t, OpSort, SortAttr{Dim: 1}, []Type{empty.Type}, []*Literal{empty}, less)
	sxExpect(t, got[0], empty)
	one := sxNums(S64, sxShape(3, 1), 3, 1, 2)
	got = sxRun(t, OpSort, SortAttr{Dim: 1}, []Type{one.Type}, []*Literal{one}, less)
	sxExpect(t, got[0], one)
	got = sxRun(t, OpSort, SortAttr{Dim: 0}, []Type{one.Type}, []*Literal{one}, less)
	sxExpect(t, got[0], sxNums(S64, sxShape(3, 1), 1, 2, 3))
}

// TestEvalSortValidates: hand-built instructions that the type rule would
// reject give errors, not panics or wrong answers.
func TestEvalSortValidates(t *testing.T) {
	x := sxNums(F32, sxShape(2, 3), 3, 2, 1, 6, 5, 4)
	less := sxLessRegion(t, CmpLT, CmpNoType, F32)
	sxWantErr(t, sxRawErr(OpSort, SortAttr{Dim: 2}, []Type{x.Type}, []*Literal{x}, less), "dim 2 is out of range for rank 2")
	sxWantErr(t, sxRawErr(OpSort, SortAttr{Dim: 0}, []Type{TensorOf(F32, 3, 2)}, []*Literal{x}, less), "differs from the computed f32[2,3]")
	sxWantErr(t, sxRawErr(OpSort, SortAttr{Dim: 0}, []Type{x.Type, TensorOf(F32, 3)}, []*Literal{x, sxNums(F32, sxShape(3), 1, 2, 3)}, less), "operand #1 has type f32[3], want the shape of f32[2,3]")
	sxWantErr(t, sxRawErr(OpSort, SortAttr{Dim: 0}, []Type{x.Type}, []*Literal{x}, sxPickRegion(F32, 2, 0)), "comparator returns f32[], want i1[]")
	sxWantErr(t, sxRawErr(OpSort, SortAttr{Dim: 0}, []Type{x.Type}, []*Literal{x}, sxLessRegion(t, CmpLT, CmpNoType, F32, F32)), "comparator region takes 4 parameters, want 2")
	sxWantErr(t, sxRawErr(OpSort, ReduceAttr{}, []Type{x.Type}, []*Literal{x}, less), "attribute is ir.ReduceAttr, want ir.SortAttr")
	sxWantErr(t, sxRawErr(OpSort, SortAttr{}, []Type{x.Type}, []*Literal{x}), "want one comparator region")
}
