package ir

import (
	"math"
	"testing"
)

// ---- gather ----

func TestEvalGatherRows(t *testing.T) {
	// Operand 5x3 holds 0..14 by index; each index picks a whole row.
	rows := GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}}
	for _, dt := range AllDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			x := sxSeq(dt, 1, 5, 3)
			idx := sxNums(S32, sxShape(3, 1), 2, 0, 4)
			rt := TensorOf(dt, 3, 3)
			got := sxRun1(t, OpGather, rows, rt, x, idx)
			sxExpect(t, got, sxPick(rt, x, nil, []int{6, 7, 8, 0, 1, 2, 12, 13, 14}))
		})
	}
	t.Run("matches dynamic_slice row by row", func(t *testing.T) {
		x := sxSeq(F64, 1, 5, 3)
		starts := []float64{3, -2, 9, 1}
		got := sxRun1(t, OpGather, rows, TensorOf(F64, 4, 3), x, sxNums(S64, sxShape(4, 1), starts...))
		for b, s := range starts {
			row := sxRun1(t, OpDynamicSlice, DynamicSliceAttr{Sizes: []int{1, 3}}, TensorOf(F64, 1, 3), x, sxScalarLit(S64, s), sxScalarLit(S64, 0))
			for j := range 3 {
				if got.Elem(b*3+j) != row.Elem(j) {
					t.Fatalf("row %d (start %v): got %v, dynamic_slice gives %v", b, s, got.Data, row.Data)
				}
			}
		}
	})
	t.Run("scalar indices (index_vector_dim = rank)", func(t *testing.T) {
		a := rows
		a.IndexVectorDim = 1
		x := sxSeq(S16, 1, 5, 3)
		got := sxRun1(t, OpGather, a, TensorOf(S16, 2, 3), x, sxNums(U8, sxShape(2), 1, 3))
		sxExpect(t, got, sxPick(TensorOf(S16, 2, 3), x, nil, []int{3, 4, 5, 9, 10, 11}))
	})
	t.Run("no indices", func(t *testing.T) {
		x := sxSeq(F32, 1, 5, 3)
		got := sxRun1(t, OpGather, rows, TensorOf(F32, 0, 3), x, Zeros(TensorOf(S32, 0, 1)))
		sxExpect(t, got, Zeros(TensorOf(F32, 0, 3)))
	})
}

func TestEvalGatherClampsStartIndices(t *testing.T) {
	// Uncollapsed 2-row windows of the 5x3 operand: a start of 4 (or a
	// huge unsigned one) clamps to 3, the last start where two rows fit,
	// and a negative start clamps to 0.
	a := GatherAttr{OffsetDims: []int{1, 2}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{2, 3}}
	x := sxSeq(S32, 1, 5, 3)
	rt := TensorOf(S32, 3, 2, 3)
	got := sxRun1(t, OpGather, a, rt, x, sxNums(S64, sxShape(3, 1), 4, -7, 1))
	sxExpect(t, got, sxPick(rt, x, nil, []int{9, 10, 11, 12, 13, 14, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8}))
	huge := MustLiteral(TensorOf(U64, 1, 1), []uint64{math.MaxUint64})
	rt1 := TensorOf(S32, 1, 2, 3)
	got = sxRun1(t, OpGather, a, rt1, x, huge)
	sxExpect(t, got, sxPick(rt1, x, nil, []int{9, 10, 11, 12, 13, 14}))
}

func TestEvalGatherColumnsAndPoints(t *testing.T) {
	// Operand 3x4 holds 0..11 by index.
	x := sxSeq(F32, 1, 3, 4)
	t.Run("columns with the offset dim first", func(t *testing.T) {
		// result[r, b] = operand[r, idx[b]].
		a := GatherAttr{OffsetDims: []int{0}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{1}, IndexVectorDim: 1, SliceSizes: []int{3, 1}}
		rt := TensorOf(F32, 3, 2)
		got := sxRun1(t, OpGather, a, rt, x, sxNums(S32, sxShape(2, 1), 3, 1))
		sxExpect(t, got, sxPick(rt, x, nil, []int{3, 1, 7, 5, 11, 9}))
	})
	points := GatherAttr{OffsetDims: []int{}, CollapsedSliceDims: []int{0, 1}, StartIndexMap: []int{0, 1}, IndexVectorDim: 1, SliceSizes: []int{1, 1}}
	t.Run("points", func(t *testing.T) {
		got := sxRun1(t, OpGather, points, TensorOf(F32, 2), x, sxNums(S32, sxShape(2, 2), 1, 3, 2, 0))
		sxExpect(t, got, sxPick(TensorOf(F32, 2), x, nil, []int{7, 8}))
	})
	t.Run("points with start_index_map reversed", func(t *testing.T) {
		a := points
		a.StartIndexMap = []int{1, 0} // vectors are (column, row)
		got := sxRun1(t, OpGather, a, TensorOf(F32, 2), x, sxNums(S32, sxShape(2, 2), 1, 2, 3, 0))
		sxExpect(t, got, sxPick(TensorOf(F32, 2), x, nil, []int{9, 3}))
	})
	t.Run("points with index_vector_dim 0", func(t *testing.T) {
		a := points
		a.IndexVectorDim = 0 // the vectors are the columns of the indices
		got := sxRun1(t, OpGather, a, TensorOf(F32, 2), x, sxNums(S32, sxShape(2, 2), 1, 2, 3, 0))
		sxExpect(t, got, sxPick(TensorOf(F32, 2), x, nil, []int{7, 8}))
	})
}

