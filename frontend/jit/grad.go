package jit

import (
	"fmt"
	"reflect"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes/autodiff"
)

// Derivatives. Grad, ValueAndGrad, VJP and JVP call the user's function
// on a gradient tape (tensor.NewTape): every op it runs is recorded and
// also run on the real values, so the function runs op by op exactly as
// it would without them (eagerly, or traced when the call is inside
// jit.Compile), Go control flow on values included. The recorded
// function then goes through passes/autodiff, and its derivative runs
// one instruction at a time on the level below the tape (tensor.Apply):
// eagerly, or recorded into the enclosing trace, so that
// jit.Compile(jit.Grad(f)) compiles the forward and backward passes as
// one program and Grad(Grad(f)) differentiates the derivative's ops in
// turn.

// tapeRun is one call of a function on a tape.
type tapeRun struct {
	name    string
	tape    *tensor.Tracer
	f       *ir.Func         // the recorded function: wrt parameters, then captured tensors
	outs    []*tensor.Tensor // the function's results, on the tape
	primals []*tensor.Tensor // the results one level below: what the user gets
	wrt     []int            // positions of the tape's parameters among the arguments
}

// runOnTape calls fv with the arguments in, those at positions wrt
// replaced by parameters of a new tape standing for them.
func runOnTape(op string, fv reflect.Value, in []reflect.Value, asSlice bool, wrt []int) (*tapeRun, error) {
	var flat []*tensor.Tensor
	if asSlice {
		flat = in[0].Interface().([]*tensor.Tensor)
	}
	arg := func(i int) *tensor.Tensor {
		if asSlice {
			return flat[i]
		}
		return in[i].Interface().(*tensor.Tensor)
	}
	params := make([]*tensor.Tensor, len(wrt))
	for k, w := range wrt {
		params[k] = arg(w)
	}
	r, err := onTape(op, funcName(fv), declLoc(fv), params, func(tps []*tensor.Tensor) ([]*tensor.Tensor, error) {
		args := append([]reflect.Value{}, in...)
		if asSlice {
			s := append([]*tensor.Tensor{}, flat...)
			for k, w := range wrt {
				s[w] = tps[k]
			}
			args = []reflect.Value{reflect.ValueOf(s)}
		} else {
			for k, w := range wrt {
				args[w] = reflect.ValueOf(tps[k])
			}
		}
		return callValues(fv, args)
	})
	if err != nil {
		return nil, err
	}
	r.wrt = wrt
	return r, nil
}

// onTape runs call on a new tape whose parameters stand for params,
// and returns the run: the recorded function, call's results and their
// primals. wrt is what the run's backward pass reports gradients for.
func onTape(op, name string, loc ir.Loc, params []*tensor.Tensor, call func(tps []*tensor.Tensor) ([]*tensor.Tensor, error)) (*tapeRun, error) {
	tp := tensor.NewTape(name)
	defer func() {
		if !tp.Done() {
			tp.Discard()
		}
	}()
	tps := make([]*tensor.Tensor, len(params))
	for i, p := range params {
		tps[i] = tp.TapeParam(p, loc)
	}
	var outs []*tensor.Tensor
	var userErr error
	if err := tensor.Catch(func() { outs, userErr = call(tps) }); err != nil {
		return nil, err
	}
	if userErr != nil {
		return nil, userErr
	}
	for i, o := range outs {
		if o == nil {
			return nil, fmt.Errorf("%s @%s: result #%d is nil", op, name, i)
		}
	}
	f, _, err := tp.Finish(outs...)
	if err != nil {
		return nil, err
	}
	r := &tapeRun{name: name, tape: tp, f: f, outs: outs, wrt: make([]int, len(params))}
	for i := range r.wrt {
		r.wrt[i] = i
	}
	r.primals = make([]*tensor.Tensor, len(outs))
	for i, o := range outs {
		r.primals[i] = tp.Lower(o)
	}
	return r, nil
}

