package passes

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/stela-ml/stela/ir"
)

// FuseComposites groups the op sequences that the frontend's nn helpers
// build (tensor.Softmax, LayerNorm, RMSNorm, GELU, and attention as
// examples/transformer.go writes it) into composite ops named
// stela.softmax, stela.layer_norm, stela.rms_norm, stela.gelu_tanh and
// stela.sdpa, whose region is the matched ops themselves. The result is bitwise the same: the
// composite means its decomposition. A backend that knows the name may run
// a fused kernel instead; one that does not expands it.
//
// A match needs every inner value (all but the pattern's inputs and its
// root) to be used only inside the pattern, or fusing would compute it
// twice. Constants (and broadcasts of scalar constants) are exempt: they
// are copied into the region and left in place while something else uses
// them. Commutative operands may come in either order, and a scalar
// constant may be a splat constant or a broadcast of one.
var FuseComposites = &Pass{
	Name: "fuse-composites",
	Doc:  "group softmax, layer_norm, rms_norm, tanh-GELU and scaled dot-product attention op sequences into composite ops",
	Run:  fuseComposites,
}

func fuseComposites(m *ir.Module, cx *Context) error {
	for _, f := range m.Funcs {
		forOpenRegions(f, func(r *ir.Func) { fuseFunc(r, cx) })
		fuseFunc(f, cx)
	}
	return nil
}

// forOpenRegions is forRegions that skips composite regions: they are
// already a decomposition, and fusing inside one would nest a composite in
// its own body when the pass runs again (or hide the softmax that an SDPA
// match inlines).
func forOpenRegions(f *ir.Func, fn func(*ir.Func)) {
	for _, in := range f.Body {
		if in.Op == ir.OpComposite {
			continue
		}
		for _, r := range in.Regions {
			forOpenRegions(r, fn)
			fn(r)
		}
	}
}

// match is one recognized pattern: its root, its members (root included)
// and its inputs in operand order of the composite.
type match struct {
	name    string
	attrs   []ir.NamedAttr
	root    *ir.Instr
	members map[*ir.Instr]bool
	consts  map[*ir.Instr]bool
	inline  map[*ir.Instr]bool
	inputs  []*ir.Value
}

// matcher collects the members of one attempted match.
type matcher struct {
	members map[*ir.Instr]bool
	consts  map[*ir.Instr]bool // copied into the region, kept if used outside
	inline  map[*ir.Instr]bool // composite members whose region goes in, not the op
	inputs  []*ir.Value
}

func newMatcher() *matcher {
	return &matcher{members: map[*ir.Instr]bool{}, consts: map[*ir.Instr]bool{}, inline: map[*ir.Instr]bool{}}
}

func (mt *matcher) add(in *ir.Instr) { mt.members[in] = true }

// input records v as an input of the pattern (once).
func (mt *matcher) input(v *ir.Value) {
	for _, w := range mt.inputs {
		if w == v {
			return
		}
	}
	mt.inputs = append(mt.inputs, v)
}

// def returns v's defining instruction if it is op.
func def(v *ir.Value, op ir.Op) *ir.Instr {
	if v == nil || v.Def == nil || v.Def.Op != op || len(v.Def.Results) != 1 {
		return nil
	}
	return v.Def
}

// scalarConst reports whether v is a splat constant, or a broadcast of one,
// whose elements equal c converted to v's element type; the instructions
// are recorded as copied constants.
func (mt *matcher) scalarConst(v *ir.Value, c float64) bool {
	x, ok := mt.splat(v)
	if !ok {
		return false
	}
	d := v.Type.DType
	return ir.ElemBits(d, x) == ir.ElemBits(d, ir.FromFloat64(d, c))
}

// splat returns the element of a splat constant v (possibly broadcast)
// and records its instructions as copied constants.
func (mt *matcher) splat(v *ir.Value) (any, bool) {
	if b := def(v, ir.OpBroadcastInDim); b != nil {
		if _, ok := splatBits(b.Args[0]); !ok {
			return nil, false
		}
		mt.consts[b], mt.consts[b.Args[0].Def] = true, true
		return constOf(b.Args[0]).Elem(0), true
	}
	if _, ok := splatBits(v); !ok || v.Type.DType.IsComplex() {
		return nil, false
	}
	mt.consts[v.Def] = true
	return constOf(v).Elem(0), true
}

// commute calls try with (a, b) and then (b, a) for the operands of a
// commutative binary op, keeping the members of the first that succeeds.
func (mt *matcher) commute(in *ir.Instr, try func(a, b *ir.Value) bool) bool {
	for _, swap := range []bool{false, true} {
		a, b := in.Args[0], in.Args[1]
		if swap {
			a, b = b, a
		}
		saved := mt.save()
		if try(a, b) {
			return true
		}
		mt.restore(saved)
	}
	return false
}

type matcherState struct {
	members, consts, inline map[*ir.Instr]bool
	inputs                  []*ir.Value
}

