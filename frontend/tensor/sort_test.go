package tensor_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stela-ml/stela/frontend/internal/wanttest"
	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// The sort functions on the reference evaluator ("host"), with results
// written out by hand. frontend/jit's TestSortMatchesJAX checks them
// against JAX on every element type, and its parity test runs them on the
// CPU plugin, eagerly and compiled.

func TestSortByHand(t *testing.T) {
	check(t, func() {
		i := FromSlice([]int32{3, -1, 3, 0, -7, 2}, 2, 3).To("host")
		want(t, "sort si32 rows", Sort(i, 1).Int32s(), []int32{-1, 3, 3, -7, 0, 2})
		want(t, "sort si32 columns", Sort(i, 0).Int32s(), []int32{0, -7, 2, 3, -1, 3})
		want(t, "argsort si32", ArgSort(i, -1).Int32s(), []int32{1, 0, 2, 1, 0, 2})
		want(t, "argsort descending si32", ArgSortDescending(i, -1).Int32s(), []int32{0, 2, 1, 2, 0, 1})
		want(t, "sort descending si32", SortDescending(i, 1).Int32s(), []int32{3, 3, -1, 2, 0, -7})

		b := FromSlice([]bool{true, false, true, false}).To("host")
		want(t, "sort i1", Sort(b, 0).Bools(), []bool{false, false, true, true})
		want(t, "argsort i1", ArgSort(b, 0).Int32s(), []int32{1, 3, 0, 2})

		// By real part, then imaginary part, each with NaN last (as
		// jnp.sort: 0+NaNi goes before 1-1i).
		nan := math.NaN()
		z := FromSlice([]complex64{complex(1, 2), complex(float32(nan), 0), complex(1, -1), complex(-2, 5), complex(0, float32(nan)), complex(1, 2)}).To("host")
		want(t, "argsort c64", ArgSort(z, 0).Int32s(), []int32{3, 4, 2, 0, 5, 1})
		sz := Sort(z, 0).Literal().Complex128s()
		if sz[0] != complex(-2, 5) || real(sz[1]) != 0 || !math.IsNaN(imag(sz[1])) || sz[2] != complex(1, -1) || !math.IsNaN(real(sz[5])) {
			t.Errorf("sort c64 = %v", sz)
		}

		// Two keys, the second descending through a negation; a payload
		// rides along.
		k1 := FromSlice([]int32{1, 0, 1, 0, 1}).To("host")
		k2 := FromSlice([]float32{2, 5, -1, 5, 2}).To("host")
		p := FromSlice([]uint8{10, 11, 12, 13, 14}).To("host")
		s := SortMany([]*Tensor{k1, Neg(k2), p}, 0, 2)
		want(t, "sort_many payload", s[2].Literal().Uint64s(), []uint64{11, 13, 10, 14, 12})

		v, ix := TopK(FromSlice([]float32{2, 7, -1, 7, float32(math.Inf(-1))}).To("host"), 3)
		want(t, "top_k values", v.Float32s(), []float32{7, 7, 2})
		want(t, "top_k indices", ix.Int32s(), []int32{1, 3, 0})
		v, ix = TopK(FromSlice([]int8{5, 1, 9}, 1, 3).To("host"), 0)
		if v.Type().String() != "si8[1,0]" || ix.Type().String() != "si32[1,0]" {
			t.Errorf("top_k 0 gives %v and %v", v.Type(), ix.Type())
		}
	})
}

// SortFunc traces its comparator; outer scalars it uses become operands of
// the sort, broadcast along.
func TestSortFuncCapturesScalars(t *testing.T) {
	check(t, func() {
		x := FromSlice([]float32{3, -1, 0.25, 2, 0.5, 1.5}).To("host")
		center := Reshape(FromSlice([]float32{0.5}).To("host"))
		far := Scalar(float32(10)).To("host")
		// |x - 0.5|, where it is below far - 0.5: two captured scalars,
		// one of them used three times.
		byDistance := func(a, b []*Tensor) *Tensor {
			da, db := Abs(Sub(a[0], center)), Abs(Sub(b[0], center))
			return And(Less(da, db), Less(da, Sub(far, center)))
		}
		out := SortFunc([]*Tensor{x, IotaLike(x, ir.S32, x.Shape(), 0)}, 0, byDistance)
		if len(out) != 2 {
			t.Fatalf("%d results, want 2 (the captures are not results)", len(out))
		}
		// Distances 2.5, 1.5, 0.25, 1.5, 0, 1: ties in their order.
		want(t, "values", out[0].Float32s(), []float32{0.5, 0.25, 1.5, -1, 2, 3})
		want(t, "positions", out[1].Int32s(), []int32{4, 2, 5, 1, 3, 0})
	})
}

