package ir

import (
	"strings"
	"testing"
)

// TestEvalManualComputation: the body runs on every device of the mesh
// on the operands' pieces, its collectives meet across the devices, and
// the results are assembled from the pieces.
func TestEvalManualComputation(t *testing.T) {
	f, err := ParseFunc(`func @f(%0: f32[8,3], %1: f32[3]) -> (f32[3], f32[8,3], ui32[6]) {
  %2, %3, %4 = manual_computation %0, %1 {mesh = ["x"=2, "y"=3], in_shardings = [[{"x"}, {}], [{}]], out_shardings = [[{}], [{"x"}, {}], [{"x", "y"}]]} (%0: f32[4,3], %1: f32[3]) {
    %2 = constant {value = dense<0.0> : f32[]} : f32[]
    %3 = reduce %0, %2 {dims = [0]} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[3]
    %4 = all_reduce %3 {replica_groups = [[0, 3], [1, 4], [2, 5]], channel_id = 1, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[3]
    %5 = broadcast_in_dim %1 {shape = [4, 3], dims = [1]} : f32[4,3]
    %6 = multiply %0, %5 : f32[4,3]
    %7 = partition_id : ui32[]
    %8 = reshape %7 {shape = [1]} : ui32[1]
    return %4, %6, %8
  } : f32[3], f32[8,3], ui32[6]
  return %2, %3, %4
}
`)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(f); err != nil {
		t.Fatal(err)
	}
	x := make([]float32, 24)
	for i := range x {
		x[i] = float32(i%5) - 1.5
	}
	w := []float32{2, -1, 0.5}
	out, err := Eval(f, MustLiteral(TensorOf(F32, 8, 3), x), MustLiteral(TensorOf(F32, 3), w))
	if err != nil {
		t.Fatal(err)
	}
	sum := make([]float32, 3)
	scaled := make([]float32, 24)
	for r := range 8 {
		for c := range 3 {
			sum[c] += x[r*3+c]
			scaled[r*3+c] = x[r*3+c] * w[c]
		}
	}
	if got := out[0].Data.([]float32); !floatsEqual(got, sum) {
		t.Errorf("all_reduce of the row sums: %v, want %v", got, sum)
	}
	if got := out[1].Data.([]float32); !floatsEqual(got, scaled) {
		t.Errorf("scaled rows: %v, want %v", got, scaled)
	}
	if got := out[2].Data.([]uint32); !slicesEqual(got, []uint32{0, 1, 2, 3, 4, 5}) {
		t.Errorf("partition ids laid out over x, y: %v", got)
	}
}

func floatsEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 1e-5 || d < -1e-5 {
			return false
		}
	}
	return true
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestVerifyManualComputation: the mesh must be the function's, and
// manual computations do not nest.
func TestVerifyManualComputation(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"mesh differs", `func @f(%0: f32[4]) -> f32[4] mesh ["x"=4] {
  %1 = manual_computation %0 {mesh = ["x"=2], in_shardings = [[{"x"}]], out_shardings = [[{"x"}]]} (%0: f32[2]) {
    return %0
  } : f32[4]
  return %1
}`, `mesh ["x"=2] differs from the mesh ["x"=4] of @f`},
		{"nested", `func @f(%0: f32[4]) -> f32[4] {
  %1 = manual_computation %0 {mesh = ["x"=2], in_shardings = [[{"x"}]], out_shardings = [[{"x"}]]} (%0: f32[2]) {
    %1 = manual_computation %0 {mesh = ["x"=2], in_shardings = [[{}]], out_shardings = [[{}]]} (%0: f32[2]) {
      return %0
    } : f32[2]
    return %1
  } : f32[4]
  return %1
}`, "manual_computation inside the body of another"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ParseFunc(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(f); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Verify = %v, want %q", err, c.want)
			}
		})
	}
}

// TestManualComputationNotPerDevice: a manual computation inside a
// program that EvalSPMD runs per device is an error, not a nested run.
func TestManualComputationNotPerDevice(t *testing.T) {
	f, err := ParseFunc(`func @f(%0: f32[4]) -> f32[4] {
  %1 = manual_computation %0 {mesh = ["x"=2], in_shardings = [[{"x"}]], out_shardings = [[{"x"}]]} (%0: f32[2]) {
    return %0
  } : f32[4]
  return %1
}`)
	if err != nil {
		t.Fatal(err)
	}
	x := Zeros(TensorOf(F32, 4))
	_, err = EvalSPMD(f, 1, 2, [][]*Literal{{x}, {x}})
	if err == nil || !strings.Contains(err.Error(), "cannot be in the program of one device") {
		t.Errorf("EvalSPMD = %v", err)
	}
	if _, err := Eval(f, x); err != nil {
		t.Errorf("Eval: %v", err)
	}
}

func TestShardingGlobalType(t *testing.T) {
	m := &Mesh{Axes: []MeshAxis{{"a", 2}, {"b", 3}}}
	s := ShardDims(3, map[int][]string{0: {"b"}, 2: {"a"}})
	local := TensorOf(F32, 2, 5, 4)
	g := s.GlobalType(m, local)
	if want := TensorOf(F32, 6, 5, 8); !g.Equal(want) {
		t.Errorf("GlobalType = %v, want %v", g, want)
	}
	if back := s.ShardType(m, g); !back.Equal(local) {
		t.Errorf("ShardType(GlobalType) = %v, want %v", back, local)
	}
	if got := s.UnusedAxes(m); len(got) != 0 {
		t.Errorf("UnusedAxes = %v", got)
	}
	if got := Replicated(1).UnusedAxes(m); !slicesEqual(got, []string{"a", "b"}) {
		t.Errorf("UnusedAxes of replicated = %v", got)
	}
}
