package ir

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/x448/float16"
)

// Tests of the structural evaluation rules. Expected values are written
// out by hand, or computed by a second, naive formulation in the test (an
// explicit loop nest, or a composition of simpler ops), never by the code
// under test. The data-movement ops run on every element type.

// ---- helpers shared by the eval_structural*_test.go files ----

// sxTestVal encodes the small integer k in element type dt. Distinct k give
// distinct values in every type but i1, where only the parity survives.
func sxTestVal(dt DType, k int) any {
	switch dt {
	case Bool:
		return k%2 == 1
	case S8:
		return int8(k)
	case S16:
		return int16(k)
	case S32:
		return int32(k)
	case S64:
		return int64(k)
	case U8:
		return uint8(k)
	case U16:
		return uint16(k)
	case U32:
		return uint32(k)
	case U64:
		return uint64(k)
	case F16:
		return float16.Fromfloat32(float32(k) + 0.5)
	case BF16:
		return BFloat16FromFloat32(float32(k) + 0.5)
	case F32:
		return float32(k) + 0.5
	case F64:
		return float64(k) + 0.5
	case C64:
		return complex(float32(k), -float32(k)-1)
	case C128:
		return complex(float64(k), -float64(k)-1)
	}
	panic("bad dtype")
}

// sxSeq is a dt[shape] literal whose element i holds sxTestVal(dt, base+i).
func sxSeq(dt DType, base int, shape ...int) *Literal {
	t := TensorOf(dt, shape...)
	l := Zeros(t)
	for i := range t.NumElements() {
		l.SetElem(i, sxTestVal(dt, base+i))
	}
	return l
}

// sxPick builds an expected literal of type t element by element from an
// index map: m[i] >= 0 takes element m[i] of a, m[i] < 0 takes element
// -1-m[i] of b (a padding scalar, an update, a second operand).
func sxPick(t Type, a, b *Literal, m []int) *Literal {
	if len(m) != t.NumElements() {
		panic(fmt.Sprintf("index map has %d entries for %v", len(m), t))
	}
	out := Zeros(t)
	for i, k := range m {
		if k >= 0 {
			out.CopyElem(i, a, k)
		} else {
			out.CopyElem(i, b, -1-k)
		}
	}
	return out
}

// sxNums is a dt[shape] literal of the given real values.
func sxNums(dt DType, shape []int, vals ...float64) *Literal {
	t := TensorOf(dt, shape...)
	if len(vals) != t.NumElements() {
		panic(fmt.Sprintf("%d values for %v", len(vals), t))
	}
	l := Zeros(t)
	for i, v := range vals {
		var e any
		switch dt {
		case Bool:
			e = v != 0
		case S8:
			e = int8(int64(v))
		case S16:
			e = int16(int64(v))
		case S32:
			e = int32(int64(v))
		case S64:
			e = int64(v)
		case U8:
			e = uint8(int64(v))
		case U16:
			e = uint16(int64(v))
		case U32:
			e = uint32(int64(v))
		case U64:
			e = uint64(int64(v))
		case F16:
			e = float16.Fromfloat32(float32(v))
		case BF16:
			e = BFloat16FromFloat32(float32(v))
		case F32:
			e = float32(v)
		case F64:
			e = v
		case C64:
			e = complex(float32(v), 0)
		case C128:
			e = complex(v, 0)
		}
		l.SetElem(i, e)
	}
	return l
}

func sxShape(dims ...int) []int { return dims }

// sxScalarLit is a rank-0 literal of dt holding v.
func sxScalarLit(dt DType, v float64) *Literal { return sxNums(dt, nil, v) }

// sxExpect fails unless got and want have the same type and elements.
func sxExpect(t *testing.T, got, want *Literal) {
	t.Helper()
	if got == nil {
		t.Fatalf("got nil literal, want %v %v", want.Type, want.Data)
	}
	if !got.Type.Equal(want.Type) || !reflect.DeepEqual(got.Data, want.Data) {
		t.Fatalf("got %v %v\nwant %v %v", got.Type, got.Data, want.Type, want.Data)
	}
}

