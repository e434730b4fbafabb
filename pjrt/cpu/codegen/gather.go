package codegen

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Indexing with run-time indices: dynamic_slice, dynamic_update_slice,
// gather and scatter, with the reference evaluator's (ir.Eval's)
// out-of-range rules:
//
//   - dynamic_slice, dynamic_update_slice and gather clamp each start
//     index into [0, dim - size], so that the whole slice fits;
//   - scatter skips an update window that does not fit entirely inside
//     the inputs (as XLA does);
//   - indices are read as signed integers, unsigned ones as unsigned
//     (a ui64 beyond the i64 range counts as the i64 maximum).
//
// Scatter applies the update region one update element at a time, in
// row-major order over the updates, exactly as ir.Eval does: duplicate
// indices combine in a defined order, so results are deterministic and
// bit-identical to the evaluator even for non-associative float updates.
// indices_are_sorted and unique_indices are hints that change nothing.

// intKind reports whether k is an integer kind (signed or unsigned).
func intKind(k elemKind) bool { return k.isInt() || isUnsigned(k) }

type gatherPlan struct {
	offsetDims, collapsed, operandBatching, indicesBatching, startIndexMap []int64
	ivd                                                                    int
	sliceSizes                                                             []int64
	windowDims                                                             []int64 // operand dims that offset_dims walk
	batchDims                                                              []int   // result dims that are batch dims
}

type scatterPlan struct {
	n                                                            int // number of inputs (= updates = results)
	updateWindow, inserted, inputBatching, indicesBatching, s2op []int64
	ivd                                                          int
	windowDims                                                   []int64 // input dims that update_window_dims walk
	scatterDims                                                  []int   // update dims that walk the indices' batch
	extent                                                       []int64 // window extent per input dim
	body                                                         *stablehlo.Block
}

// dimsOK reports whether dims are distinct and in [0, rank).
func dimsOK(dims []int64, rank int) bool { return distinctIn(dims, rank) }

// batchShapeOf is the shape of an indices tensor without index_vector_dim.
func batchShapeOf(shape []int64, ivd int) []int64 {
	s := slices.Clone(shape)
	if ivd < len(s) {
		s = slices.Delete(s, ivd, ivd+1)
	}
	return s
}

// batchingPos maps an indices dimension to its position in the batch
// index, which lacks index_vector_dim.
func batchingPos(d int64, ivd int) int {
	if int(d) < ivd {
		return int(d)
	}
	return int(d) - 1
}

func (p *planner) dynamicSlice(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(ins) < 1 || len(outs) != 1 {
		return nil, fmt.Errorf("has %d operands and %d results", len(ins), len(outs))
	}
	x, r := ins[0].t, outs[0]
	sizes, ok := intArray(op.Attr("slice_sizes"))
	if !ok || len(sizes) != x.rank() || !slices.Equal(sizes, r.shape) || r.elem != x.elem {
		return nil, fmt.Errorf("slice_sizes %v do not fit %s -> %s", sizes, x, r)
	}
	for d, s := range sizes {
		if s < 0 || s > x.shape[d] {
			return nil, fmt.Errorf("slice size %d of dimension %d is not in [0, %d]", s, d, x.shape[d])
		}
	}
	if err := startIndices(ins[1:], x.rank()); err != nil {
		return nil, err
	}
	n.kind = kDynSlice
	return p.add(n, r), nil
}

func (p *planner) dynamicUpdateSlice(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(ins) < 2 || len(outs) != 1 {
		return nil, fmt.Errorf("has %d operands and %d results", len(ins), len(outs))
	}
	x, u, r := ins[0].t, ins[1].t, outs[0]
	if !x.equal(r) || u.elem != x.elem || u.rank() != x.rank() {
		return nil, fmt.Errorf("types %s, %s -> %s do not fit", x, u, r)
	}
	for d := range u.shape {
		if u.shape[d] > x.shape[d] {
			return nil, fmt.Errorf("update %s does not fit operand %s", u, x)
		}
	}
	if err := startIndices(ins[2:], x.rank()); err != nil {
		return nil, err
	}
	n.kind = kDynUpdate
	return p.add(n, r), nil
}

