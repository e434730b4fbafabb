package codegen

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Windowed reductions: reduce_window and select_and_scatter.
//
// reduce_window follows the evaluator (ir.Eval), which follows the spec:
// the inputs are padded with their init values (edge padding, and base
// dilation as interior padding), and each result element folds the body
// over its window of the padded inputs, starting from the init values, in
// row-major window order. The planner makes the padded inputs with pad
// nodes whose padding value is the init value, so the kernel is a plain
// strided, dilated window walk with no bounds checks; since every result
// element sees the same sequence of body calls as in the evaluator, float
// results are bit-identical to it.
//
// select_and_scatter follows XLA, which the spec leaves open in one
// point: per source element, its window's operand elements (padding is
// skipped, not selected) are scanned in row-major order, the first one is
// selected, and each later one replaces the selection when
// select(selected, candidate) is false; then result[selected index] =
// scatter(result[selected index], source element), the result starting
// as init everywhere and source elements applied in row-major order. A
// window with no operand element (all padding) scatters nothing.

// windowPlan is the decoded attributes of a reduce_window or
// select_and_scatter node.
type windowPlan struct {
	window  []int64 // window size per dimension
	strides []int64 // window strides
	wdil    []int64 // window dilations (reduce_window; ones otherwise)
	lo      []int64 // low padding (select_and_scatter; the bounds are checked in the kernel)
	scatter *stablehlo.Block
}

// windowAttr reads an optional per-dimension i64 list; absent means def
// in every dimension.
func windowAttr(op *stablehlo.Op, name string, rank int, def int64) ([]int64, error) {
	a := op.Attr(name)
	if a == nil {
		v := make([]int64, rank)
		for i := range v {
			v[i] = def
		}
		return v, nil
	}
	v, ok := intArray(a)
	if !ok || len(v) != rank {
		return nil, fmt.Errorf("%s %v does not have %d integers", name, a, rank)
	}
	return v, nil
}

// paddingAttr reads an optional padding attribute (an N×2 i64 tensor)
// into low and high edge padding; absent means none.
func paddingAttr(op *stablehlo.Op, name string, rank int) (lo, hi []int64, err error) {
	lo, hi = make([]int64, rank), make([]int64, rank)
	a := op.Attr(name)
	if a == nil {
		return lo, hi, nil
	}
	var v []int64
	switch a := a.(type) {
	case *stablehlo.DenseElements:
		if a.Type.Rank() != 2 || a.Type.Shape[1] != 2 || a.Type.Shape[0] != int64(rank) {
			return nil, nil, fmt.Errorf("%s has type %s, want %dx2 integers", name, a.Type, rank)
		}
		v, err = a.Int64s()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
	default:
		// A flat list of pairs (a dense array, as some producers write).
		var ok bool
		v, ok = intArray(a)
		if !ok || len(v) != 2*rank {
			return nil, nil, fmt.Errorf("%s %v does not have %d pairs of integers", name, a, rank)
		}
	}
	for d := range rank {
		lo[d], hi[d] = v[2*d], v[2*d+1]
	}
	return lo, hi, nil
}

// windowedSize is the number of window positions along one dimension:
// an input of size n, dilated by ldil and padded by lo and hi, scanned by
// a window of size k dilated by kdil with the given stride (0 when the
// window does not fit, or the padded input is empty even if the window
// is too).
func windowedSize(n, ldil, lo, hi, k, kdil, stride int64) int64 {
	dn, dk := int64(0), int64(0)
	if n > 0 {
		dn = (n-1)*ldil + 1
	}
	if k > 0 {
		dk = (k-1)*kdil + 1
	}
	padded := lo + dn + hi
	if padded <= 0 || padded < dk {
		return 0 // (the spec's is_empty_window)
	}
	return (padded-dk)/stride + 1
}

// zeroConst appends a scalar constant 0 of kind k (all-zero bytes is zero
// in every element type).
func (p *planner) zeroConst(fn string, k elemKind) *tval {
	n := &node{kind: kConstant, name: "stablehlo.constant", fn: fn, data: make([]byte, k.size())}
	return p.add(n, ttype{elem: k})[0]
}

