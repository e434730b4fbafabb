package jit_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

func f32(data []float32, shape ...int) *T.Tensor { return T.FromSlice(data, shape...) }

// ramp makes deterministic, varied test data.
func ramp(shape ...int) *T.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	s := make([]float32, n)
	for i := range s {
		s[i] = float32((i*7)%13-6) / 4
	}
	return T.FromSlice(s, shape...)
}

func typesOf(ts []*T.Tensor) []ir.Type {
	out := make([]ir.Type, len(ts))
	for i, t := range ts {
		out[i] = t.Type()
	}
	return out
}

// A captured weight: closures over it must take it as a parameter.
var weight = ramp(3, 4)

// opCases are functions over tensors that run both eagerly and traced.
var opCases = []struct {
	name   string
	fn     any
	inputs []*T.Tensor
}{
	{"unary", func(x *T.Tensor) []*T.Tensor {
		p := T.Add(T.Abs(x), T.ScalarLike(x, 0.5))
		return []*T.Tensor{T.Neg(x), T.Abs(x), T.Exp(x), T.Log(p), T.Sqrt(p), T.Rsqrt(p), T.Tanh(x), T.Sigmoid(x),
			T.Sin(x), T.Cos(x), T.Floor(x), T.Ceil(x), T.Sign(x), T.Relu(x), T.GELU(x), T.Round(x), T.Expm1(x), T.Log1p(p)}
	}, []*T.Tensor{ramp(2, 3)}},
	{"binary-broadcast", func(x, y *T.Tensor) []*T.Tensor {
		return []*T.Tensor{T.Add(x, y), T.Sub(x, y), T.Mul(x, y), T.Div(x, T.Add(T.Abs(y), T.ScalarLike(y, 1))),
			T.Pow(T.Abs(x), y), T.Maximum(x, y), T.Minimum(x, y)}
	}, []*T.Tensor{ramp(2, 3), ramp(3)}},
	{"compare-select", func(x, y *T.Tensor) []*T.Tensor {
		return []*T.Tensor{T.Where(T.Less(x, y), x, y), T.Equal(x, y), T.GreaterEqual(x, y), T.NotEqual(x, y),
			T.Clamp(x, T.ScalarLike(x, -0.5), T.ScalarLike(x, 0.75)), T.Clamp(x, y, T.FullLike(y, 1))}
	}, []*T.Tensor{ramp(2, 3), ramp(2, 3)}},
	{"convert", func(x *T.Tensor) []*T.Tensor {
		return []*T.Tensor{T.Convert(x, ir.S32), T.Convert(x, ir.F64), T.BitcastConvert(x, ir.U32), T.Convert(x, ir.BF16)}
	}, []*T.Tensor{ramp(4)}},
	{"structural", func(x *T.Tensor) []*T.Tensor {
		r := T.Reshape(x, 3, -1)
		i := T.Convert(T.Sum(T.Convert(T.Greater(x, T.ScalarLike(x, 0)), ir.S32)), ir.S32)
		return []*T.Tensor{r, T.Transpose(r), T.BroadcastTo(T.SliceAxis(r, 0, 0, 1), 2, 3, 4), T.Slice(x, []int{0, 1}, []int{2, -1}, []int{1, 2}),
			T.Concat(-1, x, x), T.Pad(x, T.ScalarLike(x, 9), []int{1, 0}, []int{0, -1}, []int{0, 1}), T.Reverse(x, 0, 1),
			T.DynamicSlice(x, []*T.Tensor{i, T.Scalar(int32(1))}, []int{1, 2}),
			T.DynamicUpdateSlice(x, T.FullLike(T.SliceAxis(x, 1, 0, 2), 7), []*T.Tensor{T.Scalar(int32(1)), i}),
			T.Squeeze(T.ExpandDims(x, 1), 1)}
	}, []*T.Tensor{ramp(3, 4)}},
	{"matmul", func(x, y, z *T.Tensor) []*T.Tensor {
		return []*T.Tensor{T.MatMul(x, weight), T.MatMul(x, y), T.MatMul(z, y),
			T.DotGeneral(x, y, ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{1}})}
	}, []*T.Tensor{ramp(2, 5, 3), ramp(2, 3, 4), ramp(1, 5, 3)}},
	{"reductions", func(x *T.Tensor) []*T.Tensor {
		return []*T.Tensor{T.Sum(x), T.Sum(x, 0, 2), T.Mean(x, -1), T.Max(x, 1), T.Min(x, 1), T.Prod(x, 2),
			T.KeepDims(T.Sum, x, 1), T.ArgMax(x, -1), T.ArgMin(x, 0)}
	}, []*T.Tensor{ramp(2, 3, 4)}},
	{"nn", func(x, g, b *T.Tensor) []*T.Tensor {
		return []*T.Tensor{T.Softmax(x, -1), T.LogSoftmax(x, 0), T.LayerNorm(x, g, b, -1, 1e-5), T.RMSNorm(x, g, -1, 1e-6)}
	}, []*T.Tensor{ramp(3, 4), ramp(4), ramp(4)}},
	{"conv-pool", func(x, k *T.Tensor) []*T.Tensor {
		c := T.Conv2D(x, k, T.Conv2DOptions{Padding: T.Same, Strides: [2]int{1, 2}})
		return []*T.Tensor{c, T.MaxPool2D(c, [2]int{2, 2}, [2]int{}, T.Valid), T.AvgPool2D(x, [2]int{3, 3}, [2]int{2, 2}, T.Same),
			T.Conv2D(x, T.SliceAxis(k, 2, 0, 1), T.Conv2DOptions{Groups: 2, Dilation: [2]int{2, 1}})}
	}, []*T.Tensor{ramp(2, 6, 5, 2), ramp(3, 3, 2, 4)}},
	{"gather-scatter", func(table, ids *T.Tensor) []*T.Tensor {
		e := T.Take(table, ids, 0)
		return []*T.Tensor{e, T.Take(table, ids, 1), T.ScatterAdd(T.ZerosLike(table), ids, e, 0)}
	}, []*T.Tensor{ramp(5, 3), T.FromSlice([]int32{4, 0, 2, 4}, 2, 2)}},
	{"iota-mask", func(x *T.Tensor) *T.Tensor {
		n := x.Shape()[0]
		mask := T.GreaterEqual(T.IotaLike(x, ir.S32, []int{n, n}, 0), T.IotaLike(x, ir.S32, []int{n, n}, 1))
		return T.Where(mask, x, T.FullLike(x, -1e9))
	}, []*T.Tensor{ramp(4, 4)}},
	{"while-captures", func(x *T.Tensor) []*T.Tensor {
		// The body uses x (a value of the enclosing trace) and weight (a
		// concrete tensor): both must be threaded in as loop state.
		limit := T.Scalar(int32(3))
		out := T.While(
			func(s []*T.Tensor) *T.Tensor { return T.Less(s[0], limit) },
			func(s []*T.Tensor) []*T.Tensor {
				return []*T.Tensor{T.Add(s[0], T.ScalarLike(s[0], 1)), T.Tanh(T.Add(T.SliceAxis(T.MatMul(s[1], weight), 1, 0, 3), T.SliceAxis(x, 1, 1, 4)))}
			},
			T.Scalar(int32(0)), T.ZerosLike(T.SliceAxis(x, 1, 0, 3)))
		return out
	}, []*T.Tensor{ramp(2, 5)}},
	{"cond-switch", func(x, p *T.Tensor) []*T.Tensor {
		c := T.Cond(T.Greater(p, T.ScalarLike(p, 0)),
			func() []*T.Tensor { return []*T.Tensor{T.Mul(x, weight)} },
			func() []*T.Tensor { return []*T.Tensor{T.Neg(x)} })
		s := T.Switch(T.Convert(p, ir.S32),
			func() []*T.Tensor { return []*T.Tensor{x} },
			func() []*T.Tensor { return []*T.Tensor{T.Exp(x)} },
			func() []*T.Tensor { return []*T.Tensor{weight} })
		return append(c, s...)
	}, []*T.Tensor{ramp(3, 4), T.Scalar(float32(1.5))}},
	{"nested-regions", func(x *T.Tensor) []*T.Tensor {
		return T.While(
			func(s []*T.Tensor) *T.Tensor { return T.Less(s[0], T.ScalarLike(s[0], 2)) },
			func(s []*T.Tensor) []*T.Tensor {
				y := T.Cond(T.Equal(s[0], T.ScalarLike(s[0], 0)),
					func() []*T.Tensor { return []*T.Tensor{T.Add(s[1], x)} },
					func() []*T.Tensor { return []*T.Tensor{T.Mul(s[1], x)} })[0]
				return []*T.Tensor{T.Add(s[0], T.ScalarLike(s[0], 1)), y}
			},
			T.Scalar(int32(0)), T.ZerosLike(x))
	}, []*T.Tensor{ramp(3)}},
}