func TestEvalGatherBatchingDims(t *testing.T) {
	// Operand 2x3x4 (0..23 by index) with batch dim 0; scalar indices.
	// result[..b..j..] = operand[b, clamp(idx), :] for the batch b of the
	// index, checked against a plain loop.
	x := sxSeq(S32, 1, 2, 3, 4)
	idxVals := []float64{2, 0, 1, 5} // 5 clamps to 2
	clamp := func(v float64) int { return min(max(int(v), 0), 2) }
	t.Run("indices batch dim first", func(t *testing.T) {
		a := GatherAttr{OffsetDims: []int{2}, CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0},
			StartIndexMap: []int{1}, IndexVectorDim: 2, SliceSizes: []int{1, 1, 4}}
		var m []int
		for b := range 2 {
			for j := range 2 {
				for k := range 4 {
					m = append(m, b*12+clamp(idxVals[b*2+j])*4+k)
				}
			}
		}
		rt := TensorOf(S32, 2, 2, 4)
		got := sxRun1(t, OpGather, a, rt, x, sxNums(S32, sxShape(2, 2), idxVals...))
		sxExpect(t, got, sxPick(rt, x, nil, m))
	})
	t.Run("indices batch dim second, after index_vector_dim", func(t *testing.T) {
		// Indices shaped [j, 1, b]: index_vector_dim 1 sits between the
		// other dimensions, so batching dim 2 is batch position 1.
		a := GatherAttr{OffsetDims: []int{2}, CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{2},
			StartIndexMap: []int{1}, IndexVectorDim: 1, SliceSizes: []int{1, 1, 4}}
		var m []int
		for j := range 2 {
			for b := range 2 {
				for k := range 4 {
					m = append(m, b*12+clamp(idxVals[j*2+b])*4+k)
				}
			}
		}
		rt := TensorOf(S32, 2, 2, 4)
		got := sxRun1(t, OpGather, a, rt, x, sxNums(S32, sxShape(2, 1, 2), idxVals...))
		sxExpect(t, got, sxPick(rt, x, nil, m))
	})
}

// ---- scatter ----

// sxScalarScatter updates single elements of a rank-1 input at scalar
// positions given by [n,1] indices.
var sxScalarScatter = ScatterAttr{UpdateWindowDims: []int{}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}

func TestEvalScatterRowsEveryType(t *testing.T) {
	// Overwrite rows 2 and 0 of a 4x3 input with the two update rows.
	a := ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	for _, dt := range AllDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			x := sxSeq(dt, 1, 4, 3)
			xcopy := x.Clone()
			u := sxSeq(dt, 20, 2, 3)
			got := sxRun(t, OpScatter, a, []Type{x.Type}, []*Literal{x, sxNums(S32, sxShape(2, 1), 2, 0), u}, sxPickRegion(dt, 2, 1))
			sxExpect(t, got[0], sxPick(x.Type, x, u, []int{-4, -5, -6, 3, 4, 5, -1, -2, -3, 9, 10, 11}))
			sxExpect(t, x, xcopy) // the input is not modified
		})
	}
}

func TestEvalScatterCombines(t *testing.T) {
	t.Run("add with duplicate indices", func(t *testing.T) {
		x := Zeros(TensorOf(S32, 5))
		got := sxRun(t, OpScatter, sxScalarScatter, []Type{x.Type},
			[]*Literal{x, sxNums(S32, sxShape(3, 1), 1, 3, 1), sxNums(S32, sxShape(3), 10, 20, 30)}, sxBinaryRegion(t, OpAdd, S32))
		sxExpect(t, got[0], sxNums(S32, sxShape(5), 0, 40, 0, 20, 0))
	})
	t.Run("f32 add", func(t *testing.T) {
		x := sxNums(F32, sxShape(3), 0.5, 1, 2)
		got := sxRun(t, OpScatter, sxScalarScatter, []Type{x.Type},
			[]*Literal{x, sxNums(U8, sxShape(3, 1), 2, 2, 0), sxNums(F32, sxShape(3), 0.25, 4, 1)}, sxBinaryRegion(t, OpAdd, F32))
		sxExpect(t, got[0], sxNums(F32, sxShape(3), 1.5, 1, 6.25))
	})
	t.Run("updates apply in index order", func(t *testing.T) {
		x := Zeros(TensorOf(S32, 2))
		got := sxRun(t, OpScatter, sxScalarScatter, []Type{x.Type},
			[]*Literal{x, sxNums(S32, sxShape(4, 1), 0, 1, 0, 0), sxNums(S32, sxShape(4), 1, 5, 2, 3)}, sxShiftInRegion(t, S32))
		sxExpect(t, got[0], sxNums(S32, sxShape(2), 123, 5))
	})
	t.Run("overwrite: the last duplicate wins", func(t *testing.T) {
		x := Zeros(TensorOf(S32, 2))
		got := sxRun(t, OpScatter, sxScalarScatter, []Type{x.Type},
			[]*Literal{x, sxNums(S32, sxShape(3, 1), 1, 1, 1), sxNums(S32, sxShape(3), 5, 7, 6)}, sxPickRegion(S32, 2, 1))
		sxExpect(t, got[0], sxNums(S32, sxShape(2), 0, 6))
	})
	t.Run("two inputs: argmax combine", func(t *testing.T) {
		vals, ids := sxNums(F32, sxShape(3), 0, 0, 0), sxNums(S32, sxShape(3), -1, -1, -1)
		got := sxRun(t, OpScatter, sxScalarScatter, []Type{vals.Type, ids.Type},
			[]*Literal{vals, ids, sxNums(S32, sxShape(3, 1), 0, 2, 0), sxNums(F32, sxShape(3), 5, 1, 7), sxNums(S32, sxShape(3), 10, 11, 12)},
			sxArgmaxRegion(t, F32, S32))
		sxExpect(t, got[0], sxNums(F32, sxShape(3), 7, 0, 1))
		sxExpect(t, got[1], sxNums(S32, sxShape(3), 12, -1, 11))
	})
}

