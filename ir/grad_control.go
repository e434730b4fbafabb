package ir

import (
	"fmt"
	"slices"
)

// Autodiff rules of the ops with regions: while, case and composite.
// Their regions are differentiated by the transform (AD.T), which
// returns functions that recompute the region's forward values from its
// parameters; the rules thread those functions through new control flow.

// floatMask marks the values of differentiable type.
func floatMask(vs []*Value) []bool {
	m := make([]bool, len(vs))
	for i, v := range vs {
		m[i] = Differentiable(v.Type.DType)
	}
	return m
}

// region returns f, or stops the rule with err: the region's own
// derivative failed (a located error from an op inside it).
func (a *AD) region(f *Func, err error) *Func {
	if err != nil {
		panic(err)
	}
	return f
}

// zerosFor returns g, or zeros of v's type when g is nil.
func (a *AD) zerosFor(g *Value, v *Value) *Value {
	if g != nil {
		return g
	}
	return a.ZerosLike(v)
}

// newRegion makes an empty region function with parameters of the given
// types, located at the forward op.
func newRegion(name string, loc Loc, types ...Type) (*Func, *Builder) {
	f := NewFunc(name, types...)
	for _, p := range f.Params {
		p.SetParamLoc(loc)
	}
	return f, NewBuilder(f, loc)
}

// vjpComposite differentiates the decomposition, inlined.
func vjpComposite(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	dec := a.In.Regions[0]
	wrt := floatMask(dec.Params)
	g := a.region(a.T.RegionVJP(dec, wrt))
	args := make([]*Value, 0, len(a.In.Args)+len(ct))
	for i := range a.In.Args {
		args = append(args, a.Arg(i))
	}
	for j, r := range a.In.Results {
		if Differentiable(r.Type.DType) {
			args = append(args, a.zerosFor(ct[j], a.Res(j)))
		}
	}
	cts := a.Inline(g, args...)
	k := 0
	for i := range wrt {
		if wrt[i] {
			if a.Need(i) {
				out[i] = cts[k]
			}
			k++
		}
	}
	return out
}

func jvpComposite(a *AD, t []*Value) []*Value {
	if noCotangent(t) {
		return make([]*Value, len(a.In.Results))
	}
	dec := a.In.Regions[0]
	wrt := floatMask(dec.Params)
	g := a.region(a.T.RegionJVP(dec, wrt))
	args := make([]*Value, 0, 2*len(a.In.Args))
	for i := range a.In.Args {
		args = append(args, a.Arg(i))
	}
	for i, w := range wrt {
		if w {
			args = append(args, a.zerosFor(t[i], a.Arg(i)))
		}
	}
	rs := a.Inline(g, args...)
	return spreadTangents(a.In.Results, rs[len(a.In.Results):])
}

// spreadTangents places the tangents of the float results (in order)
// at their results' positions.
func spreadTangents(results []*Value, ts []*Value) []*Value {
	out := make([]*Value, len(results))
	k := 0
	for j, r := range results {
		if Differentiable(r.Type.DType) {
			out[j] = ts[k]
			k++
		}
	}
	return out
}

// vjpCase runs, on the same index, the VJP of the branch that ran: each
// branch of the new case recomputes its forward values from the operands
// and takes the results' cotangents to the operands'.
func vjpCase(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	ops := a.In.Args[1:]
	wrt := floatMask(ops)
	if !slices.Contains(wrt, true) {
		return out
	}
	branches := make([]*Func, len(a.In.Regions))
	for i, br := range a.In.Regions {
		branches[i] = a.region(a.T.RegionVJP(br, wrt))
	}
	args := []*Value{a.Arg(0)}
	for i := range ops {
		args = append(args, a.Arg(i+1))
	}
	for j, r := range a.In.Results {
		if Differentiable(r.Type.DType) {
			args = append(args, a.zerosFor(ct[j], a.Res(j)))
		}
	}
	cts := a.Emit(OpCase, args, nil, branches...)
	k := 0
	for i, w := range wrt {
		if w {
			if a.Need(i + 1) {
				out[i+1] = cts[k]
			}
			k++
		}
	}
	return out
}

