// Package autodiff transforms Stela IR functions into their derivatives:
// reverse mode (vector-Jacobian products, what gradients are made of) and
// forward mode (Jacobian-vector products). The results are ordinary IR
// functions: they print, verify, go through the pass pipeline (CSE, DCE
// and folding remove the forward work a derivative does not need) and
// lower like any program.
//
// In: a verified *ir.Func and the indices of the parameters to
// differentiate with respect to (floats or complex numbers). Out: a new
// function; f is not modified. Each op's derivative comes from its op
// table entry (ir.OpInfo.VJP and JVP, ir/autodiff.go); an op marked
// ir.NotDifferentiable, or one without a rule, that a derivative has to
// go through is an error located at the op, naming it. Every instruction
// the transform emits carries the location of the forward op it
// differentiates, so errors and STELA_DEBUG=nans name the user's line.
//
// Only the active part of f is differentiated: instructions that depend
// on a differentiated parameter (varied) and that some float result
// depends on (useful), the activity analysis of Hascoët and Pascual's
// Tapenade; integer and i1 values never carry derivatives.
//
// Two shapes of output serve two callers. VJP and JVP return one joint
// function that recomputes the forward values it needs from the
// parameters: what `stela dump` shows and what a compiled gradient is.
// NewBackward and NewForward return the derivative part alone, a function
// of the derivatives in and of "residuals", the forward values the rules
// read, listed so that a caller that already computed them (the
// frontend's eager gradient tape) passes them in instead.
package autodiff

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// Options configure a transform.
type Options struct {
	// Known returns the value of a value of f when the caller knows it
	// (the eager tape knows every value it computed), nil otherwise. The
	// rules use it where the shape of a derivative depends on a value, as
	// a loop's trip count does. Constants are always known.
	Known func(v *ir.Value) *ir.Literal
}

// Derivative is the derivative part of a function: Func's parameters are
// the incoming derivatives, then one per residual.
type Derivative struct {
	// Func is (ct(R_0), ..., ct(R_m-1), residuals...) → (ct(P_w) for each
	// w in wrt) for NewBackward, and (t(P_w) for each w in wrt...,
	// residuals...) → (t(R_0), ..., t(R_m-1)) for NewForward.
	Func *ir.Func
	// Residuals are the values of f that Func's trailing parameters
	// stand for, in order.
	Residuals []*ir.Value
}

// VJP returns f's reverse-mode function: (P..., ct(R)...) → (R...,
// ct(P_w) for each w in wrt...), with one cotangent parameter per result
// of f, of the result's type (those of results that are not floats are
// ignored).
func VJP(f *ir.Func, wrt []int, opt Options) (*ir.Func, error) {
	if err := checkWRT(f, wrt); err != nil {
		return nil, err
	}
	out := ir.NewFunc(f.Name + "_vjp")
	out.Mesh = f.Mesh // the derivative runs on the same mesh: its constraints and manual computations name it
	vmap := map[*ir.Value]*ir.Value{}
	for _, p := range f.Params {
		vmap[p] = out.AddParam(p.Type, p.Loc())
	}
	cts := make([]*ir.Value, len(f.Results))
	for j, r := range f.Results {
		cts[j] = out.AddParam(r.Type, r.Loc())
	}
	e := newEngine(f, out, opt)
	var res []*ir.Value
	err := e.run(func() {
		fwd := cloneInto(out, f, vmap)
		e.primal = func(v *ir.Value) *ir.Value { return e.mapped(vmap, v) }
		grads := e.backward(wrt, cts)
		res = append(fwd, grads...)
	})
	if err != nil {
		return nil, err
	}
	out.Return(res...)
	inheritShardings(out, f, append(paramShardings(f, nil), resultShardings(f)...), append(resultShardings(f), paramShardings(f, wrt)...))
	return finish(out)
}

