package jit_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

func f64s(v ...float64) *T.Tensor { return T.FromSlice(v) }

func near(t *testing.T, what string, got *T.Tensor, want []float64, tol float64) {
	t.Helper()
	g := T.Convert(got, ir.F64).Float64s()
	if len(g) != len(want) {
		t.Fatalf("%s: %d values %v, want %v", what, len(g), g, want)
	}
	for i := range g {
		if math.Abs(g[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Errorf("%s[%d] = %v, want %v (all: %v)", what, i, g[i], want[i], g)
		}
	}
}

// x·sin(x) has derivative sin x + x cos x and second derivative
// 2 cos x - x sin x: eagerly, compiled, compiled around the eager
// gradient, and nested.
func TestGradModes(t *testing.T) {
	f := func(x *T.Tensor) *T.Tensor { return T.Sum(T.Mul(T.Sin(x), x)) }
	xs := []float64{0.5, 1, -2}
	d1 := make([]float64, len(xs))
	d2 := make([]float64, len(xs))
	for i, x := range xs {
		d1[i] = math.Sin(x) + x*math.Cos(x)
		d2[i] = 2*math.Cos(x) - x*math.Sin(x)
	}
	x := f64s(xs...)
	near(t, "eager", jit.Grad(f)(x), d1, 1e-12)
	near(t, "compiled", jit.Compile(jit.Grad(f))(x), d1, 1e-12)
	g2 := jit.Grad(func(x *T.Tensor) *T.Tensor { return T.Sum(jit.Grad(f)(x)) })
	near(t, "second, eager", g2(x), d2, 1e-12)
	near(t, "second, compiled", jit.Compile(g2)(x), d2, 1e-12)
	// Grad of a compiled function traces it onto the tape.
	near(t, "grad of compiled", jit.Grad(jit.Compile(f))(x), d1, 1e-12)
}

// Second derivatives of matmul and reductions: the Hessian-vector product
// of ½‖A x‖² is AᵀA v.
func TestSecondOrderMatmul(t *testing.T) {
	a := T.FromSlice([]float64{1, 2, 0, -1, 3, 1}, 3, 2)
	v := f64s(0.5, -2)
	loss := func(x *T.Tensor) *T.Tensor {
		y := T.MatMul(a, T.Reshape(x, 2, 1))
		return T.Mul(T.Sum(T.Mul(y, y)), T.Scalar(0.5))
	}
	hvp := func(x *T.Tensor) *T.Tensor { return T.Sum(T.Mul(jit.Grad(loss)(x), v)) }
	got := jit.Grad(hvp)(f64s(0.3, 0.7))
	// AᵀA = [[10, 5], [5, 6]]; AᵀA v = [-5, -9.5].
	near(t, "hvp", got, []float64{-5, -9.5}, 1e-12)
	near(t, "hvp compiled", jit.Compile(jit.Grad(hvp))(f64s(0.3, 0.7)), []float64{-5, -9.5}, 1e-12)
	// Max and Mean: d/dx mean(max(x, axis 1)) then its derivative is 0.
	m := func(x *T.Tensor) *T.Tensor { return T.Mean(T.Max(T.Mul(x, x), 1)) }
	x := T.FromSlice([]float64{1, -3, 2, 0.5}, 2, 2)
	near(t, "max/mean", jit.Grad(m)(x), []float64{0, -3, 2, 0}, 1e-12)
	near(t, "max/mean second", jit.Grad(func(x *T.Tensor) *T.Tensor { return T.Sum(jit.Grad(m)(x)) })(x), []float64{0, 1, 1, 0}, 1e-12)
}

func TestValueAndGrad(t *testing.T) {
	f := func(x, y, z *T.Tensor) *T.Tensor { return T.Sum(T.Add(T.Mul(x, y), T.Exp(z))) }
	x, y, z := f64s(1, 2), f64s(3, 4), f64s(0, 1)
	v, g, err := jit.ValueAndGrad(f, 0, 2)(x, y, z)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "value", v, []float64{3 + 8 + 1 + math.E}, 1e-12)
	near(t, "d/dx", g[0], []float64{3, 4}, 1e-12)
	near(t, "d/dz", g[1], []float64{1, math.E}, 1e-12)
	// Compiled, with the update in the same program.
	step := jit.Compile(func(x, y, z *T.Tensor) (*T.Tensor, *T.Tensor) {
		v, g, err := jit.ValueAndGrad(f)(x, y, z)
		if err != nil {
			panic(err)
		}
		return v, T.Sub(x, T.Mul(g[0], T.Scalar(0.1)))
	})
	v2, x2 := step(x, y, z)
	near(t, "compiled value", v2, []float64{3 + 8 + 1 + math.E}, 1e-12)
	near(t, "compiled step", x2, []float64{0.7, 1.6}, 1e-12)
	// A slice-taking function.
	vs, gs, err := jit.ValueAndGrad(func(ts []*T.Tensor) *T.Tensor { return T.Sum(T.Mul(ts[0], ts[1])) }, 1)(x, y)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "slice value", vs, []float64{11}, 1e-12)
	near(t, "slice grad", gs[0], []float64{1, 2}, 1e-12)
}