func (mt *matcher) save() matcherState {
	s := matcherState{members: map[*ir.Instr]bool{}, consts: map[*ir.Instr]bool{}, inline: map[*ir.Instr]bool{}, inputs: append([]*ir.Value(nil), mt.inputs...)}
	for k := range mt.inline {
		s.inline[k] = true
	}
	for k := range mt.members {
		s.members[k] = true
	}
	for k := range mt.consts {
		s.consts[k] = true
	}
	return s
}

func (mt *matcher) restore(s matcherState) {
	mt.members, mt.consts, mt.inline, mt.inputs = s.members, s.consts, s.inline, s.inputs
}

// binary returns v's definition if it is the binary op.
func binary(v *ir.Value, op ir.Op) *ir.Instr {
	in := def(v, op)
	if in == nil || len(in.Args) != 2 {
		return nil
	}
	return in
}

// reduceOf matches a single-axis reduce of one operand whose body is the
// binary op body and whose init is the splat init; it returns the operand
// and the axis.
func (mt *matcher) reduceOf(v *ir.Value, body ir.Op, init float64) (*ir.Value, int, bool) {
	r := def(v, ir.OpReduce)
	if r == nil || len(r.Args) != 2 || len(r.Regions) != 1 {
		return nil, 0, false
	}
	dims := r.Attr.(ir.ReduceAttr).Dims
	if len(dims) != 1 {
		return nil, 0, false
	}
	g := r.Regions[0]
	if len(g.Params) != 2 || len(g.Body) != 1 || len(g.Results) != 1 {
		return nil, 0, false
	}
	b := g.Body[0]
	if b.Op != body || len(b.Args) != 2 || g.Results[0] != b.Results[0] ||
		!(b.Args[0] == g.Params[0] && b.Args[1] == g.Params[1] || b.Args[0] == g.Params[1] && b.Args[1] == g.Params[0]) {
		return nil, 0, false
	}
	x, ok := mt.splat(r.Args[1])
	d := r.Args[1].Type.DType
	if !ok || !d.IsFloat() {
		return nil, 0, false
	}
	if f := ir.ToFloat64(d, x); f != init {
		return nil, 0, false
	}
	mt.add(r)
	return r.Args[0], dims[0], true
}

// keepDims matches a reduction of x along one axis broadcast back to x's
// shape, as tensor.KeepDims builds it (broadcast(reshape(r))) or as one
// broadcast that skips the axis. mean asks for Sum(x)/n; otherwise body
// and init name the reduction. It returns the axis.
func (mt *matcher) keepDims(v, x *ir.Value, body ir.Op, init float64, mean bool) (int, bool) {
	b := def(v, ir.OpBroadcastInDim)
	if b == nil || !ir.ShapeEqual(b.Result().Type.Shape, x.Type.Shape) {
		return 0, false
	}
	mt.add(b)
	bdims := b.Attr.(ir.BroadcastInDimAttr).Dims
	r := b.Args[0]
	viaReshape := false
	if rs := def(r, ir.OpReshape); rs != nil {
		mt.add(rs)
		r, viaReshape = rs.Args[0], true
	}
	if mean {
		dv := binary(r, ir.OpDivide)
		if dv == nil {
			return 0, false
		}
		mt.add(dv)
		r = dv.Args[0]
		// The divisor is checked once the axis is known, below.
		axis, ok := mt.keepDimsReduce(r, x, b, bdims, viaReshape, ir.OpAdd, 0)
		if !ok {
			return 0, false
		}
		return axis, mt.scalarConst(dv.Args[1], float64(x.Type.Shape[axis]))
	}
	return mt.keepDimsReduce(r, x, b, bdims, viaReshape, body, init)
}

func (mt *matcher) keepDimsReduce(r, x *ir.Value, b *ir.Instr, bdims []int, viaReshape bool, body ir.Op, init float64) (int, bool) {
	src, axis, ok := mt.reduceOf(r, body, init)
	if !ok || src != x {
		return 0, false
	}
	rank := len(x.Type.Shape)
	if viaReshape {
		// reshape to x's shape with the axis 1, then an identity broadcast.
		want := append([]int(nil), x.Type.Shape...)
		want[axis] = 1
		if !ir.ShapeEqual(b.Args[0].Type.Shape, want) || !isIdentityPerm(bdims) || len(bdims) != rank {
			return 0, false
		}
		return axis, true
	}
	if len(bdims) != rank-1 {
		return 0, false
	}
	for i, k := 0, 0; i < rank; i++ {
		if i == axis {
			continue
		}
		if bdims[k] != i {
			return 0, false
		}
		k++
	}
	return axis, true
}

// matchSoftmax: e / keepdims(sum(e)), e = exp(x - keepdims(max(x))).
func matchSoftmax(root *ir.Instr) *match {
	mt := newMatcher()
	x, axis, ok := mt.softmax(root.Result())
	if !ok {
		return nil
	}
	mt.input(x)
	return mt.done("stela.softmax", root, ir.NamedAttr{Name: "axis", Value: int64(axis)})
}

