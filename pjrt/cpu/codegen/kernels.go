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

// One kernel per node: an internal function over the node's buffers whose
// loops are in the simple canonical form LLVM vectorizes (a flat loop over
// the elements for elementwise ops; a loop nest over the result for data
// movement, innermost dimension last).

// kernel emits the node's kernel and returns it, or nil when the node
// needs no code (constants).
func (e *emitter) kernel(n *node) (*ir.Func, error) {
	switch n.kind {
	case kConstant:
		return nil, nil
	case kCheck:
		return e.checkKernel(n)
	case kConvGEMM:
		return e.convGEMMKernel(n) // conv.go
	case kDot:
		return e.dotGeneral(n) // dot.go
	case kAttention:
		return e.attentionKernel(n) // attention.go
	case kFFT:
		return e.fftKernel(n) // fft.go
	case kWhile, kCase:
		return e.controlKernel(n) // control.go
	case kAllReduce, kAllGather, kReduceScatter, kAllToAll, kCollPermute, kCollBroadcast, kDeviceID:
		return e.collectiveKernel(n) // collective.go
	}
	if n.fused != nil {
		return e.fusedKernel(n) // fusion.go
	}
	b, outs, ins := e.newKernel(n, n.out, n.in)
	var err error
	switch n.kind {
	case kUnary, kBinary, kCompare, kSelect, kClamp, kConvert:
		err = b.elementwiseKernel(n, outs[0], ins)
	case kFill:
		r := n.out[0].t
		v := elemConst(r.elem, n.data)
		b.loop(r.numElems(), func(i value.Value) { b.store(r.elem, outs[0], i, v) })
	case kIota:
		b.iotaKernel(n, outs[0])
	case kBroadcast, kTranspose, kSlice, kReverse:
		b.gatherKernel(n, outs[0], ins[0])
	case kConcat:
		b.concatKernel(n, outs[0], ins)
	case kPad:
		b.padKernel(n, outs[0], ins)
	case kReduce:
		err = b.reduceKernel(n, outs, ins)
	case kSort, kGather, kScatter, kDynSlice, kDynUpdate, kRng:
		err = b.extKernel(n, outs, ins)
	case kConv, kReduceWindow, kSelectScatter:
		err = b.windowKernel(n, outs, ins)
	default:
		err = fmt.Errorf("internal error: no kernel for node kind %d", n.kind)
	}
	if err != nil {
		return nil, inContext(n.where(), err)
	}
	b.cur.NewRet(nil)
	return b.f, nil
}

func (b *fb) elementwiseKernel(n *node, out value.Value, ins []value.Value) error {
	r := n.out[0].t
	kinds := make([]elemKind, len(n.in))
	for i, x := range n.in {
		kinds[i] = x.t.elem
	}
	// Operands of rank 0 next to a result of higher rank (select's pred,
	// clamp's bounds) are read once, before the loop.
	pre := make([]value.Value, len(ins))
	for i, x := range n.in {
		if x.t.rank() == 0 && r.rank() > 0 {
			pre[i] = b.load(x.t.elem, ins[i], i64(0))
		}
	}
	attrs := func(string) stablehlo.Attr { return nil }
	if n.src != nil {
		attrs = n.src.Attr
	}
	var err error
	b.loop(r.numElems(), func(i value.Value) {
		args := make([]value.Value, len(ins))
		for j := range ins {
			if pre[j] != nil {
				args[j] = pre[j]
			} else {
				args[j] = b.load(kinds[j], ins[j], i)
			}
		}
		var v value.Value
		if n.kind == kCompare {
			v = b.compare(n.cmpDir, n.cmpType, kinds[0], args[0], args[1])
		} else {
			v, err = b.elementwise(n.name, attrs, kinds, r.elem, args)
			if err != nil {
				v = constant.NewUndef(r.elem.reg())
			}
		}
		b.store(r.elem, out, i, v)
	})
	return err
}

func (b *fb) iotaKernel(n *node, out value.Value) {
	r := n.out[0].t
	st := strides(r.shape)
	b.nest(r.shape, func(idx []value.Value) {
		var v value.Value = idx[n.dim]
		switch r.elem {
		case kI64:
		case kI32:
			v = b.cur.NewTrunc(v, types.I32)
		default:
			v = b.convert(kI64, r.elem, v) // wraps (narrow integers), rounds (floats)
		}
		b.store(r.elem, out, b.affine(idx, st, 0), v)
	})
}

