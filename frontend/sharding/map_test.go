package sharding_test

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

var modes = []sharding.Mode{sharding.Partition, sharding.Annotate}

// colSums is the host reference: the column sums of a rows×cols matrix.
func colSums(v []float32, rows, cols int) []float32 {
	out := make([]float32, cols)
	for r := range rows {
		for c := range cols {
			out[c] += v[r*cols+c]
		}
	}
	return out
}

// Eagerly, a Map lays its arguments out on the mesh and runs there: each
// device sums its rows, an AllReduce over "data" adds the devices' sums,
// and AxisIndex scales each device's rows by its position.
func TestMapEager(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			m := mustMesh(t, []string{"data"}, []int{4}).WithMode(mode)
			xv := iotaF32(32)
			x := tensor.FromSlice(xv, 8, 4)
			f := sharding.Map(func(xs ...*tensor.Tensor) []*tensor.Tensor {
				s := sharding.AllReduce(tensor.Sum(xs[0], 0), "data", sharding.Sum)
				i := tensor.Convert(sharding.AxisIndex("data"), ir.F32)
				return []*tensor.Tensor{s, tensor.Mul(xs[0], i)}
			}, m, []sharding.Spec{sharding.P("data")}, []sharding.Spec{sharding.P(), sharding.P("data")})
			outs := f(x)
			close32(t, "column sums", outs[0].Float32s(), colSums(xv, 8, 4))
			want := make([]float32, 32)
			for r := range 8 {
				for c := range 4 {
					want[r*4+c] = xv[r*4+c] * float32(r/2)
				}
			}
			close32(t, "rows by position", outs[1].Float32s(), want)
			if got := outs[1].Sharding().String(); got != `[{"data"}, {}]` {
				t.Errorf("result sharding %s", got)
			}
			if sharding.MeshOf(outs[0]) != m {
				t.Errorf("result 0 is on %s, want the mesh", outs[0].Device())
			}
		})
	}
}

// A Megatron MLP written by hand in manual mode, compiled: the first
// weight split by columns, the second by rows, one AllReduce; results
// equal the unsharded MLP's. The Map sits inside automatic code (a tanh
// before it, a scale after it) and the program has no sharded argument:
// the mesh comes from the Map.
func TestMapCompiledMegatron(t *testing.T) {
	x := tensor.FromSlice(iotaF32(4*8), 4, 8)
	w1 := tensor.FromSlice(iotaF32(8*16), 8, 16)
	w2 := tensor.FromSlice(iotaF32(16*8), 16, 8)
	mlp := func(x, w1, w2 *tensor.Tensor) *tensor.Tensor {
		return tensor.MatMul(tensor.Relu(tensor.MatMul(x, w1)), w2)
	}
	half := func(y *tensor.Tensor) *tensor.Tensor { return tensor.Mul(y, tensor.ScalarLike(y, 0.5)) }
	want := half(mlp(tensor.Tanh(x), w1, w2)).Float32s()
	for _, mode := range modes {
		for _, n := range []int{1, 2, 4, 8} {
			t.Run(mode.String()+"/"+string(rune('0'+n)), func(t *testing.T) {
				m := mustMesh(t, []string{"model"}, []int{n}).WithMode(mode)
				body := sharding.Map(func(p ...*tensor.Tensor) []*tensor.Tensor {
					return []*tensor.Tensor{sharding.AllReduce(mlp(p[0], p[1], p[2]), "model", sharding.Sum)}
				}, m, []sharding.Spec{sharding.P(), sharding.P(nil, "model"), sharding.P("model")}, []sharding.Spec{sharding.P()})
				f := jit.Compile(func(x, w1, w2 *tensor.Tensor) *tensor.Tensor {
					return half(body(tensor.Tanh(x), w1, w2)[0])
				})
				y := f(x, w1, w2)
				if err := y.Err(); err != nil {
					t.Fatal(err)
				}
				close32(t, "mlp", y.Float32s(), want)
				if sharding.MeshOf(y) != m {
					t.Errorf("result on %s, want the mesh", y.Device())
				}
				if mode == sharding.Partition && n > 1 {
					progs := m.Compiled()
					if len(progs) == 0 {
						t.Fatal("nothing compiled on the mesh")
					}
					if c := progs[len(progs)-1].Collectives; c["all_reduce"] != 1 {
						t.Errorf("collectives %v, want one all_reduce", c)
					}
				}
			})
		}
	}
}

