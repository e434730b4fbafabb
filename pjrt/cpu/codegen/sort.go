package codegen

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// stablehlo.sort: N operands of one shape sorted together along one
// dimension by a comparator region (lhs0, rhs0, lhs1, rhs1, ... → i1,
// "lhs goes first").
//
// Every sort is a stable bottom-up merge sort of a permutation (i64
// indices in the node's scratch output), for is_stable = false too: the
// specification leaves the order of equivalent elements open there, and
// one deterministic order is the useful choice. A merge takes the right
// run's element only when the comparator says it goes strictly before
// the left one, which is what keeps equivalent elements in input order.
// The comparator is inlined into the merge loop; the operands are
// permuted into the results at the end. n·⌈log2 n⌉ comparisons per sorted
// row, 16·n bytes of scratch.

type sortPlan struct {
	dim  int
	body *stablehlo.Block
}

func (p *planner) sortOp(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(ins) == 0 || len(outs) != len(ins) {
		return nil, fmt.Errorf("has %d operands and %d results", len(ins), len(outs))
	}
	x := ins[0].t
	for i := range ins {
		if !ins[i].t.equal(outs[i]) || !slices.Equal(ins[i].t.shape, x.shape) {
			return nil, fmt.Errorf("operands and results do not have one shape")
		}
	}
	dim := int64(-1)
	if a := op.Attr("dimension"); a != nil {
		i, ok := a.(stablehlo.IntAttr)
		if !ok {
			return nil, fmt.Errorf("dimension is %s, want an integer", a)
		}
		dim = i.Value
	}
	if dim < 0 {
		dim += int64(x.rank())
	}
	if x.rank() == 0 || dim < 0 || int(dim) >= x.rank() {
		return nil, fmt.Errorf("dimension out of range for %s", x)
	}
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return nil, fmt.Errorf("want one comparator region with one block")
	}
	body := op.Regions[0].Blocks[0]
	kinds := make([]elemKind, 2*len(ins))
	for i, v := range ins {
		kinds[2*i], kinds[2*i+1] = v.t.elem, v.t.elem
	}
	if err := checkScalarBlock(body, kinds, []elemKind{kBool}); err != nil {
		return nil, inContext("sort comparator", err)
	}
	return p.addSort(n, ins, outs, int(dim), body), nil
}

// addSort appends a sort node (results then an i64 scratch of twice the
// sorted dimension) and returns the sorted values.
func (p *planner) addSort(n *node, ins []*tval, outs []ttype, dim int, body *stablehlo.Block) []*tval {
	n.kind, n.in, n.plan = kSort, ins, &sortPlan{dim: dim, body: body}
	scratch := ttype{elem: kI64, shape: []int64{2 * ins[0].t.shape[dim]}}
	return p.add(n, append(outs, scratch)...)[:len(outs)]
}