// gatherKernel emits out[idx] = in[f(idx)] for broadcast_in_dim,
// transpose, slice and reverse, where f is affine in the result index.
func (b *fb) gatherKernel(n *node, out, in value.Value) {
	r, x := n.out[0].t, n.in[0].t
	xs := strides(x.shape)
	coef := make([]int64, r.rank())
	c := int64(0)
	switch n.kind {
	case kBroadcast:
		for k, d := range n.dims {
			if x.shape[k] != 1 {
				coef[d] += xs[k]
			}
		}
	case kTranspose:
		for i, d := range n.dims {
			coef[i] = xs[d]
		}
	case kSlice:
		for d := range r.shape {
			coef[d] = n.stride[d] * xs[d]
			c += n.start[d] * xs[d]
		}
	case kReverse:
		copy(coef, xs)
		for _, d := range n.dims {
			coef[d] = -xs[d]
			c += (x.shape[d] - 1) * xs[d]
		}
	}
	shape, maps := collapse(r.shape, strides(r.shape), coef)
	if last := len(shape) - 1; last >= 1 && maps[1][last] != 1 && shape[last] >= copyTile {
		// The innermost loop reads with a stride (a transpose): copy in
		// square tiles so that both sides stay in cache, with the
		// operand's contiguous dimension as the other tile dimension.
		for j := last - 1; j >= 0; j-- {
			if maps[1][j] == 1 && shape[j] >= copyTile {
				b.tiledCopy(r.elem, shape, maps[0], maps[1], c, j, last, out, in)
				return
			}
		}
	}
	b.nest(shape, func(idx []value.Value) {
		v := b.load(r.elem, in, b.affineSigned(idx, maps[1], c))
		b.store(r.elem, out, b.affine(idx, maps[0], 0), v)
	})
}

// copyTile is the side of the square tiles of a transposing copy.
const copyTile = 16

// tiledCopy is the loop nest out[Σ idx·outMap] = in[c + Σ idx·inMap] over
// shape with dimensions j and l split into copyTile × copyTile tiles (a
// remainder piece where the size is not a multiple): the tile loops go
// outside, the loops within a tile inside.
func (b *fb) tiledCopy(k elemKind, shape, outMap, inMap []int64, c int64, j, l int, out, in value.Value) {
	type piece struct{ count, size, off int64 }
	pieces := func(s int64) []piece {
		var p []piece
		if q := s / copyTile; q > 0 {
			p = append(p, piece{q, copyTile, 0})
		}
		if r := s % copyTile; r > 0 {
			p = append(p, piece{1, r, s - r})
		}
		return p
	}
	for _, pj := range pieces(shape[j]) {
		for _, pl := range pieces(shape[l]) {
			var loops, oc, ic []int64
			oc0, ic0 := int64(0), c
			for d := range shape {
				if d != j && d != l {
					loops, oc, ic = append(loops, shape[d]), append(oc, outMap[d]), append(ic, inMap[d])
				}
			}
			for _, t := range []struct {
				d int
				p piece
			}{{j, pj}, {l, pl}} {
				loops = append(loops, t.p.count)
				oc, ic = append(oc, outMap[t.d]*t.p.size), append(ic, inMap[t.d]*t.p.size)
				oc0 += outMap[t.d] * t.p.off
				ic0 += inMap[t.d] * t.p.off
			}
			loops = append(loops, pj.size, pl.size)
			oc, ic = append(oc, outMap[j], outMap[l]), append(ic, inMap[j], inMap[l])
			b.nest(loops, func(idx []value.Value) {
				v := b.load(k, in, b.affineSigned(idx, ic, ic0))
				b.store(k, out, b.affineSigned(idx, oc, oc0), v)
			})
		}
	}
}

// collapse simplifies a loop nest over shape in which each map gives an
// offset Σ idx[d]·map[d]: dimensions of size 1 go away, and a dimension
// merges into the next inner one when every map steps over it exactly as
// over the whole inner one (map[d] == map[d+1]·shape[d+1]). Fewer, longer
// loops compile faster and vectorize better.
func collapse(shape []int64, maps ...[]int64) ([]int64, [][]int64) {
	var s []int64
	ms := make([][]int64, len(maps))
	for d := range shape {
		if shape[d] == 1 {
			continue
		}
		if n := len(s); n > 0 {
			merge := true
			for i, m := range maps {
				if ms[i][n-1] != m[d]*shape[d] {
					merge = false
					break
				}
			}
			if merge {
				s[n-1] *= shape[d]
				for i, m := range maps {
					ms[i][n-1] = m[d]
				}
				continue
			}
		}
		s = append(s, shape[d])
		for i, m := range maps {
			ms[i] = append(ms[i], m[d])
		}
	}
	for _, d := range shape {
		if d == 0 {
			return []int64{0}, nil
		}
	}
	if s == nil {
		s = []int64{}
		for i := range ms {
			ms[i] = []int64{}
		}
	}
	return s, ms
}

