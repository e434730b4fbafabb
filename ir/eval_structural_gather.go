package ir

import (
	"fmt"
	"slices"
)

// gather and scatter, with StableHLO's dimension numbers including the
// explicit batching dimensions (operand_batching_dims and
// start_indices_batching_dims for gather; input_batching_dims and
// scatter_indices_batching_dims for scatter).
//
// Out-of-range indices: gather clamps each start index so that the whole
// slice fits, as the spec says. Scatter skips an update window that does not
// fit entirely inside the inputs, as XLA does (HloEvaluator, and so every
// XLA backend). The spec's own wording checks each updated element on its
// own; the two differ only for a window that straddles an edge, and there
// the evaluator sides with the backends it is the oracle for.

// sxIndexVectors reads index vectors out of an indices tensor. The
// non-index dimensions of the tensor (all but indexVectorDim, which may
// equal its rank: then each index is a scalar) form the "batch" space;
// vector returns the index vector at one point of it.
type sxIndexVectors struct {
	lit     *Literal
	ivd     int
	n       int // length of each index vector
	strides []int
	idx     []int
}

func sxNewIndexVectors(l *Literal, ivd int) (*sxIndexVectors, error) {
	if !l.Type.DType.IsInteger() {
		return nil, fmt.Errorf("indices have type %v, want an integer type", l.Type)
	}
	r := l.Type.Rank()
	if ivd < 0 || ivd > r {
		return nil, fmt.Errorf("index_vector_dim %d out of range [0, %d]", ivd, r)
	}
	n := 1
	if ivd < r {
		n = l.Type.Shape[ivd]
	}
	return &sxIndexVectors{lit: l, ivd: ivd, n: n, strides: Strides(l.Type.Shape), idx: make([]int, r)}, nil
}

// batchShape is the shape of the indices tensor without indexVectorDim.
func (v *sxIndexVectors) batchShape() []int {
	s := slices.Clone(v.lit.Type.Shape)
	if v.ivd < len(s) {
		s = slices.Delete(s, v.ivd, v.ivd+1)
	}
	return s
}

// vector writes the index vector at batch index b into dst.
func (v *sxIndexVectors) vector(b []int, dst []int) error {
	k := 0
	for d := range v.idx {
		if d == v.ivd {
			continue
		}
		v.idx[d] = b[k]
		k++
	}
	for j := range v.n {
		if v.ivd < len(v.idx) {
			v.idx[v.ivd] = j
		}
		x, err := sxIndexValue(v.lit, sxOffset(v.idx, v.strides))
		if err != nil {
			return err
		}
		dst[j] = x
	}
	return nil
}

// sxBatchingPos maps an indices-tensor dimension to its position in the
// batch index, which lacks index_vector_dim.
func sxBatchingPos(d, ivd int) int {
	if d < ivd {
		return d
	}
	return d - 1
}

