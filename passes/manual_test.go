package passes

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// manualMixed has automatic ops around a manual computation: its operand
// comes from a tanh, its results feed an exp and a dot_general.
const manualMixed = `func @f(%0: f32[8,4], %1: f32[4,6] sharding [{}, {"y"}]) -> (f32[8,4], f32[4], f32[8,6]) mesh ["x"=2, "y"=2] {
  %2 = tanh %0 : f32[8,4] loc("m.go":10)
  %3, %4 = manual_computation %2 {mesh = ["x"=2, "y"=2], in_shardings = [[{"x"}, {}]], out_shardings = [[{"x"}, {}], [{}]]} (%0: f32[4,4]) {
    %1 = constant {value = dense<0.0> : f32[]} : f32[]
    %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[4]
    %3 = all_reduce %2 {replica_groups = [[0, 2], [1, 3]], channel_id = 1, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[4]
    %4 = collective_permute %0 {source_target_pairs = [[0, 2], [2, 0], [1, 3], [3, 1]], channel_id = 2} : f32[4,4]
    return %4, %3
  } : f32[8,4], f32[4] loc("m.go":11)
  %5 = exponential %3 : f32[8,4] loc("m.go":12)
  %6 = dot_general %3, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,6] loc("m.go":13)
  return %5, %4, %6
}`

// TestPropagateManual: a manual computation's results are its out specs,
// which propagate to their users; its operand takes the in spec, which
// propagates back to the tanh that makes it; the body gets no shardings.
func TestPropagateManual(t *testing.T) {
	f := mustParse(t, manualMixed)
	rep, err := PropagateSharding(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"x"}, {}]
[{}, {"y"}]
tanh [{"x"}, {}]
manual_computation [{"x"}, {}]
manual_computation [{}]
exponential [{"x"}, {}]
dot_general [{"x"}, {"y"}]
`
	if got := shardingsOf(f); got != want {
		t.Errorf("shardings:\n%s\nwant\n%s", got, want)
	}
	body := f.Body[1].Regions[0]
	for _, in := range body.Body {
		for _, v := range in.Results {
			if v.Sharding != nil {
				t.Errorf("body value %s of %s has sharding %v", v, in.Op, v.Sharding)
			}
		}
	}
	ex := rep.Explain(f.Body[2].Results[0])
	if !strings.Contains(ex, `dim 0 split by "x": from sharding.Map at m.go:11; forward through exponential at m.go:12`) {
		t.Errorf("explanation of the exp:\n%s", ex)
	}
	if ex := rep.Explain(f.Body[0].Results[0]); !strings.Contains(ex, `dim 0 split by "x": from sharding.Map at m.go:11`) {
		t.Errorf("explanation of the tanh:\n%s", ex)
	}
	if ex := rep.Explain(f.Params[0]); !strings.Contains(ex, `from sharding.Map at m.go:11; backward through tanh at m.go:10`) {
		t.Errorf("explanation of the parameter:\n%s", ex)
	}
	if len(rep.Conflicts) != 0 {
		t.Errorf("conflicts: %v", rep.Conflicts)
	}
}

// TestPartitionManual: the body is inlined on the pieces, with its
// collectives (on channels of their own), between the automatic ops; the
// results match the unsharded program's.
func TestPartitionManual(t *testing.T) {
	p := spmdCase(t, manualMixed, map[string]int{"all_reduce": 1, "collective_permute": 1})
	if p.BytesMoved == 0 {
		t.Errorf("the explicit collectives moved no bytes")
	}
	channels := map[int64]int{}
	p.Func.Walk(func(in *ir.Instr) {
		switch a := in.Attr.(type) {
		case ir.ManualComputationAttr:
			t.Errorf("manual_computation left in the per-device program:\n%s", p.Func)
		case ir.AllReduceAttr:
			channels[a.ChannelID]++
		case ir.CollectivePermuteAttr:
			channels[a.ChannelID]++
		}
	})
	for c, n := range channels {
		if n > 1 {
			t.Errorf("channel %d used by %d collectives:\n%s", c, n, p.Func)
		}
	}
}

// TestPartitionManualReshardsOperands: an operand laid out otherwise than
// the in spec is resharded (a conflict says so), and a result whose user
// wants another layout too.
func TestPartitionManualReshardsOperands(t *testing.T) {
	src := `func @f(%0: f32[8,4] sharding [{}, {"x"}]) -> f32[8,4] sharding [{}, {"x"}] mesh ["x"=4] {
  %1 = manual_computation %0 {mesh = ["x"=4], in_shardings = [[{"x"}, {}]], out_shardings = [[{"x"}, {}]]} (%0: f32[2,4]) {
    %1 = partition_id : ui32[]
    %2 = convert %1 {to = f32} : f32[]
    %3 = broadcast_in_dim %2 {shape = [2, 4], dims = []} : f32[2,4]
    %4 = add %0, %3 : f32[2,4]
    return %4
  } : f32[8,4] loc("m.go":20)
  return %1
}`
	f := mustParse(t, src)
	rep, err := PrepareSharding(ir.CloneFunc(f))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Conflicts) != 1 || !strings.Contains(rep.Conflicts[0].String(), "but the op needs [{\"x\"}, {}] (from sharding.Map at m.go:20)") {
		t.Errorf("conflicts: %v", rep.Conflicts)
	}
	spmdCase(t, src, map[string]int{"all_to_all": 2})
}
