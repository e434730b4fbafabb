package jit_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
)

// wantNaNAt checks that err is STELA_DEBUG=nans's error for op, located
// at line of this file.
func wantNaNAt(t *testing.T, err error, op string, line int, more string) {
	t.Helper()
	var e *ir.Error
	if !errors.As(err, &e) || !errors.Is(err, T.ErrNaN) {
		t.Fatalf("err = %v, want a located NaN error", err)
	}
	if (op != "" && e.Op != op) || !strings.HasSuffix(e.Loc.File, "nans_test.go") || e.Loc.Line != line || !strings.Contains(err.Error(), more) {
		t.Fatalf("err = %v (op %q at %v), want %s at nans_test.go:%d mentioning %q", err, e.Op, e.Loc, op, line, more)
	}
}

// markLine is the line of this file that ends with "// mark:NAME".
func markLine(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile("nans_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(l, "// mark:"+name) {
			return i + 1
		}
	}
	t.Fatalf("no mark %q", name)
	return 0
}

// Not parallel: it sets the environment.
func TestDebugNaNs(t *testing.T) {
	envtest.Setenv(t, "STELA_DEBUG", "nans")
	x := T.FromSlice([]float32{4, -1})

	// Eagerly, the op that makes the NaN stops the program.
	err := T.Catch(func() {
		y := T.Sqrt(x) // mark:eager
		_ = y
	})
	wantNaNAt(t, err, "sqrt", markLine(t, "eager"), "element 1")
	// An op whose operand already holds the NaN is not blamed.
	nan := T.FromSlice([]float32{1, float32(0) / float32(len(x.Shape())-1)})
	if err := T.Catch(func() { T.Add(nan, nan) }); err != nil {
		t.Fatalf("add of a NaN operand: %v", err)
	}

	// In a gradient: √x at 0 is fine forward, its derivative 0·(½/√0) is
	// NaN; the error names the line of the op whose derivative it is.
	_, _, err = jit.ValueAndGrad(func(x *T.Tensor) *T.Tensor {
		return T.Sum(T.Mul(T.Sqrt(x), T.ScalarLike(x, 0))) // mark:grad
	})(T.FromSlice([]float32{0, 1}))
	wantNaNAt(t, err, "", markLine(t, "grad"), "the derivative of this line's op")

	// A compiled function runs again op by op to find the op.
	f := jit.Compile(func(x *T.Tensor) (*T.Tensor, error) {
		y := T.Sub(x, T.ScalarLike(x, 2))
		return T.Log(y), nil // mark:compiled
	})
	_, err = f(T.FromSlice([]float32{3, 1}))
	wantNaNAt(t, err, "log", markLine(t, "compiled"), "element 1")
	if _, err := f(T.FromSlice([]float32{3, 4})); err != nil {
		t.Fatalf("no NaN: %v", err)
	}
}