// softmax matches the softmax of x (returned with its axis) at v, adding
// its ops to the members.
func (mt *matcher) softmax(v *ir.Value) (*ir.Value, int, bool) {
	dv := binary(v, ir.OpDivide)
	if dv == nil || !v.Type.DType.IsFloat() {
		return nil, 0, false
	}
	mt.add(dv)
	e := def(dv.Args[0], ir.OpExp)
	if e == nil {
		return nil, 0, false
	}
	mt.add(e)
	sub := binary(e.Args[0], ir.OpSubtract)
	if sub == nil {
		return nil, 0, false
	}
	mt.add(sub)
	x := sub.Args[0]
	ax1, ok := mt.keepDims(sub.Args[1], x, ir.OpMaximum, math.Inf(-1), false)
	if !ok {
		return nil, 0, false
	}
	ax2, ok := mt.keepDims(dv.Args[1], e.Result(), ir.OpAdd, 0, false)
	if !ok || ax1 != ax2 {
		return nil, 0, false
	}
	return x, ax1, true
}

// normCore matches x * broadcast(rsqrt(keepdims-mean(x*x) + eps)), the
// RMS normalization of x (its operand); it returns x, the axis and eps.
func (mt *matcher) normCore(v *ir.Value) (*ir.Value, int, float64, bool) {
	mul := binary(v, ir.OpMultiply)
	if mul == nil {
		return nil, 0, 0, false
	}
	var x *ir.Value
	var axis int
	var eps float64
	ok := mt.commute(mul, func(a, b *ir.Value) bool {
		bc := def(b, ir.OpBroadcastInDim)
		if bc == nil || !ir.ShapeEqual(bc.Result().Type.Shape, a.Type.Shape) {
			return false
		}
		rs := def(bc.Args[0], ir.OpRsqrt)
		if rs == nil {
			return false
		}
		add := binary(rs.Args[0], ir.OpAdd)
		if add == nil {
			return false
		}
		return mt.commute(add, func(ms, e *ir.Value) bool {
			c, ok := mt.splat(e)
			if !ok {
				return false
			}
			// mean(a*a) kept as [.., 1, ..]: a reshape of sum/n.
			rsh := def(ms, ir.OpReshape)
			if rsh == nil {
				return false
			}
			dv := binary(rsh.Args[0], ir.OpDivide)
			if dv == nil {
				return false
			}
			src, ax, ok := mt.reduceOf(dv.Args[0], ir.OpAdd, 0)
			if !ok {
				return false
			}
			m2 := binary(src, ir.OpMultiply)
			if m2 == nil || m2.Args[0] != a || m2.Args[1] != a {
				return false
			}
			want := append([]int(nil), a.Type.Shape...)
			want[ax] = 1
			if !ir.ShapeEqual(rsh.Result().Type.Shape, want) || !isIdentityPerm(bc.Attr.(ir.BroadcastInDimAttr).Dims) ||
				!mt.scalarConst(dv.Args[1], float64(a.Type.Shape[ax])) {
				return false
			}
			for _, in := range []*ir.Instr{mul, bc, rs, add, rsh, dv, m2} {
				mt.add(in)
			}
			x, axis, eps = a, ax, epsValue(e.Type.DType, c)
			return true
		})
	})
	return x, axis, eps, ok
}

// epsValue is the constant's value, spelled as its own type's shortest
// decimal for f32 (1e-05 rather than 9.999999747378752e-06).
func epsValue(d ir.DType, c any) float64 {
	f := ir.ToFloat64(d, c)
	if d == ir.F32 {
		if g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64); err == nil {
			return g
		}
	}
	return f
}

// affine peels y*gamma + beta (either optional; gamma and beta possibly
// broadcast) off v and calls core on y. Inputs come out as x, gamma, beta.
func (mt *matcher) affine(v *ir.Value, core func(y *ir.Value) (*ir.Value, bool)) bool {
	param := func(p *ir.Value) *ir.Value {
		if b := def(p, ir.OpBroadcastInDim); b != nil {
			mt.add(b)
			return b.Args[0]
		}
		return p
	}
	withGamma := func(v *ir.Value) bool {
		if mul := binary(v, ir.OpMultiply); mul != nil {
			if mt.commute(mul, func(y, g *ir.Value) bool {
				x, ok := core(y)
				if !ok {
					return false
				}
				mt.add(mul)
				mt.input(x)
				mt.input(param(g))
				return true
			}) {
				return true
			}
		}
		return false
	}
	if add := binary(v, ir.OpAdd); add != nil {
		if mt.commute(add, func(y, b *ir.Value) bool {
			if !withGamma(y) {
				return false
			}
			mt.add(add)
			mt.input(param(b))
			return true
		}) {
			return true
		}
	}
	if withGamma(v) {
		return true
	}
	x, ok := core(v)
	if ok {
		mt.input(x)
	}
	return ok
}