// padded returns x padded with the scalar pv: lo and hi at the edges
// (negative cuts), interior between elements. No padding returns x.
func (p *planner) padded(fn string, x, pv *tval, lo, hi, interior []int64) *tval {
	shape := make([]int64, x.t.rank())
	none := true
	for d, s := range x.t.shape {
		if lo[d] != 0 || hi[d] != 0 || interior[d] != 0 {
			none = false
		}
		shape[d] = lo[d] + hi[d] + s
		if s > 0 {
			shape[d] += (s - 1) * interior[d]
		}
	}
	if none {
		return x
	}
	n := &node{kind: kPad, name: "stablehlo.pad", fn: fn, in: []*tval{x, pv}, start: lo, limit: hi, stride: interior}
	return p.add(n, ttype{elem: x.t.elem, shape: shape})[0]
}

func (p *planner) reduceWindow(n *node, op *stablehlo.Op, ins []*tval, outs []ttype) ([]*tval, error) {
	if len(ins) < 2 || len(ins)%2 != 0 || len(outs) != len(ins)/2 {
		return nil, fmt.Errorf("has %d operands and %d results, want 2N and N", len(ins), len(outs))
	}
	k := len(outs)
	x0 := ins[0].t
	rank := x0.rank()
	window, ok := intArray(op.Attr("window_dimensions"))
	if !ok || len(window) != rank {
		return nil, fmt.Errorf("window_dimensions missing or not of length %d", rank)
	}
	strides, err := windowAttr(op, "window_strides", rank, 1)
	if err != nil {
		return nil, err
	}
	bdil, err := windowAttr(op, "base_dilations", rank, 1)
	if err != nil {
		return nil, err
	}
	wdil, err := windowAttr(op, "window_dilations", rank, 1)
	if err != nil {
		return nil, err
	}
	lo, hi, err := paddingAttr(op, "padding", rank)
	if err != nil {
		return nil, err
	}
	shape := make([]int64, rank)
	for d := range rank {
		if window[d] < 1 || strides[d] < 1 || bdil[d] < 1 || wdil[d] < 1 {
			return nil, fmt.Errorf("window %v, strides %v and dilations %v, %v must be positive", window, strides, bdil, wdil)
		}
		shape[d] = windowedSize(x0.shape[d], bdil[d], lo[d], hi[d], window[d], wdil[d], strides[d])
	}
	for i := range k {
		x, init, r := ins[i].t, ins[k+i].t, outs[i]
		if !slices.Equal(x.shape, x0.shape) {
			return nil, fmt.Errorf("input #%d has type %s, want the shape of %s", i, x, x0)
		}
		if init.rank() != 0 || init.elem != x.elem || r.elem != x.elem || !slices.Equal(r.shape, shape) {
			return nil, fmt.Errorf("input %s, init %s and result %s do not fit (want result shape %v)", x, init, r, shape)
		}
	}
	body, err := foldRegion(op, ins[:k])
	if err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	in := append([]*tval(nil), ins...)
	if outs[0].numElems() > 0 {
		// Pad with the init values: padding takes part in the reduction
		// as init values. (With an empty result nothing is read, and the
		// padded shape may be negative.)
		interior := make([]int64, rank)
		for d := range rank {
			interior[d] = bdil[d] - 1
		}
		for i := range k {
			in[i] = p.padded(n.fn, ins[i], ins[k+i], lo, hi, interior)
		}
	}
	n.kind, n.in, n.body = kReduceWindow, in, body
	n.plan = &windowPlan{window: window, strides: strides, wdil: wdil}
	return p.add(n, outs...), nil
}

