package codegen

import "sort"

// Buffer planning. Every value that owns bytes (not a reshape view) gets
// one place: the argument or result buffer the caller passes, a constant
// global, or a slice of the per-call arena. Arena slices are shared by
// values whose live ranges (definition to last use, in node order) do not
// overlap, so a kernel's output never shares bytes with its inputs: the
// kernels' pointer parameters can be noalias. Offsets are multiples of 64,
// as the kernels' align 64 parameter attributes promise.

// dce drops nodes whose results nobody uses (expectations always stay).
func (p *planner) dce() {
	for _, r := range p.prog.results {
		markUsed(r)
	}
	var live []*node
	for i := len(p.nodes) - 1; i >= 0; i-- {
		n := p.nodes[i]
		keep := n.kind == kCheck
		for _, o := range n.out {
			keep = keep || o.used
		}
		if !keep {
			continue
		}
		for _, x := range n.in {
			markUsed(x)
		}
		live = append(live, n)
	}
	for i, j := 0, len(live)-1; i < j; i, j = i+1, j-1 {
		live[i], live[j] = live[j], live[i]
	}
	p.nodes = live
	p.prog.nodes = live
}

func markUsed(v *tval) {
	for ; v != nil; v = v.view {
		v.used = true
	}
}

const bufAlign = 64

func alignUp(n int64) int64 { return (n + bufAlign - 1) &^ (bufAlign - 1) }

func (p *planner) assignBuffers() {
	prog := p.prog
	end := len(prog.nodes)
	for _, a := range prog.args {
		a.st, a.idx, a.first, a.last = stArg, a.arg, -1, -1
	}
	var owned []*tval
	for i, n := range prog.nodes {
		for _, o := range n.out {
			o.first, o.last = i, i
			owned = append(owned, o)
		}
	}
	use := func(v *tval, at int) {
		r := v.root()
		if at > r.last {
			r.last = at
		}
	}
	for i, n := range prog.nodes {
		for _, x := range n.in {
			use(x, i)
		}
	}
	for _, r := range prog.results {
		use(r, end)
	}
	aliased := p.assignAliased(end) // alias.go
	for j, r := range prog.results {
		if aliased[j] {
			continue
		}
		root := r.root()
		if root.def != nil && root.def.kind != kConstant && root.st == stNone {
			root.st, root.idx = stResult, j
			continue
		}
		prog.copies = append(prog.copies, resultCopy{res: j, src: r})
	}
	owned = append(owned, p.orderCopies(end)...)
	type block struct {
		off, size int64
		last      int
	}
	var active []block
	var top int64
	sort.SliceStable(owned, func(i, j int) bool { return owned[i].first < owned[j].first })
	for _, v := range owned {
		if v.st != stNone {
			continue
		}
		if v.def != nil && v.def.kind == kConstant {
			v.st = stConst
			continue
		}
		size := alignUp(v.t.bytes())
		v.st = stArena
		prog.intermediateBytes += size
		if size == 0 {
			continue
		}
		keep := active[:0]
		for _, b := range active {
			if b.last >= v.first {
				keep = append(keep, b)
			}
		}
		active = keep
		sort.Slice(active, func(i, j int) bool { return active[i].off < active[j].off })
		off := int64(0)
		for _, b := range active {
			if b.off-off >= size {
				break
			}
			off = max(off, b.off+b.size)
		}
		v.off = off
		active = append(active, block{off: off, size: size, last: v.last})
		top = max(top, off+size)
	}
	prog.arenaSize = top
}

// ArenaBytes is the program's peak temporary memory: the size of the
// per-call arena that holds every intermediate value, after buffer
// planning let values whose live ranges do not overlap share bytes.
func (p *Program) ArenaBytes() int64 { return p.arenaSize }

// IntermediateBytes is what the intermediate values would take without
// sharing: the sum of the arena values' sizes (64-byte aligned).
func (p *Program) IntermediateBytes() int64 { return p.intermediateBytes }
