package jit_test

import (
	"math"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
)

func shardVals(n int, seed float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32((i*7+int(seed*13))%11)/8 - 0.6
	}
	return v
}

func closeTo(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-4*math.Max(1, math.Abs(float64(want[i]))) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestJitDataParallel(t *testing.T) {
	mesh, err := sharding.NewMesh([]string{"data"}, []int{4}, "cpu")
	if err != nil {
		t.Fatal(err)
	}
	mlp := func(x, w, b *tensor.Tensor) *tensor.Tensor {
		return tensor.Relu(tensor.Add(tensor.MatMul(x, w), b))
	}
	x := tensor.FromSlice(shardVals(8*6, 1), 8, 6)
	w := tensor.FromSlice(shardVals(6*5, 2), 6, 5)
	b := tensor.FromSlice(shardVals(5, 3), 5)
	want := mlp(x, w, b).Float32s()

	f := jit.Compile(mlp, jit.InShardings(mesh.On(sharding.P("data"))))
	y := f(x, w, b)
	if got := y.Sharding(); got == nil || got.String() != `[{"data"}, {}]` {
		t.Errorf("result sharding %v", got)
	}
	closeTo(t, "data-parallel MLP", y.Float32s(), want)

	// Sharded arguments need no option.
	g := jit.Compile(mlp)
	y2 := g(sharding.Put(x, mesh, sharding.P("data")), w, b)
	closeTo(t, "data-parallel MLP (sharded argument)", y2.Float32s(), want)

	// OutShardings asks for a layout: replicated here.
	h := jit.Compile(mlp, jit.InShardings(mesh.On(sharding.P("data"))), jit.OutShardings(mesh.On(sharding.P())))
	y3 := h(x, w, b)
	if got := y3.Sharding(); got == nil || !got.IsReplicated() {
		t.Errorf("OutShardings replicated: got %v", got)
	}
	closeTo(t, "replicated result", y3.Float32s(), want)
}