// callValues calls fv on prepared arguments and flattens its results
// (*Tensor, []*Tensor, then an optional error), as call does.
func callValues(fv reflect.Value, args []reflect.Value) ([]*tensor.Tensor, error) {
	var outs []reflect.Value
	if fv.Type().IsVariadic() {
		outs = fv.CallSlice(args)
	} else {
		outs = fv.Call(args)
	}
	var results []*tensor.Tensor
	for _, o := range outs {
		switch v := o.Interface().(type) {
		case *tensor.Tensor:
			results = append(results, v)
		case []*tensor.Tensor:
			results = append(results, v...)
		case error:
			return nil, v
		}
	}
	return results, nil
}

// backward runs the reverse pass of the recorded function for the
// cotangents cts (one per result; nil for zero) and returns one gradient
// per wrt parameter.
func (r *tapeRun) backward(op string, cts []*tensor.Tensor) ([]*tensor.Tensor, error) {
	idx := make([]int, len(r.wrt))
	for i := range idx {
		idx[i] = i
	}
	d, err := autodiff.NewBackward(r.f, idx, autodiff.Options{Known: r.tape.Known})
	if err != nil {
		return nil, err
	}
	if len(cts) != len(r.outs) {
		return nil, fmt.Errorf("%s @%s: %d cotangents for %d results", op, r.name, len(cts), len(r.outs))
	}
	args := make([]*tensor.Tensor, 0, len(cts)+len(d.Residuals))
	for i, c := range cts {
		p := r.primals[i]
		switch {
		case c == nil:
			c = tensor.ZerosLike(p)
		case !c.Type().Equal(p.Type()):
			return nil, fmt.Errorf("%s @%s: cotangent #%d is %v, want %v (the type of result #%d)", op, r.name, i, c.Type(), p.Type(), i)
		}
		args = append(args, c)
	}
	res, err := r.tape.Primals(d.Residuals)
	if err != nil {
		return nil, err
	}
	return tensor.Apply(d.Func, append(args, res...)...)
}

// forward runs the forward-mode pass for tangents of the wrt parameters
// and returns one tangent per result.
func (r *tapeRun) forward(tangents []*tensor.Tensor) ([]*tensor.Tensor, error) {
	idx := make([]int, len(r.wrt))
	for i := range idx {
		idx[i] = i
	}
	d, err := autodiff.NewForward(r.f, idx, autodiff.Options{Known: r.tape.Known})
	if err != nil {
		return nil, err
	}
	res, err := r.tape.Primals(d.Residuals)
	if err != nil {
		return nil, err
	}
	return tensor.Apply(d.Func, append(append([]*tensor.Tensor{}, tangents...), res...)...)
}

// checkDiffArg checks that an argument to differentiate with respect to
// is a float or complex tensor.
func checkDiffArg(op string, i int, t *tensor.Tensor) error {
	if t == nil {
		return fmt.Errorf("%s: argument #%d is nil", op, i)
	}
	if !ir.Differentiable(t.DType()) {
		return fmt.Errorf("%s: argument #%d is %v: only float and complex tensors have gradients (Convert it, or differentiate with respect to another argument)", op, i, t.Type())
	}
	return nil
}

// scalarLoss checks that a function to take the gradient of returned one
// float scalar.
func scalarLoss(op string, r *tapeRun) error {
	if len(r.outs) != 1 {
		return fmt.Errorf("%s @%s: the function returns %d tensors, want one scalar (use VJP for several outputs)", op, r.name, len(r.outs))
	}
	t := r.outs[0].Type()
	if t.Rank() != 0 || !t.DType.IsFloat() {
		return fmt.Errorf("%s @%s: the function returns %v, want a float scalar: the gradient is of a scalar (Sum or Mean it, or use VJP)", op, r.name, t)
	}
	return nil
}

// located places an error that is not already located at the caller's
// line, prefixed by the transform's name.
func locatedAt(loc ir.Loc, err error) error {
	switch err.(type) {
	case *ir.Error, ir.ErrorList:
		return err
	}
	return ir.Errorf(loc, "", "%v", err)
}

