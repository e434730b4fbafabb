package codegen

import (
	"fmt"
	"maps"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/stablehlo"
)

// Loop fusion. After dead code is dropped and before buffers are
// planned, the planner decides which nodes are computed inline, inside
// the loop of the kernel that consumes them, instead of by a kernel of
// their own that writes a buffer:
//
//   - fusible nodes: the elementwise ops (unary, binary, compare, select,
//     clamp, convert), broadcast_in_dim, slice, reverse, iota, splat
//     constants and large splats (kFill), over the base element types
//     (i1, i32, i64, f32, f64); reshapes are views and need no decision;
//   - roots (nodes that keep a kernel and may compute fusible producers
//     inline): elementwise ops and reduce, always; broadcast, slice,
//     reverse and transpose when an operand is inline (a transpose is
//     never inline itself: alone it is a tiled copy, which strided reads
//     in a consumer's loop would not be);
//   - a reduce with one result over the innermost dimensions of its
//     input is inline when its consumers are computed by one kernel that
//     evaluates it once per result element (layer norm's mean = sum/n:
//     the division's loop runs the sum's loop per element);
//   - a fusible node is inline when its result is not a program result
//     and every consumer is a root or inline, and: it is free (every kind
//     but the elementwise ops: no arithmetic, so computing it wherever it
//     is used costs no more than reading a buffer would); or it is
//     elementwise and all its consumers are computed by one kernel (where
//     it is evaluated once per element and index: the kernel's graph
//     shares it), and it is cheap or evaluated at most once per element
//     of its result (not replicated by a broadcast or as the rank-0
//     operand of a larger op, not under a free node in several
//     kernels). Expensive ops are the transcendental functions, power,
//     remainder, divide, sqrt and rsqrt (parallel.go's list).
//
// So an elementwise value used by two kernels is materialized: written
// once and read twice, rather than computed twice; a cheap one used in
// one kernel under a broadcast (an iota comparison making a mask, a
// scalar offset) is recomputed per element there.
//
// A root's kernel loops over its result's index space (a reduce: over
// its input's) and evaluates its operand tree there: every value's index
// is an affine map of the loop indices, pushed through broadcasts
// (dimensions dropped), transposes (permuted), slices (scaled and
// shifted), reverses (negated) and reshapes (the flat offset kept, split
// into the operand's dimensions where no carry can occur); an inline
// reduce adds one loop variable per reduced dimension, looped over
// within the element. Materialized values (leaves) are loaded at their
// affine offset; leaf reads, iota indexes and the result's offset
// together decide how the root's loop nest collapses (collapse). A
// reshape whose split needs a carry leaves the op above it that needs
// its multi-index (a broadcast, transpose, slice, reverse, iota or
// reduce) to be materialized instead; the planner finds these by
// building every root's graph before it commits.
//
// Fused code performs the same per-element operations in the same
// order as the unfused kernels, so results are bit-identical to them
// (and to the reference evaluator wherever those are).
//
// STELA_DEBUG=nofusion (or Options.NoFusion) turns fusion off.

// fusion is the plan of a root's kernel: n.in holds the materialized
// values the fused loop reads (its leaves, each once) and ops the
// root's operands as planned.
type fusion struct {
	ops    []*tval
	inline map[*node]bool // the program's inline nodes
}

// nofusionEnv reports STELA_DEBUG=nofusion.
func nofusionEnv() bool { return env.Debug().NoFusion }

// noattentionEnv is STELA_DEBUG=noattention (attention.go).
func noattentionEnv() bool { return env.Debug().NoAttention }

// baseKind reports whether fusion handles values of kind k.
func baseKind(k elemKind) bool {
	switch k {
	case kBool, kI32, kI64, kF32, kF64:
		return true
	}
	return false
}

// baseTypes reports whether every operand and result of n has a base
// kind.
func baseTypes(n *node) bool {
	for _, vs := range [][]*tval{n.in, n.out} {
		for _, v := range vs {
			if !baseKind(v.t.elem) {
				return false
			}
		}
	}
	return true
}

func isElementwise(k opKind) bool {
	switch k {
	case kUnary, kBinary, kCompare, kSelect, kClamp, kConvert:
		return true
	}
	return false
}

