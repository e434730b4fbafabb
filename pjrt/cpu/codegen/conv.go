package codegen

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Convolution.
//
// The planner reduces every convolution to one shape of problem: the
// input's padding and lhs (base) dilation become a pad node (padding
// value 0, as the spec pads), and the kernel is transposed to
// [spatial..., input features, output features]. What is left is a
// strided, rhs-dilated "valid" convolution with feature or batch groups
// and window reversal. Two kernels compute it:
//
//   - the GEMM form (kConvGEMM), for f32 and f64 when a group has at
//     least convGEMMMin window elements and output features: the input is
//     transposed to [batch, spatial..., features], the result rows (batch
//     × spatial positions) are cut into tiles, and each tile's im2col
//     matrix (copied in parallel on the runtime's pool) times the kernel
//     is a call of the runtime's sgemm/dgemm (see convGEMMKernel);
//   - the direct kernel (kConv) for everything else (integers, i1,
//     depthwise and other thin groups), which reads the operands through
//     index arithmetic in their own layouts and writes the result in its
//     own.
//
// Groups: feature_group_count G splits the input features into G slices
// and the output features into G slices, slice t of the output reading
// slice t of the input; batch_group_count splits the input batch
// instead. At most one of them exceeds 1 (a constraint of the spec), so
// one group loop serves both.
//
// Numerics of the direct kernel: products are summed over the window in
// row-major order, then over the input features, for each result element
// — the evaluator's order — in the accumulation domain of the element
// type: floats in f64, rounded once (so f32 and f64 results are
// bit-identical to ir.Eval), integers in their own width with
// wrap-around (equal to the evaluator's 64-bit sum truncated), i1 as or
// of ands. The GEMM form sums in the element type in the GEMM's order:
// within K·ε·Σ|x·w| of ir.Eval.
//
// One difference from ir.Eval, where it follows the spec: padding and
// dilation holes are zeros that take part in the sum, so an infinite or
// NaN kernel element facing padding makes the result NaN; the evaluator
// skips those positions.

// windowKnown reports whether this file and window.go handle
// stablehlo.<short>.
func windowKnown(short string) bool { return kernelOf("stablehlo."+short) == stablehlo.KernelWindow }

// windowOp plans convolution, reduce_window and select_and_scatter; ok is
// false for any other op.
func (p *planner) windowOp(n *node, op *stablehlo.Op, ins []*tval) (outs []*tval, ok bool, err error) {
	short, _ := strings.CutPrefix(op.Name, "stablehlo.")
	if !strings.HasPrefix(op.Name, "stablehlo.") || !windowKnown(short) {
		return nil, false, nil
	}
	ts, err := resultTypes(op)
	if err != nil {
		return nil, true, err
	}
	switch short {
	case "convolution":
		outs, err = p.convolution(n, op, ins, ts)
	case "reduce_window":
		outs, err = p.reduceWindow(n, op, ins, ts)
	default:
		outs, err = p.selectAndScatter(n, op, ins, ts)
	}
	return outs, true, err
}

// windowKernel emits the kernel of a node of the kinds above.
func (b *fb) windowKernel(n *node, outs, ins []value.Value) error {
	switch n.kind {
	case kConv:
		return b.convKernel(n, outs[0], ins[0], ins[1])
	case kReduceWindow:
		return b.reduceWindowKernel(n, outs, ins)
	case kSelectScatter:
		return b.selectScatterKernel(n, outs[0], ins)
	}
	return fmt.Errorf("internal error: no kernel for node kind %d", n.kind)
}

// convPlan is a convolution node's decoded form. The node's operands are
// the padded, dilated input x (its own layout) and the kernel w, in
// canonical layout [spatial..., in, out].
type convPlan struct {
	xb, xf int   // input batch and feature dimensions
	xs     []int // input spatial dimensions
	ob, of int   // result batch and feature dimensions
	os     []int // result spatial dimensions
	stride []int64
	rdil   []int64
	rev    []bool
	groups int64 // feature or batch groups
	batchG bool  // the groups split the batch (batch_group_count > 1)
}

