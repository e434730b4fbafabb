package jit

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"strings"
	"unicode"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

var (
	tensorType = reflect.TypeFor[*tensor.Tensor]()
	sliceType  = reflect.TypeFor[[]*tensor.Tensor]()
	errorType  = reflect.TypeFor[error]()
)

// TraceResult is a traced function and what it needs to run.
type TraceResult struct {
	// Func has NumInputs parameters for the traced function's inputs,
	// then one per Captured tensor.
	Func      *ir.Func
	NumInputs int
	// Captured are the concrete tensors the function closed over, in the
	// order of Func's trailing parameters.
	Captured []*tensor.Tensor
}

// Trace traces fn on symbolic inputs of the given types and returns the
// function it builds. See TraceFull for what fn may be.
func Trace(fn any, inputs ...ir.Type) (*ir.Func, error) {
	r, err := TraceFull(fn, inputs...)
	if err != nil {
		return nil, err
	}
	return r.Func, nil
}

// TraceFull traces fn on symbolic inputs of the given types. fn's
// parameters are *tensor.Tensor, one per input type, or a single
// []*tensor.Tensor (possibly variadic) that receives them all. Its results
// are any number of *tensor.Tensor and []*tensor.Tensor, flattened in order
// into the function's results, optionally followed by an error, which Trace
// returns. The function is named after fn's Go name; a function literal
// after the function that contains it and the compiler's counter
// ("main_closure1" for the first literal in main).
//
// A located error that an op panics with comes back as the error (an
// *ir.Error, "file.go:LINE: op: message"); other panics propagate.
func TraceFull(fn any, inputs ...ir.Type) (*TraceResult, error) {
	fv := reflect.ValueOf(fn)
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		return nil, fmt.Errorf("jit: trace: fn is %T, want a func", fn)
	}
	ft := fv.Type()
	asSlice, err := checkSignature(ft, len(inputs))
	if err != nil {
		return nil, fmt.Errorf("jit: trace %s: %v", funcName(fv), err)
	}
	for i, t := range inputs {
		if !t.IsStatic() || t.DType == ir.InvalidDType || int(t.DType) > int(ir.C128) {
			return nil, fmt.Errorf("jit: trace %s: input #%d has type %v: want a valid element type and static shape", funcName(fv), i, t)
		}
	}

	name := funcName(fv)
	tr := tensor.NewTracer(name)
	defer func() {
		if !tr.Done() {
			tr.Discard()
		}
	}()
	loc := declLoc(fv)
	params := make([]*tensor.Tensor, len(inputs))
	for i, t := range inputs {
		params[i] = tr.Param(t, loc)
	}

	var results []*tensor.Tensor
	var userErr error
	err = tensor.Catch(func() { results, userErr = call(fv, params, asSlice) })
	if err != nil {
		return nil, err
	}
	if userErr != nil {
		return nil, userErr
	}
	for i, r := range results {
		if r == nil {
			return nil, fmt.Errorf("jit: trace %s: result #%d is nil", name, i)
		}
	}
	f, captured, err := tr.Finish(results...)
	if err != nil {
		return nil, err
	}
	return &TraceResult{Func: f, NumInputs: len(inputs), Captured: captured}, nil
}

// Call runs the traced function on concrete inputs, passing the captured
// tensors after them, on the device tensor.Placement picks, as tensor.Run does.
func (r *TraceResult) Call(inputs ...*tensor.Tensor) ([]*tensor.Tensor, error) {
	if len(inputs) != r.NumInputs {
		return nil, fmt.Errorf("jit: call @%s: %d inputs, want %d", r.Func.Name, len(inputs), r.NumInputs)
	}
	args := append(append([]*tensor.Tensor{}, inputs...), r.Captured...)
	return tensor.Run(r.Func, args...)
}