func TestEagerEqualsTraced(t *testing.T) {
	for _, tc := range opCases {
		t.Run(tc.name, func(t *testing.T) {
			eager, err := jit.Call(tc.fn, tc.inputs...)
			if err != nil {
				t.Fatalf("eager: %v", err)
			}
			r, err := jit.TraceFull(tc.fn, typesOf(tc.inputs)...)
			if err != nil {
				t.Fatalf("trace: %v", err)
			}
			if err := ir.Verify(r.Func); err != nil {
				t.Fatalf("verify: %v\n%v", err, r.Func)
			}
			for _, c := range r.Captured {
				if c.Traced() {
					t.Errorf("captured a traced tensor %v", c)
				}
			}
			traced, err := r.Call(tc.inputs...)
			if err != nil {
				t.Fatalf("run traced: %v\n%v", err, r.Func)
			}
			if len(traced) != len(eager) {
				t.Fatalf("%d traced results, %d eager", len(traced), len(eager))
			}
			for i := range eager {
				if !ir.LiteralEqual(traced[i].Literal(), eager[i].Literal()) {
					t.Errorf("result #%d: traced\n%v\neager\n%v", i, traced[i], eager[i])
				}
			}
			// Every instruction is located in this file.
			r.Func.Walk(func(in *ir.Instr) {
				if filepath.Base(in.Loc.File) != "trace_test.go" {
					t.Errorf("%v located at %v, want trace_test.go", in.Op, in.Loc)
				}
			})
		})
	}
}

