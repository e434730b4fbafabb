package passes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// spmdCase partitions src, runs the per-device program on every device
// of its mesh with the reference evaluator (EvalSPMD), assembles the
// results and compares them with the unsharded program's.
func spmdCase(t *testing.T, src string, wantColls map[string]int) *Partitioned {
	t.Helper()
	f := mustParse(t, src)
	global := ir.CloneFunc(f)
	r := rand.New(rand.NewPCG(1, 2))
	var args []*ir.Literal
	for _, p := range f.Params {
		vals := make([]float64, p.Type.NumElements())
		for i := range vals {
			vals[i] = math.Round(r.NormFloat64()*64) / 64
		}
		args = append(args, ir.LiteralFromFloat64s(p.Type, vals))
	}
	want, err := ir.Eval(global, args...)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := PrepareSharding(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Partition(f, rep)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Mesh
	n := m.NumDevices()
	devArgs := make([][]*ir.Literal, n)
	for d := range n {
		for i, a := range args {
			devArgs[d] = append(devArgs[d], ir.ShardLiteral(a, m, p.InShardings[i], d))
		}
	}
	outs, err := ir.EvalSPMD(p.Func, 1, n, devArgs)
	if err != nil {
		t.Fatalf("EvalSPMD: %v\n%s", err, p.Func)
	}
	for i, w := range want {
		pieces := make([]*ir.Literal, n)
		for d := range n {
			pieces[d] = outs[d][i]
		}
		got, err := ir.UnshardLiteral(pieces, m, p.OutShardings[i], w.Type)
		if err != nil {
			t.Fatal(err)
		}
		gv, wv := got.Float64s(), w.Float64s()
		for k := range wv {
			if d := math.Abs(gv[k] - wv[k]); d > 1e-4*math.Max(1, math.Abs(wv[k])) {
				t.Fatalf("result #%d element %d: sharded %v, unsharded %v\nper-device program:\n%s", i, k, gv[k], wv[k], p.Func)
			}
		}
	}
	if wantColls != nil {
		if fmt.Sprint(p.Collectives) != fmt.Sprint(wantColls) {
			t.Errorf("collectives %v, want %v\nper-device program:\n%s", p.Collectives, wantColls, p.Func)
		}
	}
	return p
}

func TestPartitionMegatron(t *testing.T) {
	spmdCase(t, `func @mlp(%0: f32[8,16], %1: f32[16,32] sharding [{}, {"model"}], %2: f32[32,16] sharding [{"model"}, {}]) -> f32[8,16] sharding [{}, {}] mesh ["model"=4] {
  %3 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,32]
  %4 = tanh %3 : f32[8,32]
  %5 = dot_general %4, %2 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,16]
  return %5
}`, map[string]int{"all_reduce": 1})
}

func TestPartitionDataParallel(t *testing.T) {
	spmdCase(t, `func @mlp(%0: f32[8,16] sharding [{"data"}, {}], %1: f32[16,32], %2: f32[32]) -> f32[8,32] sharding [{"data"}, {}] mesh ["data"=4] {
  %3 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,32]
  %4 = broadcast_in_dim %2 {shape = [8, 32], dims = [1]} : f32[8,32]
  %5 = add %3, %4 : f32[8,32]
  %6 = constant {value = dense<0.0> : f32[]} : f32[]
  %7 = broadcast_in_dim %6 {shape = [8, 32], dims = []} : f32[8,32]
  %8 = maximum %5, %7 : f32[8,32]
  return %8
}`, map[string]int{})
}

func TestPartitionFSDP(t *testing.T) {
	// Weights split on their first dimension by the same axis as the
	// batch: all-gathered before use.
	spmdCase(t, `func @mlp(%0: f32[64,16] sharding [{"data"}, {}], %1: f32[16,32] sharding [{"data"}, {}]) -> f32[64,32] sharding [{"data"}, {}] mesh ["data"=4] {
  %2 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[64,32]
  return %2
}`, map[string]int{"all_gather": 1})
}

func TestPartition2DMesh(t *testing.T) {
	spmdCase(t, `func @mlp(%0: f32[8,16] sharding [{"data"}, {}], %1: f32[16,32] sharding [{}, {"model"}], %2: f32[32,16] sharding [{"model"}, {}]) -> f32[8,16] sharding [{"data"}, {}] mesh ["data"=2, "model"=4] {
  %3 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,32]
  %4 = tanh %3 : f32[8,32]
  %5 = dot_general %4, %2 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,16]
  return %5
}`, map[string]int{"all_reduce": 1})
}

func TestPartitionReshards(t *testing.T) {
	// An axis moving between dimensions: all_to_all.
	spmdCase(t, `func @f(%0: f32[8,8] sharding [{"x"}, {}], %1: f32[8,8] sharding [{}, {"x"}]) -> f32[8,8] sharding [{"x"}, {}] mesh ["x"=4] {
  %2 = add %0, %1 : f32[8,8]
  return %2
}`, map[string]int{"all_to_all": 1})
	// A sum over a split dimension: all_reduce; a result wanted split
	// along the reduced axis' partner: reduce_scatter.
	spmdCase(t, `func @f(%0: f32[8,4] sharding [{"x"}, {}]) -> f32[4] sharding [{}] mesh ["x"=2] {
  %1 = constant {value = dense<0.0> : f32[]} : f32[]
  %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  return %2
}`, map[string]int{"all_reduce": 1})
	spmdCase(t, `func @f(%0: f32[8,4] sharding [{"x"}, {}]) -> f32[4] sharding [{"x"}] mesh ["x"=2] {
  %1 = constant {value = dense<0.0> : f32[]} : f32[]
  %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  return %2
}`, map[string]int{"reduce_scatter": 1})
	// A sum whose init is not zero is computed after gathering.
	spmdCase(t, `func @f(%0: f32[8,4] sharding [{"x"}, {}]) -> f32[4] mesh ["x"=2] {
  %1 = constant {value = dense<1.5> : f32[]} : f32[]
  %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  return %2
}`, nil)
}

func TestPartitionAttentionHeads(t *testing.T) {
	// q, k, v: [batch, heads, seq, dim], heads split.
	spmdCase(t, `func @attn(%0: f32[2,4,8,4] sharding [{}, {"model"}, {}, {}], %1: f32[2,4,8,4] sharding [{}, {"model"}, {}, {}], %2: f32[2,4,8,4] sharding [{}, {"model"}, {}, {}]) -> f32[2,4,8,4] sharding [{}, {"model"}, {}, {}] mesh ["model"=4] {
  %3 = dot_general %0, %1 {lhs_batch = [0, 1], rhs_batch = [0, 1], lhs_contract = [3], rhs_contract = [3]} : f32[2,4,8,8]
  %4 = constant {value = dense<0xFF800000> : f32[]} : f32[]
  %5 = reduce %3, %4 {dims = [3]} (%0: f32[], %1: f32[]) {
    %2 = maximum %0, %1 : f32[]
    return %2
  } : f32[2,4,8]
  %6 = broadcast_in_dim %5 {shape = [2, 4, 8, 8], dims = [0, 1, 2]} : f32[2,4,8,8]
  %7 = subtract %3, %6 : f32[2,4,8,8]
  %8 = exponential %7 : f32[2,4,8,8]
  %9 = constant {value = dense<0.0> : f32[]} : f32[]
  %10 = reduce %8, %9 {dims = [3]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[2,4,8]
  %11 = broadcast_in_dim %10 {shape = [2, 4, 8, 8], dims = [0, 1, 2]} : f32[2,4,8,8]
  %12 = divide %8, %11 : f32[2,4,8,8]
  %13 = dot_general %12, %2 {lhs_batch = [0, 1], rhs_batch = [0, 1], lhs_contract = [3], rhs_contract = [2]} : f32[2,4,8,4]
  return %13
}`, map[string]int{})
}

func TestPartitionDataParallelGradient(t *testing.T) {
	// loss = sum((x@w)^2)/n; dw = x^T (2 x@w)/n: the batch is contracted,
	// so the loss and the gradient are partial sums, finished by one
	// all_reduce of both (CombineAllReduces).
	spmdCase(t, `func @grad(%0: f32[8,4] sharding [{"data"}, {}], %1: f32[4,3]) -> (f32[], f32[4,3] sharding [{}, {}]) mesh ["data"=4] {
  %2 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,3]
  %3 = multiply %2, %2 : f32[8,3]
  %4 = constant {value = dense<0.0> : f32[]} : f32[]
  %5 = reduce %3, %4 {dims = [0, 1]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[]
  %6 = constant {value = dense<2.0> : f32[]} : f32[]
  %7 = broadcast_in_dim %6 {shape = [8, 3], dims = []} : f32[8,3]
  %8 = multiply %2, %7 : f32[8,3]
  %9 = dot_general %0, %8 {lhs_batch = [], rhs_batch = [], lhs_contract = [0], rhs_contract = [0]} : f32[4,3]
  return %5, %9
}`, map[string]int{"all_reduce": 1})
}

func TestPartitionWhileAndIota(t *testing.T) {
	spmdCase(t, `func @f(%0: f32[8] sharding [{"x"}]) -> f32[8] sharding [{"x"}] mesh ["x"=4] {
  %1 = iota {type = f32[8], dim = 0} : f32[8]
  %2 = constant {value = dense<0> : si32[]} : si32[]
  %3, %4 = while %0, %2 @cond(%0: f32[8], %1: si32[]) {
    %2 = constant {value = dense<3> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = LT} : i1[]
    return %3
  } @body(%0: f32[8], %1: si32[]) {
    %2 = negate %0 : f32[8]
    %3 = constant {value = dense<1> : si32[]} : si32[]
    %4 = add %1, %3 : si32[]
    return %2, %4
  } : f32[8], si32[]
  %5 = add %3, %1 : f32[8]
  return %5
}`, map[string]int{})
}

func TestPartitionCollectiveIsAnError(t *testing.T) {
	f := mustParse(t, `func @f(%0: f32[8]) -> f32[8] mesh ["x"=2] {
  %1 = all_reduce %0 {replica_groups = [[0, 1]], channel_id = 1, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[8]
  return %1
}`)
	rep, err := PrepareSharding(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Partition(f, rep); err == nil || !strings.Contains(err.Error(), "sharding.Map") {
		t.Errorf("got %v", err)
	}
}

func TestPartitionStructuralOps(t *testing.T) {
	// Sliced, concatenated, padded and reversed dimensions must be whole;
	// the others stay split. Reshape and transpose carry the split.
	spmdCase(t, `func @f(%0: f32[8,6] sharding [{"x"}, {}], %1: f32[8,2] sharding [{"x"}, {}]) -> (f32[4,16], f32[2,8,3], f32[8,8]) mesh ["x"=2, "y"=2] {
  %2 = slice %0 {start = [0, 1], limit = [8, 5], stride = [1, 1]} : f32[8,4]
  %3 = concatenate %2, %1 {dim = 1} : f32[8,6]
  %4 = reverse %3 {dims = [1]} : f32[8,6]
  %5 = constant {value = dense<0.0> : f32[]} : f32[]
  %6 = pad %4, %5 {low = [0, 1], high = [0, 1], interior = [0, 0]} : f32[8,8]
  %7 = transpose %6 {perm = [1, 0]} : f32[8,8]
  %8 = reshape %7 {shape = [4, 16]} : f32[4,16]
  %9 = reshape %0 {shape = [2, 8, 3]} : f32[2,8,3]
  %10 = slice %0 {start = [2, 0], limit = [6, 6], stride = [1, 1]} : f32[4,6]
  %11 = dot_general %10, %3 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [1]} : f32[4,8]
  %12 = dot_general %11, %11 {lhs_batch = [], rhs_batch = [], lhs_contract = [0], rhs_contract = [0]} : f32[8,8]
  return %8, %9, %12
}`, nil)
}

func TestPartitionRandom(t *testing.T) {
	// Random chains of ops on random meshes with random user shardings:
	// the partitioned program must compute what the unsharded one does.
	meshes := []string{`["x"=2]`, `["x"=4]`, `["x"=2, "y"=2]`, `["x"=2, "y"=4]`, `["a"=2, "b"=2, "c"=2]`}
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		mesh := meshes[r.IntN(len(meshes))]
		m := mustParse(t, "func @m() mesh "+mesh+" {\n  return\n}").Mesh
		axes := m.AxisNames()
		randSharding := func(shape []int) string {
			used := map[string]bool{}
			var dims []string
			for _, n := range shape {
				var as []string
				for _, a := range axes {
					if !used[a] && r.IntN(3) == 0 && n%(m.AxesSize(append(as, a))) == 0 {
						as = append(as, a)
						used[a] = true
					}
				}
				q := make([]string, len(as))
				for i, a := range as {
					q[i] = fmt.Sprintf("%q", a)
				}
				dims = append(dims, "{"+strings.Join(q, ", ")+"}")
			}
			return "[" + strings.Join(dims, ", ") + "]"
		}
		// x: [8, 8], y: [8, 8]
		var body []string
		vals := []string{"%0", "%1"}
		next := 2
		emit := func(line string) string {
			v := fmt.Sprintf("%%%d", next)
			next++
			body = append(body, "  "+v+" = "+line)
			if strings.HasSuffix(line, ": f32[8,8]") {
				vals = append(vals, v)
			}
			return v
		}
		pick := func() string { return vals[r.IntN(len(vals))] }
		for k := 0; k < 6; k++ {
			a, b := pick(), pick()
			switch r.IntN(7) {
			case 6:
				q := emit(fmt.Sprintf("reshape %s {shape = [4, 16]} : f32[4,16]", a))
				q = emit(fmt.Sprintf("negate %s : f32[4,16]", q))
				emit(fmt.Sprintf("reshape %s {shape = [8, 8]} : f32[8,8]", q))
			case 0:
				emit(fmt.Sprintf("add %s, %s : f32[8,8]", a, b))
			case 1:
				emit(fmt.Sprintf("dot_general %s, %s {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,8]", a, b))
			case 2:
				emit(fmt.Sprintf("transpose %s {perm = [1, 0]} : f32[8,8]", a))
			case 3:
				emit(fmt.Sprintf("tanh %s : f32[8,8]", a))
			case 4:
				emit(fmt.Sprintf("sharding_constraint %s {sharding = %s} : f32[8,8]", a, randSharding([]int{8, 8})))
			case 5:
				z := emit("constant {value = dense<0.0> : f32[]} : f32[]")
				s := emit(fmt.Sprintf("reduce %s, %s {dims = [%d]} (%%0: f32[], %%1: f32[]) {\n    %%2 = add %%0, %%1 : f32[]\n    return %%2\n  } : f32[8]", a, z, r.IntN(2)))
				emit(fmt.Sprintf("broadcast_in_dim %s {shape = [8, 8], dims = [%d]} : f32[8,8]", s, r.IntN(2)))
			}
		}
		last := vals[len(vals)-1]
		src := fmt.Sprintf("func @r(%%0: f32[8,8] sharding %s, %%1: f32[8,8] sharding %s) -> f32[8,8] sharding %s mesh %s {\n%s\n  return %s\n}",
			randSharding([]int{8, 8}), randSharding([]int{8, 8}), randSharding([]int{8, 8}), mesh, strings.Join(body, "\n"), last)
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("program:\n%s", src)
				}
			}()
			spmdCase(t, src, nil)
		})
	}
}
