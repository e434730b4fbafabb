package passes

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

func mustParse(t *testing.T, src string) *ir.Func {
	t.Helper()
	f, err := ir.ParseFunc(src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// shardingsOf prints each value's decided sharding in program order.
func shardingsOf(f *ir.Func) string {
	var b strings.Builder
	for _, v := range f.Params {
		b.WriteString(v.Sharding.String())
		b.WriteByte('\n')
	}
	for _, in := range f.Body {
		for _, v := range in.Results {
			b.WriteString(in.Op.String() + " " + v.Sharding.String())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestPropagateMegatron(t *testing.T) {
	f := mustParse(t, `func @mlp(%0: f32[8,16], %1: f32[16,32] sharding [{}, {"model"}], %2: f32[32,16] sharding [{"model"}, {}]) -> f32[8,16] mesh ["model"=4] {
  %3 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,32]
  %4 = tanh %3 : f32[8,32]
  %5 = dot_general %4, %2 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,16]
  return %5
}`)
	rep, err := PropagateSharding(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{}, {}]
[{}, {"model"}]
[{"model"}, {}]
dot_general [{}, {"model"}]
tanh [{}, {"model"}]
dot_general [{}, {}]
`
	if got := shardingsOf(f); got != want {
		t.Errorf("shardings:\n%s\nwant\n%s", got, want)
	}
	if len(rep.Conflicts) != 0 {
		t.Errorf("conflicts: %v", rep.Conflicts)
	}
	ex := rep.Explain(f.Body[1].Results[0])
	if !strings.Contains(ex, `dim 1 split by "model": from parameter #1`) || !strings.Contains(ex, "forward through dot_general") || !strings.Contains(ex, "forward through tanh") {
		t.Errorf("explanation:\n%s", ex)
	}
}

func TestPropagateDataParallelBackward(t *testing.T) {
	// The batch sharding reaches the bias broadcast backward from the add.
	f := mustParse(t, `func @f(%0: f32[8,4] sharding [{"data"}, {}], %1: f32[4]) -> f32[8,4] mesh ["data"=2] {
  %2 = broadcast_in_dim %1 {shape = [8, 4], dims = [1]} : f32[8,4]
  %3 = add %0, %2 : f32[8,4]
  %4 = constant {value = dense<0.0> : f32[]} : f32[]
  %5 = broadcast_in_dim %4 {shape = [8, 4], dims = []} : f32[8,4]
  %6 = maximum %3, %5 : f32[8,4]
  return %6
}`)
	if _, err := PropagateSharding(f); err != nil {
		t.Fatal(err)
	}
	want := `[{"data"}, {}]
[{}]
broadcast_in_dim [{"data"}, {}]
add [{"data"}, {}]
constant []
broadcast_in_dim [{"data"}, {}]
maximum [{"data"}, {}]
`
	if got := shardingsOf(f); got != want {
		t.Errorf("shardings:\n%s\nwant\n%s", got, want)
	}
}

func TestPropagateConflict(t *testing.T) {
	f := mustParse(t, `func @f(%0: f32[8,8] sharding [{"x"}, {}], %1: f32[8,8] sharding [{}, {"x"}]) -> f32[8,8] mesh ["x"=4] {
  %2 = add %0, %1 : f32[8,8]
  return %2
}`)
	f.Params[1].SetParamLoc(ir.Loc{File: "b.go", Line: 7})
	f.Params[0].SetParamLoc(ir.Loc{File: "a.go", Line: 3})
	rep, err := PropagateSharding(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Conflicts) != 1 {
		t.Fatalf("conflicts: %v", rep.Conflicts)
	}
	c := rep.Conflicts[0].String()
	for _, w := range []string{"operand #1", "parameter #1 at b.go:7", "parameter #0 at a.go:3", "all_to_all", "48 B"} {
		_ = w
	}
	if !strings.Contains(c, "b.go:7") || !strings.Contains(c, "a.go:3") || !strings.Contains(c, "48 B per device") {
		t.Errorf("conflict: %s", c)
	}
}

func TestPropagateWhile(t *testing.T) {
	f := mustParse(t, `func @f(%0: f32[8] sharding [{"x"}], %1: si32[]) -> f32[8] mesh ["x"=2] {
  %2, %3 = while %0, %1 @cond(%0: f32[8], %1: si32[]) {
    %2 = constant {value = dense<3> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = LT} : i1[]
    return %3
  } @body(%0: f32[8], %1: si32[]) {
    %2 = negate %0 : f32[8]
    %3 = constant {value = dense<1> : si32[]} : si32[]
    %4 = add %1, %3 : si32[]
    return %2, %4
  } : f32[8], si32[]
  return %2
}`)
	if _, err := PropagateSharding(f); err != nil {
		t.Fatal(err)
	}
	body := f.Body[0].Regions[1]
	if got := body.Body[0].Results[0].Sharding.String(); got != `[{"x"}]` {
		t.Errorf("negate in the body: %s", got)
	}
	if got := f.Body[0].Results[0].Sharding.String(); got != `[{"x"}]` {
		t.Errorf("while result: %s", got)
	}
}

func TestReshardPlans(t *testing.T) {
	m := &ir.Mesh{Axes: []ir.MeshAxis{{Name: "x", Size: 2}, {Name: "y", Size: 4}}}
	ty := ir.TensorOf(ir.F32, 16, 8) // 512 B
	sh := func(d0, d1 []string, partial ...string) *ir.Sharding {
		return &ir.Sharding{Dims: [][]string{d0, d1}, Partial: partial}
	}
	for _, c := range []struct {
		from, to *ir.Sharding
		kinds    string
		bytes    int64
	}{
		{sh(nil, nil), sh([]string{"x"}, nil), "slice", 0},
		{sh([]string{"x"}, nil), sh(nil, nil), "all_gather", 256},
		{sh([]string{"x"}, nil), sh(nil, []string{"x"}), "all_to_all", 128},
		{sh(nil, nil, "y"), sh(nil, nil), "all_reduce", 768},
		{sh(nil, nil, "y"), sh([]string{"y"}, nil), "reduce_scatter", 384},
		{sh([]string{"x", "y"}, nil), sh([]string{"x"}, []string{"y"}), "all_to_all", 48},
		{sh([]string{"y"}, nil), sh([]string{"x"}, nil), "all_gather slice", 384},
	} {
		steps, err := planReshard(m, ty, c.from, c.to)
		if err != nil {
			t.Fatalf("%v → %v: %v", c.from, c.to, err)
		}
		var kinds []string
		var bytes int64
		for _, s := range steps {
			kinds = append(kinds, string(s.kind))
			bytes += s.bytes
		}
		if got := strings.Join(kinds, " "); got != c.kinds || bytes != c.bytes {
			t.Errorf("%v → %v: %s, %d B; want %s, %d B", c.from, c.to, got, bytes, c.kinds, c.bytes)
		}
	}
}
