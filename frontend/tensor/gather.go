package tensor

import (
	"slices"

	"github.com/stela-ml/stela/ir"
)

// takeDims are the dimension numbers shared by Take and ScatterAdd along
// axis a of a rank-n operand with rank-k indices: the window is the whole
// operand but axis a, and the result (or update) has the operand's
// dimensions before a, then the index dimensions, then the rest.
func takeDims(a, n, k int) (window []int) {
	for i := 0; i < a; i++ {
		window = append(window, i)
	}
	for i := a + k; i < n+k-1; i++ {
		window = append(window, i)
	}
	if window == nil {
		window = []int{}
	}
	return window
}

func checkIndices(op string, indices *Tensor) {
	if !indices.typ.DType.IsInteger() {
		panic(fail(op, "indices are %v, want an integer element type", indices.typ))
	}
}

// Take gathers slices of x along axis at the given indices, like numpy's
// take: the result's shape is x's with dimension axis replaced by the
// indices' shape. An embedding lookup is Take(table, ids, 0). Indices out
// of range are clamped, as gather does on every device.
func Take(x, indices *Tensor, axis int) *Tensor {
	defer named(opTake)
	checkNotNil(opTake, x, indices)
	checkIndices(opTake, indices)
	n, k := x.Rank(), indices.Rank()
	a := normAxis(opTake, axis, n)
	idx := Reshape(indices, append(indices.Shape(), 1)...)
	sizes := x.Shape()
	sizes[a] = 1
	return Gather(x, idx, ir.GatherAttr{
		OffsetDims:         takeDims(a, n, k),
		CollapsedSliceDims: []int{a},
		StartIndexMap:      []int{a},
		IndexVectorDim:     k,
		SliceSizes:         sizes,
	})
}

// Gather is StableHLO's gather with explicit dimension numbers.
func Gather(x, indices *Tensor, attr ir.GatherAttr) *Tensor {
	checkNotNil("gather", x, indices)
	attr.OffsetDims = nonNil(attr.OffsetDims)
	attr.CollapsedSliceDims = nonNil(attr.CollapsedSliceDims)
	attr.StartIndexMap = nonNil(attr.StartIndexMap)
	attr.SliceSizes = nonNil(attr.SliceSizes)
	return emit(nil, ir.OpGather, []*Tensor{x, indices}, attr)[0]
}

// ScatterAdd adds updates into x at the given indices along axis: the
// inverse of Take (and its gradient). updates has the shape Take would
// return. Repeated indices accumulate; out-of-range ones are skipped.
func ScatterAdd(x, indices, updates *Tensor, axis int) *Tensor {
	defer named(opScatterAdd)
	checkNotNil(opScatterAdd, x, indices, updates)
	checkIndices(opScatterAdd, indices)
	n, k := x.Rank(), indices.Rank()
	a := normAxis(opScatterAdd, axis, n)
	want := slices.Concat(x.typ.Shape[:a], indices.typ.Shape, x.typ.Shape[a+1:])
	if !ir.ShapeEqual(updates.typ.Shape, want) {
		panic(fail(opScatterAdd, "updates %v for operand %v and indices %v along axis %d: want shape %v", updates.typ, x.typ, indices.typ, a, want))
	}
	if updates.typ.DType != x.typ.DType {
		panic(fail(opScatterAdd, "updates %v and operand %v differ: element types must match (use Convert)", updates.typ, x.typ))
	}
	idx := Reshape(indices, append(indices.Shape(), 1)...)
	body := binaryRegion("add", ir.OpAdd, x.typ.DType, ir.CallerLoc())
	return Scatter([]*Tensor{x}, idx, []*Tensor{updates}, ir.ScatterAttr{
		UpdateWindowDims:         takeDims(a, n, k),
		InsertedWindowDims:       []int{a},
		ScatterDimsToOperandDims: []int{a},
		IndexVectorDim:           k,
	}, body)[0]
}

// Scatter is StableHLO's scatter with explicit dimension numbers and an
// update region (current..., update...) → new... over scalars.
func Scatter(inputs []*Tensor, indices *Tensor, updates []*Tensor, attr ir.ScatterAttr, update *ir.Func) []*Tensor {
	checkNotNil("scatter", inputs...)
	checkNotNil("scatter", indices)
	checkNotNil("scatter", updates...)
	attr.UpdateWindowDims = nonNil(attr.UpdateWindowDims)
	attr.InsertedWindowDims = nonNil(attr.InsertedWindowDims)
	attr.ScatterDimsToOperandDims = nonNil(attr.ScatterDimsToOperandDims)
	args := slices.Concat(inputs, []*Tensor{indices}, updates)
	return emit(nil, ir.OpScatter, args, attr, update)
}