// Each collective on a 2×2 mesh against its definition, computed on the
// host from the global input.
func TestMapCollectives(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			m := mustMesh(t, []string{"a", "b"}, []int{2, 2}).WithMode(mode)
			xv := iotaF32(4 * 4)
			for i := range xv {
				xv[i] += float32(i) / 10
			}
			x := tensor.FromSlice(xv, 4, 4)
			at := func(r, c int) float32 { return xv[r*4+c] }
			run := func(fn func(x *tensor.Tensor) *tensor.Tensor, out sharding.Spec) []float32 {
				t.Helper()
				f := sharding.Map(func(p ...*tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{fn(p[0])} },
					m, []sharding.Spec{sharding.P("a", "b")}, []sharding.Spec{out})
				var y *tensor.Tensor
				if err := tensor.Catch(func() { y = f(x)[0] }); err != nil {
					t.Fatal(err)
				}
				return y.Float32s()
			}
			// Device (a, b) holds the 2×2 block at rows 2a.., columns 2b...
			// AllGather over b along dim 1: each device has its rows
			// whole; the result split over a by rows is x itself.
			close32(t, "all_gather", run(func(x *tensor.Tensor) *tensor.Tensor { return sharding.AllGather(x, "b", 1) }, sharding.P("a")), xv)
			// AllReduce over a: block (a, b) becomes the sum of the blocks
			// (0, b) and (1, b); out split over b by columns.
			var want []float32
			for r := range 2 {
				for c := range 4 {
					want = append(want, at(r, c)+at(r+2, c))
				}
			}
			close32(t, "all_reduce", run(func(x *tensor.Tensor) *tensor.Tensor { return sharding.AllReduce(x, "a", sharding.Sum) }, sharding.P(nil, "b")), want)
			// ReduceScatter over a along dim 0: device (a, b) gets row a of
			// that sum.
			close32(t, "reduce_scatter", run(func(x *tensor.Tensor) *tensor.Tensor {
				return sharding.ReduceScatter(x, "a", 0, sharding.Sum)
			}, sharding.P("a", "b")), want)
			// Max over b: block (a, b) becomes the elementwise max of the
			// blocks (a, 0) and (a, 1).
			want = want[:0]
			for r := range 4 {
				for c := range 2 {
					want = append(want, max(at(r, c), at(r, c+2)))
				}
			}
			close32(t, "all_reduce max", run(func(x *tensor.Tensor) *tensor.Tensor { return sharding.AllReduce(x, "b", sharding.Max) }, sharding.P("a")), want)
			// Permute along b, 0 → 1 and 1 → 0: the column blocks swap.
			want = want[:0]
			for r := range 4 {
				for c := range 4 {
					want = append(want, at(r, (c+2)%4))
				}
			}
			close32(t, "permute", run(func(x *tensor.Tensor) *tensor.Tensor {
				return sharding.Permute(x, "b", [][2]int{{0, 1}, {1, 0}})
			}, sharding.P("a", "b")), want)
			// AllToAll over b, split rows, concatenate columns: device
			// (a, b) gets row b of its block and of its neighbour's,
			// side by side.
			want = want[:0]
			for a := range 2 {
				for b := range 2 {
					r := 2*a + b
					want = append(want, at(r, 0), at(r, 1), at(r, 2), at(r, 3))
				}
			}
			close32(t, "all_to_all", run(func(x *tensor.Tensor) *tensor.Tensor { return sharding.AllToAll(x, "b", 0, 1) }, sharding.P([]string{"a", "b"})), want)
			// AxisIndex: the position along each axis.
			got := run(func(x *tensor.Tensor) *tensor.Tensor {
				i := tensor.Convert(sharding.AxisIndex("a"), ir.F32)
				j := tensor.Convert(sharding.AxisIndex("b"), ir.F32)
				return tensor.Add(tensor.ZerosLike(x), tensor.Add(tensor.Mul(i, tensor.ScalarLike(i, 10)), j))
			}, sharding.P("a", "b"))
			for r := range 4 {
				for c := range 4 {
					if w := float32(10*(r/2) + c/2); got[r*4+c] != w {
						t.Fatalf("axis index at (%d, %d): %v, want %v", r, c, got[r*4+c], w)
					}
				}
			}
		})
	}
}

