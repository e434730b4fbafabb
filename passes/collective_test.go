package passes

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// Programs with collectives in the places passes touch: before a case
// whose one branch uses it (sink), on constants (fold), twice (CSE), dead
// (DCE), and inside while and case regions.
var collectivePrograms = []string{`
func @sink(%0: si32[], %1: f32[4]) -> f32[4] {
  %2 = all_reduce %1 {replica_groups = []} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  %3 = replica_id : ui32[]
  %4 = convert %3 {to = f32} : f32[]
  %5 = broadcast_in_dim %4 {shape = [4], dims = []} : f32[4]
  %6 = case %0, %2, %1, %5 (%0: f32[4], %1: f32[4], %2: f32[4]) {
    %3 = multiply %0, %2 : f32[4]
    return %3
  } (%0: f32[4], %1: f32[4], %2: f32[4]) {
    %3 = add %1, %2 : f32[4]
    return %3
  } : f32[4]
  return %6
}`, `
func @fold(%0: si32[], %1: f32[4]) -> (f32[4], f32[8], f32[4], ui32[]) {
  %2 = constant {value = dense<[1.0, 2.0, 3.0, 4.0]> : f32[4]} : f32[4]
  %3 = all_reduce %2 {replica_groups = []} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  %4 = composite %2 {name = "test.gather"} (%0: f32[4]) {
    %1 = all_gather %0 {all_gather_dim = 0, replica_groups = [[1, 0]]} : f32[8]
    return %1
  } : f32[8]
  %5 = constant {value = dense<1> : si32[]} : si32[]
  %6 = case %5, %2 (%0: f32[4]) {
    return %0
  } (%0: f32[4]) {
    %1 = collective_permute %0 {source_target_pairs = [[0, 1]]} : f32[4]
    return %1
  } : f32[4]
  %7 = partition_id : ui32[]
  return %3, %4, %6, %7
}`, `
func @cse_dce(%0: si32[], %1: f32[4]) -> (f32[4], f32[4]) {
  %2 = all_reduce %1 {replica_groups = [[0, 1]], channel_id = 1} (%0: f32[], %1: f32[]) {
    %2 = maximum %0, %1 : f32[]
    return %2
  } : f32[4]
  %3 = all_reduce %1 {replica_groups = [[0, 1]], channel_id = 1} (%0: f32[], %1: f32[]) {
    %2 = maximum %0, %1 : f32[]
    return %2
  } : f32[4]
  %4 = all_gather %1 {all_gather_dim = 0, replica_groups = [[0, 1]]} : f32[8]
  %5 = constant {value = dense<0.0> : f32[]} : f32[]
  %6 = broadcast_in_dim %5 {shape = [4], dims = []} : f32[4]
  %7 = add %2, %6 : f32[4]
  return %7, %3
}`, `
func @loop(%0: si32[], %1: f32[4]) -> (f32[4], si32[]) {
  %2 = constant {value = dense<0> : si32[]} : si32[]
  %3 = maximum %0, %2 : si32[]
  %4, %5 = while %1, %3 (%0: f32[4], %1: si32[]) {
    %2 = constant {value = dense<0> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = GT} : i1[]
    return %3
  } (%0: f32[4], %1: si32[]) {
    %2 = all_to_all %0 {split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = [[0, 1]], channel_id = 2} : f32[4]
    %3 = reduce_scatter %2 {scatter_dimension = 0, replica_groups = [[0, 1], [2, 3]], channel_id = 3, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
      %4 = add %0, %1 : f32[]
      return %4
    } : f32[2]
    %4 = all_gather %3 {all_gather_dim = 0, replica_groups = [[1, 0], [3, 2]], channel_id = 4, use_global_device_ids = true} : f32[4]
    %5 = constant {value = dense<1> : si32[]} : si32[]
    %6 = subtract %1, %5 : si32[]
    return %4, %6
  } : f32[4], si32[]
  return %4, %5
}`}

// collectivePlaces lists each collective of f with where it is: the chain
// of ops (and region numbers) that hold it, its op and its attribute.
func collectivePlaces(f *ir.Func, path string, out map[string]bool) {
	for _, in := range f.Body {
		if info := in.Op.Info(); info.Has(ir.Collective) {
			out[fmt.Sprintf("%s %v %s", path, in.Op, attrKey(in.Attr))] = true
		}
		for i, r := range in.Regions {
			collectivePlaces(r, fmt.Sprintf("%s/%v#%d", path, in.Op, i), out)
		}
	}
}

// TestPassesKeepCollectives runs every pass, and the default pipeline
// (also with shuffling), on programs with collectives. Each result must
// verify, compute the same values on every device of a 2 × 2 grid as the
// input (ir.EvalSPMD), and hold no collective that the input does not hold
// at the same place: passes may merge or drop collectives, never fold
// them or move them into or out of control flow.
func TestPassesKeepCollectives(t *testing.T) {
	pipelines := map[string][]*Pass{"default": Default}
	for _, p := range All() {
		pipelines[p.Name] = []*Pass{p}
	}
	for _, src := range collectivePrograms {
		in, err := ir.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		f := in.Funcs[0]
		r := rand.New(rand.NewPCG(1, 2))
		args := make([][]*ir.Literal, 4)
		for d := range args {
			vals := make([]float64, 4)
			for i := range vals {
				vals[i] = float64(r.IntN(9) - 4)
			}
			args[d] = []*ir.Literal{ir.ScalarOf(int32(2)), ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 4), vals)}
		}
		want, err := ir.EvalSPMD(f, 2, 2, args)
		if err != nil {
			t.Fatalf("@%s: %v", f.Name, err)
		}
		before := map[string]bool{}
		collectivePlaces(f, "", before)
		names := make([]string, 0, len(pipelines))
		for n := range pipelines {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, name := range names {
			for _, shuffle := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/shuffle=%v", f.Name, name, shuffle), func(t *testing.T) {
					m, err := ir.Parse(src)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := Run(m, pipelines[name], Options{VerifyEach: true, Shuffle: shuffle, Out: &strings.Builder{}}); err != nil {
						t.Fatal(err)
					}
					g := m.Funcs[0]
					after := map[string]bool{}
					collectivePlaces(g, "", after)
					for p := range after {
						if !before[p] {
							t.Errorf("collective %s is not in the input at that place:\n%v", p, g)
						}
					}
					got, err := ir.EvalSPMD(g, 2, 2, args)
					if err != nil {
						t.Fatalf("%v\n%v", err, g)
					}
					for d := range want {
						for k := range want[d] {
							if !ir.LiteralEqual(got[d][k], want[d][k]) {
								t.Errorf("device %d result #%d: %v, want %v\n%v", d, k, got[d][k], want[d][k], g)
							}
						}
					}
				})
			}
		}
	}
}