func startIndices(starts []*tval, rank int) error {
	if len(starts) != rank {
		return fmt.Errorf("%d start indices for an operand of rank %d", len(starts), rank)
	}
	for i, s := range starts {
		if s.t.rank() != 0 || !intKind(s.t.elem) {
			return fmt.Errorf("start index #%d has type %s, want an integer scalar", i, s.t)
		}
	}
	return nil
}

func (p *planner) gather(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(ins) != 2 || len(outs) != 1 {
		return nil, fmt.Errorf("has %d operands and %d results, want 2 and 1", len(ins), len(outs))
	}
	x, si, r := ins[0].t, ins[1].t, outs[0]
	dn, ok := op.Attr("dimension_numbers").(stablehlo.GatherDims)
	if !ok {
		return nil, fmt.Errorf("missing dimension_numbers")
	}
	sizes, ok := intArray(op.Attr("slice_sizes"))
	if !ok {
		return nil, fmt.Errorf("missing slice_sizes")
	}
	if !intKind(si.elem) {
		return nil, fmt.Errorf("start indices have type %s, want integers", si)
	}
	xr := x.rank()
	g := &gatherPlan{offsetDims: dn.OffsetDims, collapsed: dn.CollapsedSliceDims, operandBatching: dn.OperandBatchingDims,
		indicesBatching: dn.StartIndicesBatchingDims, startIndexMap: dn.StartIndexMap, ivd: int(dn.IndexVectorDim), sliceSizes: sizes}
	if g.ivd < 0 || g.ivd > si.rank() {
		return nil, fmt.Errorf("index_vector_dim %d out of range for %s", g.ivd, si)
	}
	nidx := int64(1)
	if g.ivd < si.rank() {
		nidx = si.shape[g.ivd]
	}
	if len(sizes) != xr {
		return nil, fmt.Errorf("slice_sizes %v do not fit operand %s", sizes, x)
	}
	for d, s := range sizes {
		if s < 0 || s > x.shape[d] {
			return nil, fmt.Errorf("slice size %d of dimension %d is not in [0, %d]", s, d, x.shape[d])
		}
	}
	if int64(len(g.startIndexMap)) != nidx {
		return nil, fmt.Errorf("start_index_map %v has %d entries, want the index vector length %d", g.startIndexMap, len(g.startIndexMap), nidx)
	}
	if !dimsOK(slices.Concat(g.startIndexMap, g.operandBatching), xr) || !dimsOK(slices.Concat(g.collapsed, g.operandBatching), xr) {
		return nil, fmt.Errorf("invalid dimension numbers %v for operand %s", dn, x)
	}
	for _, d := range slices.Concat(g.collapsed, g.operandBatching) {
		if sizes[d] > 1 {
			return nil, fmt.Errorf("slice size of collapsed or batching dimension %d is %d, want at most 1", d, sizes[d])
		}
	}
	if len(g.operandBatching) != len(g.indicesBatching) || !dimsOK(g.indicesBatching, si.rank()) {
		return nil, fmt.Errorf("invalid batching dimensions in %v", dn)
	}
	for k, d := range g.indicesBatching {
		if int(d) == g.ivd || si.shape[d] != x.shape[g.operandBatching[k]] {
			return nil, fmt.Errorf("invalid batching dimensions in %v", dn)
		}
	}
	g.windowDims = complement(xr, g.collapsed, g.operandBatching)
	if len(g.windowDims) != len(g.offsetDims) {
		return nil, fmt.Errorf("offset_dims %v has %d entries, want %d", g.offsetDims, len(g.offsetDims), len(g.windowDims))
	}
	bshape := batchShapeOf(si.shape, g.ivd)
	rr := len(bshape) + len(g.offsetDims)
	if !dimsOK(g.offsetDims, rr) || !slices.IsSorted(g.offsetDims) {
		return nil, fmt.Errorf("offset_dims %v invalid for a result of rank %d", g.offsetDims, rr)
	}
	for _, d := range complement(rr, g.offsetDims) {
		g.batchDims = append(g.batchDims, int(d))
	}
	shape := make([]int64, rr)
	for k, d := range g.batchDims {
		shape[d] = bshape[k]
	}
	for k, d := range g.offsetDims {
		shape[d] = sizes[g.windowDims[k]]
	}
	if r.elem != x.elem || !slices.Equal(shape, r.shape) {
		return nil, fmt.Errorf("result %s, want shape %v of %s", r, shape, x.elem.mlir())
	}
	if x.numElems() == 0 && r.numElems() > 0 {
		return nil, fmt.Errorf("gathers %s from the empty operand %s", r, x)
	}
	n.kind, n.plan = kGather, g
	return p.add(n, r), nil
}