// sxBuild appends an instruction to f through Emit, so that the op's type
// rule checks it, and requires the rule to give exactly want: the expected
// types are written by hand in each test, and a disagreement is a bug in
// the rule or in the evaluator, which computes result shapes on its own.
func sxBuild(t *testing.T, f *Func, op Op, args []*Value, attr any, want []Type, regions ...*Func) []*Value {
	t.Helper()
	rs, err := f.Emit(UnknownLoc, op, args, attr, regions...)
	if err != nil {
		t.Fatalf("emit: %v", err)
	}
	if len(rs) != len(want) {
		t.Fatalf("%v: type rule gives %d results, test wants %d", op, len(rs), len(want))
	}
	for i, r := range rs {
		if !r.Type.Equal(want[i]) {
			t.Fatalf("%v: type rule gives result #%d type %v, test wants %v", op, i, r.Type, want[i])
		}
	}
	return rs
}

// sxBuildRaw appends an instruction assembled by hand, with no checks: for
// ops whose evaluation must fail (custom_call) and tests of the evaluator's
// own validation.
func sxBuildRaw(f *Func, op Op, args []*Value, attr any, want []Type, regions ...*Func) []*Value {
	in := &Instr{Op: op, Args: args, Attr: attr, Regions: regions, Func: f}
	for _, r := range regions {
		r.Parent = in
	}
	for i, ty := range want {
		in.Results = append(in.Results, &Value{ID: f.nextID, Type: ty, Def: in, Index: i, Func: f})
		f.nextID++
	}
	f.Body = append(f.Body, in)
	return in.Results
}

// sxRunErr evaluates one op on literal operands, inside a function of its
// own run by Eval.
func sxRunErr(t *testing.T, op Op, attr any, want []Type, args []*Literal, regions ...*Func) ([]*Literal, error) {
	t.Helper()
	types := make([]Type, len(args))
	for i, a := range args {
		types[i] = a.Type
	}
	f := NewFunc("test", types...)
	f.Return(sxBuild(t, f, op, f.Params, attr, want, regions...)...)
	return Eval(f, args...)
}

// sxRun is sxRunErr for cases that must succeed.
func sxRun(t *testing.T, op Op, attr any, want []Type, args []*Literal, regions ...*Func) []*Literal {
	t.Helper()
	outs, err := sxRunErr(t, op, attr, want, args, regions...)
	if err != nil {
		t.Fatalf("%v: %v", op, err)
	}
	return outs
}

// sxRun1 runs a one-result op and returns its result.
func sxRun1(t *testing.T, op Op, attr any, want Type, args ...*Literal) *Literal {
	t.Helper()
	return sxRun(t, op, attr, []Type{want}, args)[0]
}

// sxRawEval evaluates a hand-assembled instruction directly through the
// op table, bypassing the type rules.
func sxRawEval(op Op, attr any, want []Type, args []*Literal, regions ...*Func) ([]*Literal, error) {
	f := NewFunc("raw")
	in := &Instr{Op: op, Attr: attr, Regions: regions, Func: f}
	for i, ty := range want {
		in.Results = append(in.Results, &Value{ID: i, Type: ty, Def: in, Index: i, Func: f})
	}
	return op.Info().Eval(in, args)
}

// sxRawErr is sxRawEval for cases that must fail: it returns the error.
func sxRawErr(op Op, attr any, want []Type, args []*Literal, regions ...*Func) error {
	_, err := sxRawEval(op, attr, want, args, regions...)
	return err
}

func sxWantErr(t *testing.T, err error, substr string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), substr) {
		t.Fatalf("got error %v, want one containing %q", err, substr)
	}
}

// ---- helpers ----

func TestSxEachVisitsRowMajor(t *testing.T) {
	var got [][]int
	sxEach([]int{2, 3}, func(idx []int) error {
		got = append(got, append([]int{}, idx...))
		return nil
	})
	want := [][]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	n := 0
	sxEach(nil, func([]int) error { n++; return nil })
	if n != 1 {
		t.Fatalf("scalar: %d visits, want 1", n)
	}
	n = 0
	sxEach([]int{3, 0, 2}, func([]int) error { n++; return nil })
	if n != 0 {
		t.Fatalf("zero-size: %d visits, want 0", n)
	}
}

// ---- data movement, on every element type ----