// matchNorm matches layer_norm (the RMS normalization of x - mean(x)) and
// rms_norm, each with an optional scale and (layer_norm) shift.
func matchNorm(root *ir.Instr) *match {
	if !root.Result().Type.DType.IsFloat() {
		return nil
	}
	for _, layer := range []bool{true, false} {
		mt := newMatcher()
		var axis int
		var eps float64
		ok := mt.affine(root.Result(), func(y *ir.Value) (*ir.Value, bool) {
			c, ax, e, ok := mt.normCore(y)
			if !ok {
				return nil, false
			}
			axis, eps = ax, e
			if !layer {
				return c, true
			}
			sub := binary(c, ir.OpSubtract)
			if sub == nil {
				return nil, false
			}
			mt.add(sub)
			x := sub.Args[0]
			ax2, ok := mt.keepDims(sub.Args[1], x, ir.OpAdd, 0, true)
			return x, ok && ax2 == ax
		})
		if !ok {
			continue
		}
		// rms_norm has no shift: an add on top is not part of it.
		if !layer && binary(root.Result(), ir.OpAdd) != nil {
			continue
		}
		name := "stela.rms_norm"
		if layer {
			name = "stela.layer_norm"
		}
		return mt.done(name, root, ir.NamedAttr{Name: "axis", Value: int64(axis)}, ir.NamedAttr{Name: "epsilon", Value: eps})
	}
	return nil
}

// matchGELU: tanh-GELU, as (0.5·x)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
// or as x·σ(2√(2/π)·(x + 0.044715·x³)) (the same function: 0.5·(1 + tanh u)
// is σ(2u); tensor.GELU builds the second), x³ = (x·x)·x.
func matchGELU(root *ir.Instr) *match {
	if !root.Result().Type.DType.IsFloat() {
		return nil
	}
	mt := newMatcher()
	top := binary(root.Result(), ir.OpMultiply)
	if top == nil {
		return nil
	}
	var x *ir.Value
	ok := mt.commute(top, func(half, one *ir.Value) bool {
		if sg := def(one, ir.OpLogistic); sg != nil {
			x = half
			return mt.geluArg(sg.Args[0], x, 2*math.Sqrt(2/math.Pi), sg)
		}
		h := binary(half, ir.OpMultiply)
		if h == nil || !mt.commute(h, func(c, v *ir.Value) bool {
			x = v
			return mt.scalarConst(c, 0.5)
		}) {
			return false
		}
		o := binary(one, ir.OpAdd)
		return o != nil && mt.commute(o, func(c, t *ir.Value) bool {
			th := def(t, ir.OpTanh)
			if th == nil || !mt.scalarConst(c, 1) {
				return false
			}
			return mt.geluArg(th.Args[0], x, math.Sqrt(2/math.Pi), h, o, th)
		})
	})
	if !ok {
		return nil
	}
	mt.add(top)
	mt.input(x)
	return mt.done("stela.gelu_tanh", root)
}

// geluArg matches v = scale·(x + 0.044715·x³), x³ = (x·x)·x, the argument
// of tanh-GELU's tanh or logistic; on a match it adds its instructions and
// outer (the caller's, matched already) to the pattern.
func (mt *matcher) geluArg(v, x *ir.Value, scale float64, outer ...*ir.Instr) bool {
	k := binary(v, ir.OpMultiply)
	return k != nil && mt.commute(k, func(c, in *ir.Value) bool {
		ad := binary(in, ir.OpAdd)
		if ad == nil || !mt.scalarConst(c, scale) {
			return false
		}
		return mt.commute(ad, func(xx, cube *ir.Value) bool {
			m := binary(cube, ir.OpMultiply)
			if xx != x || m == nil {
				return false
			}
			return mt.commute(m, func(c, x3 *ir.Value) bool {
				if !mt.scalarConst(c, 0.044715) || !isCube(x3, x) {
					return false
				}
				sq := binary(x3, ir.OpMultiply)
				if sq.Args[0] == x {
					mt.add(sq.Args[1].Def)
				} else {
					mt.add(sq.Args[0].Def)
				}
				for _, i := range append(outer, k, ad, m, sq) {
					mt.add(i)
				}
				return true
			})
		})
	})
}

// isCube reports whether v is (x·x)·x or x·(x·x).
func isCube(v, x *ir.Value) bool {
	m := binary(v, ir.OpMultiply)
	if m == nil {
		return false
	}
	sq := func(w *ir.Value) bool {
		s := binary(w, ir.OpMultiply)
		return s != nil && s.Args[0] == x && s.Args[1] == x
	}
	return m.Args[1] == x && sq(m.Args[0]) || m.Args[0] == x && sq(m.Args[1])
}

