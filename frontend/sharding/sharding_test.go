package sharding_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

func iotaF32(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i%7) - 3
	}
	return v
}

func mustMesh(t *testing.T, axes []string, shape []int, devs ...string) *sharding.Mesh {
	t.Helper()
	m, err := sharding.NewMesh(axes, shape, devs...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func close32(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*math.Max(1, math.Abs(float64(want[i]))) {
			t.Fatalf("%s: element %d is %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestPutAndRead(t *testing.T) {
	m := mustMesh(t, []string{"data", "model"}, []int{2, 2})
	x := tensor.FromSlice(iotaF32(24), 4, 6)
	xs := sharding.Put(x, m, sharding.P("data", "model"))
	if got := xs.Sharding().String(); got != `[{"data"}, {"model"}]` {
		t.Errorf("Sharding = %s", got)
	}
	close32(t, "gathered", xs.Float32s(), x.Float32s())
	shards := xs.Shards()
	if len(shards) != 4 {
		t.Fatalf("%d shards", len(shards))
	}
	// Device 3 is at (data 1, model 1): rows 2..4, columns 3..6.
	s := shards[3]
	if s.Device != "cpu:3" || s.Start[0] != 2 || s.Start[1] != 3 || s.Limit[0] != 4 || s.Limit[1] != 6 {
		t.Errorf("shard 3: %+v", s)
	}
	want := []float32{}
	xv := x.Float32s()
	for r := 2; r < 4; r++ {
		want = append(want, xv[r*6+3:r*6+6]...)
	}
	close32(t, "shard 3", s.Piece.Float32s(), want)
}

func TestEagerOpsRunSharded(t *testing.T) {
	m := mustMesh(t, []string{"data"}, []int{4})
	x := tensor.FromSlice(iotaF32(32), 8, 4)
	w := tensor.FromSlice(iotaF32(12), 4, 3)
	xs := sharding.Put(x, m, sharding.P("data"))
	y := tensor.Tanh(tensor.MatMul(xs, w)) // w is uncommitted: replicated onto the mesh
	if got := y.Sharding(); got == nil || got.String() != `[{"data"}, {}]` {
		t.Errorf("result sharding %v", got)
	}
	close32(t, "tanh(x@w)", y.Float32s(), tensor.Tanh(tensor.MatMul(x, w)).Float32s())
	if !strings.HasPrefix(y.Device(), "mesh") {
		t.Errorf("device %s", y.Device())
	}
}

func TestMeshErrors(t *testing.T) {
	for _, c := range []struct {
		axes  []string
		shape []int
		devs  []string
		want  string
	}{
		{[]string{"x"}, []int{64}, nil, "needs 64 devices, but cpu has 8 (set STELA_CPU_DEVICES=64"},
		{[]string{"x"}, []int{2}, []string{"cpu:0", "host"}, "devices from two families"},
		{[]string{"x"}, []int{2}, []string{"cpu:0", "cpu:0"}, "named twice"},
		{[]string{"x"}, []int{4}, []string{"cpu:0", "cpu:1"}, "has 4 devices, but 2 are named"},
		{[]string{"x", "x"}, []int{2, 2}, nil, "named twice"},
	} {
		_, err := sharding.NewMesh(c.axes, c.shape, c.devs...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "sharding_test.go:") {
			t.Errorf("NewMesh(%v, %v, %v) = %v, want an error with %q and the Go line", c.axes, c.shape, c.devs, err, c.want)
		}
	}
	m := mustMesh(t, []string{"data"}, []int{4})
	x := tensor.FromSlice(iotaF32(6), 6)
	for _, c := range []struct {
		spec sharding.Spec
		want string
	}{
		{sharding.P("model"), `names axis "model", which mesh ["data"=4] does not have`},
		{sharding.P("data"), `splits dimension 0 of f32[6] (size 6) 4 ways`},
		{sharding.P("data", nil), "has 2 dimensions, but the tensor f32[6] has rank 1"},
	} {
		err := tensor.Catch(func() { sharding.Put(x, m, c.spec) })
		var ie *ir.Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "sharding_test.go:") {
			t.Errorf("Put(%v) = %v, want an error with %q and the Go line", c.spec, err, c.want)
		}
		_ = ie
	}
}