// reversalAttr reads window_reversal: absent means none.
func reversalAttr(op *stablehlo.Op, rank int) ([]bool, error) {
	v := make([]bool, rank)
	switch a := op.Attr("window_reversal").(type) {
	case nil:
		return v, nil
	case stablehlo.DenseArray:
		if len(a.Ints) == rank {
			for i, x := range a.Ints {
				v[i] = x != 0
			}
			return v, nil
		}
	case *stablehlo.DenseElements:
		if b, err := a.Bools(); err == nil && len(b) == rank {
			return b, nil
		}
	}
	return nil, fmt.Errorf("window_reversal %v does not have %d booleans", op.Attr("window_reversal"), rank)
}

func groupCount(op *stablehlo.Op, name string) (int64, error) {
	switch a := op.Attr(name).(type) {
	case nil:
		return 1, nil
	case stablehlo.IntAttr:
		if a.Value >= 1 {
			return a.Value, nil
		}
	}
	return 0, fmt.Errorf("%s %v must be a positive integer", name, op.Attr(name))
}

func (p *planner) convolution(n *node, op *stablehlo.Op, ins []*tval, outs []ttype) ([]*tval, error) {
	if len(ins) != 2 || len(outs) != 1 {
		return nil, fmt.Errorf("has %d operands and %d results, want 2 and 1", len(ins), len(outs))
	}
	x, w, r := ins[0].t, ins[1].t, outs[0]
	dn, ok := op.Attr("dimension_numbers").(stablehlo.ConvDims)
	if !ok {
		return nil, fmt.Errorf("missing dimension_numbers")
	}
	ns := len(dn.InputSpatialDims)
	rank := ns + 2
	if len(dn.KernelSpatialDims) != ns || len(dn.OutputSpatialDims) != ns || x.rank() != rank || w.rank() != rank || r.rank() != rank {
		return nil, fmt.Errorf("dimension numbers %s do not fit %s, %s -> %s", dn, x, w, r)
	}
	xd := slices.Concat([]int64{dn.InputBatchDim, dn.InputFeatureDim}, dn.InputSpatialDims)
	wd := slices.Concat(dn.KernelSpatialDims, []int64{dn.KernelInputFeatureDim, dn.KernelOutputFeatureDim})
	od := slices.Concat([]int64{dn.OutputBatchDim, dn.OutputFeatureDim}, dn.OutputSpatialDims)
	if !isPerm(xd, rank) || !isPerm(wd, rank) || !isPerm(od, rank) {
		return nil, fmt.Errorf("dimension numbers %s are not permutations of the dimensions", dn)
	}
	if !widensTo(x.elem, r.elem) || !widensTo(w.elem, r.elem) {
		return nil, unsupportedf("convolution of %s and %s into %s (mixed element types)", x.elem.mlir(), w.elem.mlir(), r.elem.mlir())
	}
	// Mixed precision: the operands converted exactly to the result type.
	ins = []*tval{p.widen(n, ins[0], r.elem), p.widen(n, ins[1], r.elem)}
	x, w = ins[0].t, ins[1].t
	stride, err := windowAttr(op, "window_strides", ns, 1)
	if err != nil {
		return nil, err
	}
	ldil, err := windowAttr(op, "lhs_dilation", ns, 1)
	if err != nil {
		return nil, err
	}
	rdil, err := windowAttr(op, "rhs_dilation", ns, 1)
	if err != nil {
		return nil, err
	}
	lo, hi, err := paddingAttr(op, "padding", ns)
	if err != nil {
		return nil, err
	}
	rev, err := reversalAttr(op, ns)
	if err != nil {
		return nil, err
	}
	for d := range ns {
		if stride[d] < 1 || ldil[d] < 1 || rdil[d] < 1 {
			return nil, fmt.Errorf("window strides %v and dilations %v, %v must be positive", stride, ldil, rdil)
		}
	}
	fgc, err := groupCount(op, "feature_group_count")
	if err != nil {
		return nil, err
	}
	bgc, err := groupCount(op, "batch_group_count")
	if err != nil {
		return nil, err
	}
	if fgc > 1 && bgc > 1 {
		return nil, fmt.Errorf("feature_group_count %d and batch_group_count %d cannot both exceed 1", fgc, bgc)
	}
	batch, feat := x.shape[dn.InputBatchDim], x.shape[dn.InputFeatureDim]
	kin, kout := w.shape[dn.KernelInputFeatureDim], w.shape[dn.KernelOutputFeatureDim]
	if feat != kin*fgc || kout%fgc != 0 || kout%bgc != 0 || batch%bgc != 0 {
		return nil, fmt.Errorf("input features %d, kernel features %d -> %d and batch %d do not fit the group counts (%d, %d)", feat, kin, kout, batch, fgc, bgc)
	}
	shape := make([]int64, rank)
	shape[dn.OutputBatchDim] = batch / bgc
	shape[dn.OutputFeatureDim] = kout
	interior := make([]int64, rank)
	xlo, xhi := make([]int64, rank), make([]int64, rank)
	for d := range ns {
		xi := dn.InputSpatialDims[d]
		shape[dn.OutputSpatialDims[d]] = windowedSize(x.shape[xi], ldil[d], lo[d], hi[d], w.shape[dn.KernelSpatialDims[d]], rdil[d], stride[d])
		xlo[xi], xhi[xi], interior[xi] = lo[d], hi[d], ldil[d]-1
	}
	if !slices.Equal(shape, r.shape) {
		return nil, fmt.Errorf("result %s, want shape %v", r, shape)
	}
	xin := ins[0]
	if r.numElems() > 0 {
		xin = p.padded(n.fn, xin, p.zeroConst(n.fn, x.elem), xlo, xhi, interior)
	}
	win := p.transpose(nil, ins[1], wd)
	c := &convPlan{
		xb: int(dn.InputBatchDim), xf: int(dn.InputFeatureDim),
		ob: int(dn.OutputBatchDim), of: int(dn.OutputFeatureDim),
		stride: stride, rdil: rdil, rev: rev, groups: max(fgc, bgc), batchG: bgc > 1,
	}
	for d := range ns {
		c.xs = append(c.xs, int(dn.InputSpatialDims[d]))
		c.os = append(c.os, int(dn.OutputSpatialDims[d]))
	}
	kg := kin // the length of each sum
	for _, d := range dn.KernelSpatialDims {
		kg *= w.shape[d]
	}
	if r.numElems() > 0 && (x.elem == kF32 || x.elem == kF64) && kg >= convGEMMMin && kout/c.groups >= convGEMMMin {
		return p.convGEMM(n, c, xin, win, r), nil
	}
	n.kind, n.in, n.plan = kConv, []*tval{xin, win}, c
	return p.add(n, r), nil
}

