package jit_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/internal/wanttest"
	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Errors inside traced functions come back from Trace located at the
// user's line: the want comment on that line must match.
func TestTraceErrorsAtCallSite(t *testing.T) {
	a, b := ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 2)
	var errs []error
	trace := func(fn any, in ...ir.Type) {
		_, err := jit.Trace(fn, in...)
		errs = append(errs, err)
	}
	trace(func(x, y *T.Tensor) *T.Tensor {
		h := T.Exp(x)
		return T.Add(h, y) // want `^errors_test.go:\d+: add: operand types f32\[2,3\] and f32\[3,2\] differ`
	}, a, b)
	trace(func(x, y *T.Tensor) *T.Tensor {
		return T.MatMul(x, T.Transpose(y)) // want `matmul: f32\[2,3\] times f32\[2,3\]: contracting dimensions differ`
	}, a, b)
	trace(func(x *T.Tensor) *T.Tensor {
		return T.Cond(T.Less(T.Sum(x), T.ScalarLike(x, 0)),
			func() []*T.Tensor { return []*T.Tensor{x} },
			func() []*T.Tensor { return []*T.Tensor{T.Reshape(x, 5, -1)} }, // want `reshape: cannot reshape f32\[2,3\] \(6 elements\) to \[5 -1\]`
		)[0]
	}, a)
	trace(func(x *T.Tensor) *T.Tensor {
		return T.Cond(T.Less(T.Sum(x), T.ScalarLike(x, 0)), // want `case: branch 1 returns \[f32\[3,2\]\], but branch 0 returns \[f32\[2,3\]\]`
			func() []*T.Tensor { return []*T.Tensor{x} },
			func() []*T.Tensor { return []*T.Tensor{T.Transpose(x)} })[0]
	}, a)
	var leaked *T.Tensor
	if _, err := jit.Trace(func(x *T.Tensor) *T.Tensor { leaked = x; return x }, a); err != nil {
		t.Fatal(err)
	}
	trace(func(x *T.Tensor) *T.Tensor {
		return T.Add(x, leaked) // want `add: operand #1 belongs to trace @TestTraceErrorsAtCallSite_closure\d+, which has finished`
	}, a)
	wanttest.Check(t, "errors_test.go", errs)
}