func evalGather(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[GatherAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 2); err != nil {
		return nil, err
	}
	x, si := args[0], args[1]
	xr := x.Type.Rank()
	iv, err := sxNewIndexVectors(si, a.IndexVectorDim)
	if err != nil {
		return nil, err
	}
	if len(a.SliceSizes) != xr {
		return nil, fmt.Errorf("slice_sizes %v has %d entries for an operand of rank %d", a.SliceSizes, len(a.SliceSizes), xr)
	}
	for d, s := range a.SliceSizes {
		if s < 0 || s > x.Type.Shape[d] {
			return nil, fmt.Errorf("slice size %d of dimension %d is not in [0, %d]", s, d, x.Type.Shape[d])
		}
	}
	if len(a.StartIndexMap) != iv.n {
		return nil, fmt.Errorf("start_index_map %v has %d entries, want the index vector length %d", a.StartIndexMap, len(a.StartIndexMap), iv.n)
	}
	if err := sxDimsOK("start_index_map and operand_batching_dims", slices.Concat(a.StartIndexMap, a.OperandBatchingDims), xr); err != nil {
		return nil, err
	}
	if err := sxDimsOK("collapsed_slice_dims and operand_batching_dims", slices.Concat(a.CollapsedSliceDims, a.OperandBatchingDims), xr); err != nil {
		return nil, err
	}
	for _, d := range slices.Concat(a.CollapsedSliceDims, a.OperandBatchingDims) {
		if a.SliceSizes[d] > 1 {
			return nil, fmt.Errorf("slice size of collapsed or batching dimension %d is %d, want at most 1", d, a.SliceSizes[d])
		}
	}
	bshape := iv.batchShape()
	if len(a.OperandBatchingDims) != len(a.StartIndicesBatchingDims) {
		return nil, fmt.Errorf("operand_batching_dims %v and start_indices_batching_dims %v differ in length", a.OperandBatchingDims, a.StartIndicesBatchingDims)
	}
	if err := sxDimsOK("start_indices_batching_dims", a.StartIndicesBatchingDims, si.Type.Rank()); err != nil {
		return nil, err
	}
	for k, d := range a.StartIndicesBatchingDims {
		if d == a.IndexVectorDim {
			return nil, fmt.Errorf("start_indices_batching_dims %v contains index_vector_dim %d", a.StartIndicesBatchingDims, d)
		}
		if si.Type.Shape[d] != x.Type.Shape[a.OperandBatchingDims[k]] {
			return nil, fmt.Errorf("batching dimension sizes differ: start indices dim %d, operand dim %d", d, a.OperandBatchingDims[k])
		}
	}
	// The operand dimensions that offset_dims walk: all but the collapsed
	// and batching ones, in order.
	windowDims := sxComplement(xr, a.CollapsedSliceDims, a.OperandBatchingDims)
	if len(windowDims) != len(a.OffsetDims) {
		return nil, fmt.Errorf("offset_dims %v has %d entries, want %d (operand rank less collapsed and batching dims)", a.OffsetDims, len(a.OffsetDims), len(windowDims))
	}
	rr := len(bshape) + len(a.OffsetDims)
	if err := sxDimsOK("offset_dims", a.OffsetDims, rr); err != nil {
		return nil, err
	}
	if !slices.IsSorted(a.OffsetDims) {
		return nil, fmt.Errorf("offset_dims %v is not sorted", a.OffsetDims)
	}
	batchDims := sxComplement(rr, a.OffsetDims)
	shape := make([]int, rr)
	for k, d := range batchDims {
		shape[d] = bshape[k]
	}
	for k, d := range a.OffsetDims {
		shape[d] = a.SliceSizes[windowDims[k]]
	}
	t := TensorOf(x.Type.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	cp := sxNewCopier(out, x)
	xs := Strides(x.Type.Shape)
	bidx := make([]int, len(batchDims))
	start := make([]int, iv.n)
	src := make([]int, xr)
	i := 0
	err = sxEach(shape, func(idx []int) error {
		for k, d := range batchDims {
			bidx[k] = idx[d]
		}
		if err := iv.vector(bidx, start); err != nil {
			return err
		}
		clear(src)
		for k, d := range a.StartIndexMap {
			src[d] = sxClamp(start[k], 0, x.Type.Shape[d]-a.SliceSizes[d])
		}
		for k, d := range a.OperandBatchingDims {
			src[d] += bidx[sxBatchingPos(a.StartIndicesBatchingDims[k], a.IndexVectorDim)]
		}
		for k, d := range a.OffsetDims {
			src[windowDims[k]] += idx[d]
		}
		if !sxInBounds(src, x.Type.Shape) {
			return fmt.Errorf("internal error: operand index %v out of bounds for %v", src, x.Type)
		}
		cp.copy(i, sxOffset(src, xs))
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	return []*Literal{out}, nil
}

// evalScatter applies the updates one element at a time, walking the
// update index space in row-major order, so that duplicate indices combine
// in a defined order through the update region.
func evalScatter(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[ScatterAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 3); err != nil {
		return nil, err
	}
	if len(args)%2 != 1 {
		return nil, fmt.Errorf("%d operands, want inputs, scatter indices and as many updates as inputs", len(args))
	}
	if len(in.Regions) != 1 || in.Regions[0] == nil {
		return nil, fmt.Errorf("want one update region")
	}
	body := in.Regions[0]
	n := (len(args) - 1) / 2
	inputs, si, updates := args[:n], args[n], args[n+1:]
	xshape := inputs[0].Type.Shape
	ushape := updates[0].Type.Shape
	xr := len(xshape)
	for k := range n {
		if !ShapeEqual(inputs[k].Type.Shape, xshape) {
			return nil, fmt.Errorf("input #%d has type %v, want the shape of %v", k, inputs[k].Type, inputs[0].Type)
		}
		if !ShapeEqual(updates[k].Type.Shape, ushape) {
			return nil, fmt.Errorf("update #%d has type %v, want the shape of %v", k, updates[k].Type, updates[0].Type)
		}
	}
	iv, err := sxNewIndexVectors(si, a.IndexVectorDim)
	if err != nil {
		return nil, err
	}
	if len(a.ScatterDimsToOperandDims) != iv.n {
		return nil, fmt.Errorf("scatter_dims_to_operand_dims %v has %d entries, want the index vector length %d", a.ScatterDimsToOperandDims, len(a.ScatterDimsToOperandDims), iv.n)
	}
	if err := sxDimsOK("scatter_dims_to_operand_dims and input_batching_dims", slices.Concat(a.ScatterDimsToOperandDims, a.InputBatchingDims), xr); err != nil {
		return nil, err
	}
	if err := sxDimsOK("inserted_window_dims and input_batching_dims", slices.Concat(a.InsertedWindowDims, a.InputBatchingDims), xr); err != nil {
		return nil, err
	}
	if len(a.InputBatchingDims) != len(a.ScatterIndicesBatchingDims) {
		return nil, fmt.Errorf("input_batching_dims %v and scatter_indices_batching_dims %v differ in length", a.InputBatchingDims, a.ScatterIndicesBatchingDims)
	}
	if err := sxDimsOK("scatter_indices_batching_dims", a.ScatterIndicesBatchingDims, si.Type.Rank()); err != nil {
		return nil, err
	}
	for _, d := range a.ScatterIndicesBatchingDims {
		if d == a.IndexVectorDim {
			return nil, fmt.Errorf("scatter_indices_batching_dims %v contains index_vector_dim %d", a.ScatterIndicesBatchingDims, d)
		}
	}
	if err := sxDimsOK("update_window_dims", a.UpdateWindowDims, len(ushape)); err != nil {
		return nil, err
	}
	windowDims := sxComplement(xr, a.InsertedWindowDims, a.InputBatchingDims)
	if len(windowDims) != len(a.UpdateWindowDims) {
		return nil, fmt.Errorf("update_window_dims %v has %d entries, want %d (input rank less inserted and batching dims)", a.UpdateWindowDims, len(a.UpdateWindowDims), len(windowDims))
	}
	scatterDims := sxComplement(len(ushape), a.UpdateWindowDims)
	bshape := iv.batchShape()
	if len(scatterDims) != len(bshape) {
		return nil, fmt.Errorf("updates %v have %d scatter dimensions, want %d (the indices' batch shape %v)", updates[0].Type, len(scatterDims), len(bshape), bshape)
	}
	for k, d := range scatterDims {
		if ushape[d] != bshape[k] {
			return nil, fmt.Errorf("updates %v do not match the indices' batch shape %v", updates[0].Type, bshape)
		}
	}
	// Extent of the update window along each input dimension: 1 for the
	// inserted and batching dimensions.
	extent := make([]int, xr)
	for d := range extent {
		extent[d] = 1
	}
	for k, d := range windowDims {
		extent[d] = ushape[a.UpdateWindowDims[k]]
	}
	results := make([]*Literal, n)
	for k := range n {
		if err := sxCheckResult(in, k, inputs[k].Type); err != nil {
			return nil, err
		}
		results[k] = inputs[k].Clone()
	}
	xs := Strides(xshape)
	bidx := make([]int, len(scatterDims))
	start := make([]int, iv.n)
	base := make([]int, xr)
	dst := make([]int, xr)
	bargs := make([]*Literal, 2*n)
	i := 0
	err = sxEach(ushape, func(idx []int) error {
		defer func() { i++ }()
		for k, d := range scatterDims {
			bidx[k] = idx[d]
		}
		if err := iv.vector(bidx, start); err != nil {
			return err
		}
		clear(base)
		for k, d := range a.ScatterDimsToOperandDims {
			base[d] = start[k]
		}
		for k, d := range a.InputBatchingDims {
			base[d] += bidx[sxBatchingPos(a.ScatterIndicesBatchingDims[k], a.IndexVectorDim)]
		}
		for d := range xr {
			if base[d] < 0 || base[d] > xshape[d]-extent[d] {
				return nil // the window does not fit: skip it
			}
		}
		copy(dst, base)
		for k, d := range a.UpdateWindowDims {
			dst[windowDims[k]] += idx[d]
		}
		off := sxOffset(dst, xs)
		for k := range n {
			bargs[k] = sxScalarAt(results[k], off)
			bargs[n+k] = sxScalarAt(updates[k], i)
		}
		vals, err := sxCall("update", body, bargs, n)
		if err != nil {
			return err
		}
		return sxStoreScalars(results, off, vals)
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}