func TestEvalBroadcastInDim(t *testing.T) {
	cases := []struct {
		name    string
		in, out []int
		dims    []int
		m       []int
	}{
		{"row", sxShape(3), sxShape(2, 3), []int{1}, []int{0, 1, 2, 0, 1, 2}},
		{"column", sxShape(3), sxShape(3, 2), []int{0}, []int{0, 0, 1, 1, 2, 2}},
		{"size-1 dim", sxShape(2, 1), sxShape(2, 3, 2), []int{0, 2}, []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}},
		{"scalar", sxShape(), sxShape(2, 2), nil, []int{0, 0, 0, 0}},
		{"same shape", sxShape(2, 2), sxShape(2, 2), []int{0, 1}, []int{0, 1, 2, 3}},
		{"zero-size", sxShape(0), sxShape(2, 0), []int{1}, []int{}},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, c.in...)
				rt := TensorOf(dt, c.out...)
				got := sxRun1(t, OpBroadcastInDim, BroadcastInDimAttr{Shape: c.out, Dims: c.dims}, rt, x)
				sxExpect(t, got, sxPick(rt, x, nil, c.m))
			})
		}
	}
}

func TestEvalReshape(t *testing.T) {
	cases := []struct {
		name    string
		in, out []int
	}{
		{"2x3 to 3x2", sxShape(2, 3), sxShape(3, 2)},
		{"to vector", sxShape(2, 2, 2), sxShape(8)},
		{"scalar to 1x1", sxShape(), sxShape(1, 1)},
		{"zero-size", sxShape(0, 3), sxShape(3, 0, 5)},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, c.in...)
				rt := TensorOf(dt, c.out...)
				got := sxRun1(t, OpReshape, ReshapeAttr{Shape: c.out}, rt, x)
				m := make([]int, rt.NumElements())
				for i := range m {
					m[i] = i // same elements in row-major order
				}
				sxExpect(t, got, sxPick(rt, x, nil, m))
			})
		}
	}
	err := sxRawErr(OpReshape, ReshapeAttr{Shape: []int{4}}, []Type{TensorOf(F32, 4)}, []*Literal{sxSeq(F32, 1, 2, 3)})
	sxWantErr(t, err, "cannot reshape")
}

func TestEvalTranspose(t *testing.T) {
	for _, dt := range AllDTypes {
		t.Run(dt.String()+"/2d", func(t *testing.T) {
			x := sxSeq(dt, 1, 2, 3)
			rt := TensorOf(dt, 3, 2)
			got := sxRun1(t, OpTranspose, TransposeAttr{Perm: []int{1, 0}}, rt, x)
			sxExpect(t, got, sxPick(rt, x, nil, []int{0, 3, 1, 4, 2, 5}))
		})
		t.Run(dt.String()+"/3d", func(t *testing.T) {
			// result[a,b,c] = operand[b,c,a] for perm [2,0,1] on 2x3x4.
			x := sxSeq(dt, 1, 2, 3, 4)
			rt := TensorOf(dt, 4, 2, 3)
			got := sxRun1(t, OpTranspose, TransposeAttr{Perm: []int{2, 0, 1}}, rt, x)
			var m []int
			for a := range 4 {
				for b := range 2 {
					for c := range 3 {
						m = append(m, b*12+c*4+a)
					}
				}
			}
			sxExpect(t, got, sxPick(rt, x, nil, m))
		})
	}
	t.Run("zero-size", func(t *testing.T) {
		got := sxRun1(t, OpTranspose, TransposeAttr{Perm: []int{1, 0}}, TensorOf(F32, 0, 2), sxSeq(F32, 1, 2, 0))
		sxExpect(t, got, Zeros(TensorOf(F32, 0, 2)))
	})
	err := sxRawErr(OpTranspose, TransposeAttr{Perm: []int{0, 0}}, []Type{TensorOf(F32, 2, 2)}, []*Literal{sxSeq(F32, 1, 2, 2)})
	sxWantErr(t, err, "repeats")
}