func TestEvalScatterSkipsWindowsOutOfBounds(t *testing.T) {
	// Windows of two elements into a 4-vector: a window starting at 3 or
	// at -1 does not fit and is skipped whole; one at 2 fits exactly.
	a := ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	x := Zeros(TensorOf(F32, 4))
	u := sxNums(F32, sxShape(2, 2), 1, 2, 3, 4)
	cases := []struct {
		name string
		idx  []float64
		want []float64
	}{
		{"past the end", []float64{3, 1}, []float64{0, 3, 4, 0}},
		{"negative", []float64{-1, 2}, []float64{0, 0, 3, 4}},
		{"both out", []float64{4, -2}, []float64{0, 0, 0, 0}},
		{"both in", []float64{0, 2}, []float64{1, 2, 3, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sxRun(t, OpScatter, a, []Type{x.Type}, []*Literal{x, sxNums(S8, sxShape(2, 1), c.idx...), u}, sxPickRegion(F32, 2, 1))
			sxExpect(t, got[0], sxNums(F32, sxShape(4), c.want...))
		})
	}
	t.Run("single elements out of range", func(t *testing.T) {
		y := sxNums(S32, sxShape(3), 1, 2, 3)
		got := sxRun(t, OpScatter, sxScalarScatter, []Type{y.Type},
			[]*Literal{y, MustLiteral(TensorOf(U64, 2, 1), []uint64{math.MaxUint64, 1}), sxNums(S32, sxShape(2), 8, 9)}, sxPickRegion(S32, 2, 1))
		sxExpect(t, got[0], sxNums(S32, sxShape(3), 1, 9, 3))
	})
}

func TestEvalScatterBatchingDims(t *testing.T) {
	// Input 2x4 with batch dim 0; scalar indices [b, j] (index_vector_dim
	// 2); result[b, idx[b,j]] += upd[b,j], checked against a plain loop.
	a := ScatterAttr{UpdateWindowDims: []int{}, InsertedWindowDims: []int{1}, InputBatchingDims: []int{0}, ScatterIndicesBatchingDims: []int{0},
		ScatterDimsToOperandDims: []int{1}, IndexVectorDim: 2}
	idx := []float64{1, 1, 3, 0, 2, 7} // 7 is out of range: skipped
	upd := []float64{1, 2, 3, 4, 5, 6}
	want := make([]float64, 8)
	for b := range 2 {
		for j := range 3 {
			if k := int(idx[b*3+j]); k < 4 {
				want[b*4+k] += upd[b*3+j]
			}
		}
	}
	x := Zeros(TensorOf(S32, 2, 4))
	got := sxRun(t, OpScatter, a, []Type{x.Type},
		[]*Literal{x, sxNums(S32, sxShape(2, 3), idx...), sxNums(S32, sxShape(2, 3), upd...)}, sxBinaryRegion(t, OpAdd, S32))
	sxExpect(t, got[0], sxNums(S32, sxShape(2, 4), want...))
}

func TestEvalGatherScatterErrors(t *testing.T) {
	x := Zeros(TensorOf(F32, 3))
	err := sxRawErr(OpGather, GatherAttr{OffsetDims: []int{}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1}},
		[]Type{TensorOf(F32, 1)}, []*Literal{x, Zeros(TensorOf(F32, 1, 1))})
	sxWantErr(t, err, "want an integer type")
	err = sxRawErr(OpScatter, sxScalarScatter, []Type{x.Type}, []*Literal{x, Zeros(TensorOf(S32, 2, 1)), Zeros(TensorOf(F32, 3))}, sxPickRegion(F32, 2, 1))
	sxWantErr(t, err, "do not match the indices' batch shape")
}