// Grad returns the gradient of fn with respect to its first argument, a
// function of the same signature, as jax.grad does: fn's first parameter
// is a float *tensor.Tensor and its result a float scalar *tensor.Tensor
// (optionally followed by an error); Grad(fn) returns, in its place, the
// gradient, of the first argument's type. Other parameters may be of any
// type and are passed through (tensors among them are constants of the
// differentiation).
//
// It works eagerly (fn runs op by op on the real values, then its
// backward pass does) and inside jit.Compile, where forward and backward
// become one program, and it composes: Grad(Grad(f)) is the second
// derivative. Failures (fn's own, a non-scalar result, an op without a
// derivative) come back as the error result when F has one, else as a
// panic with a located *ir.Error, as ops do.
func Grad[F any](fn F) F {
	fv := reflect.ValueOf(fn)
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		panic(fmt.Sprintf("jit.Grad: fn is %T, want a func", fn))
	}
	ft := fv.Type()
	hasErr := ft.NumOut() == 2 && ft.Out(1) == errorType
	if ft.NumIn() < 1 || ft.In(0) != tensorType {
		panic(fmt.Sprintf("jit.Grad: fn is %v: its first parameter must be a *tensor.Tensor to differentiate with respect to", ft))
	}
	if !(ft.NumOut() == 1 || hasErr) || ft.Out(0) != tensorType {
		panic(fmt.Sprintf("jit.Grad: fn is %v: it must return a *tensor.Tensor (a scalar loss), optionally followed by an error", ft))
	}
	impl := func(in []reflect.Value) []reflect.Value {
		loc := ir.CallerLoc()
		g, err := func() (*tensor.Tensor, error) {
			x, _ := in[0].Interface().(*tensor.Tensor)
			if err := checkDiffArg("grad", 0, x); err != nil {
				return nil, err
			}
			r, err := runOnTape("grad", fv, in, false, []int{0})
			if err != nil {
				return nil, err
			}
			if err := scalarLoss("grad", r); err != nil {
				return nil, err
			}
			gs, err := r.backward("grad", []*tensor.Tensor{tensor.OnesLike(r.primals[0])})
			if err != nil {
				return nil, err
			}
			return gs[0], nil
		}()
		if err != nil {
			err = locatedAt(loc, err)
			if !hasErr {
				panic(err)
			}
			return []reflect.Value{reflect.Zero(tensorType), reflect.ValueOf(&err).Elem()}
		}
		out := []reflect.Value{reflect.ValueOf(g)}
		if hasErr {
			out = append(out, reflect.Zero(errorType))
		}
		return out
	}
	return reflect.MakeFunc(ft, impl).Interface().(F)
}

// ValueAndGrad returns a function that computes fn's value and its
// gradients with respect to the arguments at positions wrt (default:
// argument 0), like jax.value_and_grad. fn takes tensors (each a
// *tensor.Tensor parameter, or one []*tensor.Tensor) and returns one float
// scalar, optionally followed by an error; it works eagerly and inside
// jit.Compile, as Grad does.
func ValueAndGrad(fn any, wrt ...int) func(args ...*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor, error) {
	fv := reflect.ValueOf(fn)
	if len(wrt) == 0 {
		wrt = []int{0}
	}
	return func(args ...*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor, error) {
		loc := ir.CallerLoc()
		v, g, err := valueAndGrad(fv, args, wrt)
		if err != nil {
			return nil, nil, locatedAt(loc, err)
		}
		return v, g, nil
	}
}

func valueAndGrad(fv reflect.Value, args []*tensor.Tensor, wrt []int) (*tensor.Tensor, []*tensor.Tensor, error) {
	in, asSlice, err := tensorArgs("value_and_grad", fv, args)
	if err != nil {
		return nil, nil, err
	}
	seen := map[int]bool{}
	for _, w := range wrt {
		if w < 0 || w >= len(args) {
			return nil, nil, fmt.Errorf("value_and_grad: no argument #%d to differentiate with respect to (%d arguments)", w, len(args))
		}
		if seen[w] {
			return nil, nil, fmt.Errorf("value_and_grad: argument #%d listed twice", w)
		}
		seen[w] = true
		if err := checkDiffArg("value_and_grad", w, args[w]); err != nil {
			return nil, nil, err
		}
	}
	r, err := runOnTape("value_and_grad", fv, in, asSlice, wrt)
	if err != nil {
		return nil, nil, err
	}
	if err := scalarLoss("value_and_grad", r); err != nil {
		return nil, nil, err
	}
	gs, err := r.backward("value_and_grad", []*tensor.Tensor{tensor.OnesLike(r.primals[0])})
	if err != nil {
		return nil, nil, err
	}
	return r.primals[0], gs, nil
}