func jvpCase(a *AD, t []*Value) []*Value {
	ops := a.In.Args[1:]
	wrt := floatMask(ops)
	if noCotangent(t) || !slices.Contains(wrt, true) {
		return make([]*Value, len(a.In.Results))
	}
	branches := make([]*Func, len(a.In.Regions))
	for i, br := range a.In.Regions {
		branches[i] = a.region(a.T.RegionJVP(br, wrt))
	}
	args := []*Value{a.Arg(0)}
	for i := range ops {
		args = append(args, a.Arg(i+1))
	}
	for i, w := range wrt {
		if w {
			args = append(args, a.zerosFor(t[i+1], a.Arg(i+1)))
		}
	}
	rs := a.Emit(OpCase, args, nil, branches...)
	return spreadTangents(a.In.Results, rs[len(a.In.Results):])
}

// jvpWhile carries the float state's tangents as extra loop state: the
// condition reads the primal state, the body is the region's JVP.
func jvpWhile(a *AD, t []*Value) []*Value {
	state := a.In.Args
	wrt := floatMask(state)
	if noCotangent(t) || !slices.Contains(wrt, true) {
		return make([]*Value, len(a.In.Results))
	}
	cond, body := a.In.Regions[0], a.In.Regions[1]
	var ttypes []Type
	for i, w := range wrt {
		if w {
			ttypes = append(ttypes, state[i].Type)
		}
	}
	all := slices.Concat(typesOf(state), ttypes)
	c, cb := newRegion("cond", a.Loc, all...)
	c.Return(cb.Inline(cond, c.Params[:len(state)]...)...)
	b, bb := newRegion("body", a.Loc, all...)
	jb := a.region(a.T.RegionJVP(body, wrt))
	b.Return(bb.Inline(jb, b.Params...)...)
	args := make([]*Value, 0, len(all))
	for i := range state {
		args = append(args, a.Arg(i))
	}
	for i, w := range wrt {
		if w {
			args = append(args, a.zerosFor(t[i], a.Arg(i)))
		}
	}
	rs := a.Emit(OpWhile, args, nil, c, b)
	return spreadTangents(a.In.Results, rs[len(state):])
}

func typesOf(vs []*Value) []Type {
	ts := make([]Type, len(vs))
	for i, v := range vs {
		ts[i] = v.Type
	}
	return ts
}