func (p *planner) selectAndScatter(n *node, op *stablehlo.Op, ins []*tval, outs []ttype) ([]*tval, error) {
	if len(ins) != 3 || len(outs) != 1 {
		return nil, fmt.Errorf("has %d operands and %d results, want 3 and 1", len(ins), len(outs))
	}
	x, src, init, r := ins[0].t, ins[1].t, ins[2].t, outs[0]
	rank := x.rank()
	if src.elem != x.elem || init.elem != x.elem || init.rank() != 0 || !r.equal(x) {
		return nil, fmt.Errorf("operand %s, source %s, init %s and result %s do not fit", x, src, init, r)
	}
	window, ok := intArray(op.Attr("window_dimensions"))
	if !ok || len(window) != rank {
		return nil, fmt.Errorf("window_dimensions missing or not of length %d", rank)
	}
	strides, err := windowAttr(op, "window_strides", rank, 1)
	if err != nil {
		return nil, err
	}
	lo, hi, err := paddingAttr(op, "padding", rank)
	if err != nil {
		return nil, err
	}
	shape := make([]int64, rank)
	for d := range rank {
		if window[d] < 1 || strides[d] < 1 {
			return nil, fmt.Errorf("window %v and strides %v must be positive", window, strides)
		}
		shape[d] = windowedSize(x.shape[d], 1, lo[d], hi[d], window[d], 1, strides[d])
	}
	if !slices.Equal(src.shape, shape) {
		return nil, fmt.Errorf("source %s, want shape %v", src, shape)
	}
	if len(op.Regions) != 2 || len(op.Regions[0].Blocks) != 1 || len(op.Regions[1].Blocks) != 1 {
		return nil, fmt.Errorf("want select and scatter regions with one block each")
	}
	sel, sc := op.Regions[0].Blocks[0], op.Regions[1].Blocks[0]
	k := x.elem
	if err := checkScalarBlock(sel, []elemKind{k, k}, []elemKind{kBool}); err != nil {
		return nil, fmt.Errorf("select region: %w", err)
	}
	if err := checkScalarBlock(sc, []elemKind{k, k}, []elemKind{k}); err != nil {
		return nil, fmt.Errorf("scatter region: %w", err)
	}
	n.kind, n.body = kSelectScatter, sel
	n.plan = &windowPlan{window: window, strides: strides, lo: lo, scatter: sc}
	return p.add(n, r), nil
}

// --- kernels

// fill stores the scalar v into the n elements of buffer out.
func (b *fb) fill(k elemKind, out value.Value, n int64, v value.Value) {
	b.loop(n, func(i value.Value) { b.store(k, out, i, v) })
}

// entryAlloca makes a stack slot of type t in the function's entry block
// (where LLVM's mem2reg and SROA promote it to registers).
func (b *fb) entryAlloca(t types.Type) *ir.InstAlloca {
	entry := b.f.Blocks[0]
	a := ir.NewAlloca(t)
	entry.Insts = append([]ir.Instruction{a}, entry.Insts...)
	return a
}

// reduceWindowKernel: results start as the init values, then for each
// result element the window's elements of the (padded) inputs are
// folded in with the body, in row-major window order. The innermost loop
// runs across the result elements of one result dimension (the last one
// of size > 1), which are independent, so it vectorizes when the body
// does and the input is contiguous along it.
func (b *fb) reduceWindowKernel(n *node, outs, ins []value.Value) error {
	w := n.plan.(*windowPlan)
	nr := len(n.out)
	r, x := n.out[0].t, n.in[0].t
	for i := range nr {
		k := n.out[i].t.elem
		b.fill(k, outs[i], r.numElems(), b.load(k, ins[nr+i], i64(0)))
	}
	if r.numElems() == 0 {
		return nil
	}
	rank := r.rank()
	rs, xs := strides(r.shape), strides(x.shape)
	v := -1 // the innermost, vectorized result dimension
	for d := rank - 1; d >= 0; d-- {
		if r.shape[d] > 1 {
			v = d
			break
		}
	}
	var outer, ocoef, oxcoef []int64
	for d := range rank {
		if d != v {
			outer = append(outer, r.shape[d])
			ocoef = append(ocoef, rs[d])
			oxcoef = append(oxcoef, w.strides[d]*xs[d])
		}
	}
	wcoef := make([]int64, rank)
	for d := range rank {
		wcoef[d] = w.wdil[d] * xs[d]
	}
	var err error
	b.nest(outer, func(oi []value.Value) {
		b.nest(w.window, func(wi []value.Value) {
			inner := func(j value.Value) {
				idx := append(append([]value.Value{}, oi...), wi...)
				oc := append(append([]int64{}, ocoef...), make([]int64, rank)...)
				xc := append(append([]int64{}, oxcoef...), wcoef...)
				if v >= 0 {
					idx = append(idx, j)
					oc = append(oc, rs[v])
					xc = append(xc, w.strides[v]*xs[v])
				}
				if err == nil {
					err = b.foldStep(n, outs, ins, b.affine(idx, oc, 0), b.affine(idx, xc, 0))
				}
			}
			if v >= 0 {
				b.loop(r.shape[v], inner)
			} else {
				inner(i64(0))
			}
		})
	})
	return err
}