func (p *planner) scatter(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(ins) < 3 || len(ins)%2 != 1 || len(outs) != len(ins)/2 {
		return nil, fmt.Errorf("has %d operands and %d results, want 2N+1 and N", len(ins), len(outs))
	}
	k := len(outs)
	inputs, si, updates := ins[:k], ins[k].t, ins[k+1:]
	x := inputs[0].t
	u := updates[0].t
	for i := range k {
		if !inputs[i].t.equal(outs[i]) || !slices.Equal(inputs[i].t.shape, x.shape) ||
			!slices.Equal(updates[i].t.shape, u.shape) || updates[i].t.elem != inputs[i].t.elem {
			return nil, fmt.Errorf("inputs, updates and results do not fit")
		}
	}
	if !intKind(si.elem) {
		return nil, fmt.Errorf("scatter indices have type %s, want integers", si)
	}
	dn, ok := op.Attr("scatter_dimension_numbers").(stablehlo.ScatterDims)
	if !ok {
		return nil, fmt.Errorf("missing scatter_dimension_numbers")
	}
	s := &scatterPlan{n: k, updateWindow: dn.UpdateWindowDims, inserted: dn.InsertedWindowDims, inputBatching: dn.InputBatchingDims,
		indicesBatching: dn.ScatterIndicesBatchingDims, s2op: dn.ScatterDimsToOperandDims, ivd: int(dn.IndexVectorDim)}
	xr := x.rank()
	if s.ivd < 0 || s.ivd > si.rank() {
		return nil, fmt.Errorf("index_vector_dim %d out of range for %s", s.ivd, si)
	}
	nidx := int64(1)
	if s.ivd < si.rank() {
		nidx = si.shape[s.ivd]
	}
	if int64(len(s.s2op)) != nidx {
		return nil, fmt.Errorf("scatter_dims_to_operand_dims %v has %d entries, want %d", s.s2op, len(s.s2op), nidx)
	}
	if !dimsOK(slices.Concat(s.s2op, s.inputBatching), xr) || !dimsOK(slices.Concat(s.inserted, s.inputBatching), xr) ||
		len(s.inputBatching) != len(s.indicesBatching) || !dimsOK(s.indicesBatching, si.rank()) ||
		!dimsOK(s.updateWindow, u.rank()) {
		return nil, fmt.Errorf("invalid dimension numbers %v", dn)
	}
	for _, d := range s.indicesBatching {
		if int(d) == s.ivd {
			return nil, fmt.Errorf("invalid dimension numbers %v", dn)
		}
	}
	s.windowDims = complement(xr, s.inserted, s.inputBatching)
	if len(s.windowDims) != len(s.updateWindow) {
		return nil, fmt.Errorf("update_window_dims %v has %d entries, want %d", s.updateWindow, len(s.updateWindow), len(s.windowDims))
	}
	for _, d := range complement(u.rank(), s.updateWindow) {
		s.scatterDims = append(s.scatterDims, int(d))
	}
	bshape := batchShapeOf(si.shape, s.ivd)
	if len(s.scatterDims) != len(bshape) {
		return nil, fmt.Errorf("updates %s do not match the indices' batch shape %v", u, bshape)
	}
	for i, d := range s.scatterDims {
		if u.shape[d] != bshape[i] {
			return nil, fmt.Errorf("updates %s do not match the indices' batch shape %v", u, bshape)
		}
	}
	s.extent = make([]int64, xr)
	for d := range s.extent {
		s.extent[d] = 1
	}
	for i, d := range s.windowDims {
		s.extent[d] = u.shape[s.updateWindow[i]]
		if s.extent[d] > x.shape[d] {
			return nil, fmt.Errorf("update window %s does not fit input %s", u, x)
		}
	}
	body, err := foldRegion(op, inputs[:k])
	if err != nil {
		return nil, inContext("scatter update region", err)
	}
	s.body = body
	n.kind, n.plan = kScatter, s
	return p.add(n, outs...), nil
}