func TestEvalSlice(t *testing.T) {
	cases := []struct {
		name                 string
		start, limit, stride []int
		out                  []int
		m                    []int
	}{
		// Operand 3x4 holds 0..11 by index.
		{"strided", []int{0, 1}, []int{3, 4}, []int{2, 2}, sxShape(2, 2), []int{1, 3, 9, 11}},
		{"unit strides", []int{1, 1}, []int{3, 3}, []int{1, 1}, sxShape(2, 2), []int{5, 6, 9, 10}},
		{"stride past the end", []int{0, 0}, []int{3, 4}, []int{3, 3}, sxShape(1, 2), []int{0, 3}},
		{"empty", []int{2, 0}, []int{2, 4}, []int{1, 1}, sxShape(0, 4), []int{}},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, 3, 4)
				rt := TensorOf(dt, c.out...)
				got := sxRun1(t, OpSlice, SliceAttr{Start: c.start, Limit: c.limit, Stride: c.stride}, rt, x)
				sxExpect(t, got, sxPick(rt, x, nil, c.m))
			})
		}
	}
	err := sxRawErr(OpSlice, SliceAttr{Start: []int{2}, Limit: []int{5}, Stride: []int{1}}, []Type{TensorOf(F32, 3)}, []*Literal{sxSeq(F32, 1, 4)})
	sxWantErr(t, err, "limit")
}

func TestEvalDynamicSlice(t *testing.T) {
	idx := func(dt DType, v float64) *Literal { return sxScalarLit(dt, v) }
	cases := []struct {
		name   string
		starts []*Literal
		m      []int
	}{
		// Operand 3x4 holds 0..11 by index; sizes 2x2.
		{"in range", []*Literal{idx(S32, 1), idx(S32, 1)}, []int{5, 6, 9, 10}},
		{"clamped high and low", []*Literal{idx(S64, 5), idx(S64, -3)}, []int{4, 5, 8, 9}},
		{"clamped to the last fit", []*Literal{idx(S8, 2), idx(S8, 3)}, []int{6, 7, 10, 11}},
		{"unsigned", []*Literal{idx(U16, 0), idx(U16, 2)}, []int{2, 3, 6, 7}},
		{"huge unsigned", []*Literal{MustLiteral(Scalar(U64), []uint64{math.MaxUint64}), idx(U64, 0)}, []int{4, 5, 8, 9}},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, 3, 4)
				rt := TensorOf(dt, 2, 2)
				got := sxRun1(t, OpDynamicSlice, DynamicSliceAttr{Sizes: []int{2, 2}}, rt, append([]*Literal{x}, c.starts...)...)
				sxExpect(t, got, sxPick(rt, x, nil, c.m))
			})
		}
	}
	t.Run("zero size", func(t *testing.T) {
		x := sxSeq(F32, 1, 3, 4)
		got := sxRun1(t, OpDynamicSlice, DynamicSliceAttr{Sizes: []int{0, 4}}, TensorOf(F32, 0, 4), x, idx(S32, 7), idx(S32, 7))
		sxExpect(t, got, Zeros(TensorOf(F32, 0, 4)))
	})
	t.Run("scalar operand", func(t *testing.T) {
		x := sxSeq(F32, 1)
		got := sxRun1(t, OpDynamicSlice, DynamicSliceAttr{Sizes: []int{}}, Scalar(F32), x)
		sxExpect(t, got, x)
	})
	err := sxRawErr(OpDynamicSlice, DynamicSliceAttr{Sizes: []int{1}}, []Type{TensorOf(F32, 1)},
		[]*Literal{sxSeq(F32, 1, 3), MustLiteral(Scalar(Bool), []bool{true})})
	sxWantErr(t, err, "want an integer scalar")
}

func TestEvalDynamicUpdateSlice(t *testing.T) {
	idx := func(dt DType, v float64) *Literal { return sxScalarLit(dt, v) }
	cases := []struct {
		name   string
		starts []*Literal
		m      []int
	}{
		// Operand 3x4 holds 0..11 by index; update 2x2 holds -1..-4 in
		// sxPick's encoding.
		{"in range", []*Literal{idx(S32, 1), idx(S32, 1)}, []int{0, 1, 2, 3, 4, -1, -2, 7, 8, -3, -4, 11}},
		{"clamped", []*Literal{idx(S64, -1), idx(S64, 3)}, []int{0, 1, -1, -2, 4, 5, -3, -4, 8, 9, 10, 11}},
		{"unsigned clamped", []*Literal{idx(U8, 9), idx(U8, 0)}, []int{0, 1, 2, 3, -1, -2, 6, 7, -3, -4, 10, 11}},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, 3, 4)
				u := sxSeq(dt, 20, 2, 2)
				xcopy := x.Clone()
				rt := x.Type
				got := sxRun1(t, OpDynamicUpdateSlice, nil, rt, append([]*Literal{x, u}, c.starts...)...)
				sxExpect(t, got, sxPick(rt, x, u, c.m))
				sxExpect(t, x, xcopy) // the operand is not modified
			})
		}
	}
	t.Run("empty update", func(t *testing.T) {
		x := sxSeq(S32, 1, 3)
		got := sxRun1(t, OpDynamicUpdateSlice, nil, x.Type, x, Zeros(TensorOf(S32, 0)), idx(S32, 9))
		sxExpect(t, got, x)
	})
}