func (mt *matcher) done(name string, root *ir.Instr, attrs ...ir.NamedAttr) *match {
	mt.add(root)
	for in := range mt.consts {
		delete(mt.members, in)
	}
	return &match{name: name, attrs: attrs, root: root, members: mt.members, consts: mt.consts, inline: mt.inline, inputs: mt.inputs}
}

// fuseFunc matches roots from the last instruction back, so that the
// largest pattern (layer_norm with its shift, attention around its
// softmax) wins over the smaller ones inside it, then rewrites the matches.
func fuseFunc(f *ir.Func, cx *Context) {
	uses := map[*ir.Value]int{}
	for _, in := range f.Body {
		for _, a := range in.Args {
			uses[a]++
		}
	}
	for _, r := range f.Results {
		uses[r]++
	}
	taken := map[*ir.Instr]bool{}
	byRoot := map[*ir.Instr]*match{}
	copied := map[*ir.Instr]bool{}
	for i := len(f.Body) - 1; i >= 0; i-- {
		in := f.Body[i]
		if taken[in] || len(in.Results) != 1 || len(in.Args) != 2 {
			continue
		}
		var m *match
		for _, try := range []func(*ir.Instr) *match{matchSDPA, matchNorm, matchSoftmax, matchGELU} {
			if m = try(in); m != nil {
				if why := m.escapes(uses, taken); why != "" {
					cx.Remarkf(in, "not fused into %s: %s", m.name, why)
					m = nil
					continue
				}
				break
			}
		}
		if m == nil {
			continue
		}
		for mem := range m.members {
			taken[mem] = true
		}
		byRoot[in] = m
	}
	if len(byRoot) == 0 {
		return
	}
	old := f.Body
	f.Body = make([]*ir.Instr, 0, len(old))
	s := subst{}
	for _, in := range old {
		s.args(in)
		if m := byRoot[in]; m != nil {
			v := m.emit(f, copied)
			s[in.Result()] = v
			cx.Remarkf(in, "fused %d ops into %s", len(m.members), m.name)
			continue
		}
		if taken[in] {
			continue
		}
		f.Body = append(f.Body, in)
	}
	s.results(f)
	dropDeadCopies(f, copied)
}

// escapes says why m cannot be fused: an inner value used outside it, or
// a member already in another match; "" if it can.
func (m *match) escapes(uses map[*ir.Value]int, taken map[*ir.Instr]bool) string {
	inner := map[*ir.Value]int{}
	for mem := range m.members {
		if taken[mem] {
			return "overlaps another fused pattern"
		}
		for _, a := range mem.Args {
			inner[a]++
		}
	}
	for mem := range m.members {
		if mem == m.root {
			continue
		}
		r := mem.Result()
		if inner[r] != uses[r] {
			return fmt.Sprintf("%s %s has uses outside the pattern", mem.Op, r)
		}
	}
	return ""
}

// emit builds the decomposition and the composite op in f (at the end of
// its Body, which the caller is rebuilding) and returns its result.
func (m *match) emit(f *ir.Func, copied map[*ir.Instr]bool) *ir.Value {
	types := make([]ir.Type, len(m.inputs))
	for i, v := range m.inputs {
		types[i] = v.Type
	}
	body := ir.NewFunc(symbolBase(m.name), types...)
	vmap := map[*ir.Value]*ir.Value{}
	for i, v := range m.inputs {
		vmap[v] = body.Params[i]
		body.Params[i].SetParamLoc(v.Loc())
	}
	// Members and copied constants in operand-first order from the root;
	// the walk stops at the inputs.
	var walk func(v *ir.Value)
	order := map[*ir.Instr]bool{}
	walk = func(v *ir.Value) {
		if _, ok := vmap[v]; ok || v.Def == nil || order[v.Def] {
			return
		}
		order[v.Def] = true
		if !m.members[v.Def] && !m.consts[v.Def] {
			panic(fmt.Sprintf("%s: %s reaches %s, neither an input nor a member", m.name, m.root.Op, v.Def.Op))
		}
		for _, a := range v.Def.Args {
			walk(a)
		}
		if !m.members[v.Def] {
			copied[v.Def] = true
		}
		var rs []*ir.Value
		if m.inline[v.Def] {
			rs = inlineRegion(body, v.Def, vmap)
		} else {
			rs = cloneInstr(body, v.Def, vmap)
		}
		for i, r := range v.Def.Results {
			vmap[r] = rs[i]
		}
	}
	walk(m.root.Result())
	body.Return(vmap[m.root.Result()])
	body.Renumber()
	v, err := f.Emit1(m.root.Loc, ir.OpComposite, m.inputs, ir.CompositeAttr{Name: m.name, Attrs: m.attrs}, body)
	if err != nil {
		panic(fmt.Sprintf("emit %s: %v", m.name, err))
	}
	return v
}

// symbolBase is the region's name: the composite's name after its dot.
func symbolBase(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[i+1:]
		}
	}
	return name
}

