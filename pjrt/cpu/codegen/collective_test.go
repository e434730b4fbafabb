package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// Planning collectives: the devices a program is compiled for, and the
// errors for groups, attributes and shapes that do not fit (each naming
// the op). The collectives' results are tested on real devices in
// package cpu (collective_test.go).

func planColl(t *testing.T, src string, opts codegen.Options) (*codegen.Program, error) {
	t.Helper()
	m, err := stablehlo.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("verify: %v\n%s", err, src)
	}
	return codegen.Plan(m, opts)
}

const sumBody = `({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    })`

func collProgram(attrs, op, result string) string {
	return fmt.Sprintf(`module @m %s {
  func.func public @main(%%x: tensor<8x4xf32>) -> %s {
    %%r = %s
    return %%r : %s
  }
}
`, attrs, result, op, result)
}

func TestCollectivePlanErrors(t *testing.T) {
	ar := func(attrs string) string {
		return `"stablehlo.all_reduce"(%x) <{` + attrs + `}> ` + sumBody + ` : (tensor<8x4xf32>) -> tensor<8x4xf32>`
	}
	same := "tensor<8x4xf32>"
	for _, tc := range []struct {
		name       string
		modAttrs   string
		op, result string
		r, p       int
		want       string
	}{
		{"range", "", ar(`replica_groups = dense<[[0, 4]]> : tensor<1x2xi64>`), same, 4, 1,
			"stablehlo.all_reduce in @main: replica_groups name replica 4, but the program runs on 4 replica(s) × 1 partition(s) (cross_replica)"},
		{"twice", "", ar(`replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>`), same, 3, 1,
			"replica_groups name replica 1 twice"},
		{"cover", "", ar(`replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>`), same, 4, 1,
			"replica_groups cover 2 of the 4 replicas (cross_replica): every one must be in a group"},
		{"flattened cover", "", ar(`replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids`), same, 1, 4,
			"replica_groups cover 2 of the 4 devices (flattened_ids)"},
		{"global without channel", "", ar(`replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids`), same, 2, 1,
			"use_global_device_ids needs a channel_handle with a positive handle"},
		{"sizes", "", ar(`replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>`), same, 4, 1,
			"unsupported: stablehlo.all_reduce with process groups of different sizes (3 and 1) (stablehlo.all_reduce in @main)"},
		{"padding", "", ar(`replica_groups = dense<[[0, -1, 1]]> : tensor<1x3xi64>`), same, 2, 1,
			"replica_groups name replica -1"},
		{"gather shape", "", `"stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<16x4xf32>`, "tensor<16x4xf32>", 2, 1,
			"stablehlo.all_gather in @main: result #0 is tensor<16x4xf32>, want tensor<8x8xf32>"},
		{"gather dim", "", `"stablehlo.all_gather"(%x) {all_gather_dim = 2 : i64} : (tensor<8x4xf32>) -> tensor<16x4xf32>`, "tensor<16x4xf32>", 2, 1,
			"all_gather_dim 2 is out of range"},
		{"scatter split", "", `"stablehlo.reduce_scatter"(%x) <{scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> ` + sumBody + ` : (tensor<8x4xf32>) -> tensor<8x1xf32>`, "tensor<8x1xf32>", 3, 1,
			"stablehlo.reduce_scatter in @main: dimension 1 of operand tensor<8x4xf32> does not split into groups of 3"},
		{"split count", "", `"stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<2x16xf32>`, "tensor<2x16xf32>", 2, 1,
			"stablehlo.all_to_all in @main: split_count is 4, but the process groups have 2 members"},
		{"permute source", "", `"stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<8x4xf32>) -> tensor<8x4xf32>`, same, 3, 1,
			"stablehlo.collective_permute in @main: source_target_pairs: replica 0 is the source of two pairs"},
		{"permute range", "", `"stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 3]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<8x4xf32>) -> tensor<8x4xf32>`, same, 2, 2,
			"source_target_pairs name partition 3"},
		{"body type", "", `"stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %s = stablehlo.add %a, %b : tensor<f64>
      stablehlo.return %s : tensor<f64>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>`, same, 2, 1,
			"stablehlo.all_reduce in @main: reduction of tensor<8x4xf32>: block argument #0 has element type f64, want f32"},
		{"module partitions", "attributes {mhlo.num_partitions = 2 : i32}", ar(`replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids`), same, 0, 0,
			"replica_groups name device 2, but the program runs on 1 replica(s) × 2 partition(s) (flattened_ids)"},
		{"id type", "", `stablehlo.replica_id : tensor<ui64>`, "tensor<ui64>", 1, 1,
			"stablehlo.replica_id in @main: want no operands and one tensor<ui32> result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := collProgram(tc.modAttrs, tc.op, tc.result)
			_, err := planColl(t, src, codegen.Options{NumReplicas: tc.r, NumPartitions: tc.p})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q\n%s", err, tc.want, src)
			}
		})
	}
}

// Groups of different sizes are valid StableHLO the code generator does
// not handle: unsupported, naming the op.
func TestCollectiveUnequalGroups(t *testing.T) {
	src := collProgram("", `"stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>}> : (tensor<8x4xf32>) -> tensor<24x4xf32>`, "tensor<24x4xf32>")
	_, err := planColl(t, src, codegen.Options{NumReplicas: 4})
	if !codegen.IsUnsupported(err) || !strings.Contains(err.Error(), "stablehlo.all_gather with process groups of different sizes") {
		t.Errorf("error %v", err)
	}
	// collective_broadcast's groups may differ in size (and leave devices
	// out).
	m, err := stablehlo.Parse([]byte(`module @m {
  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := codegen.Plan(m, codegen.Options{NumReplicas: 4}); err != nil {
		t.Errorf("collective_broadcast over two groups: %v", err)
	}
}

// A donated operand of a one-operand all_reduce is reduced in place: no
// arena, no copy at the end.
func TestCollectiveInPlacePlan(t *testing.T) {
	src := `module @m {
  func.func public @main(%x: tensor<1000xf32> {tf.aliasing_output = 0 : i32}) -> tensor<1000xf32> {
    %r = "stablehlo.all_reduce"(%x) ` + sumBody + ` : (tensor<1000xf32>) -> tensor<1000xf32>
    return %r : tensor<1000xf32>
  }
}`
	for _, r := range []int{1, 4} {
		p, err := planColl(t, src, codegen.Options{NumReplicas: r})
		if err != nil {
			t.Fatal(err)
		}
		if p.InPlaceResults() != 1 || p.ArenaBytes() != 0 {
			t.Errorf("%d replicas: %d results in place, arena %d bytes; want 1 and 0", r, p.InPlaceResults(), p.ArenaBytes())
		}
		if _, err := p.LLVM(); err != nil {
			t.Fatal(err)
		}
	}
}