// affineSigned is affine for coefficients that may be negative (no
// unsigned-wrap flags).
func (b *fb) affineSigned(idx []value.Value, coef []int64, c int64) value.Value {
	for _, k := range coef {
		if k < 0 {
			var acc value.Value = i64(c)
			for i, v := range idx {
				if coef[i] == 0 {
					continue
				}
				m := b.cur.NewMul(v, i64(coef[i]))
				m.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
				a := b.cur.NewAdd(acc, m)
				a.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
				acc = a
			}
			return acc
		}
	}
	return b.affine(idx, coef, c)
}

func (b *fb) concatKernel(n *node, out value.Value, ins []value.Value) {
	r := n.out[0].t
	rs := strides(r.shape)
	off := int64(0)
	for j, x := range n.in {
		base := off * rs[n.dim]
		shape, maps := collapse(x.t.shape, strides(x.t.shape), rs)
		b.nest(shape, func(idx []value.Value) {
			v := b.load(r.elem, ins[j], b.affine(idx, maps[0], 0))
			b.store(r.elem, out, b.affine(idx, maps[1], base), v)
		})
		off += x.t.shape[n.dim]
	}
}

// padKernel fills the result with the padding value, then writes the
// operand's elements that land inside the result (negative edge padding
// cuts them off): per dimension, the operand indexes i with
// 0 <= low + i*(interior+1) < size form a range known at compile time.
func (b *fb) padKernel(n *node, out value.Value, ins []value.Value) {
	r, x := n.out[0].t, n.in[0].t
	pv := b.load(r.elem, ins[1], i64(0))
	b.loop(r.numElems(), func(i value.Value) { b.store(r.elem, out, i, pv) })
	rs, xs := strides(r.shape), strides(x.shape)
	lo := make([]int64, x.rank())
	box := make([]int64, x.rank())
	coef := make([]int64, x.rank())
	c := int64(0)
	for d := range x.shape {
		s := n.stride[d] + 1
		first := int64(0)
		if n.start[d] < 0 {
			first = (-n.start[d] + s - 1) / s
		}
		last := x.shape[d] - 1 // largest i with low + i*s <= size-1
		if lim := r.shape[d] - 1 - n.start[d]; lim < 0 {
			last = -1
		} else {
			last = min(last, lim/s)
		}
		if last < first {
			return
		}
		lo[d], box[d] = first, last-first+1
		coef[d] = s * rs[d]
		c += (n.start[d] + first*s) * rs[d]
	}
	xc := int64(0)
	for d := range x.shape {
		xc += lo[d] * xs[d]
	}
	shape, maps := collapse(box, xs, coef)
	b.nest(shape, func(idx []value.Value) {
		v := b.load(r.elem, ins[0], b.affine(idx, maps[0], xc))
		b.store(r.elem, out, b.affine(idx, maps[1], c), v)
	})
}

// reduceKernel: results start as the init values; the input is walked in
// row-major order and each element is folded into the result element it
// maps to with the body. Every result element therefore sees its inputs
// in increasing index order, sequentially, as the reference evaluator
// does (bit-exact for floats). When the innermost input dimension is kept
// the inner loop runs across independent results and vectorizes.
func (b *fb) reduceKernel(n *node, outs, ins []value.Value) error {
	nr := len(n.out)
	x := n.in[0].t
	r := n.out[0].t
	inits := make([]value.Value, nr)
	for i := range nr {
		inits[i] = b.load(n.out[i].t.elem, ins[nr+i], i64(0))
	}
	for i := range nr {
		k := n.out[i].t.elem
		b.loop(r.numElems(), func(j value.Value) { b.store(k, outs[i], j, inits[i]) })
	}
	if x.numElems() == 0 {
		return nil
	}
	rs := strides(r.shape)
	xs := strides(x.shape)
	coef := make([]int64, x.rank())
	j := 0
	for d := range x.rank() {
		if !slices.Contains(n.dims, int64(d)) {
			coef[d] = rs[j]
			j++
		}
	}
	var err error
	shape, maps := collapse(x.shape, coef, xs)
	b.nest(shape, func(idx []value.Value) {
		if err == nil {
			err = b.foldStep(n, outs, ins, b.affine(idx, maps[0], 0), b.affine(idx, maps[1], 0))
		}
	})
	return err
}

// foldStep folds the operand elements at xi into the accumulators at o
// through n's body (a reduce's or reduce_window's): acc = body(acc..., x...),
// for each of n's results.
func (b *fb) foldStep(n *node, outs, ins []value.Value, o, xi value.Value) error {
	nr := len(n.out)
	args := make([]value.Value, 2*nr)
	for i := range nr {
		k := n.out[i].t.elem
		args[i] = b.load(k, outs[i], o)
		args[nr+i] = b.load(k, ins[i], xi)
	}
	res, err := b.region(n.body, args)
	if err != nil {
		return err
	}
	for i := range nr {
		b.store(n.out[i].t.elem, outs[i], o, res[i])
	}
	return nil
}