// cloneInstr re-emits in into dst with operands mapped through vmap,
// copying its regions.
func cloneInstr(dst *ir.Func, in *ir.Instr, vmap map[*ir.Value]*ir.Value) []*ir.Value {
	args := make([]*ir.Value, len(in.Args))
	for i, a := range in.Args {
		args[i] = vmap[a]
	}
	regions := make([]*ir.Func, len(in.Regions))
	for i, r := range in.Regions {
		regions[i] = cloneFunc(r)
	}
	rs, err := dst.Emit(in.Loc, in.Op, args, in.Attr, regions...)
	if err != nil {
		panic(fmt.Sprintf("clone %v: %v", in.Op, err))
	}
	return rs
}

// inlineRegion re-emits the ops of in's single region into dst, its
// parameters bound to in's operands mapped through vmap, and returns what
// the region returns.
func inlineRegion(dst *ir.Func, in *ir.Instr, vmap map[*ir.Value]*ir.Value) []*ir.Value {
	g := in.Regions[0]
	lm := map[*ir.Value]*ir.Value{}
	for i, p := range g.Params {
		lm[p] = vmap[in.Args[i]]
	}
	return cloneBody(dst, g, lm)
}

// cloneBody re-emits g's instructions into dst, g's parameters mapped by
// vmap (which it extends), and returns what g returns, mapped.
func cloneBody(dst, g *ir.Func, vmap map[*ir.Value]*ir.Value) []*ir.Value {
	for _, x := range g.Body {
		rs := cloneInstr(dst, x, vmap)
		for i, r := range x.Results {
			vmap[r] = rs[i]
		}
	}
	out := make([]*ir.Value, len(g.Results))
	for i, r := range g.Results {
		out[i] = vmap[r]
	}
	return out
}

func cloneFunc(g *ir.Func) *ir.Func {
	h := ir.NewFunc(g.Name, g.ParamTypes()...)
	vmap := map[*ir.Value]*ir.Value{}
	for i, p := range g.Params {
		vmap[p] = h.Params[i]
		h.Params[i].SetParamLoc(p.Loc())
	}
	h.Return(cloneBody(h, g, vmap)...)
	return h
}

// dropDeadCopies removes the copied constants that nothing uses any more.
func dropDeadCopies(f *ir.Func, copied map[*ir.Instr]bool) {
	for {
		used := map[*ir.Value]bool{}
		for _, in := range f.Body {
			for _, a := range in.Args {
				used[a] = true
			}
		}
		for _, r := range f.Results {
			used[r] = true
		}
		body := f.Body[:0]
		changed := false
		for _, in := range f.Body {
			if copied[in] && !used[in.Result()] {
				changed = true
				continue
			}
			body = append(body, in)
		}
		f.Body = body
		if !changed {
			return
		}
	}
}

// matchSDPA matches scaled dot-product attention as the frontend builds it:
//
//	s = dot_general(q, k)        batch dims leading, contracting q's last dim
//	s = s · c  or  s / c         optional, c a scalar constant
//	s = select(mask, s, fill)    optional, fill a splat ≤ -1e4 (or -inf);
//	  or s + mask                or an additive mask
//	p = softmax(s) over the key axis, raw or a stela.softmax composite
//	out = dot_general(p, v)
//
// k is [batch.., sk, d] or, with transpose_k, [batch.., d, sk]; v is
// [batch.., sk, dv]. A mask built from compare(iota, iota) (key ≤ query,
// possibly broadcast, selected directly or as an additive select of 0 and
// a large negative) becomes causal = true and is copied into the region
// like a constant; any other mask is the fourth operand: i1 for the select
// form (true keeps the score), float for the additive one. scale is c, or
// 1/c for a division, or 1 without one. A stela.softmax composite inside
// is inlined, so the region is the same whichever pattern was fused first.
func matchSDPA(root *ir.Instr) *match {
	out := def(root.Result(), ir.OpDotGeneral)
	if out == nil || !out.Result().Type.DType.IsFloat() {
		return nil
	}
	p, v := out.Args[0], out.Args[1]
	rank := len(p.Type.Shape)
	nb := rank - 2
	if nb < 0 || len(v.Type.Shape) != rank ||
		!batchContract(out.Attr.(ir.DotGeneralAttr), nb, []int{nb + 1}, []int{nb}) {
		return nil
	}
	mt := newMatcher()
	mt.add(out)
	// The softmax: raw, or already fused.
	var s *ir.Value
	if c := def(p, ir.OpComposite); c != nil && c.Attr.(ir.CompositeAttr).Name == "stela.softmax" &&
		len(c.Args) == 1 && len(c.Regions) == 1 && softmaxAxis(c) == nb+1 {
		mt.add(c)
		mt.inline[c] = true
		s = c.Args[0]
	} else {
		x, axis, ok := mt.softmax(p)
		if !ok || axis != nb+1 {
			return nil
		}
		s = x
	}
	var mask *ir.Value
	causal := false
	s, mask, causal = mt.sdpaMask(s, nb)
	scale := 1.0
	if mul := binary(s, ir.OpMultiply); mul != nil {
		mt.commute(mul, func(a, b *ir.Value) bool {
			c, ok := mt.splat(b)
			if !ok || def(a, ir.OpDotGeneral) == nil {
				return false
			}
			mt.add(mul)
			s, scale = a, shortest(b.Type.DType, ir.ToFloat64(b.Type.DType, c))
			return true
		})
	} else if dv := binary(s, ir.OpDivide); dv != nil && def(dv.Args[0], ir.OpDotGeneral) != nil {
		saved := mt.save()
		if c, ok := mt.splat(dv.Args[1]); ok {
			mt.add(dv)
			s, scale = dv.Args[0], shortest(dv.Args[1].Type.DType, 1/ir.ToFloat64(dv.Args[1].Type.DType, c))
		} else {
			mt.restore(saved)
		}
	}
	qk := def(s, ir.OpDotGeneral)
	if qk == nil {
		return nil
	}
	q, k := qk.Args[0], qk.Args[1]
	if len(q.Type.Shape) != rank || len(k.Type.Shape) != rank {
		return nil
	}
	at := qk.Attr.(ir.DotGeneralAttr)
	transposeK := false
	switch {
	case batchContract(at, nb, []int{nb + 1}, []int{nb + 1}):
	case batchContract(at, nb, []int{nb + 1}, []int{nb}):
		transposeK = true
	default:
		return nil
	}
	mt.add(qk)
	mt.input(q)
	mt.input(k)
	mt.input(v)
	if mask != nil {
		mt.input(mask)
	}
	return mt.done("stela.sdpa", root,
		ir.NamedAttr{Name: "scale", Value: scale},
		ir.NamedAttr{Name: "causal", Value: causal},
		ir.NamedAttr{Name: "transpose_k", Value: transposeK})
}