func TestCapturedBecomeParameters(t *testing.T) {
	r, err := jit.TraceFull(func(x *T.Tensor) *T.Tensor { return T.MatMul(x, weight) }, ir.TensorOf(ir.F32, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if r.NumInputs != 1 || len(r.Captured) != 1 || r.Captured[0] != weight || len(r.Func.Params) != 2 {
		t.Fatalf("want weight as the trailing parameter: %d inputs, captured %v, params %v", r.NumInputs, r.Captured, r.Func.Params)
	}
	if got := r.Func.Params[1].Type.String(); got != "f32[3,4]" {
		t.Errorf("captured parameter type %s", got)
	}
	r.Func.Walk(func(in *ir.Instr) {
		if in.Op == ir.OpConstant {
			t.Errorf("a captured tensor was baked in as a constant:\n%v", r.Func)
		}
	})
}

func mlp(x, w *T.Tensor) *T.Tensor { return T.Relu(T.MatMul(x, w)) }

func TestSignatures(t *testing.T) {
	ty := ir.TensorOf(ir.F32, 2)
	tests := []struct {
		name     string
		fn       any
		inputs   []ir.Type
		fname    string
		nResults int
		err      string
	}{
		{"named", mlp, []ir.Type{ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 4)}, "mlp", 1, ""},
		{"closure", func(x *T.Tensor) *T.Tensor { return x }, []ir.Type{ty}, "TestSignatures_closure1", 1, ""},
		{"slice", func(xs []*T.Tensor) []*T.Tensor { return []*T.Tensor{T.Add(xs[0], xs[1]), xs[2]} }, []ir.Type{ty, ty, ty}, "TestSignatures_closure2", 2, ""},
		{"variadic", func(xs ...*T.Tensor) (*T.Tensor, []*T.Tensor, error) { return xs[0], xs, nil }, []ir.Type{ty, ty}, "TestSignatures_closure3", 3, ""},
		{"no-inputs", func() *T.Tensor { return T.Arange(ir.S32, 3) }, nil, "TestSignatures_closure4", 1, ""},
		{"user-error", func(x *T.Tensor) (*T.Tensor, error) { return nil, errors.New("boom") }, []ir.Type{ty}, "", 0, "boom"},
		{"bad-param", func(x int) *T.Tensor { return nil }, []ir.Type{ty}, "", 0, "parameter #0 is int"},
		{"bad-result", func(x *T.Tensor) int { return 0 }, []ir.Type{ty}, "", 0, "result #0 is int"},
		{"count", func(x, y *T.Tensor) *T.Tensor { return x }, []ir.Type{ty}, "", 0, "func has 2 parameters but 1 inputs are given"},
		{"not-func", 42, nil, "", 0, "fn is int, want a func"},
		{"dynamic", func(x *T.Tensor) *T.Tensor { return x }, []ir.Type{ir.TensorOf(ir.F32, ir.DynamicDim)}, "", 0, "static shape"},
		{"nil-result", func(x *T.Tensor) *T.Tensor { return nil }, []ir.Type{ty}, "", 0, "result #0 is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := jit.Trace(tt.fn, tt.inputs...)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Name != tt.fname || len(f.Results) != tt.nResults {
				t.Errorf("got @%s with %d results, want @%s with %d", f.Name, len(f.Results), tt.fname, tt.nResults)
			}
			if err := ir.Verify(f); err != nil {
				t.Error(err)
			}
		})
	}
}

