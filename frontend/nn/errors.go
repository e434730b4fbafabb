package nn

import (
	"strings"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Errors. Shape and type mistakes are programming errors, so nn's
// functions panic with a located *ir.Error, as tensor's op functions do
// (tensor.Catch, jit.Trace and jit.Compile turn the panic back into an
// error). The location is the user's line: nn's frames are library frames
// (ir/loc.go). Each exported function starts with
//
//	defer named("nn.Linear")
//
// so that an error from an op inside it reads
// "model.go:12: nn.Linear: matmul: f32[2,3] times f32[5,4]: ...": the
// function the user called, then the op that failed. As with tensor's
// composites, the outermost name wins (nn.MLP calling nn.Linear reports
// nn.MLP).

// fail returns a located error of op at the user's line.
func fail(op, format string, args ...any) *ir.Error {
	return ir.Errorf(ir.CallerLoc(), op, format, args...)
}

// named is deferred by nn's exported functions: a located error panicking
// out of the function gets the function's name in front of its op.
func named(name string) {
	r := recover()
	if r == nil {
		return
	}
	switch e := r.(type) {
	case *ir.Error:
		panic(renamed(name, e))
	case ir.ErrorList:
		out := make(ir.ErrorList, len(e))
		for i, x := range e {
			out[i] = renamed(name, x)
		}
		panic(out)
	}
	panic(r)
}

// renamed is e with name in front of its op; an op that already starts
// with an nn name (an inner nn function's) has it replaced.
func renamed(name string, e *ir.Error) *ir.Error {
	op := e.Op
	switch head, rest, _ := strings.Cut(op, ": "); {
	case head == name:
		return e
	case strings.HasPrefix(head, "nn."):
		op = name
		if rest != "" {
			op += ": " + rest
		}
	case op == "":
		op = name
	default:
		op = name + ": " + op
	}
	c := *e
	c.Op = op
	return &c
}

// checkInput panics unless x is a tensor of a floating-point type with at
// least rank dimensions.
func checkInput(op string, x *tensor.Tensor, rank int) {
	if x == nil {
		panic(fail(op, "the input is nil"))
	}
	if !x.DType().IsFloat() {
		panic(fail(op, "the input is %v: want a floating-point tensor", x.Type()))
	}
	if x.Rank() < rank {
		panic(fail(op, "the input is %v: want rank %d or more", x.Type(), rank))
	}
}

// checkParam panics if a parameter the layer needs is nil (a layer made
// as a zero value rather than by its constructor).
func checkParam(op, field string, p *tensor.Tensor) {
	if p == nil {
		panic(fail(op, "%s is nil: make the layer with its constructor", field))
	}
}