// JVP returns f's forward-mode function: (P..., t(P_w) for each w in
// wrt...) → (R..., t(R)...), with one tangent result per result of f
// (zeros for results that are not floats).
func JVP(f *ir.Func, wrt []int, opt Options) (*ir.Func, error) {
	if err := checkWRT(f, wrt); err != nil {
		return nil, err
	}
	out := ir.NewFunc(f.Name + "_jvp")
	out.Mesh = f.Mesh // the derivative runs on the same mesh: its constraints and manual computations name it
	vmap := map[*ir.Value]*ir.Value{}
	for _, p := range f.Params {
		vmap[p] = out.AddParam(p.Type, p.Loc())
	}
	ts := make([]*ir.Value, len(wrt))
	for i, w := range wrt {
		ts[i] = out.AddParam(f.Params[w].Type, f.Params[w].Loc())
	}
	e := newEngine(f, out, opt)
	var res []*ir.Value
	err := e.run(func() {
		fwd := cloneInto(out, f, vmap)
		e.primal = func(v *ir.Value) *ir.Value { return e.mapped(vmap, v) }
		res = append(fwd, e.forward(wrt, ts)...)
	})
	if err != nil {
		return nil, err
	}
	out.Return(res...)
	inheritShardings(out, f, append(paramShardings(f, nil), paramShardings(f, wrt)...), append(resultShardings(f), resultShardings(f)...))
	return finish(out)
}

// NewBackward returns the reverse-mode derivative part of f, which reads
// the forward values it needs as residual parameters.
func NewBackward(f *ir.Func, wrt []int, opt Options) (*Derivative, error) {
	if err := checkWRT(f, wrt); err != nil {
		return nil, err
	}
	out := ir.NewFunc(f.Name + "_bwd")
	out.Mesh = f.Mesh // the derivative runs on the same mesh: its constraints and manual computations name it
	cts := make([]*ir.Value, len(f.Results))
	for j, r := range f.Results {
		cts[j] = out.AddParam(r.Type, r.Loc())
	}
	e := newEngine(f, out, opt)
	d := &Derivative{Func: out}
	e.primal = e.residual(d)
	var res []*ir.Value
	if err := e.run(func() { res = e.backward(wrt, cts) }); err != nil {
		return nil, err
	}
	out.Return(res...)
	inheritShardings(out, f, resultShardings(f), paramShardings(f, wrt))
	return d, finishResiduals(d)
}

// NewForward returns the forward-mode derivative part of f, which reads
// the forward values it needs as residual parameters.
func NewForward(f *ir.Func, wrt []int, opt Options) (*Derivative, error) {
	if err := checkWRT(f, wrt); err != nil {
		return nil, err
	}
	out := ir.NewFunc(f.Name + "_fwd")
	out.Mesh = f.Mesh // the derivative runs on the same mesh: its constraints and manual computations name it
	ts := make([]*ir.Value, len(wrt))
	for i, w := range wrt {
		ts[i] = out.AddParam(f.Params[w].Type, f.Params[w].Loc())
	}
	e := newEngine(f, out, opt)
	d := &Derivative{Func: out}
	e.primal = e.residual(d)
	var res []*ir.Value
	if err := e.run(func() { res = e.forward(wrt, ts) }); err != nil {
		return nil, err
	}
	out.Return(res...)
	inheritShardings(out, f, paramShardings(f, wrt), resultShardings(f))
	return d, finishResiduals(d)
}

// inheritShardings gives a derivative function out of f the mesh of f
// and the shardings of its parameters and results: a cotangent or tangent
// is sharded as the value it is the derivative of, so that a sharded
// program's gradients are sharded as its parameters (what data-parallel
// and FSDP training expect), and the sharding constraints the rules copy
// from the forward program find their mesh. Residual parameters, added
// later, get none: propagation gives them theirs.
func inheritShardings(out, f *ir.Func, ins, outs []*ir.Sharding) {
	if f.Mesh == nil || f.Parent != nil {
		return
	}
	out.Mesh = f.Mesh
	if slices.ContainsFunc(ins, func(s *ir.Sharding) bool { return s != nil }) {
		out.InShardings = ins
	}
	if slices.ContainsFunc(outs, func(s *ir.Sharding) bool { return s != nil }) {
		out.OutShardings = outs
	}
}

// paramShardings are the shardings of f's parameters wrt (all of them
// when wrt is nil), nil where a parameter has none.
func paramShardings(f *ir.Func, wrt []int) []*ir.Sharding {
	if wrt == nil {
		wrt = make([]int, len(f.Params))
		for i := range wrt {
			wrt[i] = i
		}
	}
	out := make([]*ir.Sharding, len(wrt))
	for i, w := range wrt {
		out[i] = f.InSharding(w)
	}
	return out
}

// resultShardings are the shardings of f's results, nil where one has
// none.
func resultShardings(f *ir.Func) []*ir.Sharding {
	out := make([]*ir.Sharding, len(f.Results))
	for j := range out {
		out[j] = f.OutSharding(j)
	}
	return out
}