func TestVJPAndJVP(t *testing.T) {
	f := func(x, y *T.Tensor) (*T.Tensor, *T.Tensor) { return T.Mul(x, y), T.Sin(x) }
	x, y := f64s(1, 2), f64s(3, -1)
	outs, vjp, err := jit.VJP(f, x, y)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "out0", outs[0], []float64{3, -2}, 0)
	cts, err := vjp(f64s(1, 1), f64s(2, 0))
	if err != nil {
		t.Fatal(err)
	}
	near(t, "ct x", cts[0], []float64{3 + 2*math.Cos(1), -1}, 1e-12)
	near(t, "ct y", cts[1], []float64{1, 2}, 1e-12)
	// Called again, with a zero cotangent for the second output.
	cts, err = vjp(f64s(0, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "ct x again", cts[0], []float64{0, -1}, 1e-12)

	outs, tans, err := jit.JVP(f, []*T.Tensor{x, y}, []*T.Tensor{f64s(1, 0), nil})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "jvp out1", outs[1], []float64{math.Sin(1), math.Sin(2)}, 1e-12)
	near(t, "jvp t0", tans[0], []float64{3, 0}, 1e-12)
	near(t, "jvp t1", tans[1], []float64{math.Cos(1), 0}, 1e-12)
	// Compiled JVP.
	jf := jit.Compile(func(x, y, tx *T.Tensor) []*T.Tensor {
		_, ts, err := jit.JVP(f, []*T.Tensor{x, y}, []*T.Tensor{tx, nil})
		if err != nil {
			panic(err)
		}
		return ts
	})
	near(t, "compiled jvp", jf(x, y, f64s(1, 0))[0], []float64{3, 0}, 1e-12)
	// Integer arguments get no cotangent.
	_, vjp2, err := jit.VJP(func(x, n *T.Tensor) *T.Tensor { return T.Mul(x, T.Convert(n, ir.F64)) }, x, T.FromSlice([]int32{2, 5}))
	if err != nil {
		t.Fatal(err)
	}
	g, err := vjp2(f64s(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	near(t, "int arg's partner", g[0], []float64{2, 5}, 0)
	if g[1] != nil {
		t.Errorf("integer argument got cotangent %v", g[1])
	}
}

// The function runs with real values eagerly: Go control flow on them works.
func TestGradEagerControlFlow(t *testing.T) {
	f := func(x *T.Tensor) *T.Tensor {
		if x.Float64s()[0] > 0 {
			return T.Sum(T.Mul(x, x))
		}
		return T.Sum(T.Mul(x, T.Scalar(3.0)))
	}
	near(t, "positive", jit.Grad(f)(f64s(2, 1)), []float64{4, 2}, 0)
	near(t, "negative", jit.Grad(f)(f64s(-2, 1)), []float64{3, 3}, 0)
}

// Gradients through While (a counted loop), Cond and closures.
func TestGradControlFlowOps(t *testing.T) {
	w := f64s(0.5, 2)
	// x ← x·w + sin(x), four times.
	loop := func(x *T.Tensor) *T.Tensor {
		return T.Sum(T.ForLoop(4, func(i *T.Tensor, s []*T.Tensor) []*T.Tensor {
			return []*T.Tensor{T.Add(T.Mul(s[0], w), T.Sin(s[0]))}
		}, x)[0])
	}
	x := f64s(0.3, -0.2)
	want := make([]float64, 2)
	for k, x0 := range []float64{0.3, -0.2} {
		v, d := x0, 1.0
		for range 4 {
			d *= []float64{0.5, 2}[k] + math.Cos(v)
			v = v*[]float64{0.5, 2}[k] + math.Sin(v)
		}
		want[k] = d
	}
	near(t, "loop eager", jit.Grad(loop)(x), want, 1e-12)
	near(t, "loop compiled", jit.Compile(jit.Grad(loop))(x), want, 1e-12)
	// A While counted by hand, as users write it.
	hand := func(x *T.Tensor) *T.Tensor {
		out := T.While(
			func(s []*T.Tensor) *T.Tensor { return T.Less(s[0], T.ScalarLike(s[0], 4)) },
			func(s []*T.Tensor) []*T.Tensor {
				return []*T.Tensor{T.Add(s[0], T.ScalarLike(s[0], 1)), T.Add(T.Mul(s[1], w), T.Sin(s[1]))}
			},
			T.Scalar(int32(0)), x)
		return T.Sum(out[1])
	}
	near(t, "while eager", jit.Grad(hand)(x), want, 1e-12)
	near(t, "while compiled", jit.Compile(jit.Grad(hand))(x), want, 1e-12)
	// Cond picks a branch by a traced predicate.
	cond := func(x *T.Tensor) *T.Tensor {
		p := T.Greater(T.Sum(x), T.ScalarLike(x, 0))
		return T.Sum(T.Cond(p,
			func() []*T.Tensor { return []*T.Tensor{T.Mul(x, x)} },
			func() []*T.Tensor { return []*T.Tensor{T.Exp(x)} })[0])
	}
	near(t, "cond then", jit.Grad(cond)(f64s(1, 2)), []float64{2, 4}, 1e-12)
	near(t, "cond else", jit.Compile(jit.Grad(cond))(f64s(-1, -2)), []float64{math.Exp(-1), math.Exp(-2)}, 1e-12)
}

// A loop whose trip count depends on the data has no reverse-mode
// derivative: the error names the Go line of the While.
func TestGradDynamicWhileIsAnError(t *testing.T) {
	f := func(x *T.Tensor) *T.Tensor {
		out := T.While(
			func(s []*T.Tensor) *T.Tensor { return T.Less(T.Sum(s[0]), T.ScalarLike(s[0], 100)) },
			func(s []*T.Tensor) []*T.Tensor { return []*T.Tensor{T.Mul(s[0], T.ScalarLike(s[0], 2))} },
			x) // want line
		return T.Sum(out[0])
	}
	_, _, err := jit.ValueAndGrad(f)(f64s(1, 2))
	var e *ir.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "while: the gradient of a while loop needs a trip count") || !strings.HasSuffix(e.Loc.File, "grad_test.go") {
		t.Fatalf("err = %v", err)
	}
	// Forward mode needs no trip count.
	_, ts, err := jit.JVP(f, []*T.Tensor{f64s(1, 2)}, []*T.Tensor{f64s(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "jvp of dynamic while", ts[0], []float64{64}, 0)
}

func TestGradErrors(t *testing.T) {
	// A non-scalar result.
	_, _, err := jit.ValueAndGrad(func(x *T.Tensor) *T.Tensor { return T.Mul(x, x) })(f64s(1, 2))
	if err == nil || !strings.Contains(err.Error(), "want a float scalar") {
		t.Errorf("non-scalar: %v", err)
	}
	// An integer argument.
	_, _, err = jit.ValueAndGrad(func(x *T.Tensor) *T.Tensor { return T.Convert(T.Sum(x), ir.F32) })(T.FromSlice([]int32{1, 2}))
	if err == nil || !strings.Contains(err.Error(), "only float and complex tensors have gradients") {
		t.Errorf("integer: %v", err)
	}
	// Grad without an error result panics with a located error at the call.
	func() {
		defer func() {
			r := recover()
			e, ok := r.(*ir.Error)
			if !ok || !strings.HasSuffix(e.Loc.File, "grad_test.go") {
				t.Errorf("panic = %v, want a located *ir.Error", r)
			}
		}()
		jit.Grad(func(x *T.Tensor) *T.Tensor { return x })(f64s(1, 2))
	}()
	// A function that ignores its argument: zeros.
	near(t, "unused", jit.Grad(func(x *T.Tensor) *T.Tensor { return T.Sum(f64s(1, 2)) })(f64s(5, 6)), []float64{0, 0}, 0)
	// Through an op without a derivative.
	g := jit.Grad(func(x *T.Tensor) (*T.Tensor, error) {
		return T.Sum(T.BitcastConvert(x, ir.F64)), nil
	})
	_, err = g(f64s(1))
	if err == nil || !strings.Contains(err.Error(), "bitcast_convert: is not differentiable") {
		t.Errorf("bitcast: %v", err)
	}
}

// Gradients in f32 and bf16 agree with f64 within their precision: the
// rules run in the operands' own type.
func TestGradElementTypes(t *testing.T) {
	f := func(x *T.Tensor) *T.Tensor { return T.Sum(T.Tanh(T.Mul(x, x))) }
	x := f64s(0.1, -0.7, 1.3)
	want := T.Convert(jit.Grad(f)(x), ir.F64).Float64s()
	for _, dt := range []ir.DType{ir.F32, ir.BF16, ir.F16} {
		tol := map[ir.DType]float64{ir.F32: 1e-6, ir.BF16: 3e-2, ir.F16: 3e-3}[dt]
		near(t, dt.String(), jit.Grad(f)(T.Convert(x, dt)), want, tol)
		near(t, dt.String()+" compiled", jit.Compile(jit.Grad(f))(T.Convert(x, dt)), want, tol)
	}
}
