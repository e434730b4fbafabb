package codegen

import (
	"fmt"
	"math"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Fused attention. The attention of a transformer, as the frontend
// (tensor.Softmax, tensor.Where) and JAX write it, is
//
//	s = dot_general(q, k)                     [batch..., M, L], f32
//	s = s * scale                             (optional; a splat)
//	x = select(mask, s, fill)                 (optional; fill a splat)
//	e = exp(x - broadcast(reduce_max(x)))     over the last dimension
//	p = e / broadcast(reduce_sum(e))
//	o = dot_general(p, v)                     [batch..., M, Dv]
//
// Computed op by op, the scores and probabilities ([batch, M, L], 4·M·L
// bytes a product: 12 MB for GPT-2 small at 256 tokens) are written and
// read five times, and the masked half of a causal mask is computed and
// then thrown away. fuseAttention rewrites the whole pattern, when it
// matches exactly (f32 throughout, the reductions over L with inits -inf
// and 0 and bodies maximum and add, every intermediate used only inside
// the pattern, D and Dv at most attnMaxD), into one node that calls the
// runtime's attention_f32 (rt_attn.h, ABI version 6): online softmax
// over blocks of keys, parallel over products × blocks of queries, key
// blocks that the mask hides from every query of a block skipped. The
// mask operand is the select's predicate before its broadcast: a matrix
// shared by all products (a causal mask), or one per leading batch index
// broadcast over the trailing ones (per sequence, over heads). Anything
// else is left as it is.
//
// Numerics: the scores are the same sums (in another order) and scaled
// the same way; the softmax is online (the running sum rescaled as the
// maximum grows) and divides the weighted sum of values once at the end,
// where the unfused program divides each probability first; so results
// differ from the unfused program by rounding (attention_test.go bounds
// the difference). Non-finite rows are as the unfused program makes
// them: rt_attn.h.

// attnMaxD is the largest D and Dv the runtime's kernel takes (ATT_MAX_D).
const attnMaxD = 512

// attnPlan is the plan of a kAttention node: in are q, k, v and, with
// mask, the mask.
type attnPlan struct {
	b, m, l, d, dv int64 // products, queries, keys, head sizes
	tq, tk, tv     bool  // operands transposed (as sgemm's flags)
	ldq, ldk, ldv  int64 // leading dimensions
	sq, sk, sv     int64 // batch strides
	scale, fill    float64
	mask           bool
	maskDiv        int64 // consecutive products sharing a mask matrix
}

// fuseAttention makes the rewrite on the planned nodes, before fusion.
func (p *planner) fuseAttention() {
	cons := map[*tval][]*node{}
	for _, n := range p.nodes {
		for _, x := range n.in {
			cons[x.root()] = append(cons[x.root()], n)
		}
	}
	res := map[*tval]bool{}
	for _, r := range p.prog.results {
		res[r.root()] = true
	}
	changed := false
	for i, n := range p.nodes {
		if a := matchAttention(n, cons, res); a != nil {
			p.nodes[i] = a
			changed = true
		}
	}
	if changed {
		p.prog.nodes = p.nodes
		p.dce() // the pattern's ops, now unused
	}
}

// reduceBody reports whether a reduce's body is the one binary op (full
// name) of its two arguments, returned.
func reduceBody(blk *stablehlo.Block, op string) bool {
	if blk == nil || len(blk.Args) != 2 || len(blk.Ops) != 2 {
		return false
	}
	o, ret := blk.Ops[0], blk.Ops[1]
	if o.Name != op || len(o.Operands) != 2 || len(o.Results) != 1 {
		return false
	}
	a, b := o.Operands[0], o.Operands[1]
	if !(a == blk.Args[0] && b == blk.Args[1]) && !(a == blk.Args[1] && b == blk.Args[0]) {
		return false
	}
	return len(ret.Operands) == 1 && ret.Operands[0] == o.Results[0]
}

// matchAttention matches the pattern ending in dot_general n and returns
// its attention node, or nil.
func matchAttention(n *node, cons map[*tval][]*node, res map[*tval]bool) *node {
	if n.kind != kDot || n.gemm == nil || n.acc || len(n.out) != 1 || n.out[0].t.elem != kF32 {
		return nil
	}
	// onlyBy: v is a plain value (no view) used only by the nodes given
	// (as many times as they are given) and not a result.
	onlyBy := func(v *tval, users ...*node) bool {
		if v == nil || v.view != nil || res[v] || v.def == nil {
			return false
		}
		c := cons[v]
		if len(c) != len(users) {
			return false
		}
		for _, u := range users {
			i := slices.Index(c, u)
			if i < 0 {
				return false
			}
			c = slices.Delete(slices.Clone(c), i, i+1)
		}
		return true
	}
	def := func(v *tval, k opKind, name string) *node {
		if v == nil || v.view != nil || v.def == nil || v.def.kind != k || len(v.def.out) != 1 || v.def.out[0] != v {
			return nil
		}
		if name != "" && v.def.name != name {
			return nil
		}
		return v.def
	}
	pv := n.in[0]
	div := def(pv, kBinary, "stablehlo.divide")
	if div == nil {
		return nil
	}
	rank := pv.t.rank()
	if rank < 2 || pv.t.elem != kF32 || n.in[1].t.elem != kF32 {
		return nil
	}
	L := pv.t.shape[rank-1]
	g2 := n.gemm
	// (L = 1 makes the broadcasts views; a softmax of one element is not
	// worth a kernel.)
	if L < 2 || n.k != L || g2.transA || g2.lda != L || (n.b > 1 && g2.strideA != n.m*L) {
		return nil
	}
	// rowReduce: the reduce over the last dimension of x, broadcast back
	// along it, that bc (the broadcast's result) is.
	rowOf := func(bc *tval, x *tval, body string, init float64) *node {
		b := def(bc, kBroadcast, "")
		if b == nil || len(b.in) != 1 || throughBitcast(b.in[0]) {
			return nil
		}
		src := b.in[0]
		r := src.root().def
		if r == nil || r.kind != kReduce || len(r.out) != 1 || r.out[0] != src.root() || len(r.in) != 2 || r.in[0] != x {
			return nil
		}
		if !slices.Equal(r.dims, []int64{int64(rank - 1)}) || !reduceBody(r.body, body) {
			return nil
		}
		if v, ok := splatValue(r.in[1]); !ok || v != init || (init == 0 && math.Signbit(v)) {
			return nil
		}
		// The broadcast keeps the rows in order and repeats along the
		// last dimension.
		if !slices.Equal(b.out[0].t.shape, x.t.shape) || len(b.dims) != src.t.rank() {
			return nil
		}
		e := expandBroadcast(src.t.shape, b.dims, rank)
		if e == nil || e[rank-1] != 1 {
			return nil
		}
		for d := range rank - 1 {
			if e[d] != x.t.shape[d] {
				return nil
			}
		}
		// The reduce's result is used only through this broadcast.
		if res[r.out[0]] || len(cons[r.out[0]]) != 1 || cons[r.out[0]][0] != b {
			return nil
		}
		return r
	}
	ev, bs := div.in[0], div.in[1]
	ex := def(ev, kUnary, "stablehlo.exponential")
	if ex == nil {
		return nil
	}
	sub := def(ex.in[0], kBinary, "stablehlo.subtract")
	if sub == nil {
		return nil
	}
	xv, bm := sub.in[0], sub.in[1]
	rsum := rowOf(bs, ev, "stablehlo.add", 0)
	rmax := rowOf(bm, xv, "stablehlo.maximum", math.Inf(-1))
	if rsum == nil || rmax == nil {
		return nil
	}
	if !onlyBy(pv, n) || !onlyBy(bs, div) || !onlyBy(ev, rsum, div) || !onlyBy(sub.out[0], ex) ||
		!onlyBy(bm, sub) || !onlyBy(xv, rmax, sub) {
		return nil
	}
	pl := &attnPlan{b: n.b, m: n.m, l: L, dv: n.n, scale: 1, maskDiv: 1}
	sv := xv
	var pred *tval
	if sel := def(xv, kSelect, ""); sel != nil {
		f, ok := splatValue(sel.in[2])
		if !ok || sel.in[0].t.rank() != rank || sel.in[0].t.elem != kBool {
			return nil
		}
		pl.fill, pred, sv = f, sel.in[0], sel.in[1]
		if !onlyBy(sv, sel) {
			return nil
		}
	}
	dv := sv
	if mul := def(sv, kBinary, "stablehlo.multiply"); mul != nil {
		if c, ok := splatValue(mul.in[1]); ok {
			pl.scale, dv = c, mul.in[0]
		} else if c, ok := splatValue(mul.in[0]); ok {
			pl.scale, dv = c, mul.in[1]
		} else {
			return nil
		}
		if !onlyBy(dv, mul) {
			return nil
		}
	}
	d1 := def(dv, kDot, "")
	if d1 == nil || d1.gemm == nil || d1.acc || d1.b != n.b || d1.m != n.m || d1.n != L || d1.in[0].t.elem != kF32 || d1.in[1].t.elem != kF32 {
		return nil
	}
	if d1.k > attnMaxD || n.n > attnMaxD || !slices.Equal(dv.t.shape, pv.t.shape) {
		return nil
	}
	pl.d = d1.k
	g1 := d1.gemm
	pl.tq, pl.ldq, pl.sq = g1.transA, g1.lda, g1.strideA
	pl.tk, pl.ldk, pl.sk = g1.transB, g1.ldb, g1.strideB
	pl.tv, pl.ldv, pl.sv = g2.transB, g2.ldb, g2.strideB
	in := []*tval{d1.in[0], d1.in[1], n.in[1]}
	if pred != nil {
		src, div, ok := maskSource(pred, n.b)
		if !ok {
			return nil
		}
		pl.mask, pl.maskDiv = true, div
		in = append(in, src)
	}
	a := &node{kind: kAttention, name: n.name, src: n.src, fn: n.fn, in: in, out: n.out, plan: pl}
	for _, o := range a.out {
		o.def = a
	}
	return a
}

// expandBroadcast gives, for a broadcast_in_dim of an operand of shape
// src with dims to a result of the given rank, the operand's size at
// each result dimension (1 where no operand dimension maps), or nil when
// the dims are not increasing (a transposing broadcast).
func expandBroadcast(src, dims []int64, rank int) []int64 {
	e := make([]int64, rank)
	for i := range e {
		e[i] = 1
	}
	last := int64(-1)
	for i, d := range dims {
		if d <= last || d >= int64(rank) {
			return nil
		}
		last = d
		e[d] = src[i]
	}
	return e
}

// maskSource finds the bytes of the select's predicate pred ([batch...,
// M, L], b products): the predicate itself (one matrix per product), or
// the operand of its broadcast when that repeats one matrix over all
// products, or over the trailing batch dimensions. div is the number of
// consecutive products that share a matrix.
func maskSource(pred *tval, b int64) (*tval, int64, bool) {
	if throughBitcast(pred) {
		return nil, 0, false
	}
	bc := pred.def
	if pred.view != nil || bc == nil || bc.kind != kBroadcast || len(bc.in) != 1 {
		return pred, 1, true
	}
	src := bc.in[0]
	if throughBitcast(src) || src.t.elem != kBool {
		return nil, 0, false
	}
	shape := pred.t.shape
	rank := len(shape)
	e := expandBroadcast(src.t.shape, bc.dims, rank)
	if e == nil {
		return nil, 0, false
	}
	// The batch dimensions are the leading ones whose sizes multiply to
	// b; from there on (the rows and keys) the operand must be full.
	nb, prod := 0, int64(1)
	for nb < rank && prod != b {
		prod *= shape[nb]
		nb++
	}
	if prod != b {
		return nil, 0, false
	}
	for d := nb; d < rank; d++ {
		if e[d] != shape[d] {
			return nil, 0, false
		}
	}
	// Batch dimensions: kept ones, then broadcast ones.
	div := int64(1)
	kept := true
	for d := range nb {
		switch {
		case e[d] == shape[d] && kept:
		case e[d] == 1:
			kept = false
			div *= shape[d]
		default:
			return nil, 0, false
		}
	}
	return src, div, true
}

// attentionKernel emits a kAttention node: one call of
// rt->attention_f32.
func (e *emitter) attentionKernel(n *node) (*ir.Func, error) {
	pl := n.plan.(*attnPlan)
	b, rt, outs, ins := e.newKernelRT(n, n.out, n.in)
	b.f.SetName(fmt.Sprintf("k%d.attention", e.nk))
	e.usesV6 = true
	flag := func(t bool) value.Value {
		if t {
			return i32(1)
		}
		return i32(0)
	}
	var mask value.Value = constant.NewNull(types.I8Ptr)
	if pl.mask {
		mask = ins[3]
	}
	b.cur.NewCall(b.rtField(rt, rtAttention), i64(pl.b), i64(pl.m), i64(pl.l), i64(pl.d), i64(pl.dv),
		ins[0], flag(pl.tq), i64(pl.ldq), i64(pl.sq),
		ins[1], flag(pl.tk), i64(pl.ldk), i64(pl.sk),
		ins[2], flag(pl.tv), i64(pl.ldv), i64(pl.sv),
		floatConst(kF32, pl.scale), mask, i64(pl.maskDiv), floatConst(kF32, pl.fill), outs[0])
	b.cur.NewRet(nil)
	return b.f, nil
}