type layer struct{ w *T.Tensor }

func (l *layer) Forward(x *T.Tensor) *T.Tensor { return T.MatMul(x, l.w) }

func (l *layer) forwardFn() func(*T.Tensor) *T.Tensor {
	return func(x *T.Tensor) *T.Tensor { return T.Tanh(x) }
}

func identity[E any](x *T.Tensor) *T.Tensor { return x }

// Traced functions are named after their Go names; function literals
// after the function that holds them and the compiler's counter.
func TestFuncNames(t *testing.T) {
	l := &layer{w: T.Zeros(ir.F32, 2, 2)}
	nested := func() any { return func(x *T.Tensor) *T.Tensor { return x } }
	ty := ir.TensorOf(ir.F32, 2, 2)
	// The compiler's counters: a literal inlined into another function
	// (forwardFn's, nested's) is counted there.
	for _, tc := range []struct {
		fn   any
		want string
	}{
		{mlp2, `mlp2`},
		{l.Forward, `Forward`},                   // method value
		{l.forwardFn(), `forwardFn_closure\d+`},  // literal in a method
		{identity[int], `identity`},              // generic instance
		{nested(), `TestFuncNames_closure1_\d+`}, // literal in a literal
		{func(x *T.Tensor) *T.Tensor { return x }, `TestFuncNames_closure2`},
	} {
		f, err := jit.Trace(tc.fn, ty)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`^` + tc.want + `$`).MatchString(f.Name) {
			t.Errorf("%T traced as @%s, want @%s", tc.fn, f.Name, tc.want)
		}
		if text, err := runtime.StableHLO(f); err != nil || !strings.Contains(text, "module @jit_"+f.Name+" ") {
			t.Errorf("@%s lowers to %v:\n%s", f.Name, err, text)
		}
	}

	// jit.Compile names its dumps after the function, or WithName.
	dir := t.TempDir()
	t.Setenv("STELA_DUMP", dir)
	x := T.Zeros(ir.F32, 2)
	jit.Compile(func(x *T.Tensor) *T.Tensor { return T.Neg(x) })(x)
	jit.Compile(func(x *T.Tensor) *T.Tensor { return T.Exp(x) }, jit.WithName("given"))(x)
	for _, name := range []string{"TestFuncNames_closure3.1.mlir", "given.1.mlir"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("STELA_DUMP: %v", err)
		}
	}
}

func mlp2(x *T.Tensor) *T.Tensor { return T.Relu(x) }

func TestParamLocation(t *testing.T) {
	f, err := jit.Trace(mlp, ir.TensorOf(ir.F32, 2, 3), ir.TensorOf(ir.F32, 3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if l := f.Params[0].Loc(); filepath.Base(l.File) != "trace_test.go" {
		t.Errorf("parameter located at %v, want mlp's declaration", l)
	}
	text := fmt.Sprint(f)
	if !strings.Contains(text, "dot_general") || !strings.Contains(text, "maximum") {
		t.Errorf("unexpected program:\n%s", text)
	}
}