func TestEvalConcatenate(t *testing.T) {
	for _, dt := range AllDTypes {
		t.Run(dt.String()+"/dim 1", func(t *testing.T) {
			a, b := sxSeq(dt, 1, 2, 2), sxSeq(dt, 20, 2, 1)
			rt := TensorOf(dt, 2, 3)
			got := sxRun1(t, OpConcatenate, ConcatenateAttr{Dim: 1}, rt, a, b)
			sxExpect(t, got, sxPick(rt, a, b, []int{0, 1, -1, 2, 3, -2}))
		})
		t.Run(dt.String()+"/dim 0 with an empty operand", func(t *testing.T) {
			a, b := sxSeq(dt, 1, 1, 2), sxSeq(dt, 20, 2, 2)
			e := Zeros(TensorOf(dt, 0, 2))
			rt := TensorOf(dt, 4, 2)
			got := sxRun1(t, OpConcatenate, ConcatenateAttr{Dim: 0}, rt, a, e, b, a)
			sxExpect(t, got, sxPick(rt, a, b, []int{0, 1, -1, -2, -3, -4, 0, 1}))
		})
	}
	t.Run("single operand", func(t *testing.T) {
		a := sxSeq(S8, 1, 3)
		sxExpect(t, sxRun1(t, OpConcatenate, ConcatenateAttr{Dim: 0}, a.Type, a), a)
	})
	err := sxRawErr(OpConcatenate, ConcatenateAttr{Dim: 0}, []Type{TensorOf(F32, 4, 2)},
		[]*Literal{sxSeq(F32, 1, 2, 2), sxSeq(F32, 1, 2, 3)})
	sxWantErr(t, err, "does not match")
}

func TestEvalPad(t *testing.T) {
	P := -1 // the padding value in sxPick's encoding
	cases := []struct {
		name                string
		in                  []int
		low, high, interior []int
		out                 []int
		m                   []int
	}{
		{"edges", sxShape(2), []int{1}, []int{2}, []int{0}, sxShape(5), []int{P, 0, 1, P, P}},
		{"interior", sxShape(3), []int{0}, []int{0}, []int{2}, sxShape(7), []int{0, P, P, 1, P, P, 2}},
		// 2x3 operand 0..5: rows dilated and shifted down by one, columns
		// cropped by one on the left and padded by one on the right.
		{"mixed with negative low", sxShape(2, 3), []int{1, -1}, []int{0, 1}, []int{1, 0}, sxShape(4, 3),
			[]int{P, P, P, 1, 2, P, P, P, P, 4, 5, P}},
		{"negative high crops interior padding", sxShape(3), []int{0}, []int{-2}, []int{1}, sxShape(3), []int{0, P, 1}},
		{"cropped to nothing", sxShape(3), []int{-2}, []int{-1}, []int{0}, sxShape(0), []int{}},
		{"empty operand", sxShape(0), []int{1}, []int{1}, []int{2}, sxShape(2), []int{P, P}},
		{"scalar", sxShape(), nil, nil, nil, sxShape(), []int{0}},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, c.in...)
				pv := sxSeq(dt, 30)
				rt := TensorOf(dt, c.out...)
				low, high, interior := c.low, c.high, c.interior
				if low == nil {
					low, high, interior = []int{}, []int{}, []int{}
				}
				got := sxRun1(t, OpPad, PadAttr{Low: low, High: high, Interior: interior}, rt, x, pv)
				sxExpect(t, got, sxPick(rt, x, pv, c.m))
			})
		}
	}
	err := sxRawErr(OpPad, PadAttr{Low: []int{-3}, High: []int{0}, Interior: []int{0}}, []Type{TensorOf(F32, 0)},
		[]*Literal{sxSeq(F32, 1, 2), sxSeq(F32, 0)})
	sxWantErr(t, err, "negative size")
}

