package tensor

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Control flow. The Go closures given to While, Cond and Switch are traced
// into region Funcs, each in its own region trace, once, when the op is
// called (eagerly or inside a trace: the op then runs as a graph of one
// op). Regions are isolated from above, so a tensor a closure uses but did
// not make (a concrete tensor, or a value of the enclosing trace) is
// captured as an extra region parameter, and the op passes it in: as extra
// loop state for While (carried through unchanged), as extra operands for
// Case. Capturing is automatic; closures may use any tensor in scope.

// traceRegion traces fn into a region Func with parameters of the given
// types and fn's results as results.
func traceRegion(op, name string, loc ir.Loc, types []ir.Type, fn func([]*Tensor) []*Tensor) *Tracer {
	return traceRegionIn(op, name, loc, types, func(_ *Tracer, ps []*Tensor) []*Tensor { return fn(ps) })
}

// traceRegionIn is traceRegion with fn given the region's tracer.
func traceRegionIn(op, name string, loc ir.Loc, types []ir.Type, fn func(*Tracer, []*Tensor) []*Tensor) *Tracer {
	rt := newTracer(name, regionTrace)
	params := make([]*Tensor, len(types))
	for i, t := range types {
		params[i] = rt.Param(t, loc)
	}
	var outs []*Tensor
	func() {
		defer func() {
			if r := recover(); r != nil {
				rt.done = true
				panic(r)
			}
		}()
		outs = fn(rt, params)
	}()
	vals := make([]*ir.Value, len(outs))
	for i, o := range outs {
		if o == nil {
			rt.done = true
			panic(ir.Errorf(loc, op, "%s: result #%d is nil", name, i))
		}
		v, err := rt.valueOf(o, loc)
		if err != nil {
			rt.done = true
			panic(ir.Errorf(loc, op, "%s: result #%d: %v", name, i, err))
		}
		vals[i] = v
	}
	rt.fn.Return(vals...)
	rt.done = true
	return rt
}

// alignCaptures gives every region the same trailing parameters, one per
// tensor captured by any of them (in first-capture order), adding unused
// parameters where a region did not capture a tensor, and returns those
// tensors: the extra operands of the op.
func alignCaptures(loc ir.Loc, rts ...*Tracer) []*Tensor {
	var extra []*Tensor
	seen := map[any]bool{}
	for _, rt := range rts {
		for _, c := range rt.caps {
			if k := c.key(); !seen[k] {
				seen[k] = true
				extra = append(extra, c)
			}
		}
	}
	for _, rt := range rts {
		params := slices.Clone(rt.fn.Params[:rt.declared])
		for _, e := range extra {
			p, ok := rt.capParam[e.key()]
			if !ok {
				p = rt.fn.AddParam(e.Type(), loc)
			}
			params = append(params, p)
		}
		for i, p := range params {
			p.Index = i
		}
		rt.fn.Params = params
	}
	return extra
}

func typesOf(ts []*Tensor) []ir.Type {
	out := make([]ir.Type, len(ts))
	for i, t := range ts {
		out[i] = t.Type()
	}
	return out
}

// While runs body on the loop state while cond holds and returns the final
// state. cond returns an i1 scalar; body returns a new state of the same
// types as init.
//
//	out := While(
//		func(s []*Tensor) *Tensor { return Less(s[0], n) },
//		func(s []*Tensor) []*Tensor { return []*Tensor{Add(s[0], one), Mul(s[1], x)} },
//		i0, acc0)
func While(cond func(state []*Tensor) *Tensor, body func(state []*Tensor) []*Tensor, init ...*Tensor) []*Tensor {
	loc := ir.CallerLoc()
	checkNotNil("while", init...)
	if cond == nil || body == nil {
		panic(ir.Errorf(loc, "while", "nil cond or body"))
	}
	types := typesOf(init)
	c := traceRegion("while", "cond", loc, types, func(s []*Tensor) []*Tensor { return []*Tensor{cond(s)} })
	if t := c.fn.Results[0].Type; !t.Equal(ir.Scalar(ir.Bool)) {
		panic(ir.Errorf(loc, "while", "cond returns %v, want i1[]", t))
	}
	b := traceRegion("while", "body", loc, types, body)
	if got := b.fn.ResultTypes(); len(got) != len(types) {
		panic(ir.Errorf(loc, "while", "body returns %d tensors, want %d (one per loop state tensor)", len(got), len(types)))
	}
	for i, t := range b.fn.ResultTypes() {
		if !t.Equal(types[i]) {
			panic(ir.Errorf(loc, "while", "body result #%d is %v, but the loop state #%d is %v", i, t, i, types[i]))
		}
	}
	extra := alignCaptures(loc, c, b)
	// Captured tensors ride along as loop state the body leaves unchanged.
	b.fn.Results = append(b.fn.Results, b.fn.Params[len(init):]...)
	outs := emit(nil, ir.OpWhile, slices.Concat(init, extra), nil, c.fn, b.fn)
	return outs[:len(init)]
}