// The gradient of a loss through a Map equals the unsharded one's.
func TestMapGradient(t *testing.T) {
	m := mustMesh(t, []string{"data"}, []int{4})
	x := tensor.FromSlice(iotaF32(8*4), 8, 4)
	w := tensor.FromSlice(iotaF32(4*3), 4, 3)
	mapped := sharding.Map(func(p ...*tensor.Tensor) []*tensor.Tensor {
		l := tensor.Sum(tensor.Tanh(tensor.MatMul(p[0], p[1])), 0, 1)
		return []*tensor.Tensor{sharding.AllReduce(l, "data", sharding.Sum)}
	}, m, []sharding.Spec{sharding.P("data"), sharding.P()}, []sharding.Spec{sharding.P()})
	g := jit.Compile(jit.Grad(func(w, x *tensor.Tensor) *tensor.Tensor { return mapped(x, w)[0] }))
	ref := jit.Grad(func(w, x *tensor.Tensor) *tensor.Tensor { return tensor.Sum(tensor.Tanh(tensor.MatMul(x, w)), 0, 1) })
	var got, want *tensor.Tensor
	if err := tensor.Catch(func() { got = g(w, x); want = ref(w, x) }); err != nil {
		t.Fatal(err)
	}
	close32(t, "dL/dw", got.Float32s(), want.Float32s())
}

// Mistakes are errors at the user's line that say what is wrong.
func TestMapErrors(t *testing.T) {
	m := mustMesh(t, []string{"data"}, []int{2})
	x := tensor.FromSlice(iotaF32(8), 4, 2)
	id := func(p ...*tensor.Tensor) []*tensor.Tensor { return p }
	for name, c := range map[string]struct {
		fn   func()
		want string
	}{
		"outside": {func() { sharding.AllReduce(x, "data", sharding.Sum) }, "sharding.AllReduce: tensor f32[4,2] is not traced: collectives run inside the function of a sharding.Map"},
		"axis in": {func() {
			sharding.Map(id, m, []sharding.Spec{sharding.P("model")}, []sharding.Spec{sharding.P()})(x)
		}, `sharding.Map: argument #0: in spec: sharding [{"model"}, {}] names axis "model", which mesh ["data"=2] does not have`},
		"divide": {func() {
			sharding.Map(id, m, []sharding.Spec{sharding.P(nil, "data")}, []sharding.Spec{sharding.P()})(tensor.FromSlice(iotaF32(3), 1, 3))
		}, "does not divide it"},
		"arity": {func() { sharding.Map(id, m, nil, nil)(x) }, "sharding.Map: 1 arguments, but 0 in specs"},
		"outs": {func() {
			sharding.Map(id, m, []sharding.Spec{sharding.P("data")}, nil)(x)
		}, "sharding.Map: the function returns 1 tensors, but there are 0 out specs"},
		"collective axis": {func() {
			sharding.Map(func(p ...*tensor.Tensor) []*tensor.Tensor {
				return []*tensor.Tensor{sharding.AllGather(p[0], "model", 0)}
			}, m, []sharding.Spec{sharding.P("data")}, []sharding.Spec{sharding.P()})(x)
		}, `sharding.AllGather: axis "model" is not an axis of mesh ["data"=2]`},
		"permute": {func() {
			sharding.Map(func(p ...*tensor.Tensor) []*tensor.Tensor {
				return []*tensor.Tensor{sharding.Permute(p[0], "data", [][2]int{{0, 2}})}
			}, m, []sharding.Spec{sharding.P("data")}, []sharding.Spec{sharding.P("data")})(x)
		}, `sharding.Permute: pair [0 2]: positions along axis "data" (size 2) are 0 to 1`},
		"axis index outside": {func() { sharding.AxisIndex("data") }, "sharding.AxisIndex: outside the function of a sharding.Map"},
	} {
		err := tensor.Catch(c.fn)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), "map_test.go:") {
			t.Errorf("%s: %v does not name the test's line", name, err)
		}
	}
}
