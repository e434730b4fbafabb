package codegen

import (
	"encoding/binary"
	"math"
	"slices"
)

// Updates folded into a GEMM. A GEMM computes C = α·op(A)·op(B) + β·C,
// and a plain dot uses α = 1, β = 0. An SGD step is w - lr·dot(x, g)
// (the weight's gradient is a dot): computed as written it writes the
// gradient, then reads it back with w to write the new w. gemmAccumulate
// rewrites
//
//	w - c·dot(a, b), w + c·dot(a, b), w - dot(a, b), w + dot(a, b)
//
// (w an argument of the program, c a splat constant, the dot's result
// used only there) into one GEMM
// with C = w, α = ∓c and β = 1: the gradient is never written. With w
// donated (jit.Donate), the result lives in w's own buffer and the GEMM
// updates it in place (alias.go); otherwise the kernel first copies w into
// its result. Each element of the result is w + α·Σ a·b, where the dot and
// then the update would compute w + α'·(Σ a·b) with α·(Σ a·b) rounded
// once more: the GEMM's rounding (as for any dot, the summation order is
// the library's).

// gemmAccumulate makes the rewrite on the planned nodes, before fusion.
func (p *planner) gemmAccumulate() {
	uses := map[*tval]int{}
	for _, n := range p.nodes {
		for _, x := range n.in {
			uses[x.root()]++
		}
	}
	for _, r := range p.prog.results {
		uses[r.root()]++
	}
	var kept []*node
	drop := map[*node]bool{}
	for _, s := range p.nodes {
		if drop[s] {
			continue
		}
		d, w, alpha, mul := gemmUpdate(s, uses)
		if d == nil {
			kept = append(kept, s)
			continue
		}
		// The dot moves to the update's place (its operands are ready
		// there, as they were before), and takes over its result.
		a := &node{kind: kDot, name: d.name, src: d.src, fn: d.fn, in: []*tval{d.in[0], d.in[1], w},
			b: d.b, m: d.m, k: d.k, n: d.n, gemm: d.gemm, acc: true, alpha: alpha}
		a.out = s.out
		for _, o := range a.out {
			o.def = a
		}
		drop[d] = true
		if mul != nil {
			drop[mul] = true
		}
		kept = append(kept, a)
	}
	p.nodes = slices.DeleteFunc(kept, func(n *node) bool { return drop[n] })
	p.prog.nodes = p.nodes
}

// gemmUpdate matches s against the forms above: it returns the dot, the
// accumulated tensor w, α, and the multiply between them (nil if none).
func gemmUpdate(s *node, uses map[*tval]int) (d *node, w *tval, alpha float64, mul *node) {
	if s.kind != kBinary || len(s.out) != 1 || (s.name != "stablehlo.subtract" && s.name != "stablehlo.add") {
		return nil, nil, 0, nil
	}
	sign := 1.0
	if s.name == "stablehlo.subtract" {
		sign = -1
	}
	try := func(w, u *tval) (*node, *tval, float64, *node) {
		if sign < 0 && u != s.in[1] {
			return nil, nil, 0, nil // w - u only, not u - w
		}
		// w must be an argument of the program (a weight, which the
		// caller may donate): a computed w, a bias broadcast to the dot's
		// shape above all, would have to be written out first, which
		// costs more than the separate update saves.
		if r := w.root(); r.def != nil || r.arg < 0 {
			return nil, nil, 0, nil
		}
		if !w.t.equal(s.out[0].t) || uses[u.root()] != 1 || u.view != nil {
			return nil, nil, 0, nil
		}
		c, m := 1.0, (*node)(nil)
		x := u
		if u.def != nil && u.def.kind == kBinary && u.def.name == "stablehlo.multiply" {
			m = u.def
			l, r := m.in[0], m.in[1]
			if v, ok := splatValue(r); ok {
				c, x = v, l
			} else if v, ok := splatValue(l); ok {
				c, x = v, r
			} else {
				return nil, nil, 0, nil
			}
			if uses[x.root()] != 1 || x.view != nil {
				return nil, nil, 0, nil
			}
		}
		dn := x.def
		if dn == nil || dn.kind != kDot || dn.gemm == nil || dn.acc || len(dn.out) != 1 || !dn.out[0].t.equal(s.out[0].t) {
			return nil, nil, 0, nil
		}
		if k := s.out[0].t.elem; k != kF32 && k != kF64 {
			return nil, nil, 0, nil
		}
		return dn, w, sign * c, m
	}
	if d, w, a, m := try(s.in[0], s.in[1]); d != nil {
		return d, w, a, m
	}
	if sign > 0 {
		return try(s.in[1], s.in[0])
	}
	return nil, nil, 0, nil
}

// splatValue is the value of every element of v when v is a splat
// constant (a fill, a constant of equal elements, or a scalar constant
// broadcast) of kind f32 or f64.
func splatValue(v *tval) (float64, bool) {
	n := v.def
	if n == nil || v.view != nil {
		return 0, false
	}
	k := v.t.elem
	if k != kF32 && k != kF64 {
		return 0, false
	}
	size := int(k.size())
	read := func(b []byte) float64 {
		if k == kF32 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	switch n.kind {
	case kFill:
		return read(n.data), true
	case kConstant:
		if len(n.data) < size {
			return 0, false
		}
		for off := size; off+size <= len(n.data); off += size {
			if !slices.Equal(n.data[off:off+size], n.data[:size]) {
				return 0, false
			}
		}
		return read(n.data), true
	case kBroadcast:
		if x := n.in[0]; x.t.numElems() == 1 {
			return splatValue(x)
		}
	}
	return 0, false
}