func want[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestSortErrors(t *testing.T) {
	x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y := f32([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	i := FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	cases := []func(){
		func() { Sort(x, 2) },                              // want `^sort_test.go:\d+: sort: axis 2 is out of range for rank 2$`
		func() { Sort(Scalar(float32(1)), 0) },             // want `^sort_test.go:\d+: sort: operand is a scalar \(f32\[\]\): want rank at least 1$`
		func() { SortDescending(x, -3) },                   // want `^sort_test.go:\d+: sort_descending: axis -3 is out of range for rank 2$`
		func() { ArgSort(x, 5) },                           // want `^sort_test.go:\d+: argsort: axis 5 is out of range for rank 2$`
		func() { ArgSortDescending(nil, 0) },               // want `^sort_test.go:\d+: argsort_descending: operand #0 is nil$`
		func() { SortMany([]*Tensor{x, y}, 0, 1) },         // want `^sort_test.go:\d+: sort_many: operand #1 has type f32\[3,2\], operand #0 has f32\[2,3\]: want the same shape$`
		func() { SortMany([]*Tensor{x}, 0, 2) },            // want `^sort_test.go:\d+: sort_many: numKeys 2 is out of range for 1 operands$`
		func() { SortMany(nil, 0, 1) },                     // want `^sort_test.go:\d+: sort_many: no operands$`
		func() { TopK(x, 4) },                              // want `^sort_test.go:\d+: top_k: k = 4 is out of range for the last axis of f32\[2,3\] \(size 3\)$`
		func() { TopK(x, -1) },                             // want `^sort_test.go:\d+: top_k: k = -1 is out of range`
		func() { TopK(FromSlice([]complex64{1, 2}), 1) },   // want `^sort_test.go:\d+: top_k: element type c64 has no order$`
		func() { SortFunc([]*Tensor{x}, 0, nil) },          // want `^sort_test.go:\d+: sort: nil comparator$`
		func() { SortFunc([]*Tensor{x, y}, 0, lessFirst) }, // want `^sort_test.go:\d+: sort: operand #1 has type f32\[3,2\], operand #0 has f32\[2,3\]: want the same shape$`
		func() { SortFunc([]*Tensor{x, i}, 9, lessFirst) }, // want `^sort_test.go:\d+: sort: axis 9 is out of range for rank 2$`
		func() { SortFunc([]*Tensor{x}, 0, subFirst) },     // want `^sort_test.go:\d+: sort: comparator returns f32\[\], want i1\[\]$`
		func() { SortFunc([]*Tensor{x}, 0, lessThan(x)) },  // want `^sort_test.go:\d+: sort: comparator uses a tensor of type f32\[2,3\] from outside it: a comparator can use outer scalars only$`
		func() { SortFunc([]*Tensor{x, i}, 0, lessMixed) },
		func() { SortFunc([]*Tensor{x}, 0, lessNil) }, // want `^sort_test.go:\d+: sort: comparator: result #0 is nil$`
	}
	errs := make([]error, len(cases))
	for k, c := range cases {
		errs[k] = Catch(c)
	}
	wanttest.Check(t, "sort_test.go", errs)
}

func lessFirst(a, b []*Tensor) *Tensor { return Less(a[0], b[0]) }
func subFirst(a, b []*Tensor) *Tensor  { return Sub(a[0], b[0]) }
func lessNil(a, b []*Tensor) *Tensor   { return nil }
func lessThan(c *Tensor) func(a, b []*Tensor) *Tensor {
	return func(a, b []*Tensor) *Tensor { return Less(Sub(a[0], c), b[0]) }
}
func lessMixed(a, b []*Tensor) *Tensor {
	return Less(a[0], b[1]) // want `^sort_test.go:\d+: compare: operand types f32\[\] and si32\[\] differ`
}