// sdpaMask peels an optional mask off the scores s (rank nb+2): it returns
// the unmasked scores, the mask operand (nil when there is none or it is
// causal) and whether it is causal.
func (mt *matcher) sdpaMask(s *ir.Value, nb int) (*ir.Value, *ir.Value, bool) {
	q, k := nb, nb+1
	if sel := def(s, ir.OpSelect); sel != nil && len(sel.Args) == 3 {
		saved := mt.save()
		pred, x, fill := sel.Args[0], sel.Args[1], sel.Args[2]
		if mt.negFill(fill) {
			mt.add(sel)
			inner := mt.save()
			if mt.causalPred(pred, q, k, true) {
				return x, nil, true
			}
			mt.restore(inner)
			if len(pred.Type.Shape) == nb+2 && constOf(pred) == nil {
				return x, pred, false
			}
		}
		mt.restore(saved)
		// select(masked, fill, s): only the causal form, since an outside
		// mask of this polarity would mean the opposite of the i1 operand.
		pred, fill, x = sel.Args[0], sel.Args[1], sel.Args[2]
		if mt.negFill(fill) && mt.causalPred(pred, q, k, false) {
			mt.add(sel)
			return x, nil, true
		}
		mt.restore(saved)
		return s, nil, false
	}
	add := binary(s, ir.OpAdd)
	if add == nil {
		return s, nil, false
	}
	var x, mask *ir.Value
	causal := false
	if mt.commute(add, func(a, m *ir.Value) bool {
		if !isScores(a) {
			return false
		}
		if mt.additiveCausal(m, q, k) {
			x, causal = a, true
			return true
		}
		if _, ok := splatBits(m); ok || def(m, ir.OpBroadcastInDim) != nil && constOf(m.Def.Args[0]) != nil {
			return false
		}
		x, mask = a, m
		return true
	}) {
		mt.add(add)
		return x, mask, causal
	}
	return s, nil, false
}

// isScores reports whether v is q·k, possibly scaled: what a mask is added to.
func isScores(v *ir.Value) bool {
	if def(v, ir.OpDotGeneral) != nil {
		return true
	}
	if m := binary(v, ir.OpMultiply); m != nil {
		return def(m.Args[0], ir.OpDotGeneral) != nil || def(m.Args[1], ir.OpDotGeneral) != nil
	}
	if d := binary(v, ir.OpDivide); d != nil {
		return def(d.Args[0], ir.OpDotGeneral) != nil
	}
	return false
}