// Call calls fn (of the form TraceFull accepts) on the given tensors
// directly, without tracing: eagerly when they are concrete. Its results
// are flattened as in TraceFull. A located error that an op panics with
// comes back as the error.
func Call(fn any, args ...*tensor.Tensor) ([]*tensor.Tensor, error) {
	fv := reflect.ValueOf(fn)
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		return nil, fmt.Errorf("jit: call: fn is %T, want a func", fn)
	}
	asSlice, err := checkSignature(fv.Type(), len(args))
	if err != nil {
		return nil, fmt.Errorf("jit: call %s: %v", funcName(fv), err)
	}
	var results []*tensor.Tensor
	var userErr error
	if err := tensor.Catch(func() { results, userErr = call(fv, args, asSlice) }); err != nil {
		return nil, err
	}
	return results, userErr
}

// checkSignature checks fn's type and reports whether its inputs come as
// one slice.
func checkSignature(ft reflect.Type, n int) (asSlice bool, err error) {
	switch {
	case ft.NumIn() == 1 && ft.In(0) == sliceType:
		asSlice = true
	case ft.NumIn() != n:
		return false, fmt.Errorf("func has %d parameters but %d inputs are given", ft.NumIn(), n)
	default:
		for i := range ft.NumIn() {
			if ft.In(i) != tensorType {
				return false, fmt.Errorf("parameter #%d is %v, want *tensor.Tensor (or a single []*tensor.Tensor)", i, ft.In(i))
			}
		}
	}
	for i := range ft.NumOut() {
		switch out := ft.Out(i); {
		case out == tensorType || out == sliceType:
		case out == errorType && i == ft.NumOut()-1:
		default:
			return false, fmt.Errorf("result #%d is %v, want *tensor.Tensor or []*tensor.Tensor (then an optional error)", i, out)
		}
	}
	return asSlice, nil
}

func call(fv reflect.Value, args []*tensor.Tensor, asSlice bool) ([]*tensor.Tensor, error) {
	var outs []reflect.Value
	if asSlice {
		in := reflect.ValueOf(args)
		if fv.Type().IsVariadic() {
			outs = fv.CallSlice([]reflect.Value{in})
		} else {
			outs = fv.Call([]reflect.Value{in})
		}
	} else {
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			in[i] = reflect.ValueOf(a)
		}
		outs = fv.Call(in)
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

// funcName derives an IR function name from a Go function: its Go name
// without the package ("MLP" for examples.MLP, "Forward" for a method
// value or method expression), and for a function literal the name of the
// function that contains it and the compiler's counter: "main_closure1"
// for main.func1, "TestX_closure1_2" for the second literal inside the
// first one of TestX. The result is a valid IR and StableHLO name.
func funcName(fv reflect.Value) string {
	rf := goruntime.FuncForPC(fv.Pointer())
	if rf == nil {
		return "closure"
	}
	n := rf.Name()
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	n = strings.TrimSuffix(n, "-fm")       // method values
	n = strings.ReplaceAll(n, "[...]", "") // generic instances
	// The package's own dots are escaped (%2e), so the first element is
	// the package and the rest the function and its literals.
	parts := strings.Split(n, ".")[1:]
	base, counter := "", []string(nil)
	for _, p := range parts {
		switch {
		case counter == nil && p != "" && !isClosureName(p):
			base = p
		case isClosureName(p):
			counter = append(counter, strings.TrimPrefix(p, "func"))
		}
	}
	base = identifier(base)
	if counter == nil {
		if base == "" {
			return "closure"
		}
		return base
	}
	if base == "" {
		base = "func"
	}
	return base + "_closure" + strings.Join(counter, "_")
}

// identifier replaces what an IR name cannot hold with '_'.
func identifier(n string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, n)
}

// isClosureName matches the compiler's names for function literals:
// func1 for the first literal in a function, 2 in func1.2 for the second
// literal inside that one.
func isClosureName(n string) bool {
	n = strings.TrimPrefix(n, "func")
	if n == "" {
		return false
	}
	for _, r := range n {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// declLoc is where fn is defined, the location of its parameters; unknown
// for compiler-generated wrappers.
func declLoc(fv reflect.Value) ir.Loc {
	rf := goruntime.FuncForPC(fv.Pointer())
	if rf == nil {
		return ir.UnknownLoc
	}
	file, line := rf.FileLine(rf.Entry())
	if file == "" || strings.HasPrefix(file, "<") {
		return ir.UnknownLoc
	}
	return ir.Loc{File: file, Line: line}
}