// vjpWhile differentiates a loop with a trip count n known when the
// transform runs. A forward loop of n iterations stacks the state that
// changes from iteration to iteration (the loop-invariant state, such as
// captured tensors, is kept once); a reverse loop then runs the body's
// VJP from iteration n-1 down to 0, each time recomputing that
// iteration's forward values from its stacked state. Memory: n copies of
// the changing state; time: about three times the forward loop.
func vjpWhile(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	state := a.In.Args
	wrt := floatMask(state)
	if noCotangent(ct) || !slices.Contains(wrt, true) {
		return out
	}
	n, why := whileTripCount(a)
	if n < 0 {
		a.Fail("the gradient of a while loop needs a trip count known when differentiating, and %s; write the loop with tensor.ForLoop, or compare a counter that starts at a constant and grows by a constant step with a constant bound", why)
	}
	body := a.In.Regions[1]
	k := len(state)
	// Which state changes: body result i is not simply its parameter i.
	varying := make([]bool, k)
	for i := range k {
		varying[i] = body.Results[i] != body.Params[i]
	}
	if n == 0 {
		for i, w := range wrt {
			if w && a.Need(i) {
				out[i] = a.zerosFor(ct[i], a.Arg(i))
			}
		}
		return out
	}
	i32 := Scalar(S32)
	stackType := func(t Type) Type { return TensorOf(t.DType, append([]int{n}, t.Shape...)...) }
	var stackTypes []Type
	for i, v := range varying {
		if v {
			stackTypes = append(stackTypes, stackType(state[i].Type))
		}
	}
	// Forward: (i, state..., stacks...).
	ftypes := slices.Concat([]Type{i32}, typesOf(state), stackTypes)
	fc, fcb := newRegion("cond", a.Loc, ftypes...)
	fc.Return(fcb.Compare(CmpLT, fc.Params[0], fcb.Const(S32, float64(n))))
	fb, fbb := newRegion("body", a.Loc, ftypes...)
	it, s := fb.Params[0], fb.Params[1:1+k]
	stacks := fb.Params[1+k:]
	var newStacks []*Value
	j := 0
	for i, v := range varying {
		if !v {
			continue
		}
		x := s[i]
		row := fbb.Reshape(x, append([]int{1}, x.Type.Shape...)...)
		idx := []*Value{it}
		for range x.Type.Rank() {
			idx = append(idx, fbb.Const(S32, 0))
		}
		newStacks = append(newStacks, fbb.Emit1(OpDynamicUpdateSlice, append([]*Value{stacks[j], row}, idx...), nil))
		j++
	}
	next := fbb.Inline(body, s...)
	fb.Return(slices.Concat([]*Value{fbb.Add(it, fbb.Const(S32, 1))}, next, newStacks)...)
	finit := []*Value{a.Const(S32, 0)}
	for i := range state {
		finit = append(finit, a.Arg(i))
	}
	for _, t := range stackTypes {
		finit = append(finit, a.Zeros(t))
	}
	fwd := a.Emit(OpWhile, finit, nil, fc, fb)
	stacked := fwd[1+k:]

	// Reverse: (j, ct of float state..., stacks..., invariant state...).
	bodyVJP := a.region(a.T.RegionVJP(body, wrt))
	var ctTypes []Type
	for i, w := range wrt {
		if w {
			ctTypes = append(ctTypes, state[i].Type)
		}
	}
	var invTypes []Type
	for i, v := range varying {
		if !v {
			invTypes = append(invTypes, state[i].Type)
		}
	}
	btypes := slices.Concat([]Type{i32}, ctTypes, stackTypes, invTypes)
	bc, bcb := newRegion("cond", a.Loc, btypes...)
	bc.Return(bcb.Compare(CmpGE, bc.Params[0], bcb.Const(S32, 0)))
	bb, bbb := newRegion("body", a.Loc, btypes...)
	jv := bb.Params[0]
	cts := bb.Params[1 : 1+len(ctTypes)]
	bstacks := bb.Params[1+len(ctTypes) : 1+len(ctTypes)+len(stackTypes)]
	inv := bb.Params[1+len(ctTypes)+len(stackTypes):]
	sj := make([]*Value, k)
	js, ji := 0, 0
	for i, v := range varying {
		if !v {
			sj[i] = inv[ji]
			ji++
			continue
		}
		t := state[i].Type
		idx := []*Value{jv}
		for range t.Rank() {
			idx = append(idx, bbb.Const(S32, 0))
		}
		row := bbb.Emit1(OpDynamicSlice, append([]*Value{bstacks[js]}, idx...), DynamicSliceAttr{Sizes: append([]int{1}, t.Shape...)})
		sj[i] = bbb.Reshape(row, t.Shape...)
		js++
	}
	prev := bbb.Inline(bodyVJP, slices.Concat(sj, cts)...)
	bb.Return(slices.Concat([]*Value{bbb.Sub(jv, bbb.Const(S32, 1))}, prev, bstacks, inv)...)
	binit := []*Value{a.Const(S32, float64(n-1))}
	for i, w := range wrt {
		if w {
			binit = append(binit, a.zerosFor(ct[i], a.Res(i)))
		}
	}
	binit = append(binit, stacked...)
	for i, v := range varying {
		if !v {
			binit = append(binit, a.Arg(i))
		}
	}
	rev := a.Emit(OpWhile, binit, nil, bc, bb)
	m := 1
	for i, w := range wrt {
		if w {
			if a.Need(i) {
				out[i] = rev[m]
			}
			m++
		}
	}
	return out
}