// isSplat reports whether a constant node's elements are all the same.
func isSplat(n *node) bool {
	sz := int(n.out[0].t.elem.size())
	if len(n.data) < sz {
		return false
	}
	for i := sz; i+sz <= len(n.data); i += sz {
		if string(n.data[i:i+sz]) != string(n.data[:sz]) {
			return false
		}
	}
	return true
}

// fusible reports whether n can be computed inline.
func fusible(n *node) bool {
	if len(n.out) != 1 || !baseTypes(n) {
		return false
	}
	switch n.kind {
	case kUnary, kBinary, kCompare, kSelect, kClamp, kConvert, kBroadcast, kSlice, kReverse, kIota, kFill:
		return true
	case kConstant:
		return isSplat(n)
	}
	return false
}

// canRoot reports whether n's kernel may compute inline producers.
func canRoot(n *node) bool {
	if n.kind == kReduce || n.kind == kTranspose {
		return baseTypes(n)
	}
	return fusible(n) && n.kind != kConstant
}

// rowReduce reports whether n is a reduce that may be computed inline:
// one result, base types, over the innermost dimensions of its input (so
// that the loop it becomes in the consumer's element reads
// contiguously, as its own kernel would).
func rowReduce(n *node) bool {
	if n.kind != kReduce || len(n.out) != 1 || !baseTypes(n) {
		return false
	}
	r := n.in[0].t.rank()
	for _, d := range n.dims {
		if d < int64(r-len(n.dims)) {
			return false
		}
	}
	return true
}

// replicates reports whether consumer u evaluates its operand o more
// than once per element of o (a broadcast that adds elements, a rank-0
// operand of a larger elementwise op).
func replicates(u *node, o *tval) bool {
	switch u.kind {
	case kReduce, kSlice:
		return false
	}
	return u.out[0].t.numElems() > o.t.numElems()
}

// maxFusedCost bounds the code of one fused kernel, in codeCost units:
// 32 expensive ops (transcendental functions, divisions) or about 540
// simple ones. Past it, the value that would overflow the consumer's
// kernel is materialized and starts a kernel of its own (issue 20: 600
// chained tanh, exp and log fused into one loop body of about 30 000
// instructions, on which llc spent 35 s: its scheduling and register
// allocation grow faster than linearly with a block's size). The cost
// of a cut is one store and one load per element, next to 32 inline
// transcendental functions of about 30 instructions each.
const maxFusedCost = 32 * (1 + parWeight)

// codeCost estimates the code a node adds to a kernel that computes it
// inline: 1 for a simple elementwise op or reduction, 1+parWeight for an
// expensive one (the inline approximations of mathfn.go are 20 to 40
// instructions), 0 for the index arithmetic of broadcasts, slices and
// the like.
func codeCost(n *node) int {
	switch {
	case isElementwise(n.kind) && expensive[shortName(n.name)]:
		return 1 + parWeight
	case isElementwise(n.kind) || n.kind == kReduce:
		return 1
	}
	return 0
}