func checkWRT(f *ir.Func, wrt []int) error {
	seen := map[int]bool{}
	for _, w := range wrt {
		if w < 0 || w >= len(f.Params) {
			return fmt.Errorf("autodiff @%s: no parameter #%d (it has %d)", f.Name, w, len(f.Params))
		}
		if seen[w] {
			return fmt.Errorf("autodiff @%s: parameter #%d listed twice", f.Name, w)
		}
		seen[w] = true
		if t := f.Params[w].Type; !ir.Differentiable(t.DType) {
			return ir.Errorf(f.Params[w].Loc(), "autodiff", "parameter #%d of @%s is %v: only float and complex values have derivatives", w, f.Name, t)
		}
	}
	return nil
}

// finish removes the forward work nothing reads and checks the result.
func finish(out *ir.Func) (*ir.Func, error) {
	if err := passes.DCE.Run(&ir.Module{Funcs: []*ir.Func{out}}, nil); err != nil {
		return nil, err
	}
	if err := ir.Verify(out); err != nil {
		return nil, fmt.Errorf("autodiff: internal error: the derivative of @%s does not verify: %w", out.Name, err)
	}
	return out, nil
}

// finishResiduals is finish for a derivative part, whose residual
// parameters DCE may have left unused: they stay (the caller binds them
// by position), and the list stays in step with them.
func finishResiduals(d *Derivative) error {
	_, err := finish(d.Func)
	return err
}

// engine differentiates one function into another.
type engine struct {
	f, out *ir.Func
	opt    Options
	// primal maps a value of f to the value that stands for it in out.
	primal func(*ir.Value) *ir.Value
}

func newEngine(f, out *ir.Func, opt Options) *engine {
	return &engine{f: f, out: out, opt: opt}
}

// mapped is vmap[v], which must exist.
func (e *engine) mapped(vmap map[*ir.Value]*ir.Value, v *ir.Value) *ir.Value {
	m, ok := vmap[v]
	if !ok {
		panic(&ir.BuildError{Err: fmt.Errorf("value %s of @%s has no primal in the derivative", v, e.f.Name)})
	}
	return m
}

// residual returns a primal function that makes each forward value a
// parameter of d.Func the first time a rule asks for it.
func (e *engine) residual(d *Derivative) func(*ir.Value) *ir.Value {
	params := map[*ir.Value]*ir.Value{}
	return func(v *ir.Value) *ir.Value {
		if p, ok := params[v]; ok {
			return p
		}
		if v.Func != e.f {
			panic(&ir.BuildError{Err: fmt.Errorf("value %s is not of @%s", v, e.f.Name)})
		}
		p := d.Func.AddParam(v.Type, v.Loc())
		params[v] = p
		d.Residuals = append(d.Residuals, v)
		return p
	}
}

// cloneInto copies f's instructions into out (its parameters mapped by
// vmap, which it extends) and returns f's results there.
func cloneInto(out, f *ir.Func, vmap map[*ir.Value]*ir.Value) []*ir.Value {
	for _, in := range f.Body {
		ir.CloneInstr(out, in, vmap)
	}
	rs := make([]*ir.Value, len(f.Results))
	for i, r := range f.Results {
		rs[i] = vmap[r]
	}
	return rs
}

// run calls fn and turns what the rules panic with into errors: a located
// *ir.Error (a derivative that does not exist) as it is, a failed build
// (a rule that emitted something ill-typed) as an internal error.
func (e *engine) run(fn func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		var be *ir.BuildError
		switch x := r.(type) {
		case *ir.BuildError:
			be = x
		case *ir.Error:
			err = x
			return
		case ir.ErrorList:
			err = x
			return
		case error:
			if errors.As(x, &be) {
				break
			}
			err = x
			return
		default:
			panic(r)
		}
		var le *ir.Error
		if errors.As(be.Err, &le) {
			err = ir.Errorf(le.Loc, le.Op, "internal error in the derivative of %s: %s", le.Op, le.Msg)
			return
		}
		err = fmt.Errorf("autodiff @%s: internal error: %w", e.f.Name, be.Err)
	}()
	fn()
	return nil
}

// activity marks the values of f that depend on the wrt parameters
// (varied) and those that a float result depends on (useful).
type activity struct {
	varied, useful map[*ir.Value]bool
}