// --- kernels

// flatIndex is Σ idx[d]·strides[d] for run-time idx.
func (b *fb) flatIndex(idx []value.Value, shape []int64) value.Value {
	return b.affine(idx, strides(shape), 0)
}

// addI64 is a + b with no-signed-wrap.
func (b *fb) addI64(x, y value.Value) value.Value {
	a := b.cur.NewAdd(x, y)
	a.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
	return a
}

func (b *fb) mulI64(x value.Value, c int64) value.Value {
	m := b.cur.NewMul(x, i64(c))
	m.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
	return m
}

// startOffset loads the scalar start indices, clamps each into
// [0, shape[d] - size[d]] and returns Σ start[d]·strides[d].
func (b *fb) startOffset(starts []*tval, ptrs []value.Value, shape, size []int64) value.Value {
	st := strides(shape)
	var acc value.Value = i64(0)
	for d, s := range starts {
		v := b.indexI64(s.t.elem, b.load(s.t.elem, ptrs[d], i64(0)))
		v = b.clampI64(v, 0, shape[d]-size[d])
		acc = b.addI64(acc, b.mulI64(v, st[d]))
	}
	return acc
}

func (b *fb) dynSliceKernel(n *node, out value.Value, ins []value.Value) {
	x, r := n.in[0].t, n.out[0].t
	if r.numElems() == 0 {
		return
	}
	base := b.startOffset(n.in[1:], ins[1:], x.shape, r.shape)
	xs := strides(x.shape)
	b.nest(r.shape, func(idx []value.Value) {
		v := b.load(r.elem, ins[0], b.addI64(base, b.affine(idx, xs, 0)))
		b.store(r.elem, out, b.flatIndex(idx, r.shape), v)
	})
}

func (b *fb) dynUpdateKernel(n *node, out value.Value, ins []value.Value) {
	x, u := n.in[0].t, n.in[1].t
	if !slices.Contains(n.inPlace, 0) {
		// In place (alias.go), out is the operand's buffer already.
		b.memcpy(out, ins[0], x.bytes())
	}
	if u.numElems() == 0 {
		return
	}
	base := b.startOffset(n.in[2:], ins[2:], x.shape, u.shape)
	xs := strides(x.shape)
	b.nest(u.shape, func(idx []value.Value) {
		v := b.load(u.elem, ins[1], b.flatIndex(idx, u.shape))
		b.store(u.elem, out, b.addI64(base, b.affine(idx, xs, 0)), v)
	})
}

// indexVector loads the index vector at batch position bidx of an
// indices tensor (kind k, shape ishape, index_vector_dim ivd), widened to
// i64.
func (b *fb) indexVector(k elemKind, p value.Value, ishape []int64, ivd int, n int64, bidx []value.Value) []value.Value {
	is := strides(ishape)
	var coef []int64
	var idx []value.Value
	j := 0
	for d := range ishape {
		if d == ivd {
			continue
		}
		idx = append(idx, bidx[j])
		coef = append(coef, is[d])
		j++
	}
	base := b.affine(idx, coef, 0)
	out := make([]value.Value, n)
	for c := range n {
		off := base
		if ivd < len(ishape) && c > 0 {
			off = b.addI64(base, i64(c*is[ivd]))
		}
		out[c] = b.indexI64(k, b.load(k, p, off))
	}
	return out
}

