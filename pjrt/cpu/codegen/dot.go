package codegen

import (
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// dot_general and dot.
//
// f32 and f64 products call the runtime's GEMM (rt->sgemm, rt->dgemm: a
// BLAS library or the plugin's own blocked kernel, docs/cpu-plugin.md),
// once per batch. The operands are passed as they lie in memory whenever
// each group of dimensions (batch, free, contracting) is contiguous and in
// order: a matrix operand whose contracting group is innermost is passed
// as is, one whose free group is innermost as transposed (cblas's trans
// flags), with the leading dimension and batch stride the layout gives; so
// x·yᵀ, xᵀ·y, and batch dimensions anywhere but innermost need no copy.
// Other layouts are first transposed into [batch, free, contracting] ×
// [batch, contracting, free].
//
// An f32 product whose operand is a bf16 value converted to f32 (a bf16
// weight feeding an f32 dot, or dot_general(bf16, bf16) -> f32, whose
// operands the planner widens) takes the bf16 value itself and calls
// rt->gemm_bf16 (ABI version 6): oneDNN's bf16 GEMM with f32
// accumulation where the CPU has AVX512-BF16, with an f32 operand split
// into three bf16 parts that sum to it exactly, so the result is as
// accurate as the f32 product of the converted values; elsewhere the
// runtime converts to f32 itself (docs/cpu-plugin.md). The convert then
// has no other use and is dropped: a decode step reads the bf16 weights
// once instead of writing and reading an f32 copy.
//
// Other element types (integers, i1, and the wide kinds of types_ext.go)
// use generated loops over the canonical layout.

// dotGemm is the plan of a dot_general that calls the runtime's GEMM.
type dotGemm struct {
	transA, transB bool
	bf16A, bf16B   bool // the operand is bf16 (an f32 product: rt->gemm_bf16)
	lda, ldb       int64
	strideA        int64 // elements between consecutive batches of lhs
	strideB        int64 // and of rhs
}

// group is a set of an operand's dimensions that acts as one dimension
// of the matrix product.
type group struct {
	size   int64 // product of the sizes
	stride int64 // elements between consecutive indexes of the merged dimension
	ok     bool  // the dimensions are contiguous and in order in memory
}

// groupOf merges dims (in the order the product indexes them) of an
// operand of the given shape. Dimensions of size 1 do not count; a group
// of size 1 has any stride, reported as 0.
func groupOf(shape []int64, dims []int64) group {
	st := strides(shape)
	g := group{size: 1, ok: true}
	var big []int64
	for _, d := range dims {
		g.size *= shape[d]
		if shape[d] != 1 {
			big = append(big, d)
		}
	}
	if len(big) == 0 || g.size == 0 {
		return g
	}
	// In order, each next dimension the next one in memory that is not
	// of size 1.
	for i := 1; i < len(big); i++ {
		prev, d := big[i-1], big[i]
		if d <= prev {
			g.ok = false
			return g
		}
		for x := prev + 1; x < d; x++ {
			if shape[x] != 1 {
				g.ok = false
				return g
			}
		}
	}
	g.stride = st[big[len(big)-1]]
	return g
}

// matrixLayout says how BLAS sees a rows × cols matrix operand whose row
// and column groups are r and c: untransposed when the columns are
// contiguous, transposed when the rows are. ld is the leading dimension,
// at least max(1, cols) untransposed and max(1, rows) transposed, as cblas
// requires.
func matrixLayout(r, c group) (trans bool, ld int64, ok bool) {
	if !r.ok || !c.ok {
		return false, 0, false
	}
	// rowMajor: element (i, j) at i·ld + j.
	rowMajor := func(r, c group) (int64, bool) {
		if c.size > 1 && c.stride != 1 {
			return 0, false
		}
		if r.size <= 1 {
			return max(1, c.size), true
		}
		if r.stride < max(1, c.size) {
			return 0, false
		}
		return r.stride, true
	}
	if ld, ok := rowMajor(r, c); ok {
		return false, ld, true
	}
	if ld, ok := rowMajor(c, r); ok {
		return true, ld, true
	}
	return false, 0, false
}

// dotOperands returns the operands of a dot_general node of element
// kind k (lhs batch, contracting and free dimensions lb, lc, lfree; rhs
// rb, rc, rfree) and sets n.gemm for f32 and f64: the operands as they
// are where the layout allows, else transposed into the canonical layout.
// An f32 product's operands may be bf16 (bf16Source).
func (p *planner) dotOperands(n *node, k elemKind, lhs, rhs *tval, lb, lc, lfree, rb, rc, rfree []int64) (*tval, *tval) {
	bfA, bfB := lhs.t.elem == kBF16, rhs.t.elem == kBF16
	if k == kF32 || k == kF64 {
		ls, rs := lhs.t.shape, rhs.t.shape
		lbg, rbg := groupOf(ls, lb), groupOf(rs, rb)
		ta, lda, okA := matrixLayout(groupOf(ls, lfree), groupOf(ls, lc))
		tb, ldb, okB := matrixLayout(groupOf(rs, rc), groupOf(rs, rfree))
		if okA && okB && lbg.ok && rbg.ok {
			n.gemm = &dotGemm{transA: ta, transB: tb, bf16A: bfA, bf16B: bfB, lda: lda, ldb: ldb, strideA: lbg.stride, strideB: rbg.stride}
			return lhs, rhs
		}
	}
	l := p.transpose(nil, lhs, slices.Concat(lb, lfree, lc))
	r := p.transpose(nil, rhs, slices.Concat(rb, rc, rfree))
	if k == kF32 || k == kF64 {
		K, M, N := product(l.t.shape[len(lb)+len(lfree):]), product(l.t.shape[len(lb):len(lb)+len(lfree)]), product(r.t.shape[len(rb)+len(rc):])
		n.gemm = &dotGemm{bf16A: bfA, bf16B: bfB, lda: max(1, K), ldb: max(1, N), strideA: M * K, strideB: K * N}
	}
	return l, r
}

// bf16Source returns the bf16 value that x, an f32 value, converts
// (through reshapes), or x when it is not such a conversion.
func (p *planner) bf16Source(x *tval) *tval {
	if x.t.elem != kF32 {
		return x
	}
	r := x.root()
	d := r.def
	if d == nil || d.kind != kConvert || len(d.in) != 1 || d.in[0].t.elem != kBF16 || d.fused != nil {
		return x
	}
	src := d.in[0]
	if x == r {
		return src
	}
	return p.view(x.def, src, ttype{elem: kBF16, shape: x.t.shape})[0]
}

func product(s []int64) int64 {
	p := int64(1)
	for _, d := range s {
		p *= d
	}
	return p
}

// dotGeneral emits the kernel of a dot_general node.
func (e *emitter) dotGeneral(n *node) (*ir.Func, error) {
	if n.gemm != nil {
		return e.gemmKernel(n), nil
	}
	b, outs, ins := e.newKernel(n, n.out, n.in)
	if err := b.dotLoops(n, outs[0], ins[0], ins[1]); err != nil {
		return nil, inContext(n.where(), err)
	}
	b.cur.NewRet(nil)
	return b.f, nil
}

// gemmKernel: for each batch, rt->sgemm (or dgemm)(transA, transB, M, N,
// K, 1, lhs + batch·strideA, lda, rhs + batch·strideB, ldb, 0, out +
// batch·M·N, N); with acc (gemmacc.go), alpha and 1 on out holding in[2].
// An f32 product with more than one batch is one call of
// rt->sgemm_batch (ABI version 6), which runs small products in
// parallel across the batches (attention's per-head products).
func (e *emitter) gemmKernel(n *node) *ir.Func {
	b, rt, outs, ins := e.newKernelRT(n, n.out, n.in)
	g := n.gemm
	k := n.out[0].t.elem
	field := rtSgemm
	if k == kF64 {
		field = rtDgemm
	}
	bf16 := g.bf16A || g.bf16B
	if bf16 {
		field = rtGemmBF16
		e.usesV6 = true
	}
	if n.b > 0 && n.m > 0 && n.n > 0 {
		fn := b.rtField(rt, field)
		flag := func(t bool) value.Value {
			if t {
				return i32(1)
			}
			return i32(0)
		}
		alpha, beta := floatConst(k, 1), floatConst(k, 0)
		if n.acc {
			// out = in[2] + alpha·dot (gemmacc.go): start from in[2],
			// unless the kernel updates it in place (alias.go).
			if !slices.Contains(n.inPlace, 2) {
				b.memcpy(outs[0], ins[2], n.out[0].t.bytes())
			}
			alpha, beta = floatConst(k, n.alpha), floatConst(k, 1)
		}
		if k == kF32 && n.b > 1 && !bf16 {
			// One call for all batches: the runtime runs small products
			// in parallel across them (rt_attn.h).
			b.e.usesV6 = true
			b.cur.NewCall(b.rtField(rt, rtSgemmBatch), flag(g.transA), flag(g.transB), i64(n.b), i64(n.m), i64(n.n), i64(n.k),
				alpha, ins[0], i64(g.lda), i64(g.strideA), ins[1], i64(g.ldb), i64(g.strideB), beta, outs[0], i64(n.n), i64(n.m*n.n))
			b.cur.NewRet(nil)
			return b.f
		}
		b.loop(n.b, func(bi value.Value) {
			a := b.addr(n.in[0].t.elem, ins[0], b.affine([]value.Value{bi}, []int64{g.strideA}, 0))
			x := b.addr(n.in[1].t.elem, ins[1], b.affine([]value.Value{bi}, []int64{g.strideB}, 0))
			c := b.addr(k, outs[0], b.affine([]value.Value{bi}, []int64{n.m * n.n}, 0))
			if bf16 {
				b.cur.NewCall(fn, flag(g.transA), flag(g.transB), flag(g.bf16A), flag(g.bf16B), i64(n.m), i64(n.n), i64(n.k),
					alpha, b.cur.NewBitCast(a, types.I8Ptr), i64(g.lda), b.cur.NewBitCast(x, types.I8Ptr), i64(g.ldb), beta, c, i64(n.n))
				return
			}
			b.cur.NewCall(fn, flag(g.transA), flag(g.transB), i64(n.m), i64(n.n), i64(n.k),
				alpha, a, i64(g.lda), x, i64(g.ldb), beta, c, i64(n.n))
		})
	}
	b.cur.NewRet(nil)
	return b.f
}

// dotLoops computes out[b,m,n] = Σ_k lhs[b,m,k]·rhs[b,k,n] over operands
// in canonical layout, for the element types the GEMM does not take. The
// innermost loop runs over n, contiguous in both rhs and out, so it
// vectorizes without reassociating: each output element is summed over k
// in increasing order, in the element type. For locality the result is
// computed in tiles of dotRows rows × dotCols columns: a tile of out stays
// in L1 while k runs, and the rhs columns of a tile stay in L2 across the
// rows.
func (b *fb) dotLoops(n *node, out, lhs, rhs value.Value) error {
	if k := n.out[0].t.elem; k.isHalf() || k.isComplex() {
		return b.dotWide(n, out, lhs, rhs) // types_ext.go
	}
	M, N := n.m, n.n
	// tiles calls body for each tile start of size step over [0, total),
	// then for the remainder.
	tiles := func(total, step int64, body func(start value.Value, size int64)) {
		if full := total / step; full > 0 {
			b.loop(full, func(t value.Value) { body(b.affine([]value.Value{t}, []int64{step}, 0), step) })
		}
		if rest := total % step; rest > 0 {
			body(i64(total-rest), rest)
		}
	}
	b.loop(n.b, func(bi value.Value) {
		tiles(N, dotCols, func(n0 value.Value, width int64) {
			tiles(M, dotRows, func(m0 value.Value, rows int64) {
				b.dotTile(n, out, lhs, rhs, bi, m0, rows, n0, width)
			})
		})
	})
	return nil
}

// The dot loops' tile size.
const (
	dotRows = 4
	dotCols = 512
)

// dotTile computes rows m0 .. m0+rows-1, columns n0 .. n0+width-1 of
// batch bi.
func (b *fb) dotTile(n *node, out, lhs, rhs, bi, m0 value.Value, rows int64, n0 value.Value, width int64) {
	k := n.out[0].t.elem
	M, K, N := n.m, n.k, n.n
	zero := scalarConst(k, 0)
	rowOff := make([]value.Value, rows) // start of each tile row in out
	lhsOff := make([]value.Value, rows) // start of each row in lhs
	for r := range rows {
		m := b.affine([]value.Value{m0}, []int64{1}, r)
		rowOff[r] = b.affine([]value.Value{bi, m, n0}, []int64{M * N, N, 1}, 0)
		lhsOff[r] = b.affine([]value.Value{bi, m}, []int64{M * K, K}, 0)
	}
	b.loop(width, func(ni value.Value) {
		for r := range rows {
			b.store(k, out, b.affine([]value.Value{rowOff[r], ni}, []int64{1, 1}, 0), zero)
		}
	})
	b.loop(K, func(ki value.Value) {
		a := make([]value.Value, rows)
		for r := range rows {
			a[r] = b.load(k, lhs, b.affine([]value.Value{lhsOff[r], ki}, []int64{1, 1}, 0))
		}
		rhsRow := b.affine([]value.Value{bi, ki, n0}, []int64{K * N, N, 1}, 0)
		b.loop(width, func(ni value.Value) {
			x := b.load(k, rhs, b.affine([]value.Value{rhsRow, ni}, []int64{1, 1}, 0))
			for r := range rows {
				oi := b.affine([]value.Value{rowOff[r], ni}, []int64{1, 1}, 0)
				acc := b.load(k, out, oi)
				var s value.Value
				switch {
				case k == kBool:
					s = b.cur.NewOr(acc, b.cur.NewAnd(a[r], x))
				case k.isFloat():
					s = b.cur.NewFAdd(acc, b.cur.NewFMul(a[r], x))
				default:
					s = b.cur.NewAdd(acc, b.cur.NewMul(a[r], x))
				}
				b.store(k, out, oi, s)
			}
		})
	})
}
