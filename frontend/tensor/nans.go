package tensor

import (
	"errors"
	"math"
	"math/cmplx"
	"strings"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
)

// ErrNaN is what the located error of STELA_DEBUG=nans wraps: an op made
// a NaN from operands that had none.
var ErrNaN = errors.New("NaN produced")

// debugNaNs reports STELA_DEBUG=nans.
func debugNaNs() bool { return env.Debug().NaNs }

// checkNaNs is STELA_DEBUG=nans for one eager op: when a float result
// holds a NaN and no float operand does, the op made it, and it stops
// there with a located error.
func checkNaNs(loc ir.Loc, op ir.Op, args, outs []*Tensor) {
	for i, o := range outs {
		at := firstNaN(o)
		if at < 0 {
			continue
		}
		for _, a := range args {
			if firstNaN(a) >= 0 {
				return // the NaN came in: an earlier op, or the caller, made it
			}
		}
		panic(ir.Errorf(loc, op.String(), "result #%d (%v) has a NaN at element %d, from operands without one (STELA_DEBUG=nans): %w", i, o.typ, at, ErrNaN))
	}
}

// firstNaN is the index of t's first NaN element, -1 if none (or if t is
// not a concrete float tensor).
func firstNaN(t *Tensor) int {
	if t == nil || t.buf == nil || !ir.Differentiable(t.typ.DType) {
		return -1
	}
	l, err := t.buf.Literal()
	if err != nil {
		return -1
	}
	if t.typ.DType.IsComplex() {
		for i, v := range l.Complex128s() {
			if cmplx.IsNaN(v) {
				return i
			}
		}
		return -1
	}
	for i, v := range l.Float64s() {
		if math.IsNaN(v) {
			return i
		}
	}
	return -1
}

// FirstNaN is the index of the first NaN of a concrete float or complex
// tensor, -1 when it has none. jit's STELA_DEBUG=nans check uses it.
func FirstNaN(t *Tensor) int { return firstNaN(t) }

// inDerivative rewords a NaN error of an op Apply ran for a derivative
// (a function passes/autodiff made, named @..._bwd or @..._fwd).
func inDerivative(err error, f *ir.Func) error {
	var e *ir.Error
	if !errors.Is(err, ErrNaN) || !errors.As(err, &e) || !(strings.HasSuffix(f.Name, "_bwd") || strings.HasSuffix(f.Name, "_fwd")) {
		return err
	}
	d := ir.Errorf(e.Loc, e.Op, "in @%s, the derivative of this line's op: %s", f.Name, e.Msg)
	d.Err = ErrNaN
	return d
}