// convGEMM plans the GEMM form: the input transposed to [batch,
// spatial..., features] (a view when it already is), the result computed
// as [batch, spatial..., features] and transposed into its layout, and a
// scratch output for the im2col tiles.
func (p *planner) convGEMM(n *node, c *convPlan, xin, win *tval, r ttype) []*tval {
	ns := len(c.xs)
	xperm := slices.Concat([]int64{int64(c.xb)}, toI64(c.xs), []int64{int64(c.xf)})
	xc := p.transpose(nil, xin, xperm)
	ks := win.t.shape[:ns]
	cg, O := win.t.shape[ns], win.t.shape[ns+1]
	rshape := []int64{r.shape[c.ob]}
	for _, d := range c.os {
		rshape = append(rshape, r.shape[d])
	}
	rshape = append(rshape, O)
	g := &convGEMMPlan{convPlan: *c, kg: cg}
	g.xb, g.xf, g.ob, g.of = 0, ns+1, 0, ns+1
	g.xs, g.os = nil, nil
	for d := range ns {
		g.xs, g.os = append(g.xs, 1+d), append(g.os, 1+d)
		g.kg *= ks[d]
	}
	g.m = r.numElems() / O
	esize := r.elem.size()
	g.tile = min(max(convTileBytes/(g.kg*esize), convTileMinRows), g.m)
	g.ntiles = (g.m + g.tile - 1) / g.tile
	scratch := ttype{elem: r.elem, shape: []int64{g.tile * g.kg}}
	n.kind, n.in, n.plan = kConvGEMM, []*tval{xc, win}, g
	outs := p.add(n, ttype{elem: r.elem, shape: rshape}, scratch)
	// Result dimension i is dimension perm[i] of [batch, spatial..., features].
	perm := make([]int64, len(rshape))
	perm[c.ob], perm[c.of] = 0, int64(ns+1)
	for d, od := range c.os {
		perm[od] = int64(d + 1)
	}
	return []*tval{p.transpose(nil, outs[0], perm)}
}