func TestEvalReverse(t *testing.T) {
	cases := []struct {
		name string
		dims []int
		m    []int
	}{
		{"columns", []int{1}, []int{2, 1, 0, 5, 4, 3}},
		{"rows", []int{0}, []int{3, 4, 5, 0, 1, 2}},
		{"both", []int{1, 0}, []int{5, 4, 3, 2, 1, 0}},
		{"none", []int{}, []int{0, 1, 2, 3, 4, 5}},
	}
	for _, dt := range AllDTypes {
		for _, c := range cases {
			t.Run(dt.String()+"/"+c.name, func(t *testing.T) {
				x := sxSeq(dt, 1, 2, 3)
				got := sxRun1(t, OpReverse, ReverseAttr{Dims: c.dims}, x.Type, x)
				sxExpect(t, got, sxPick(x.Type, x, nil, c.m))
			})
		}
	}
}

func TestEvalStructuralChecksDeclaredType(t *testing.T) {
	// An instruction whose declared result type disagrees with its
	// attribute is refused, not evaluated into the wrong shape.
	x := sxSeq(F32, 1, 2, 3)
	err := sxRawErr(OpTranspose, TransposeAttr{Perm: []int{1, 0}}, []Type{TensorOf(F32, 2, 3)}, []*Literal{x})
	sxWantErr(t, err, "differs from the computed f32[3,2]")
	err = sxRawErr(OpReverse, ReverseAttr{Dims: []int{0}}, []Type{TensorOf(F64, 2, 3)}, []*Literal{x})
	sxWantErr(t, err, "differs")
	err = sxRawErr(OpSlice, ReshapeAttr{Shape: []int{6}}, []Type{TensorOf(F32, 6)}, []*Literal{x})
	sxWantErr(t, err, "attribute is ir.ReshapeAttr, want ir.SliceAttr")
}

// ---- regions ----

// sxBinaryRegion is a region (x: dt[], y: dt[]) -> op(x, y).
func sxBinaryRegion(t *testing.T, op Op, dt DType) *Func {
	t.Helper()
	f := NewFunc("region", Scalar(dt), Scalar(dt))
	f.Return(sxBuild(t, f, op, f.Params, nil, []Type{Scalar(dt)})...)
	return f
}

// sxPickRegion is a region of n parameters of type dt that returns
// parameter k: with k the second of two it overwrites (scatter), with k
// the first it keeps the accumulator.
func sxPickRegion(dt DType, n, k int) *Func {
	ts := make([]Type, n)
	for i := range ts {
		ts[i] = Scalar(dt)
	}
	f := NewFunc("region", ts...)
	f.Return(f.Params[k])
	return f
}

// sxShiftInRegion is (acc, x) -> acc*10 + x on dt scalars: not
// commutative, so the result records the order in which elements arrive.
func sxShiftInRegion(t *testing.T, dt DType) *Func {
	t.Helper()
	f := NewFunc("region", Scalar(dt), Scalar(dt))
	ten := sxBuild(t, f, OpConstant, nil, ConstantAttr{Value: sxScalarLit(dt, 10)}, []Type{Scalar(dt)})[0]
	m := sxBuild(t, f, OpMultiply, []*Value{f.Params[0], ten}, nil, []Type{Scalar(dt)})[0]
	f.Return(sxBuild(t, f, OpAdd, []*Value{m, f.Params[1]}, nil, []Type{Scalar(dt)})...)
	return f
}

// sxArgmaxRegion is the (value, index) argmax body: (v0, i0, v1, i1) ->
// v1 > v0 ? (v1, i1) : (v0, i0). Walking elements in order, it keeps the
// first maximum.
func sxArgmaxRegion(t *testing.T, vt, it DType) *Func {
	t.Helper()
	f := NewFunc("argmax", Scalar(vt), Scalar(it), Scalar(vt), Scalar(it))
	p := f.Params
	gt := sxBuild(t, f, OpCompare, []*Value{p[2], p[0]}, CompareAttr{Direction: CmpGT}, []Type{Scalar(Bool)})[0]
	v := sxBuild(t, f, OpSelect, []*Value{gt, p[2], p[0]}, nil, []Type{Scalar(vt)})[0]
	i := sxBuild(t, f, OpSelect, []*Value{gt, p[3], p[1]}, nil, []Type{Scalar(it)})[0]
	f.Return(v, i)
	return f
}