func (b *fb) gatherOpKernel(n *node, out value.Value, ins []value.Value) {
	g := n.plan.(*gatherPlan)
	x, si, r := n.in[0].t, n.in[1].t, n.out[0].t
	if r.numElems() == 0 {
		return
	}
	xs := strides(x.shape)
	nidx := int64(len(g.startIndexMap))
	b.nest(r.shape, func(idx []value.Value) {
		bidx := make([]value.Value, len(g.batchDims))
		for k, d := range g.batchDims {
			bidx[k] = idx[d]
		}
		start := b.indexVector(si.elem, ins[1], si.shape, g.ivd, nidx, bidx)
		var off value.Value = i64(0)
		for k, d := range g.startIndexMap {
			v := b.clampI64(start[k], 0, x.shape[d]-g.sliceSizes[d])
			off = b.addI64(off, b.mulI64(v, xs[d]))
		}
		for k, d := range g.operandBatching {
			off = b.addI64(off, b.mulI64(bidx[batchingPos(g.indicesBatching[k], g.ivd)], xs[d]))
		}
		for k, d := range g.offsetDims {
			off = b.addI64(off, b.mulI64(idx[d], xs[g.windowDims[k]]))
		}
		v := b.load(r.elem, ins[0], off)
		b.store(r.elem, out, b.flatIndex(idx, r.shape), v)
	})
}

func (b *fb) scatterKernel(n *node, outs, ins []value.Value) error {
	s := n.plan.(*scatterPlan)
	k := s.n
	x, si, u := n.in[0].t, n.in[k].t, n.in[k+1].t
	for i := range k {
		b.memcpy(outs[i], ins[i], n.in[i].t.bytes())
	}
	if u.numElems() == 0 || x.numElems() == 0 {
		return nil
	}
	xs := strides(x.shape)
	nidx := int64(len(s.s2op))
	var err error
	b.nest(u.shape, func(idx []value.Value) {
		bidx := make([]value.Value, len(s.scatterDims))
		for i, d := range s.scatterDims {
			bidx[i] = idx[d]
		}
		start := b.indexVector(si.elem, ins[k], si.shape, s.ivd, nidx, bidx)
		base := make([]value.Value, x.rank())
		for i, d := range s.s2op {
			base[d] = start[i]
		}
		for i, d := range s.inputBatching {
			bp := bidx[batchingPos(s.indicesBatching[i], s.ivd)]
			if base[d] == nil {
				base[d] = bp
			} else {
				base[d] = b.addI64(base[d], bp)
			}
		}
		// The window fits when 0 <= base[d] <= shape[d] - extent[d] in
		// every dimension with a run-time base (as unsigned: one compare).
		var fits value.Value
		var off value.Value = i64(0)
		for d, v := range base {
			if v == nil {
				continue
			}
			ok := b.cur.NewICmp(enum.IPredULE, v, i64(x.shape[d]-s.extent[d]))
			if fits == nil {
				fits = ok
			} else {
				fits = b.cur.NewAnd(fits, ok)
			}
			off = b.addI64(off, b.mulI64(v, xs[d]))
		}
		for i, d := range s.updateWindow {
			off = b.addI64(off, b.mulI64(idx[d], xs[s.windowDims[i]]))
		}
		apply := func() {
			ui := b.flatIndex(idx, u.shape)
			args := make([]value.Value, 2*k)
			for i := range k {
				ek := n.in[i].t.elem
				args[i] = b.load(ek, outs[i], off)
				args[k+i] = b.load(ek, ins[k+1+i], ui)
			}
			res, e := b.region(s.body, args)
			if e != nil {
				err = e
				return
			}
			for i := range k {
				b.store(n.in[i].t.elem, outs[i], off, res[i])
			}
		}
		if fits == nil {
			apply()
		} else {
			b.ifThen(fits, apply)
		}
	})
	return err
}