func analyze(f *ir.Func, wrt []int, needUseful bool) activity {
	act := activity{varied: map[*ir.Value]bool{}, useful: map[*ir.Value]bool{}}
	for _, w := range wrt {
		act.varied[f.Params[w]] = true
	}
	for _, in := range f.Body {
		v := false
		for _, a := range in.Args {
			v = v || act.varied[a]
		}
		if !v {
			continue
		}
		for _, r := range in.Results {
			if ir.Differentiable(r.Type.DType) {
				act.varied[r] = true
			}
		}
	}
	if !needUseful {
		return act
	}
	for _, r := range f.Results {
		if ir.Differentiable(r.Type.DType) {
			act.useful[r] = true
		}
	}
	for i := len(f.Body) - 1; i >= 0; i-- {
		in := f.Body[i]
		u := false
		for _, r := range in.Results {
			u = u || act.useful[r]
		}
		if !u {
			continue
		}
		for _, a := range in.Args {
			if ir.Differentiable(a.Type.DType) {
				act.useful[a] = true
			}
		}
	}
	return act
}

// ad makes the rule context for in.
func (e *engine) ad(in *ir.Instr, needs []bool) *ir.AD {
	return &ir.AD{Builder: ir.NewBuilder(e.out, in.Loc), In: in, T: e, Primal: e.primal, Needs: needs}
}

// noRule is the error for an op that a derivative must go through and
// that has no rule for it.
func noRule(in *ir.Instr, info *ir.OpInfo, mode string) error {
	if info.Has(ir.NotDifferentiable) {
		return ir.Errorf(in.Loc, in.Op.String(), "is not differentiable, but the derivative flows through it (%s)", describe(in))
	}
	return ir.Errorf(in.Loc, in.Op.String(), "has no %s rule (%s)", mode, describe(in))
}

func describe(in *ir.Instr) string {
	s := ""
	for i, a := range in.Args {
		if i > 0 {
			s += ", "
		}
		s += a.Type.String()
	}
	return "operands " + s
}

// backward emits, in reverse program order, the cotangents of f's values
// from those of its results (cts, one per result) and returns the
// cotangents of the wrt parameters (zeros where none reaches them).
func (e *engine) backward(wrt []int, cts []*ir.Value) []*ir.Value {
	f := e.f
	act := analyze(f, wrt, true)
	ct := map[*ir.Value]*ir.Value{}
	add := func(b *ir.Builder, v, c *ir.Value) {
		if c == nil {
			return
		}
		if !c.Type.Equal(v.Type) {
			panic(&ir.BuildError{Err: ir.Errorf(b.Loc, "autodiff", "cotangent of %v has type %v", v.Type, c.Type)})
		}
		if old := ct[v]; old != nil {
			c = b.Add(old, c)
		}
		ct[v] = c
	}
	for j, r := range f.Results {
		if act.varied[r] && ir.Differentiable(r.Type.DType) {
			add(ir.NewBuilder(e.out, r.Loc()), r, cts[j])
		}
	}
	for i := len(f.Body) - 1; i >= 0; i-- {
		in := f.Body[i]
		rcts := make([]*ir.Value, len(in.Results))
		some := false
		for k, r := range in.Results {
			if act.varied[r] {
				rcts[k] = ct[r]
				some = some || rcts[k] != nil
			}
		}
		if !some {
			continue
		}
		needs := make([]bool, len(in.Args))
		need := false
		for k, a := range in.Args {
			needs[k] = act.varied[a] && ir.Differentiable(a.Type.DType)
			need = need || needs[k]
		}
		if !need {
			continue
		}
		info := in.Op.Info()
		if info.VJP == nil {
			panic(noRule(in, info, "reverse-mode (VJP)"))
		}
		a := e.ad(in, needs)
		got := info.VJP(a, rcts)
		if len(got) != len(in.Args) {
			panic(&ir.BuildError{Err: ir.Errorf(in.Loc, in.Op.String(), "VJP rule returned %d cotangents for %d operands", len(got), len(in.Args))})
		}
		for k, c := range got {
			if needs[k] {
				add(a.Builder, in.Args[k], c)
			}
		}
	}
	out := make([]*ir.Value, len(wrt))
	b := ir.NewBuilder(e.out, ir.UnknownLoc)
	for i, w := range wrt {
		p := f.Params[w]
		if c := ct[p]; c != nil {
			out[i] = c
		} else {
			b.Loc = p.Loc()
			out[i] = b.Zeros(p.Type)
		}
	}
	return out
}