func (b *fb) sortKernel(n *node, outs, ins []value.Value) error {
	sp := n.plan.(*sortPlan)
	x := n.in[0].t
	nin := len(n.in)
	if x.numElems() == 0 {
		return nil
	}
	size := x.shape[sp.dim]
	stride := strides(x.shape)[sp.dim]
	if size == 1 {
		for i := range nin {
			b.memcpy(outs[i], ins[i], n.in[i].t.bytes())
		}
		return nil
	}
	perm := outs[nin] // i64[2·size]: the permutation and the merge target
	// Loop over every row: the sorted dimension set to one element.
	rows := append([]int64{}, x.shape...)
	rows[sp.dim] = 1
	xs := strides(x.shape)
	var err error
	// Variables of the merge (promoted to registers by mem2reg).
	vSrc, vWidth := b.local(types.I64), b.local(types.I64)
	vI, vJ, vK, vLo := b.local(types.I64), b.local(types.I64), b.local(types.I64), b.local(types.I64)
	b.nest(rows, func(idx []value.Value) {
		base := b.affine(idx, xs, 0)
		at := func(i value.Value) value.Value { return b.addI64(base, b.mulI64(i, stride)) }
		b.loop(size, func(i value.Value) { b.store(kI64, perm, i, i) })
		b.cur.NewStore(i64(0), vSrc) // the sorted run starts in perm[0:size]
		b.cur.NewStore(i64(1), vWidth)
		b.whileLoop(func() value.Value {
			return b.cur.NewICmp(enum.IPredSLT, b.cur.NewLoad(types.I64, vWidth), i64(size))
		}, func() {
			w := b.cur.NewLoad(types.I64, vWidth)
			src := b.cur.NewLoad(types.I64, vSrc)
			dst := b.cur.NewSub(i64(size), src)
			b.cur.NewStore(i64(0), vLo)
			b.whileLoop(func() value.Value {
				return b.cur.NewICmp(enum.IPredSLT, b.cur.NewLoad(types.I64, vLo), i64(size))
			}, func() {
				lo := b.cur.NewLoad(types.I64, vLo)
				mid := b.minI64(b.addI64(lo, w), i64(size))
				w2 := b.cur.NewShl(w, i64(1))
				hi := b.minI64(b.addI64(lo, w2), i64(size))
				b.cur.NewStore(lo, vI)
				b.cur.NewStore(mid, vJ)
				b.cur.NewStore(lo, vK)
				b.whileLoop(func() value.Value {
					return b.cur.NewICmp(enum.IPredSLT, b.cur.NewLoad(types.I64, vK), hi)
				}, func() {
					i := b.cur.NewLoad(types.I64, vI)
					j := b.cur.NewLoad(types.I64, vJ)
					k := b.cur.NewLoad(types.I64, vK)
					iOK := b.cur.NewICmp(enum.IPredSLT, i, mid)
					jOK := b.cur.NewICmp(enum.IPredSLT, j, hi)
					// Read both candidates at indexes clamped into their
					// runs (so every read is in bounds); the flags decide.
					ii := b.cur.NewSelect(iOK, i, b.cur.NewSub(mid, i64(1)))
					jj := b.cur.NewSelect(jOK, j, b.cur.NewSub(hi, i64(1)))
					pi := b.load(kI64, perm, b.addI64(src, ii))
					pj := b.load(kI64, perm, b.addI64(src, jj))
					args := make([]value.Value, 2*nin)
					for q := range nin {
						ek := n.in[q].t.elem
						args[2*q] = b.load(ek, ins[q], at(pj))
						args[2*q+1] = b.load(ek, ins[q], at(pi))
					}
					res, e := b.region(sp.body, args)
					if e != nil {
						err = e
						return
					}
					right := b.cur.NewAnd(jOK, b.cur.NewOr(b.cur.NewXor(iOK, constant.True), res[0]))
					b.store(kI64, perm, b.addI64(dst, k), b.cur.NewSelect(right, pj, pi))
					b.cur.NewStore(b.cur.NewSelect(right, i, b.addI64(i, i64(1))), vI)
					b.cur.NewStore(b.cur.NewSelect(right, b.addI64(j, i64(1)), j), vJ)
					b.cur.NewStore(b.addI64(k, i64(1)), vK)
				})
				b.cur.NewStore(hi, vLo)
			})
			b.cur.NewStore(dst, vSrc)
			b.cur.NewStore(b.cur.NewShl(w, i64(1)), vWidth)
		})
		src := b.cur.NewLoad(types.I64, vSrc)
		b.loop(size, func(i value.Value) {
			from := at(b.load(kI64, perm, b.addI64(src, i)))
			to := at(i)
			for q := range nin {
				ek := n.in[q].t.elem
				b.store(ek, outs[q], to, b.load(ek, ins[q], from))
			}
		})
	})
	return err
}

func (b *fb) minI64(x, y value.Value) value.Value {
	return b.cur.NewSelect(b.cur.NewICmp(enum.IPredSLT, x, y), x, y)
}