// Switch runs branches[index] and returns its results; an index out of
// range runs the last branch. index is an integer scalar; every branch
// returns tensors of the same types.
func Switch(index *Tensor, branches ...func() []*Tensor) []*Tensor {
	loc := ir.CallerLoc()
	checkNotNil("case", index)
	if len(branches) == 0 {
		panic(ir.Errorf(loc, "case", "no branches"))
	}
	if index.Rank() != 0 || !index.typ.DType.IsInteger() {
		panic(ir.Errorf(loc, "case", "index is %v, want an integer scalar", index.typ))
	}
	index = Convert(index, ir.S32)
	rts := make([]*Tracer, len(branches))
	funcs := make([]*ir.Func, len(branches))
	for i, br := range branches {
		if br == nil {
			panic(ir.Errorf(loc, "case", "branch %d is nil", i))
		}
		rts[i] = traceRegion("case", fmt.Sprintf("branch%d", i), loc, nil, func([]*Tensor) []*Tensor { return br() })
		funcs[i] = rts[i].fn
		if i > 0 {
			a, b := rts[0].fn.ResultTypes(), rts[i].fn.ResultTypes()
			if !slices.EqualFunc(a, b, ir.Type.Equal) {
				panic(ir.Errorf(loc, "case", "branch %d returns %v, but branch 0 returns %v", i, b, a))
			}
		}
	}
	extra := alignCaptures(loc, rts...)
	return emit(nil, ir.OpCase, slices.Concat([]*Tensor{index}, extra), nil, funcs...)
}

// Cond runs then when pred (an i1 scalar) is true and otherwise when it is
// false, and returns the results of the branch that ran.
func Cond(pred *Tensor, then, otherwise func() []*Tensor) []*Tensor {
	checkNotNil("case", pred)
	if !pred.typ.Equal(ir.Scalar(ir.Bool)) {
		panic(fail("case", "condition is %v, want i1[]", pred.typ))
	}
	// Branch 0 is then: index = int(!pred).
	return Switch(Convert(Not(pred), ir.S32), then, otherwise)
}

// CustomCall calls a backend-defined target with the attribute's result
// types.
func CustomCall(attr ir.CustomCallAttr, args ...*Tensor) []*Tensor {
	checkNotNil("custom_call", args...)
	attr.ResultTypes = slices.Clone(attr.ResultTypes)
	return emit(nil, ir.OpCustomCall, slices.Clone(args), attr)
}

// ForLoop runs body n times on the loop state, passing the iteration
// number (an si32 scalar, 0 to n-1), and returns the final state, like
// jax.lax.fori_loop. It is a While whose trip count is evident from its
// shape (a counter from a constant, stepped by one, compared with a
// constant), so gradients through it work (reverse mode needs the trip
// count; see jit.Grad).
func ForLoop(n int, body func(i *Tensor, state []*Tensor) []*Tensor, init ...*Tensor) []*Tensor {
	loc := ir.CallerLoc()
	if len(init) == 0 {
		panic(ir.Errorf(loc, "while", "for loop without loop state"))
	}
	checkNotNil("while", init...)
	if body == nil {
		panic(ir.Errorf(loc, "while", "nil body"))
	}
	if n < 0 || n > 1<<31-1 {
		panic(ir.Errorf(loc, "while", "for loop of %d iterations", n))
	}
	i0 := constantAt(init[0], ir.ScalarLiteral(ir.S32, 0))
	out := While(
		func(s []*Tensor) *Tensor { return Less(s[0], ScalarLike(s[0], float64(n))) },
		func(s []*Tensor) []*Tensor {
			next := body(s[0], slices.Clone(s[1:]))
			if len(next) != len(init) {
				panic(ir.Errorf(loc, "while", "body returns %d tensors, want %d (one per loop state tensor)", len(next), len(init)))
			}
			return append([]*Tensor{Add(s[0], ScalarLike(s[0], 1))}, next...)
		},
		append([]*Tensor{i0}, init...)...)
	return out[1:]
}