// tensorArgs checks fn against its tensor arguments and returns them as
// reflect values, one per parameter (or one slice).
func tensorArgs(op string, fv reflect.Value, args []*tensor.Tensor) ([]reflect.Value, bool, error) {
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		return nil, false, fmt.Errorf("%s: fn is not a func", op)
	}
	asSlice, err := checkSignature(fv.Type(), len(args))
	if err != nil {
		return nil, false, fmt.Errorf("%s %s: %v", op, funcName(fv), err)
	}
	for i, a := range args {
		if a == nil {
			return nil, false, fmt.Errorf("%s: argument #%d is nil", op, i)
		}
	}
	if asSlice {
		return []reflect.Value{reflect.ValueOf(append([]*tensor.Tensor{}, args...))}, true, nil
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	return in, false, nil
}

// VJP calls fn on args and returns its results and a function that maps
// cotangents of those results (one per result; nil means zero) to
// cotangents of the arguments (nil for arguments that are not float or
// complex), like jax.vjp. The vjp function may be called many times; it
// keeps the forward values it needs alive until it is collected. fn takes
// and returns tensors as ValueAndGrad's does, but may return any number
// of them, of any shape.
func VJP(fn any, args ...*tensor.Tensor) (outs []*tensor.Tensor, vjp func(cotangents ...*tensor.Tensor) ([]*tensor.Tensor, error), err error) {
	loc := ir.CallerLoc()
	fv := reflect.ValueOf(fn)
	in, asSlice, err := tensorArgs("vjp", fv, args)
	if err != nil {
		return nil, nil, locatedAt(loc, err)
	}
	var wrt []int
	for i, a := range args {
		if ir.Differentiable(a.DType()) {
			wrt = append(wrt, i)
		}
	}
	r, err := runOnTape("vjp", fv, in, asSlice, wrt)
	if err != nil {
		return nil, nil, locatedAt(loc, err)
	}
	vjp = func(cts ...*tensor.Tensor) ([]*tensor.Tensor, error) {
		loc := ir.CallerLoc()
		gs, err := r.backward("vjp", cts)
		if err != nil {
			return nil, locatedAt(loc, err)
		}
		out := make([]*tensor.Tensor, len(args))
		for i, w := range r.wrt {
			out[w] = gs[i]
		}
		return out, nil
	}
	return r.primals, vjp, nil
}

// JVP calls fn on primals and returns its results and their tangents
// along the given tangents of the arguments (forward mode, like
// jax.jvp): one tangent per primal, of its type; nil means zero, and must
// be nil for arguments that are not float or complex. fn takes and
// returns tensors as VJP's does.
func JVP(fn any, primals, tangents []*tensor.Tensor) (outs, tangentsOut []*tensor.Tensor, err error) {
	loc := ir.CallerLoc()
	fv := reflect.ValueOf(fn)
	in, asSlice, err := tensorArgs("jvp", fv, primals)
	if err != nil {
		return nil, nil, locatedAt(loc, err)
	}
	if len(tangents) != len(primals) {
		return nil, nil, ir.Errorf(loc, "jvp", "%d tangents for %d primals", len(tangents), len(primals))
	}
	var wrt []int
	var ts []*tensor.Tensor
	for i, p := range primals {
		t := tangents[i]
		if t == nil {
			continue
		}
		if !ir.Differentiable(p.DType()) {
			return nil, nil, ir.Errorf(loc, "jvp", "tangent #%d given for a %v primal: only float and complex tensors have tangents", i, p.Type())
		}
		if !t.Type().Equal(p.Type()) {
			return nil, nil, ir.Errorf(loc, "jvp", "tangent #%d is %v, want %v (its primal's type)", i, t.Type(), p.Type())
		}
		wrt = append(wrt, i)
		ts = append(ts, t)
	}
	r, err := runOnTape("jvp", fv, in, asSlice, wrt)
	if err != nil {
		return nil, nil, locatedAt(loc, err)
	}
	tout, err := r.forward(ts)
	if err != nil {
		return nil, nil, locatedAt(loc, err)
	}
	return r.primals, tout, nil
}