// forward emits, in program order, the tangents of f's values from those
// of the wrt parameters (ts) and returns the tangents of f's results
// (zeros where none reaches them).
func (e *engine) forward(wrt []int, ts []*ir.Value) []*ir.Value {
	f := e.f
	tan := map[*ir.Value]*ir.Value{}
	for i, w := range wrt {
		tan[f.Params[w]] = ts[i]
	}
	for _, in := range f.Body {
		args := make([]*ir.Value, len(in.Args))
		some := false
		for k, a := range in.Args {
			args[k] = tan[a]
			some = some || args[k] != nil
		}
		if !some {
			continue
		}
		needs := make([]bool, len(in.Results))
		need := false
		for k, r := range in.Results {
			needs[k] = ir.Differentiable(r.Type.DType)
			need = need || needs[k]
		}
		if !need {
			continue
		}
		info := in.Op.Info()
		if info.JVP == nil {
			panic(noRule(in, info, "forward-mode (JVP)"))
		}
		a := e.ad(in, needs)
		got := info.JVP(a, args)
		if len(got) != len(in.Results) {
			panic(&ir.BuildError{Err: ir.Errorf(in.Loc, in.Op.String(), "JVP rule returned %d tangents for %d results", len(got), len(in.Results))})
		}
		for k, t := range got {
			if t == nil || !needs[k] {
				continue
			}
			if !t.Type.Equal(in.Results[k].Type) {
				panic(&ir.BuildError{Err: ir.Errorf(in.Loc, in.Op.String(), "JVP rule gave tangent of type %v for result %v", t.Type, in.Results[k].Type)})
			}
			tan[in.Results[k]] = t
		}
	}
	out := make([]*ir.Value, len(f.Results))
	b := ir.NewBuilder(e.out, ir.UnknownLoc)
	for j, r := range f.Results {
		if t := tan[r]; t != nil {
			out[j] = t
		} else {
			b.Loc = r.Loc()
			out[j] = b.Zeros(r.Type)
		}
	}
	return out
}

// Known implements ir.Differentiator: constants, and what Options.Known
// says.
func (e *engine) Known(v *ir.Value) *ir.Literal {
	if v.Def != nil && v.Def.Op == ir.OpConstant {
		return v.Def.Attr.(ir.ConstantAttr).Value
	}
	if e.opt.Known != nil && v.Func == e.f {
		return e.opt.Known(v)
	}
	return nil
}

// RegionVJP implements ir.Differentiator.
func (e *engine) RegionVJP(r *ir.Func, wrt []bool) (*ir.Func, error) {
	out := ir.NewFunc(r.Name + "_vjp")
	vmap := map[*ir.Value]*ir.Value{}
	for _, p := range r.Params {
		vmap[p] = out.AddParam(p.Type, p.Loc())
	}
	cts := make([]*ir.Value, len(r.Results))
	for j, res := range r.Results {
		if ir.Differentiable(res.Type.DType) {
			cts[j] = out.AddParam(res.Type, res.Loc())
		}
	}
	var idx []int
	for i, w := range wrt {
		if w {
			idx = append(idx, i)
		}
	}
	sub := newEngine(r, out, Options{})
	var res []*ir.Value
	err := sub.run(func() {
		cloneInto(out, r, vmap)
		sub.primal = func(v *ir.Value) *ir.Value { return sub.mapped(vmap, v) }
		res = sub.backward(idx, cts)
	})
	if err != nil {
		return nil, err
	}
	out.Return(res...)
	return finish(out)
}

// RegionJVP implements ir.Differentiator.
func (e *engine) RegionJVP(r *ir.Func, wrt []bool) (*ir.Func, error) {
	out := ir.NewFunc(r.Name + "_jvp")
	vmap := map[*ir.Value]*ir.Value{}
	for _, p := range r.Params {
		vmap[p] = out.AddParam(p.Type, p.Loc())
	}
	var idx []int
	var ts []*ir.Value
	for i, w := range wrt {
		if w {
			idx = append(idx, i)
			ts = append(ts, out.AddParam(r.Params[i].Type, r.Params[i].Loc()))
		}
	}
	sub := newEngine(r, out, Options{})
	var res []*ir.Value
	err := sub.run(func() {
		fwd := cloneInto(out, r, vmap)
		sub.primal = func(v *ir.Value) *ir.Value { return sub.mapped(vmap, v) }
		tres := sub.forward(idx, ts)
		res = fwd
		for j, rr := range r.Results {
			if ir.Differentiable(rr.Type.DType) {
				res = append(res, tres[j])
			}
		}
	})
	if err != nil {
		return nil, err
	}
	out.Return(res...)
	return finish(out)
}