func toI64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// The GEMM form's limits. Below convGEMMMin window elements or output
// features per group (depthwise convolutions, say) the products are too
// thin for a GEMM, and the direct kernel runs. An im2col tile holds about
// convTileBytes (it stays in the last-level cache while the GEMM reads
// it) but at least convTileMinRows rows (fewer would make each GEMM call
// mostly packing).
const (
	convGEMMMin     = 4
	convTileBytes   = 2 << 20
	convTileMinRows = 256
)

// convGEMMPlan is the plan of a kConvGEMM node: operands x in [batch,
// spatial..., features] and the canonical kernel, results the
// convolution in [batch, spatial..., features] and the im2col scratch
// (one tile).
type convGEMMPlan struct {
	convPlan
	kg     int64 // the length of a sum: window size × input features per group
	m      int64 // result rows: batch × spatial positions
	tile   int64 // rows per im2col tile
	ntiles int64
}

// accKind is the kind in which sums of products of kind k accumulate,
// as in the evaluator: f64 for floats, k itself otherwise.
func accKind(k elemKind) elemKind {
	if k.isFloat() {
		return kF64
	}
	return k
}

// convTile bounds the output features one pass of the direct kernel
// accumulates at once (in a stack array).
const convTile = 256

// convKernel is the direct convolution: for each result batch element,
// spatial position, group and tile of output features, the products of
// the window are accumulated in a stack array across the tile's output
// features — the innermost loop, contiguous in the canonical kernel and
// in the accumulators, so it vectorizes — and the sums are stored into
// the result, converted once.
func (b *fb) convKernel(n *node, out, x, w value.Value) error {
	c := n.plan.(*convPlan)
	k := n.out[0].t.elem
	ak := accKind(k)
	xt, wt, rt := n.in[0].t, n.in[1].t, n.out[0].t
	ns := len(c.xs)
	xst, wst, rst := strides(xt.shape), strides(wt.shape), strides(rt.shape)
	ksz := wt.shape[:ns]
	cg := wt.shape[ns]     // input features per group
	O := wt.shape[ns+1]    // output features
	ot := O / c.groups     // output features per group
	bo := rt.shape[c.ob]   // result batch
	S := make([]int64, ns) // result spatial sizes
	for d := range ns {
		S[d] = rt.shape[c.os[d]]
	}
	if rt.numElems() == 0 {
		return nil
	}
	tile := min(ot, convTile)
	if cg == 1 && !c.batchG && c.groups > 1 {
		tile = min(O, convTile) // (the depthwise order below)
	}
	accT := types.NewArray(uint64(tile), ak.reg())
	acc := b.entryAlloca(accT)
	accAt := func(j value.Value) value.Value {
		g := b.cur.NewGetElementPtr(accT, acc, i64(0), j)
		g.InBounds = true
		return g
	}
	zero := scalarConst(ak, 0)
	var err error
	mac := func(xv, wv value.Value, j value.Value) {
		var prod, sum value.Value
		prod, err = b.binary("multiply", ak, xv, wv)
		if err != nil {
			return
		}
		a := accAt(j)
		sum, err = b.binary("add", ak, b.cur.NewLoad(ak.reg(), a), prod)
		if err != nil {
			return
		}
		b.cur.NewStore(sum, a)
	}
	// wrow is the offset of kernel row (window position ki, input feature
	// ci), reversed where asked.
	wrow := func(ki []value.Value, ci value.Value) value.Value {
		wvals := []value.Value{ci}
		wcoef := []int64{wst[ns]}
		wc := int64(0)
		for d := range ns {
			wvals = append(wvals, ki[d])
			if c.rev[d] {
				wcoef = append(wcoef, -wst[d])
				wc += (ksz[d] - 1) * wst[d]
			} else {
				wcoef = append(wcoef, wst[d])
			}
		}
		return b.saffine(wvals, wcoef, wc)
	}
	if cg == 1 && !c.batchG && c.groups > 1 {
		// Depthwise: one input feature per group, so a tile of
		// accumulators spans groups, and the innermost loop runs over
		// output features o reading input feature o/ot (contiguous for
		// ot = 1, as depthwise layers have). Each sum still runs over the
		// window in row-major order.
		b.loop(bo, func(bi value.Value) {
			b.nest(S, func(si []value.Value) {
				convTiles(b, O, tile, func(o0 value.Value, width int64) {
					b.loop(width, func(j value.Value) { b.cur.NewStore(zero, accAt(j)) })
					b.nest(ksz, func(ki []value.Value) {
						vals := []value.Value{bi}
						coef := []int64{xst[c.xb]}
						for d := range ns {
							vals = append(vals, si[d], ki[d])
							coef = append(coef, c.stride[d]*xst[c.xs[d]], c.rdil[d]*xst[c.xs[d]])
						}
						xrow := b.affine(vals, coef, 0)
						wr := wrow(ki, i64(0))
						b.loop(width, func(j value.Value) {
							o := b.affine([]value.Value{o0, j}, []int64{1, 1}, 0)
							ch := o
							if ot > 1 {
								ch = b.cur.NewUDiv(o, i64(ot))
							}
							xv := b.convert(k, ak, b.load(k, x, b.affine([]value.Value{xrow, ch}, []int64{1, xst[c.xf]}, 0)))
							wv := b.convert(k, ak, b.load(k, w, b.affine([]value.Value{wr, o}, []int64{1, 1}, 0)))
							mac(xv, wv, j)
						})
					})
					b.loop(width, func(j value.Value) {
						v := b.convert(ak, k, b.cur.NewLoad(ak.reg(), accAt(j)))
						vals := []value.Value{bi, o0, j}
						coef := []int64{rst[c.ob], rst[c.of], rst[c.of]}
						for d := range ns {
							vals = append(vals, si[d])
							coef = append(coef, rst[c.os[d]])
						}
						b.store(k, out, b.affine(vals, coef, 0), v)
					})
				})
			})
		})
		return err
	}
	b.loop(bo, func(bi value.Value) {
		b.nest(S, func(si []value.Value) {
			b.loop(c.groups, func(t value.Value) {
				convTiles(b, ot, tile, func(o0 value.Value, width int64) {
					b.loop(width, func(j value.Value) { b.cur.NewStore(zero, accAt(j)) })
					b.nest(ksz, func(ki []value.Value) {
						b.loop(cg, func(ci value.Value) {
							// x[batch, s*stride + k*rdil, feature]
							vals := []value.Value{bi, t, ci}
							coef := []int64{xst[c.xb], 0, xst[c.xf]}
							if c.batchG {
								coef[1] = bo * xst[c.xb]
							} else {
								coef[1] = cg * xst[c.xf]
							}
							for d := range ns {
								vals = append(vals, si[d], ki[d])
								coef = append(coef, c.stride[d]*xst[c.xs[d]], c.rdil[d]*xst[c.xs[d]])
							}
							xv := b.convert(k, ak, b.load(k, x, b.affine(vals, coef, 0)))
							// w[k', ci, t*ot + o0 + j]
							wr := b.affine([]value.Value{wrow(ki, ci), t, o0}, []int64{1, ot, 1}, 0)
							b.loop(width, func(j value.Value) {
								wv := b.convert(k, ak, b.load(k, w, b.affine([]value.Value{wr, j}, []int64{1, 1}, 0)))
								mac(xv, wv, j)
							})
						})
					})
					b.loop(width, func(j value.Value) {
						v := b.convert(ak, k, b.cur.NewLoad(ak.reg(), accAt(j)))
						vals := []value.Value{bi, t, o0, j}
						coef := []int64{rst[c.ob], ot * rst[c.of], rst[c.of], rst[c.of]}
						for d := range ns {
							vals = append(vals, si[d])
							coef = append(coef, rst[c.os[d]])
						}
						b.store(k, out, b.affine(vals, coef, 0), v)
					})
				})
			})
		})
	})
	return err
}