// ValueAndGradTree returns a function that computes fn's value and its
// gradient with respect to params, a parameter tree (package
// frontend/tree: a struct, pointer, slice or map of tensors, such as a
// model from frontend/nn), as jax.value_and_grad does for pytrees. The
// gradient is a tree of params' structure: one tensor per float leaf, and
// zeros for leaves of other types (a step counter). fn's other inputs
// are what it closes over, constants of the differentiation. It works
// eagerly and inside jit.Compile, as Grad does.
func ValueAndGradTree[P any](fn func(params P) *tensor.Tensor) func(params P) (*tensor.Tensor, P, error) {
	name := funcName(reflect.ValueOf(fn))
	return func(params P) (*tensor.Tensor, P, error) {
		loc := ir.CallerLoc()
		v, g, err := valueAndGradTree(name, loc, fn, params)
		if err != nil {
			var zero P
			return nil, zero, locatedAt(loc, err)
		}
		return v, g, nil
	}
}

// GradTree is ValueAndGradTree without the value.
func GradTree[P any](fn func(params P) *tensor.Tensor) func(params P) (P, error) {
	name := funcName(reflect.ValueOf(fn))
	return func(params P) (P, error) {
		loc := ir.CallerLoc()
		_, g, err := valueAndGradTree(name, loc, fn, params)
		if err != nil {
			var zero P
			return zero, locatedAt(loc, err)
		}
		return g, nil
	}
}

func valueAndGradTree[P any](name string, loc ir.Loc, fn func(P) *tensor.Tensor, params P) (*tensor.Tensor, P, error) {
	var zero P
	if fn == nil {
		return nil, zero, fmt.Errorf("value_and_grad_tree: nil function")
	}
	leaves, err := tree.FlattenWithPaths(params)
	if err != nil {
		return nil, zero, fmt.Errorf("value_and_grad_tree: %v", err)
	}
	var float []*tensor.Tensor
	var at []int // leaf index of each float leaf
	for i, l := range leaves {
		if ir.Differentiable(l.Tensor.DType()) {
			float = append(float, l.Tensor)
			at = append(at, i)
		}
	}
	r, err := onTape("value_and_grad_tree", name, loc, float, func(tps []*tensor.Tensor) ([]*tensor.Tensor, error) {
		all := make([]*tensor.Tensor, len(leaves))
		for i, l := range leaves {
			all[i] = l.Tensor
		}
		for k, i := range at {
			all[i] = tps[k]
		}
		tp, err := tree.Unflatten(params, all)
		if err != nil {
			return nil, err
		}
		return []*tensor.Tensor{fn(tp)}, nil
	})
	if err != nil {
		return nil, zero, err
	}
	if err := scalarLoss("value_and_grad_tree", r); err != nil {
		return nil, zero, err
	}
	gs, err := r.backward("value_and_grad_tree", []*tensor.Tensor{tensor.OnesLike(r.primals[0])})
	if err != nil {
		return nil, zero, err
	}
	grads := make([]*tensor.Tensor, len(leaves))
	for i, l := range leaves {
		grads[i] = l.Tensor
	}
	for k, i := range at {
		grads[i] = gs[k]
	}
	for i, l := range leaves {
		if !ir.Differentiable(l.Tensor.DType()) {
			grads[i] = tensor.ZerosLike(l.Tensor)
		}
	}
	g, err := tree.Unflatten(params, grads)
	if err != nil {
		return nil, zero, err
	}
	return r.primals[0], g, nil
}