// additiveCausal matches select(keep, 0, neg) or select(masked, neg, 0),
// possibly broadcast, with a causal predicate; all of it is copied.
func (mt *matcher) additiveCausal(m *ir.Value, q, k int) bool {
	saved := mt.save()
	// A mask built at [sq, sk] and broadcast: find the query and key axes
	// in its own coordinates.
	var bc *ir.Instr
	if b := def(m, ir.OpBroadcastInDim); b != nil {
		qa, ka := -1, -1
		for i, d := range b.Attr.(ir.BroadcastInDimAttr).Dims {
			if d == q && b.Args[0].Type.Shape[i] == m.Type.Shape[q] {
				qa = i
			}
			if d == k && b.Args[0].Type.Shape[i] == m.Type.Shape[k] {
				ka = i
			}
		}
		if qa < 0 || ka < 0 {
			return false
		}
		bc, m, q, k = b, b.Args[0], qa, ka
	}
	sel := def(m, ir.OpSelect)
	if sel == nil || len(sel.Args) != 3 {
		return false
	}
	if mt.scalarConst(sel.Args[1], 0) && mt.negFill(sel.Args[2]) && mt.causalPred(sel.Args[0], q, k, true) ||
		mt.negFill(sel.Args[1]) && mt.scalarConst(sel.Args[2], 0) && mt.causalPred(sel.Args[0], q, k, false) {
		mt.consts[sel] = true
		if bc != nil {
			mt.consts[bc] = true
		}
		return true
	}
	mt.restore(saved)
	return false
}

// negFill reports whether v is a splat of -inf or of a value ≤ -1e4: large
// enough that exp underflows to 0 next to any unmasked score, which is
// what lets a kernel implement causal masking its own way.
func (mt *matcher) negFill(v *ir.Value) bool {
	saved := mt.save()
	c, ok := mt.splat(v)
	if !ok || !v.Type.DType.IsFloat() || ir.ToFloat64(v.Type.DType, c) > -1e4 {
		mt.restore(saved)
		return false
	}
	return true
}

// causalPred reports whether pred, of the scores' rank or broadcast to it,
// is compare(iota, iota) true exactly where key ≤ query (keep) or key >
// query (!keep), query and key being axes q and k, both of one length
// (causal masking aligned at the top left is then the only reading). Its
// instructions are recorded as copied constants.
func (mt *matcher) causalPred(pred *ir.Value, q, k int, keep bool) bool {
	shape := pred.Type.Shape
	if len(shape) <= k || shape[q] != shape[k] {
		return false
	}
	var chain []*ir.Instr
	c := pred
	dims := make([]int, len(shape))
	for i := range dims {
		dims[i] = i
	}
	if b := def(pred, ir.OpBroadcastInDim); b != nil {
		chain = append(chain, b)
		c, dims = b.Args[0], b.Attr.(ir.BroadcastInDimAttr).Dims
	}
	cmp := def(c, ir.OpCompare)
	if cmp == nil {
		return false
	}
	chain = append(chain, cmp)
	// axisOf is the scores axis an iota operand counts along, or -1.
	axisOf := func(a *ir.Value) int {
		io := def(a, ir.OpIota)
		if io == nil {
			return -1
		}
		d := io.Attr.(ir.IotaAttr).Dim
		if d >= len(dims) || a.Type.Shape[d] != shape[dims[d]] {
			return -1
		}
		chain = append(chain, io)
		return dims[d]
	}
	l, r := axisOf(cmp.Args[0]), axisOf(cmp.Args[1])
	dir := cmp.Attr.(ir.CompareAttr).Direction
	if l == k && r == q {
		l, r = r, l
		dir = map[ir.ComparisonDirection]ir.ComparisonDirection{ir.CmpGE: ir.CmpLE, ir.CmpLE: ir.CmpGE, ir.CmpGT: ir.CmpLT, ir.CmpLT: ir.CmpGT}[dir]
	}
	// query ≥ key keeps the score; query < key masks it.
	if l != q || r != k || keep && dir != ir.CmpGE || !keep && dir != ir.CmpLT {
		return false
	}
	for _, in := range chain {
		mt.consts[in] = true
	}
	return true
}

// softmaxAxis is a stela.softmax composite's axis attribute, or -1.
func softmaxAxis(c *ir.Instr) int {
	for _, a := range c.Attr.(ir.CompositeAttr).Attrs {
		if n, ok := a.Value.(int64); ok && a.Name == "axis" {
			return int(n)
		}
	}
	return -1
}

// batchContract reports whether a dot_general's dims are batch 0..nb-1 on
// both sides with the given contracting dims.
func batchContract(at ir.DotGeneralAttr, nb int, lc, rc []int) bool {
	if len(at.LhsBatch) != nb || len(at.RhsBatch) != nb {
		return false
	}
	for i := 0; i < nb; i++ {
		if at.LhsBatch[i] != i || at.RhsBatch[i] != i {
			return false
		}
	}
	return slices.Equal(at.LhsContract, lc) && slices.Equal(at.RhsContract, rc)
}

// shortest spells f as its own type's shortest decimal for f32, as
// epsValue does.
func shortest(d ir.DType, f float64) float64 {
	if d == ir.F32 {
		if g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64); err == nil {
			return g
		}
	}
	return f
}
