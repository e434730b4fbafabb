package lowering

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// manualProgram is sharding.Map of a row-sharded sum: each device sums
// its rows, an all_reduce adds the devices' sums, and the second result
// is the rows scaled by a replicated vector, still row-sharded.
const manualProgram = `func @f(%0: f32[8,4] sharding [{"x"}, {}], %1: f32[4]) -> (f32[4], f32[8,4]) mesh ["x"=2, "y"=2] {
  %2, %3 = manual_computation %0, %1 {mesh = ["x"=2, "y"=2], in_shardings = [[{"x"}, {}], [{}]], out_shardings = [[{}], [{"x"}, {}]]} (%0: f32[4,4], %1: f32[4]) {
    %2 = constant {value = dense<0.0> : f32[]} : f32[]
    %3 = reduce %0, %2 {dims = [0]} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[4]
    %4 = all_reduce %3 {replica_groups = [[0, 2], [1, 3]], channel_id = 1, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[4]
    %5 = broadcast_in_dim %1 {shape = [4, 4], dims = [1]} : f32[4,4]
    %6 = multiply %0, %5 : f32[4,4]
    return %4, %6
  } : f32[4], f32[8,4]
  return %2, %3
}
`

// TestLowerManualComputation: in annotate mode a manual computation is
// JAX's lowering of shard_map: @Sharding and @SPMDFullToShardShape on the
// way in, the body on the pieces, @Sharding and @SPMDShardToFullShape on
// the way out. Without annotations a mesh of several devices is an error.
func TestLowerManualComputation(t *testing.T) {
	f, err := ir.ParseFunc(manualProgram)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(f); err != nil {
		t.Fatal(err)
	}
	m := lower(t, f)
	text := m.String()
	for _, want := range []string{
		`stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>`,
		`stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>`,
		`stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>`,
		`stablehlo.custom_call @SPMDShardToFullShape(`,
		`{mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>`,
		`{mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>`,
		`mhlo.num_partitions = 4 : i32`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lowering lacks %s", want)
		}
	}
	if n := strings.Count(text, `{mhlo.sharding = "{manual}"}`); n != 4 {
		t.Errorf("%d custom calls with {manual}, want 4 (two operands in, two results out)", n)
	}
	golden(t, "manual_annotate.mlir", text)

	_, err = Lower(f, Options{})
	if err == nil || !strings.Contains(err.Error(), "runs its body on each of the 4 devices of mesh") {
		t.Errorf("plain lowering of a 4-device manual computation: %v", err)
	}
}
