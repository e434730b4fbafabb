package jit_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Every op runs eagerly on the default device (one-op executables), traced
// and compiled (jit.Compile) on the same device, and eagerly on the
// reference evaluator: the three must agree. Integer, boolean and data
// movement results must be identical; float results within a few ULP (the
// plugin's transcendental functions are not Go's).
//
// STELA_TEST_DEVICE names another device to run the eager and compiled
// halves on (test/device/run.sh runs it on XLA's CUDA plugin).
func TestEagerCompiledReferenceParity(t *testing.T) {
	if d := os.Getenv("STELA_TEST_DEVICE"); d != "" {
		if err := tensor.SetDefaultDevice(d); err != nil {
			t.Fatalf("STELA_TEST_DEVICE=%s: %v", d, err)
		}
		t.Cleanup(func() { _ = tensor.SetDefaultDevice("cpu") })
		t.Logf("device %s", d)
	}
	f32 := func(shape []int, vals ...float32) *tensor.Tensor {
		n := 1
		for _, d := range shape {
			n *= d
		}
		data := make([]float32, n)
		for i := range data {
			data[i] = vals[i%len(vals)] + float32(i)*0.03125
		}
		return tensor.FromSlice(data, shape...)
	}
	x := f32([]int{2, 3, 4}, -1.5, 0.25, 2, -0.75, 3)
	y := f32([]int{2, 3, 4}, 0.5, -2, 1.25)
	pos := tensor.Add(tensor.Abs(x), tensor.ScalarLike(x, 0.5))
	m := f32([]int{4, 5}, 0.5, -1, 2)
	i32 := tensor.FromSlice([]int32{7, -3, 0, 12, -8, 5}, 2, 3)
	j32 := tensor.FromSlice([]int32{2, 5, -3, 4, 3, -2}, 2, 3)
	b := tensor.FromSlice([]bool{true, false, true, true, false, false}, 2, 3)
	c := tensor.FromSlice([]bool{false, false, true, false, true, true}, 2, 3)
	x64 := tensor.Convert(x, ir.F64)
	idx := tensor.FromSlice([]int32{2, 0, 1, 2}, 4)

	type fn = func(in []*tensor.Tensor) []*tensor.Tensor
	one := func(f func(in []*tensor.Tensor) *tensor.Tensor) fn {
		return func(in []*tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{f(in)} }
	}
	cases := []struct {
		name string
		f    fn
		in   []*tensor.Tensor
	}{
		{"neg", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Neg(in[0]) }), []*tensor.Tensor{x}},
		{"abs", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Abs(in[0]) }), []*tensor.Tensor{i32}},
		{"sign", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Sign(in[0]) }), []*tensor.Tensor{x}},
		{"exp", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Exp(in[0]) }), []*tensor.Tensor{x}},
		{"expm1", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Expm1(in[0]) }), []*tensor.Tensor{x64}},
		{"log", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Log(in[0]) }), []*tensor.Tensor{pos}},
		{"log1p", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Log1p(in[0]) }), []*tensor.Tensor{pos}},
		{"sqrt", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Sqrt(in[0]) }), []*tensor.Tensor{pos}},
		{"rsqrt", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Rsqrt(in[0]) }), []*tensor.Tensor{pos}},
		{"tanh", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Tanh(in[0]) }), []*tensor.Tensor{x}},
		{"sigmoid", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Sigmoid(in[0]) }), []*tensor.Tensor{x}},
		{"sin_cos", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Sin(in[0]), tensor.Cos(in[0])}
		}, []*tensor.Tensor{x64}},
		{"rounding", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Floor(in[0]), tensor.Ceil(in[0]), tensor.Round(in[0])}
		}, []*tensor.Tensor{x}},
		{"is_finite", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.IsFinite(tensor.Div(in[0], in[1])) }), []*tensor.Tensor{x, y}},
		{"arith", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Add(in[0], in[1]), tensor.Sub(in[0], in[1]), tensor.Mul(in[0], in[1]), tensor.Div(in[0], in[1])}
		}, []*tensor.Tensor{x, y}},
		{"int_arith", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Div(in[0], in[1]), tensor.Rem(in[0], in[1]), tensor.Maximum(in[0], in[1]), tensor.Minimum(in[0], in[1])}
		}, []*tensor.Tensor{i32, j32}},
		{"pow_atan2_rem", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Pow(in[0], in[1]), tensor.Atan2(in[1], in[0]), tensor.Rem(in[1], in[0])}
		}, []*tensor.Tensor{pos, y}},
		{"logic", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.And(in[0], in[1]), tensor.Or(in[0], in[1]), tensor.Xor(in[0], in[1]), tensor.Not(in[0])}
		}, []*tensor.Tensor{b, c}},
		{"int_bits", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.And(in[0], in[1]), tensor.Xor(in[0], in[1]), tensor.Not(in[0])}
		}, []*tensor.Tensor{i32, j32}},
		{"compare", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Equal(in[0], in[1]), tensor.NotEqual(in[0], in[1]), tensor.Less(in[0], in[1]),
				tensor.LessEqual(in[0], in[1]), tensor.Greater(in[0], in[1]), tensor.GreaterEqual(in[0], in[1])}
		}, []*tensor.Tensor{i32, j32}},
		{"where_clamp", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Where(tensor.Less(in[0], in[1]), in[0], in[1]),
				tensor.Clamp(in[0], tensor.ScalarLike(in[0], -1), tensor.ScalarLike(in[0], 1))}
		}, []*tensor.Tensor{x, y}},
		{"convert", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Convert(in[0], ir.S32), tensor.Convert(in[0], ir.F64), tensor.Convert(in[0], ir.Bool)}
		}, []*tensor.Tensor{x}},
		{"bitcast", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.BitcastConvert(in[0], ir.S32) }), []*tensor.Tensor{x}},
		{"matmul", one(func(in []*tensor.Tensor) *tensor.Tensor { return tensor.MatMul(in[0], tensor.Transpose(in[0], 1, 0)) }), []*tensor.Tensor{m}},
		{"batched_dot", one(func(in []*tensor.Tensor) *tensor.Tensor {
			return tensor.MatMul(in[0], tensor.Transpose(in[1], 0, 2, 1))
		}), []*tensor.Tensor{x, y}},
		{"reductions", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Sum(in[0], 1), tensor.Prod(in[0], 2), tensor.Max(in[0], 0, 2), tensor.Min(in[0]), tensor.Mean(in[0], 2)}
		}, []*tensor.Tensor{x}},
		{"argmax", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.ArgMax(in[0], 2), tensor.ArgMin(in[0], 1)}
		}, []*tensor.Tensor{x}},
		{"nn", func(in []*tensor.Tensor) []*tensor.Tensor {
			g := tensor.OnesLike(tensor.SliceAxis(in[0], 0, 0, 1))
			return []*tensor.Tensor{tensor.Relu(in[0]), tensor.GELU(in[0]), tensor.Softmax(in[0], 1), tensor.LogSoftmax(in[0], 1),
				tensor.LayerNorm(in[0], tensor.Reshape(g, 5), tensor.Reshape(tensor.ZerosLike(g), 5), 1, 1e-5), tensor.RMSNorm(in[0], tensor.Reshape(g, 5), 1, 1e-6)}
		}, []*tensor.Tensor{m}},
		{"movement", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Reshape(in[0], 6, 4), tensor.Transpose(in[0], 2, 0, 1), tensor.BroadcastTo(tensor.SliceAxis(in[0], 0, 0, 1), 3, 3, 4),
				tensor.Slice(in[0], []int{0, 1, 0}, []int{2, 3, 4}, []int{1, 1, 2}), tensor.Concat(1, in[0], in[0]), tensor.Reverse(in[0], 0, 2),
				tensor.Pad(in[0], tensor.ScalarLike(in[0], -9), []int{0, 1, 0}, []int{1, 0, 2}, []int{0, 1, 0}), tensor.Squeeze(tensor.ExpandDims(in[0], 1), 1)}
		}, []*tensor.Tensor{x}},
		{"dynamic_slice", func(in []*tensor.Tensor) []*tensor.Tensor {
			// Scalars made with ScalarLike live where in[0] does: a
			// tensor.Scalar would be on the default device.
			one := tensor.Convert(tensor.ScalarLike(in[0], 1), ir.S32)
			s := []*tensor.Tensor{one, one, tensor.Convert(tensor.ScalarLike(in[0], 3), ir.S32)}
			return []*tensor.Tensor{tensor.DynamicSlice(in[0], s, []int{1, 2, 2}), tensor.DynamicUpdateSlice(in[0], tensor.ZerosLike(tensor.Slice(in[0], []int{0, 0, 0}, []int{1, 2, 2}, nil)), s)}
		}, []*tensor.Tensor{x}},
		{"take_scatter", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Take(in[0], in[1], 0), tensor.ScatterAdd(tensor.ZerosLike(in[0]), in[1], in[0], 0)}
		}, []*tensor.Tensor{tensor.Reshape(x, 4, 6), idx}},
		{"conv_pool", func(in []*tensor.Tensor) []*tensor.Tensor {
			img := tensor.Reshape(in[0], 1, 4, 6, 1)
			k := tensor.Reshape(tensor.SliceAxis(tensor.Reshape(in[0], 24), 0, 0, 4), 2, 2, 1, 1)
			return []*tensor.Tensor{tensor.Conv2D(img, k, tensor.Conv2DOptions{}),
				tensor.MaxPool2D(img, [2]int{2, 2}, [2]int{2, 2}, tensor.Padding{}), tensor.AvgPool2D(img, [2]int{2, 2}, [2]int{1, 1}, tensor.Padding{})}
		}, []*tensor.Tensor{x}},
		{"sort", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{tensor.Sort(in[0], 2), tensor.SortDescending(in[0], 0), tensor.ArgSort(in[0], 1), tensor.ArgSortDescending(in[0], -1)}
		}, []*tensor.Tensor{tensor.Floor(x)}}, // ties
		{"sort_keys", func(in []*tensor.Tensor) []*tensor.Tensor {
			v, i := tensor.TopK(in[0], 2)
			return append(tensor.SortMany([]*tensor.Tensor{in[2], in[0], in[1]}, 1, 2), v, i, tensor.ArgSort(in[2], 0))
		}, []*tensor.Tensor{i32, j32, b}},
		{"sort_func", func(in []*tensor.Tensor) []*tensor.Tensor {
			// By distance from a scalar the comparator captures.
			c := tensor.ScalarLike(in[0], 1)
			return tensor.SortFunc([]*tensor.Tensor{in[0], tensor.IotaLike(in[0], ir.S32, in[0].Shape(), 1)}, 1, func(a, b []*tensor.Tensor) *tensor.Tensor {
				return tensor.Less(tensor.Abs(tensor.Sub(a[0], c)), tensor.Abs(tensor.Sub(b[0], c)))
			})
		}, []*tensor.Tensor{m}},
		{"while", func(in []*tensor.Tensor) []*tensor.Tensor {
			return tensor.While(func(s []*tensor.Tensor) *tensor.Tensor { return tensor.Less(s[0], tensor.ScalarLike(s[0], 5)) },
				func(s []*tensor.Tensor) []*tensor.Tensor {
					return []*tensor.Tensor{tensor.Add(s[0], tensor.ScalarLike(s[0], 1)), tensor.Mul(s[1], tensor.ScalarLike(s[1], 1.5))}
				}, tensor.Convert(tensor.ScalarLike(in[0], 0), ir.S32), in[0])
		}, []*tensor.Tensor{m}},
		{"cond", func(in []*tensor.Tensor) []*tensor.Tensor {
			return tensor.Cond(tensor.Greater(tensor.Sum(in[0]), tensor.ScalarLike(tensor.Sum(in[0]), 0)),
				func() []*tensor.Tensor { return []*tensor.Tensor{tensor.Exp(in[0])} },
				func() []*tensor.Tensor { return []*tensor.Tensor{tensor.Neg(in[0])} })
		}, []*tensor.Tensor{m}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var eager, compiled, ref []*tensor.Tensor
			if err := tensor.Catch(func() { eager = tc.f(tc.in) }); err != nil {
				t.Fatalf("eager: %v", err)
			}
			cf := jit.Compile(tc.f, jit.WithName(tc.name))
			if err := tensor.Catch(func() { compiled = cf(tc.in) }); err != nil {
				t.Fatalf("compiled: %v", err)
			}
			host := make([]*tensor.Tensor, len(tc.in))
			for i, a := range tc.in {
				host[i] = a.To("host")
			}
			if err := tensor.Catch(func() { ref = tc.f(host) }); err != nil {
				t.Fatalf("reference: %v", err)
			}
			for i := range ref {
				r := ref[i].Literal()
				for _, got := range []struct {
					what string
					t    *tensor.Tensor
				}{{"eager", eager[i]}, {"compiled", compiled[i]}} {
					if got.t.Device() != tc.in[0].Device() {
						t.Errorf("%s result #%d on %s", got.what, i, got.t.Device())
					}
					if err := agree(got.t.Literal(), r); err != nil {
						t.Errorf("%s result #%d vs reference: %v", got.what, i, err)
					}
				}
			}
		})
	}
}

// agree requires equality for integers and booleans and closeness for
// floats.
func agree(got, want *ir.Literal) error {
	if !got.Type.Equal(want.Type) {
		return fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	if !want.Type.DType.IsFloat() {
		if !ir.LiteralEqual(got, want) {
			return fmt.Errorf("got %v, want %v", got.Data, want.Data)
		}
		return nil
	}
	return ir.LiteralsAllClose(got, want, 2e-6, 1e-6)
}