// convTiles calls body for each tile start of size step over [0, total),
// then for the remainder.
func convTiles(b *fb, total, step int64, body func(start value.Value, size int64)) {
	if full := total / step; full > 0 {
		b.loop(full, func(t value.Value) { body(b.affine([]value.Value{t}, []int64{step}, 0), step) })
	}
	if rest := total % step; rest > 0 {
		body(i64(total-rest), rest)
	}
}

// convGEMMKernel is the GEMM form: the result rows (batch × spatial
// positions) are cut into tiles; for each tile and group, the im2col rows
// — each the window of one result position, in the kernel's order
// [spatial..., input features] — are gathered into the scratch tile by
// rt->parallel_for over the rows, then rt->sgemm (dgemm) multiplies the
// tile by the group's kernel columns into the result rows. The GEMM runs
// outside any parallel region, so it is the BLAS library's, on as many
// threads as the pool has.
//
// (Measured on 2 cores: a tile per parallel chunk with the runtime's own
// single-threaded GEMM in each is up to 2× slower per CPU second than the
// BLAS on tiles of a hundred rows, and no faster on large ones.)
//
// Numerics: the GEMM sums each product row in the element type, in its
// own order (not bit-identical to ir.Eval; within K·ε·Σ|x·w|).
func (e *emitter) convGEMMKernel(n *node) (*ir.Func, error) {
	g := n.plan.(*convGEMMPlan)
	k := n.out[0].t.elem
	b, rt, outs, ins := e.newKernelRT(n, n.out, n.in)
	out, scratch, x, w := outs[0], outs[1], ins[0], ins[1]
	O := n.in[1].t.shape[len(g.xs)+1]
	ot := O / g.groups

	// The parallel body: im2col rows [begin, end) of the tile at row m0,
	// group t.
	pb, ctx, begin, end := e.newParallelBody("conv_im2col")
	st := types.NewStruct(x.Type(), scratch.Type(), types.I64, types.I64) // packCtx's below
	vals := pb.unpackCtx(ctx, st)
	pb.convIm2col(n, g, vals[0], vals[1], vals[2], vals[3], begin, end)
	pb.cur.NewRet(nil)

	gemm := b.rtField(rt, rtSgemm)
	one, zero := scalarConst(k, uint64(math.Float32bits(1))), scalarConst(k, 0)
	if k == kF64 {
		gemm = b.rtField(rt, rtDgemm)
		one = scalarConst(k, math.Float64bits(1))
	}
	b.loop(g.ntiles, func(tile value.Value) {
		m0 := b.affine([]value.Value{tile}, []int64{g.tile}, 0)
		left := b.cur.NewSub(i64(g.m), m0)
		rows := b.cur.NewSelect(b.cur.NewICmp(enum.IPredSLT, left, i64(g.tile)), left, i64(g.tile))
		b.loop(g.groups, func(t value.Value) {
			packed, _ := b.packCtx(x, scratch, m0, t)
			b.parallelFor(rt, packed, pb.f, rows, i64(convIm2colGrain))
			bp := b.addr(k, w, b.affine([]value.Value{t}, []int64{ot}, 0))
			cp := b.addr(k, out, b.affine([]value.Value{m0, t}, []int64{O, ot}, 0))
			b.cur.NewCall(gemm, i32(0), i32(0), rows, i64(ot), i64(g.kg), one, scratch, i64(g.kg), bp, i64(O), zero, cp, i64(O))
		})
	})
	b.cur.NewRet(nil)
	return b.f, nil
}