// selectScatterKernel: the result starts as init; for each source
// element (row-major) its window is scanned for the selected operand
// element, with the selection (value, flat index, whether any) kept in
// stack slots that LLVM promotes to registers; positions in the padding
// are skipped. Then the scatter body combines the source element into
// the selected result element.
func (b *fb) selectScatterKernel(n *node, out value.Value, ins []value.Value) error {
	w := n.plan.(*windowPlan)
	x, src := n.in[0].t, n.in[1].t
	k := x.elem
	selV := b.entryAlloca(k.reg())
	selI := b.entryAlloca(types.I64)
	have := b.entryAlloca(types.I1)
	b.fill(k, out, x.numElems(), b.load(k, ins[2], i64(0)))
	if x.numElems() == 0 || src.numElems() == 0 {
		return nil
	}
	rank := x.rank()
	xs, ss := strides(x.shape), strides(src.shape)
	var err error
	b.nest(src.shape, func(si []value.Value) {
		c := b.cur
		c.NewStore(constant.False, have)
		c.NewStore(i64(0), selI)
		// (Not undef: the select body runs on it before the first
		// candidate, and its result is only masked afterwards.)
		c.NewStore(scalarConst(k, 0), selV)
		b.nest(w.window, func(wi []value.Value) {
			c := b.cur
			var valid value.Value = constant.True
			var flat value.Value = i64(0)
			for d := range rank {
				// p = s*stride + w - lo; inside when 0 <= p < size, one
				// unsigned compare.
				p := b.saffine([]value.Value{si[d], wi[d]}, []int64{w.strides[d], 1}, -w.lo[d])
				if ci, ok := p.(*constant.Int); ok {
					if pv := ci.X.Int64(); pv < 0 || pv >= x.shape[d] {
						valid = constant.False
					}
				} else {
					valid = c.NewAnd(valid, c.NewICmp(enum.IPredULT, p, i64(x.shape[d])))
				}
				flat = b.saffine([]value.Value{flat, p}, []int64{1, xs[d]}, 0)
			}
			safe := c.NewSelect(valid, flat, i64(0))
			cand := b.load(k, ins[0], safe)
			cur := c.NewLoad(k.reg(), selV)
			had := c.NewLoad(types.I1, have)
			var res []value.Value
			res, err = b.region(n.body, []value.Value{cur, cand})
			if err != nil {
				return
			}
			c = b.cur
			// take = valid && (!had || !select(cur, cand))
			take := c.NewAnd(valid, c.NewOr(c.NewXor(had, constant.True), c.NewXor(res[0], constant.True)))
			c.NewStore(c.NewSelect(take, cand, cur), selV)
			c.NewStore(c.NewSelect(take, safe, c.NewLoad(types.I64, selI)), selI)
			c.NewStore(c.NewOr(had, valid), have)
		})
		if err != nil {
			return
		}
		c = b.cur
		then := b.f.NewBlock("")
		done := b.f.NewBlock("")
		c.NewCondBr(c.NewLoad(types.I1, have), then, done)
		b.cur = then
		oi := then.NewLoad(types.I64, selI)
		sv := b.load(k, ins[1], b.affine(si, ss, 0))
		var res []value.Value
		res, err = b.region(w.scatter, []value.Value{b.load(k, out, oi), sv})
		if err != nil {
			return
		}
		b.store(k, out, oi, res[0])
		b.cur.NewBr(done)
		b.cur = done
	})
	return err
}

// saffine is c + Σ idx[i]·coef[i] where terms and c may be negative: the
// arithmetic carries only the no-signed-wrap flag (affine's no-unsigned-
// wrap would make a negative term poison).
func (b *fb) saffine(idx []value.Value, coef []int64, c int64) value.Value {
	var acc value.Value
	for i, v := range idx {
		if coef[i] == 0 {
			continue
		}
		if ci, ok := v.(*constant.Int); ok {
			c += ci.X.Int64() * coef[i]
			continue
		}
		t := v
		if coef[i] != 1 {
			m := b.cur.NewMul(v, i64(coef[i]))
			m.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
			t = m
		}
		if acc == nil {
			acc = t
			continue
		}
		a := b.cur.NewAdd(acc, t)
		a.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
		acc = a
	}
	if acc == nil {
		return i64(c)
	}
	if c != 0 {
		a := b.cur.NewAdd(acc, i64(c))
		a.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
		acc = a
	}
	return acc
}