// fuse marks inline nodes, gives each root its fusion plan and leaves,
// and drops inline nodes from the node list.
func (p *planner) fuse() {
	nodes := p.nodes
	inline := map[*node]bool{}
	// rep: an inline node is evaluated more than once per element of its
	// result (an arithmetic producer below it would be recomputed).
	rep := map[*node]bool{}
	users := map[*tval][]*node{}
	result := map[*tval]bool{}
	for _, r := range p.prog.results {
		result[r.root()] = true
	}
	for _, n := range nodes {
		for _, x := range n.in {
			r := x.root()
			if !slices.Contains(users[r], n) {
				users[r] = append(users[r], n)
			}
			// A fused kernel reads a bitcast_convert view as a leaf
			// (bitcastView): the value it views must have storage.
			if throughBitcast(x) {
				result[r] = true
			}
		}
	}
	// owner is the root whose kernel computes an inline node, nil when
	// several kernels do.
	owner := map[*node]*node{}
	// size is the code cost (codeCost) of a root's kernel so far.
	size := map[*node]int{}
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		if !fusible(n) && !rowReduce(n) {
			continue
		}
		o := n.out[0]
		us := users[o]
		if result[o] || len(us) == 0 {
			continue
		}
		var own *node
		ok, multi, r := true, false, false
		for j, u := range us {
			ou := u
			if inline[u] {
				ou = owner[u]
			} else if !canRoot(u) {
				ok = false
				break
			}
			if ou == nil || (j > 0 && ou != own) {
				multi = true
			}
			own = ou
			r = r || rep[u] || replicates(u, o)
		}
		if !ok {
			continue
		}
		if isElementwise(n.kind) && (multi || (r && expensive[shortName(n.name)])) {
			continue
		}
		if n.kind == kReduce && (multi || r) {
			continue
		}
		if !multi && own != nil {
			// The owner's kernel has room for n (maxFusedCost).
			if _, ok := size[own]; !ok {
				size[own] = codeCost(own)
			}
			if size[own]+codeCost(n) > maxFusedCost {
				continue
			}
			size[own] += codeCost(n)
		}
		inline[n] = true
		owner[n], rep[n] = own, r
		if multi {
			owner[n], rep[n] = nil, true
		}
	}
	isRoot := func(n *node) bool {
		if inline[n] || !canRoot(n) {
			return false
		}
		if n.kind == kReduce || isElementwise(n.kind) {
			return true
		}
		for _, x := range n.in {
			if v := x.root(); v.def != nil && inline[v.def] {
				return true
			}
		}
		return false
	}
	// A reshape whose split needs a carry cannot pass a multi-index to
	// the broadcast, slice, reverse or iota above it: that node is
	// materialized instead (it becomes a root with a flat index), until
	// every root's graph builds.
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if !isRoot(n) {
				continue
			}
			if _, err := buildGraph(n, n.in, inline); err != nil {
				if bad, ok := err.(*needIndex); ok && inline[bad.n] {
					delete(inline, bad.n)
					changed = true
					continue
				}
				panic(fmt.Sprintf("fusion of %s: %v", n.where(), err))
			}
		}
	}
	var kept []*node
	for _, n := range nodes {
		if inline[n] {
			continue
		}
		if isRoot(n) {
			n.fused = &fusion{ops: n.in, inline: inline}
			n.in = leaves(n.in, inline)
		}
		kept = append(kept, n)
	}
	p.nodes = kept
	p.prog.nodes = kept
}

// bitcastView reports whether v is a view that reinterprets its bytes as
// another element type (bitcast_convert): the fused code reads it as a
// leaf of its own type and indexing, as an unfused kernel does, instead
// of reading the value it views with the wrong type (and, for widths that
// differ, the wrong element count).
func bitcastView(v *tval) bool { return v.view != nil && v.view.t.elem != v.t.elem }

// throughBitcast reports whether reading v passes through a bitcastView.
func throughBitcast(v *tval) bool {
	for ; v.view != nil; v = v.view {
		if bitcastView(v) {
			return true
		}
	}
	return false
}