// convIm2colGrain is the fewest im2col rows a parallel chunk copies.
const convIm2colGrain = 16

// convIm2col emits the copy of the im2col rows [begin, end) of the tile
// at result row m0 for group t into a.
func (b *fb) convIm2col(n *node, g *convGEMMPlan, x, a, m0, t, begin, end value.Value) {
	k := n.out[0].t.elem
	xt, wt, rt0 := n.in[0].t, n.in[1].t, n.out[0].t
	ns := len(g.xs)
	xst := strides(xt.shape)
	ks := wt.shape[:ns]
	cg := wt.shape[ns]
	bo := rt0.shape[0]
	C := xt.shape[ns+1]
	rs := strides(rt0.shape[:ns+1]) // row index -> batch, spatial
	// The innermost kernel dimension joins the copy when its window
	// elements are adjacent in x: not dilated, not reversed, and the
	// group's features are all of x's.
	merge := ns > 0 && g.rdil[ns-1] == 1 && !g.rev[ns-1] && cg == C
	outer := ks
	copyLen := cg
	if merge {
		outer = ks[:ns-1]
		copyLen = ks[ns-1] * cg
	}
	kst := strides(ks)
	b.loopFrom(begin, end, func(r value.Value) {
		m := b.affine([]value.Value{m0, r}, []int64{1, 1}, 0)
		// m -> batch and spatial position
		idx := make([]value.Value, ns+1)
		for d := range ns + 1 {
			q := value.Value(m)
			if rs[d] > 1 {
				q = b.cur.NewUDiv(q, i64(rs[d]))
			}
			if d > 0 {
				q = b.cur.NewURem(q, i64(rt0.shape[d]))
			}
			idx[d] = q
		}
		vals := []value.Value{idx[0], t}
		coef := []int64{xst[0], cg}
		if g.batchG {
			coef[1] = bo * xst[0]
		}
		for d := range ns {
			vals = append(vals, idx[d+1])
			coef = append(coef, g.stride[d]*xst[d+1])
		}
		base := b.affine(vals, coef, 0)
		row := b.affine([]value.Value{r}, []int64{g.kg}, 0)
		b.nest(outer, func(ki []value.Value) {
			// Window position k (reversed where asked) reads x at
			// s*stride + k*rdil; its columns start at flat(k)*cg.
			xv := []value.Value{base}
			xc := []int64{1}
			dv := []value.Value{row}
			dc := []int64{1}
			c0 := int64(0)
			for d, v := range ki {
				dv = append(dv, v)
				dc = append(dc, kst[d]*cg)
				xv = append(xv, v)
				if g.rev[d] {
					xc = append(xc, -g.rdil[d]*xst[d+1])
					c0 += (ks[d] - 1) * g.rdil[d] * xst[d+1]
				} else {
					xc = append(xc, g.rdil[d]*xst[d+1])
				}
			}
			src := b.saffine(xv, xc, c0)
			dst := b.affine(dv, dc, 0)
			b.loop(copyLen, func(j value.Value) {
				v := b.load(k, x, b.affine([]value.Value{src, j}, []int64{1, 1}, 0))
				b.store(k, a, b.affine([]value.Value{dst, j}, []int64{1, 1}, 0), v)
			})
		})
	})
}
