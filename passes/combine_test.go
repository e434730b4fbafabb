package passes

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// CombineAllReduces merges independent all_reduces of one kind, moves the
// uses of earlier members after the merged op, and leaves alone those
// computed from another's result, other reductions, groups or element
// types. Every case is checked against EvalSPMD before and after.
func TestCombineAllReduces(t *testing.T) {
	const src = `func @f(%0: f32[4], %1: f32[3], %2: f32[4], %3: si32[2]) -> (f32[4], f32[3], f32[4], f32[4], si32[2], f32[4]) {
  %4 = all_reduce %0 {replica_groups = [[0, 1]], channel_id = 1, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  %5 = negate %4 : f32[4]
  %6 = all_reduce %1 {replica_groups = [[0, 1]], channel_id = 2, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[3]
  %7 = all_reduce %5 {replica_groups = [[0, 1]], channel_id = 3, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  %8 = all_reduce %2 {replica_groups = [[0, 1]], channel_id = 4, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
    %2 = maximum %0, %1 : f32[]
    return %2
  } : f32[4]
  %9 = all_reduce %3 {replica_groups = [[0, 1]], channel_id = 5, use_global_device_ids = true} (%0: si32[], %1: si32[]) {
    %2 = add %0, %1 : si32[]
    return %2
  } : si32[2]
  %10 = all_reduce %2 {replica_groups = [[0], [1]], channel_id = 6, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[4]
  return %5, %6, %7, %8, %9, %10
}`
	f, err := ir.ParseFunc(src)
	if err != nil {
		t.Fatal(err)
	}
	args := make([][]*ir.Literal, 2)
	for d := range args {
		for _, p := range f.Params {
			v := make([]float64, p.Type.NumElements())
			for i := range v {
				v[i] = float64(1 + i + 10*d)
			}
			args[d] = append(args[d], ir.LiteralFromFloat64s(p.Type, v))
		}
	}
	want, err := ir.EvalSPMD(f, 1, 2, args)
	if err != nil {
		t.Fatal(err)
	}
	g := ir.CloneFunc(f)
	n, err := CombineAllReduces(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(g); err != nil {
		t.Fatalf("%v\n%s", err, g)
	}
	// %4 and %6 merge (%5, which reads %4, moves after them); %7 reads
	// %4 through %5; %8 is a max, %9 on integers, %10 on other groups.
	if n != 1 {
		t.Errorf("removed %d all_reduces, want 1:\n%s", n, g)
	}
	count := 0
	for _, in := range g.Body {
		if in.Op == ir.OpAllReduce {
			count++
		}
	}
	if count != 5 {
		t.Errorf("%d all_reduces left, want 5:\n%s", count, g)
	}
	if text := g.String(); !strings.Contains(text, "all_reduce %0, %1 {") {
		t.Errorf("no merged all_reduce of %%0 and %%1:\n%s", text)
	}
	got, err := ir.EvalSPMD(g, 1, 2, args)
	if err != nil {
		t.Fatal(err)
	}
	for d := range got {
		for k := range got[d] {
			if err := ir.LiteralsAllClose(got[d][k], want[d][k], 0, 0); err != nil {
				t.Errorf("device %d result %d: %v, want %v", d, k, got[d][k], want[d][k])
			}
		}
	}
}