// whileTripCount finds how many times a loop runs, from the shape of a
// counted loop: the condition compares a counter (a state element of
// integer type) with a bound (a constant in the condition, or loop state
// the body leaves unchanged whose value is known), the body adds a
// positive constant step to the counter, and the counter's initial value
// is known. It returns -1 and the reason when the loop is not of that
// shape.
func whileTripCount(a *AD) (int, string) {
	cond, body := a.In.Regions[0], a.In.Regions[1]
	if len(cond.Results) != 1 || cond.Results[0].Def == nil || cond.Results[0].Def.Op != OpCompare {
		return -1, "its condition is not a comparison"
	}
	cmp := cond.Results[0].Def
	dir := cmp.Attr.(CompareAttr).Direction
	x, y := cmp.Args[0], cmp.Args[1]
	// Normalize to counter (dir) bound.
	counter, bound := x, y
	if !x.IsParam() || x.Func != cond {
		counter, bound = y, x
		switch dir {
		case CmpLT:
			dir = CmpGT
		case CmpGT:
			dir = CmpLT
		case CmpLE:
			dir = CmpGE
		case CmpGE:
			dir = CmpLE
		}
	}
	if !counter.IsParam() || counter.Func != cond || !counter.Type.DType.IsInteger() {
		return -1, "its condition does not compare an integer loop counter"
	}
	c := counter.Index
	limit, ok := whileBound(a, bound, cond, body)
	if !ok {
		return -1, "the bound its counter is compared with is not a constant"
	}
	init := a.T.Known(a.In.Args[c])
	if init == nil || init.Type.Rank() != 0 {
		return -1, fmt.Sprintf("the initial value of its counter (loop state #%d) is not known", c)
	}
	start := init.Int64s()[0]
	step, ok := counterStep(body, c)
	if !ok {
		return -1, fmt.Sprintf("its body does not add a positive constant to its counter (loop state #%d)", c)
	}
	d := limit - start
	switch dir {
	case CmpLT:
		if d <= 0 {
			return 0, ""
		}
		return int((d + step - 1) / step), ""
	case CmpLE:
		if d < 0 {
			return 0, ""
		}
		return int(d/step + 1), ""
	case CmpNE:
		if d >= 0 && d%step == 0 {
			return int(d / step), ""
		}
		return -1, "its counter never equals the bound it stops at"
	}
	return -1, fmt.Sprintf("its condition compares its counter with %v, not <, <= or !=", dir)
}

// whileBound is the value of the condition's bound, if it is a constant
// of the condition or loop state that the body does not change and whose
// initial value the transform knows.
func whileBound(a *AD, v *Value, cond, body *Func) (int64, bool) {
	if v.Def != nil && v.Def.Op == OpConstant {
		l := v.Def.Attr.(ConstantAttr).Value
		if l.Type.Rank() == 0 && l.Type.DType.IsInteger() {
			return l.Int64s()[0], true
		}
		return 0, false
	}
	if v.IsParam() && v.Func == cond && body.Results[v.Index] == body.Params[v.Index] {
		if l := a.T.Known(a.In.Args[v.Index]); l != nil && l.Type.Rank() == 0 && l.Type.DType.IsInteger() {
			return l.Int64s()[0], true
		}
	}
	return 0, false
}

// counterStep is the constant the body adds to state element c.
func counterStep(body *Func, c int) (int64, bool) {
	r := body.Results[c]
	if r.Def == nil || r.Def.Op != OpAdd {
		return 0, false
	}
	p := body.Params[c]
	var k *Value
	switch {
	case r.Def.Args[0] == p:
		k = r.Def.Args[1]
	case r.Def.Args[1] == p:
		k = r.Def.Args[0]
	default:
		return 0, false
	}
	if k.Def == nil || k.Def.Op != OpConstant {
		return 0, false
	}
	l := k.Def.Attr.(ConstantAttr).Value
	if l.Type.Rank() != 0 || !l.Type.DType.IsInteger() || l.Int64s()[0] <= 0 {
		return 0, false
	}
	return l.Int64s()[0], true
}

// vjpNone and jvpNone are the rules of ops without operands (constants):
// nothing to differentiate.
func vjpNone(a *AD, ct []*Value) []*Value { return make([]*Value, len(a.In.Args)) }
func jvpNone(a *AD, t []*Value) []*Value  { return make([]*Value, len(a.In.Results)) }