// leaves returns the materialized values an operand tree reads, each
// once, in the order first met.
func leaves(ops []*tval, inline map[*node]bool) []*tval {
	var out []*tval
	var visit func(v *tval)
	visit = func(v *tval) {
		if v.view != nil && !bitcastView(v) {
			visit(v.view)
			return
		}
		if v.def != nil && inline[v.def] {
			for _, x := range v.def.in {
				visit(x)
			}
			return
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, x := range ops {
		visit(x)
	}
	return out
}

// Kernels returns the number of kernels the program calls per run (nodes
// with code: not constants, not computed inline).
func (p *Program) Kernels() int {
	k := 0
	for _, n := range p.nodes {
		if n.kind != kConstant {
			k++
		}
	}
	return k
}

// --- the fused graph of a root

// A fused graph's values are indexed by loop variables: the root's loops
// (variables 0 .. nroot-1), then those of the reductions computed inline
// (each reduced dimension of an inline reduce is one more variable,
// looped over inside the element's computation).

// aff is an affine function Σ co[i]·var[i] + c of loop variables (a
// missing coefficient is 0).
type aff struct {
	co []int64
	c  int64
}

func (a aff) get(i int) int64 {
	if i < len(a.co) {
		return a.co[i]
	}
	return 0
}

func (a aff) scale(k, c int64) aff {
	r := aff{co: make([]int64, len(a.co)), c: a.c*k + c}
	for i, x := range a.co {
		r.co[i] = x * k
	}
	return r
}

func (a aff) plus(b aff) aff {
	r := aff{co: make([]int64, max(len(a.co), len(b.co))), c: a.c + b.c}
	for i := range r.co {
		r.co[i] = a.get(i) + b.get(i)
	}
	return r
}

// head returns the first n coefficients (padded with zeros).
func (a aff) head(n int) []int64 {
	r := make([]int64, n)
	for i := range r {
		r[i] = a.get(i)
	}
	return r
}

func (a aff) String() string {
	co := slices.Clone(a.co)
	for len(co) > 0 && co[len(co)-1] == 0 {
		co = co[:len(co)-1]
	}
	return fmt.Sprint(co, a.c)
}

// unit is the map of variable v alone.
func unit(v int) aff {
	a := aff{co: make([]int64, v+1)}
	a.co[v] = 1
	return a
}

// fidx is the index at which a value is evaluated: its flat element
// offset and, when known (ok), its index in every dimension.
type fidx struct {
	flat  aff
	multi []aff
	ok    bool
}

// withMulti completes an index from its dimensions' maps.
func withMulti(multi []aff, shape []int64) fidx {
	ix := fidx{ok: true, multi: multi}
	st := strides(shape)
	for d, a := range multi {
		ix.flat = ix.flat.plus(a.scale(st[d], 0))
	}
	return ix
}

// identity is the index of a value whose dimensions are the first loop
// variables.
func identity(shape []int64) fidx {
	multi := make([]aff, len(shape))
	for d := range shape {
		multi[d] = unit(d)
	}
	return withMulti(multi, shape)
}

// split returns the index in a shape of a flat offset, when every
// dimension's part of it is an affine map: each variable (of sizes
// sizes) must fall in one dimension's digit, and no digit may overflow
// into the next one.
func split(flat aff, sizes, shape []int64) ([]aff, bool) {
	st := strides(shape)
	multi := make([]aff, len(shape))
	if flat.c < 0 {
		return nil, false
	}
	top := make([]int64, len(shape)) // largest value of each digit
	rem := flat.c
	for k := range shape {
		if st[k] > 0 {
			multi[k].c = rem / st[k]
			rem %= st[k]
		}
		top[k] = multi[k].c
		if shape[k] > 0 && top[k] >= shape[k] {
			return nil, false
		}
	}
	for i, co := range flat.co {
		if co == 0 || sizes[i] == 1 {
			continue
		}
		if co < 0 {
			return nil, false
		}
		k := -1
		for j := range shape {
			if shape[j] > 1 && st[j] <= co {
				k = j
				break
			}
		}
		if k < 0 || co%st[k] != 0 {
			return nil, false
		}
		a := co / st[k]
		multi[k] = multi[k].plus(unit(i).scale(a, 0))
		top[k] += a * (sizes[i] - 1)
		if top[k] >= shape[k] {
			return nil, false
		}
	}
	return multi, true
}

type fxKind int

const (
	fxLeaf   fxKind = iota + 1 // a load of leaf v at map m
	fxConst                    // the constant c
	fxIota                     // the index map m, as n's element type
	fxNode                     // elementwise node n applied to args
	fxReduce                   // reduce n of args (then inits) over variables vars
)

// fx is one value of a fused graph at one index.
type fx struct {
	kind  fxKind
	v     *tval
	n     *node
	args  []*fx
	kinds []elemKind // of args
	m     int
	c     constant.Constant
	vars  []int // fxReduce: the reduced dimensions' variables
}

// fgraph builds the graph of a root.
type fgraph struct {
	sizes  []int64 // of the loop variables
	nroot  int     // the root's loops are the first nroot variables
	inline map[*node]bool
	maps   []aff // of leaf loads and iota indexes
	memo   map[string]*fx
}

// needIndex is a build failure: node n needs a multi-index that a
// reshape below it could not provide.
type needIndex struct{ n *node }

func (e *needIndex) Error() string { return "no multi-index for " + e.n.where() }

func (g *fgraph) addMap(a aff) int {
	g.maps = append(g.maps, a)
	return len(g.maps) - 1
}

// value returns the graph of v at ix.
func (g *fgraph) value(v *tval, ix fidx) (*fx, error) {
	if v.view != nil && !bitcastView(v) {
		x := v.view
		nix := fidx{flat: ix.flat}
		if ix.ok && slices.Equal(x.t.shape, v.t.shape) {
			nix = ix
		} else {
			nix.multi, nix.ok = split(ix.flat, g.sizes, x.t.shape)
		}
		return g.value(x, nix)
	}
	key := fmt.Sprintf("%p %v", v, ix.flat)
	if f, ok := g.memo[key]; ok {
		return f, nil
	}
	var f *fx
	if v.def != nil && g.inline[v.def] {
		var err error
		if f, err = g.node(v.def, v.def.in, ix); err != nil {
			return nil, err
		}
	} else {
		f = &fx{kind: fxLeaf, v: v, m: g.addMap(ix.flat)}
	}
	g.memo[key] = f
	return f, nil
}

// node returns the graph of n's result, n applied to ops, at ix.
func (g *fgraph) node(n *node, ops []*tval, ix fidx) (*fx, error) {
	r := n.out[0].t
	switch n.kind {
	case kConstant, kFill:
		return &fx{kind: fxConst, c: elemConst(r.elem, n.data[:r.elem.size()])}, nil
	case kIota:
		if !ix.ok {
			return nil, &needIndex{n}
		}
		return &fx{kind: fxIota, n: n, m: g.addMap(ix.multi[n.dim])}, nil
	case kBroadcast, kSlice, kReverse, kTranspose:
		if !ix.ok {
			return nil, &needIndex{n}
		}
		x := ops[0].t
		multi := make([]aff, x.rank())
		for d := range multi {
			switch n.kind {
			case kBroadcast:
				if x.shape[d] != 1 {
					multi[d] = ix.multi[n.dims[d]]
				}
			case kSlice:
				multi[d] = ix.multi[d].scale(n.stride[d], n.start[d])
			case kReverse:
				multi[d] = ix.multi[d]
				if slices.Contains(n.dims, int64(d)) {
					multi[d] = ix.multi[d].scale(-1, x.shape[d]-1)
				}
			case kTranspose:
				multi[n.dims[d]] = ix.multi[d]
			}
		}
		return g.value(ops[0], withMulti(multi, x.shape))
	case kReduce:
		// Inline (one result, evaluated once per element of its
		// consumer): each reduced dimension becomes a variable.
		if !ix.ok {
			return nil, &needIndex{n}
		}
		x := ops[0].t
		f := &fx{kind: fxReduce, n: n}
		multi := make([]aff, x.rank())
		j := 0
		for d := range multi {
			if slices.Contains(n.dims, int64(d)) {
				f.vars = append(f.vars, len(g.sizes))
				multi[d] = unit(len(g.sizes))
				g.sizes = append(g.sizes, x.shape[d])
			} else {
				multi[d] = ix.multi[j]
				j++
			}
		}
		in, err := g.value(ops[0], withMulti(multi, x.shape))
		if err != nil {
			return nil, err
		}
		init, err := g.value(ops[1], withMulti(nil, nil))
		if err != nil {
			return nil, err
		}
		f.args = []*fx{in, init}
		return f, nil
	}
	if !isElementwise(n.kind) {
		return nil, fmt.Errorf("internal error: %s (kind %d) in a fused graph", n.where(), n.kind)
	}
	f := &fx{kind: fxNode, n: n}
	for _, x := range ops {
		xi := ix
		if x.t.rank() == 0 && r.rank() > 0 {
			xi = withMulti(nil, nil)
		}
		a, err := g.value(x, xi)
		if err != nil {
			return nil, err
		}
		f.args = append(f.args, a)
		f.kinds = append(f.kinds, x.t.elem)
	}
	return f, nil
}

// rootGraph is the fused graph of a root: out the graphs of the values it
// stores (a reduce: of its inputs), inits a reduce's init values, outMap
// the offset of the result element.
type rootGraph struct {
	*fgraph
	out, inits []*fx
	outMap     aff
}

// buildGraph builds root n's graph over operands ops. Its loops are the
// result's dimensions (a reduce: the input's).
func buildGraph(n *node, ops []*tval, inline map[*node]bool) (*rootGraph, error) {
	g := &fgraph{inline: inline, memo: map[string]*fx{}}
	rg := &rootGraph{fgraph: g}
	if n.kind == kReduce {
		k := len(n.out)
		x := ops[0].t
		g.sizes, g.nroot = slices.Clone(x.shape), x.rank()
		// The result element an input element folds into: the kept
		// dimensions in order.
		rs := strides(n.out[0].t.shape)
		j := 0
		for d := range x.rank() {
			if !slices.Contains(n.dims, int64(d)) {
				rg.outMap = rg.outMap.plus(unit(d).scale(rs[j], 0))
				j++
			}
		}
		id := identity(x.shape)
		for i := range k {
			f, err := g.value(ops[i], id)
			if err != nil {
				return nil, err
			}
			init, err := g.value(ops[k+i], withMulti(nil, nil))
			if err != nil {
				return nil, err
			}
			rg.out, rg.inits = append(rg.out, f), append(rg.inits, init)
		}
		return rg, nil
	}
	r := n.out[0].t
	g.sizes, g.nroot = slices.Clone(r.shape), r.rank()
	id := identity(r.shape)
	rg.outMap = id.flat
	f, err := g.node(n, ops, id)
	if err != nil {
		return nil, err
	}
	rg.out = []*fx{f}
	return rg, nil
}

// --- emission

// fusedKernel emits the kernel of a root with a fusion plan: a loop nest
// over its index space (collapsed), evaluating the graph per element, run
// on the plugin's threads when it is large (parallel.go).
func (e *emitter) fusedKernel(n *node) (*ir.Func, error) {
	rg, err := buildGraph(n, n.fused.ops, n.fused.inline)
	if err != nil {
		return nil, inContext(n.where(), err)
	}
	k := &fusedLoop{n: n, rg: rg}
	k.plan()
	return e.emitFusedLoop(k)
}

// fusedLoop is the loop structure of a fused kernel.
type fusedLoop struct {
	n  *node
	rg *rootGraph
	// shape is the collapsed loop nest; maps[0] the result offset's
	// coefficients over it, maps[1+i] those of rg.maps[i].
	shape []int64
	maps  [][]int64
	empty bool // some loop has no iterations
	// acc: a reduce whose reduced dimensions are the innermost loops
	// from acc on: each result element is folded in registers (no
	// init pass, no load and store per input element).
	acc int
	// par is the loop split across threads (-1: none) with its grain.
	par   int
	grain int64
}

func (k *fusedLoop) plan() {
	rg := k.rg
	// Collapse the root's loops; the variables of inline reductions keep
	// their own loops.
	nr := rg.nroot
	all := [][]int64{rg.outMap.head(nr)}
	for _, m := range rg.maps {
		all = append(all, m.head(nr))
	}
	roots := rg.sizes[:nr]
	k.par = -1
	if slices.Contains(roots, 0) {
		k.empty = true
		return
	}
	k.shape, k.maps = collapse(roots, all...)
	k.acc = -1
	if k.n.kind == kReduce {
		k.acc = len(k.shape)
		for d := len(k.shape) - 1; d >= 0 && k.maps[0][d] == 0; d-- {
			k.acc = d
		}
		for d := range k.acc {
			if k.maps[0][d] == 0 {
				k.acc = -1 // a reduced loop outside a kept one
				break
			}
		}
	}
	k.par, k.grain = k.parallelPlan()
}

// evaluator emits a fused graph's values at one loop index.
type evaluator struct {
	k    *fusedLoop
	b    *fb
	leaf map[*tval]value.Value
	idx  []value.Value       // nil: outside the loops (every map is constant there)
	vars map[int]value.Value // the inline reductions' loop variables
	vals map[*fx]value.Value
	err  error
}

func (k *fusedLoop) evaluator(b *fb, ins []value.Value) *evaluator {
	leaf := map[*tval]value.Value{}
	for i, v := range k.n.in {
		leaf[v] = ins[i]
	}
	return &evaluator{k: k, b: b, leaf: leaf, vars: map[int]value.Value{}}
}

// at evaluates roots at loop index idx.
func (ev *evaluator) at(idx []value.Value, roots []*fx) []value.Value {
	ev.idx, ev.vals = idx, map[*fx]value.Value{}
	out := make([]value.Value, len(roots))
	for i, f := range roots {
		out[i] = ev.value(f)
	}
	return out
}

// offset is the value of map m (an index of rg.maps) at the index.
func (ev *evaluator) offset(m int) value.Value {
	a := ev.k.rg.maps[m]
	var idx []value.Value
	var co []int64
	if ev.idx != nil {
		idx, co = slices.Clone(ev.idx), slices.Clone(ev.k.maps[1+m])
	}
	for i := ev.k.rg.nroot; i < len(a.co); i++ {
		if a.co[i] != 0 {
			idx, co = append(idx, ev.vars[i]), append(co, a.co[i])
		}
	}
	return ev.b.affineSigned(idx, co, a.c)
}

func (ev *evaluator) value(f *fx) value.Value {
	if v, ok := ev.vals[f]; ok {
		return v
	}
	b := ev.b
	var v value.Value
	switch f.kind {
	case fxConst:
		v = f.c
	case fxLeaf:
		v = b.load(f.v.t.elem, ev.leaf[f.v], ev.offset(f.m))
	case fxIota:
		v = ev.offset(f.m)
		switch el := f.n.out[0].t.elem; el {
		case kI64:
		case kI32:
			v = b.cur.NewTrunc(v, el.reg())
		default:
			v = b.cur.NewSIToFP(v, el.reg())
		}
	case fxReduce:
		v = ev.reduce(f)
	case fxNode:
		args := make([]value.Value, len(f.args))
		for i, a := range f.args {
			args[i] = ev.value(a)
		}
		n := f.n
		if n.kind == kCompare {
			v = b.compare(n.cmpDir, n.cmpType, f.kinds[0], args[0], args[1])
			break
		}
		attrs := func(string) stablehlo.Attr { return nil }
		if n.src != nil {
			attrs = n.src.Attr
		}
		var err error
		if v, err = b.elementwise(n.name, attrs, f.kinds, n.out[0].t.elem, args); err != nil {
			if ev.err == nil {
				ev.err = inContext(n.where(), err)
			}
			v = constant.NewUndef(n.out[0].t.elem.reg())
		}
	}
	ev.vals[f] = v
	return v
}

// reduce emits an inline reduction: acc = init, then a loop nest over
// its variables folding the input in row-major order. Values computed in
// the loop stay in it (the memo is restored after).
func (ev *evaluator) reduce(f *fx) value.Value {
	b, n := ev.b, f.n
	k := n.out[0].t.elem
	slot := b.stackSlot(k.reg())
	b.cur.NewStore(ev.value(f.args[1]), slot)
	outer := ev.vals
	sizes := make([]int64, len(f.vars))
	for i, v := range f.vars {
		sizes[i] = ev.k.rg.sizes[v]
	}
	b.nest(sizes, func(idx []value.Value) {
		ev.vals = maps.Clone(outer)
		for i, v := range f.vars {
			ev.vars[v] = idx[i]
		}
		x := ev.value(f.args[0])
		res, err := b.region(n.body, []value.Value{b.cur.NewLoad(k.reg(), slot), x})
		if err != nil {
			if ev.err == nil {
				ev.err = inContext(n.where(), err)
			}
			return
		}
		b.cur.NewStore(res[0], slot)
	})
	ev.vals = outer
	return b.cur.NewLoad(k.reg(), slot)
}

// body emits a fused kernel's loops into b, with loop k.par (if any)
// running over [lo, hi); outs are the result buffers, ins the leaves.
// A reduce in the general order expects the inits stored already
// (storeInits).
func (k *fusedLoop) body(b *fb, outs, ins []value.Value, lo, hi value.Value) error {
	n, rg := k.n, k.rg
	ev := k.evaluator(b, ins)
	if n.kind != kReduce {
		r := n.out[0].t
		b.rangedNest(k.shape, k.par, lo, hi, func(idx []value.Value) {
			v := ev.at(idx, rg.out)[0]
			b.store(r.elem, outs[0], b.affine(idx, k.maps[0], 0), v)
		})
		return ev.err
	}
	nr := len(n.out)
	kinds := make([]elemKind, nr)
	for i, o := range n.out {
		kinds[i] = o.t.elem
	}
	fold := func(idx, acc []value.Value) []value.Value {
		args := append(slices.Clone(acc), ev.at(idx, rg.out)...)
		res, err := b.region(n.body, args)
		if err != nil {
			if ev.err == nil {
				ev.err = inContext(n.where(), err)
			}
			return acc
		}
		return res
	}
	if k.acc >= 0 {
		// For each result element: acc = init, fold the inner loops,
		// store. The accumulators are stack slots that mem2reg turns
		// into registers.
		slots := make([]value.Value, nr)
		for i := range nr {
			slots[i] = b.stackSlot(kinds[i].reg())
		}
		b.rangedNest(k.shape[:k.acc], k.par, lo, hi, func(outer []value.Value) {
			inits := ev.at(outer, rg.inits)
			for i := range nr {
				b.cur.NewStore(inits[i], slots[i])
			}
			b.nest(k.shape[k.acc:], func(inner []value.Value) {
				acc := make([]value.Value, nr)
				for i := range nr {
					acc[i] = b.cur.NewLoad(kinds[i].reg(), slots[i])
				}
				res := fold(append(slices.Clone(outer), inner...), acc)
				for i := range nr {
					b.cur.NewStore(res[i], slots[i])
				}
			})
			oi := b.affine(outer, k.maps[0][:k.acc], 0)
			for i := range nr {
				b.store(kinds[i], outs[i], oi, b.cur.NewLoad(kinds[i].reg(), slots[i]))
			}
		})
		return ev.err
	}
	// General order: each input element, in row-major order, is folded
	// into the result element it maps to.
	b.rangedNest(k.shape, k.par, lo, hi, func(idx []value.Value) {
		oi := b.affine(idx, k.maps[0], 0)
		acc := make([]value.Value, nr)
		for i := range nr {
			acc[i] = b.load(kinds[i], outs[i], oi)
		}
		res := fold(idx, acc)
		for i := range nr {
			b.store(kinds[i], outs[i], oi, res[i])
		}
	})
	return ev.err
}

// storeInits writes a reduce's init values to every result element.
func (k *fusedLoop) storeInits(b *fb, outs, ins []value.Value) error {
	ev := k.evaluator(b, ins)
	vals := ev.at(nil, k.rg.inits)
	for i, o := range k.n.out {
		r := o.t
		b.loop(r.numElems(), func(j value.Value) { b.store(r.elem, outs[i], j, vals[i]) })
	}
	return ev.err
}

// stackSlot makes a stack slot in the function's entry block (so that
// it is not repeated in a loop and mem2reg can promote it).
func (b *fb) stackSlot(t types.Type) value.Value {
	a := ir.NewAlloca(t)
	entry := b.f.Blocks[0]
	entry.Insts = append([]ir.Instruction{a}, entry.Insts...)
	return a
}

// rangedNest is nest with loop p (when p >= 0) running over [lo, hi)
// instead of [0, shape[p]).
func (b *fb) rangedNest(shape []int64, p int, lo, hi value.Value, body func(idx []value.Value)) {
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	idx := make([]value.Value, len(shape))
	var rec func(d int)
	rec = func(d int) {
		if d == len(shape) {
			body(idx)
			return
		}
		each := func(i value.Value) {
			idx[d] = i
			rec(d + 1)
		}
		if d == p {
			b.loopFrom(lo, hi, each)
		} else {
			b.loop(shape[d], each)
		}
	}
	rec(0)
}

// loopFrom emits `for i := lo; i < hi; i++ { body(i) }` for run-time
// bounds, rotated like loop. lo must not be negative (the bounds are a
// parallel chunk's): the increment is marked not to wrap either way.
func (b *fb) loopFrom(lo, hi value.Value, body func(i value.Value)) {
	pre := b.cur
	head := b.f.NewBlock("")
	exit := b.f.NewBlock("")
	pre.NewCondBr(pre.NewICmp(enum.IPredSLT, lo, hi), head, exit)
	b.cur = head
	phi := head.NewPhi(ir.NewIncoming(lo, pre))
	body(phi)
	next := b.cur.NewAdd(phi, i64(1))
	next.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNUW, enum.OverflowFlagNSW}
	br := b.cur.NewCondBr(b.cur.NewICmp(enum.IPredSLT, next, hi), head, exit)
	if b.cur == head {
		b.e.interleaveMap(br, head)
	}
	phi.Incs = append(phi.Incs, ir.NewIncoming(next, b.cur))
	b.cur = exit
}
