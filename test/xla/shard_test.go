package xla

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// TestXLASharded checks XLA's SPMD partitioner as the oracle of Stela's
// annotate mode on hand-written StableHLO with mhlo.sharding attributes,
// in one batch (one Python process):
//
//   - each program partitioned gives the results of the same program
//     unpartitioned: bit for bit where no sum is split (elementwise ops and
//     data movement; NaN payloads aside), and within 2·n·u·Σ|terms| where
//     a contraction is (both results are within n·u·Σ|terms| of the exact
//     value to first order, n the total length of the sums on a path from
//     an input to a result, 16 + 64 for the MLPs, Σ|terms| the program run
//     unpartitioned on |inputs|: relu is 1-Lipschitz and the identity on
//     them);
//   - the collectives XLA chose are the ones the shardings call for: none
//     for a data-parallel matmul, exactly one all-reduce over the model
//     devices for a Megatron MLP, on one mesh axis and on a 2x4 mesh, and
//     the collective a @Sharding constraint forces;
//   - the HLO sharding string forms of doc.go (replicated, tiled,
//     last_tile_dim_replicate, maximal, iota with a transpose, an explicit
//     device list, uneven tiles) place the tiles on the devices doc.go
//     says: a program that returns its partition id in its tile
//     (partition_id inside a manual region, as jax lowers shard_map) gives
//     the device map written out by hand, and one that subtracts its
//     partition id from its tile of that map gives zeros.
func TestXLASharded(t *testing.T) {
	// Programs go into b; their checks, run as subtests once b has run,
	// into checks.
	var b shardBatch
	type check struct {
		name string
		fn   func(t *testing.T)
	}
	var checks []check
	add := func(name string, fn func(t *testing.T)) { checks = append(checks, check{name, fn}) }

	// Contractions: compared within a bound from the program on |inputs|.
	contraction := func(name, mlir string, n, terms int, args []*ir.Literal, want func(t *testing.T, cs []collective)) *job {
		s, u := b.addPair(name, mlir, n, args)
		var abs []*ir.Literal
		for _, a := range args {
			abs = append(abs, absLit(a))
		}
		scale := b.add(name+"/abs", mlir, 0, abs)
		add(name, func(t *testing.T) {
			for _, j := range []*job{s, u, scale} {
				if !j.result.ok {
					t.Fatalf("%s: %s\n%s", j.name, j.result.err, j.mlir)
				}
			}
			t.Logf("%d partitions: params %v, results %v; XLA's collectives: %s (compile %.0f ms)",
				n, s.result.paramShardings, s.result.outShardings, formatCollectives(s.result.collectives), 1000*s.result.compileS)
			worst, err := closeSums(s.result.outs, u.result.outs, scale.result.outs, terms)
			if err != nil {
				t.Error(err)
			}
			t.Logf("largest difference from the unpartitioned results: %.3g of the bound", worst)
			want(t, s.result.collectives)
		})
		return s
	}
	r := rng("sharded")
	f32 := func(dims ...int) *ir.Literal { return randLit(r, ir.TensorOf(ir.F32, dims...), true) }

	// Data parallel: x cut by rows over 8 devices, w on every device.
	contraction("dp_matmul", `module @dp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<16x32xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}, %w: tensor<32x24xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<16x24xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x24xf32>) -> tensor<16x24xf32>
    return %y : tensor<16x24xf32>
  }
}`, 8, 32, []*ir.Literal{f32(16, 32), f32(32, 24)}, func(t *testing.T, cs []collective) {
		if len(cs) != 0 {
			t.Errorf("XLA inserted %s, want no collective", formatCollectives(cs))
		}
	})

	// Megatron MLP on 4 devices: w1 cut by columns, w2 by rows; each
	// device computes a partial product of the whole result, summed by
	// one all-reduce of f32[8,16] (512 bytes) over all four.
	megatron := `module @megatron attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<8x16xf32> {mhlo.sharding = "{replicated}"}, %w1: tensor<16x64xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %w2: tensor<64x16xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{replicated}"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
    %z = stablehlo.constant dense<0.0> : tensor<8x64xf32>
    %a = stablehlo.maximum %h, %z : tensor<8x64xf32>
    %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
    return %y : tensor<8x16xf32>
  }
}`
	mlpArgs := []*ir.Literal{f32(8, 16), f32(16, 64), f32(64, 16)}
	oneAllReduce := func(bytes int64, groups [][]int) func(t *testing.T, cs []collective) {
		return func(t *testing.T, cs []collective) {
			if len(cs) != 1 || cs[0].Op != "all-reduce" {
				t.Fatalf("XLA inserted %s, want one all-reduce", formatCollectives(cs))
			}
			if cs[0].ResultBytes != bytes || !reflect.DeepEqual(cs[0].DeviceGroups, groups) {
				t.Errorf("XLA's all-reduce: %v (devices %v), want %d bytes over %v", cs[0], cs[0].DeviceGroups, bytes, groups)
			}
		}
	}
	gspmd := contraction("megatron_mlp", megatron, 4, 16+64, mlpArgs, oneAllReduce(8*16*4, [][]int{{0, 1, 2, 3}}))

	// The same on a 2x4 mesh (data, model): device 4d+m at mesh position
	// (d, m), the iota over the mesh. x cut by rows on data and copied on
	// model; w1's columns and w2's rows cut on model, copied on data (the
	// tile assignment [2,4] transposed: tile i of the model axis on
	// devices i and 4+i); y like x. One all-reduce per data row of the
	// mesh, over its four model devices, of the local f32[4,16].
	contraction("mesh2x4_mlp", `module @mesh attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %w1: tensor<16x64xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %w2: tensor<64x16xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
    %z = stablehlo.constant dense<0.0> : tensor<8x64xf32>
    %a = stablehlo.maximum %h, %z : tensor<8x64xf32>
    %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
    return %y : tensor<8x16xf32>
  }
}`, 8, 16+64, mlpArgs, oneAllReduce(4*16*4, [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}}))

	// Shardy on: XLA takes the mhlo.sharding module all the same (it
	// falls back to GSPMD) and makes the same program of it.
	shardy := b.add("megatron_mlp/shardy", megatron, 4, mlpArgs)
	shardy.useShardy = true
	add("use_shardy_partitioner", func(t *testing.T) {
		if !shardy.result.ok {
			t.Fatal(shardy.result.err)
		}
		if got, want := shardy.result.hlo, gspmd.result.hlo; got != want {
			t.Errorf("with use_shardy_partitioner XLA compiled another module:\n%s\nwithout:\n%s", got, want)
		}
		if err := sameResults(shardy.result.outs, gspmd.result.outs); err != nil {
			t.Error(err)
		}
	})

	// A custom_call @Sharding constraint inside: x cut by rows, its
	// square constrained to another sharding before the add. Without the
	// constraint nothing moves; constrained to {replicated} XLA gathers
	// the square (one all-gather of f32[16,8], 512 bytes); constrained to
	// columns it reshards with all-to-all.
	constrained := func(c string) string {
		return fmt.Sprintf(`module @constraint attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%%x: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) {
    %%y = stablehlo.multiply %%x, %%x : tensor<16x8xf32>
    %s
    %%z = stablehlo.add %%c, %%x : tensor<16x8xf32>
    return %%z : tensor<16x8xf32>
  }
}`, c)
	}
	sharding := func(s string) string {
		return `%c = stablehlo.custom_call @Sharding(%y) {backend_config = "", mhlo.sharding = "` + s + `"} : (tensor<16x8xf32>) -> tensor<16x8xf32>`
	}
	exact := func(name, mlir string, n int, args []*ir.Literal, want func(t *testing.T, s *job)) {
		s, u := b.addPair(name, mlir, n, args)
		add(name, func(t *testing.T) {
			for _, j := range []*job{s, u} {
				if !j.result.ok {
					t.Fatalf("%s: %s\n%s", j.name, j.result.err, j.mlir)
				}
			}
			t.Logf("%d partitions: params %v, results %v; XLA's collectives: %s", n, s.result.paramShardings, s.result.outShardings, formatCollectives(s.result.collectives))
			if err := sameResults(s.result.outs, u.result.outs); err != nil {
				t.Error(err)
			}
			if want != nil {
				want(t, s)
			}
		})
	}
	cx := []*ir.Literal{withNaNs(f32(16, 8))}
	exact("constraint/none", constrained(`%c = stablehlo.negate %y : tensor<16x8xf32>`), 4, cx, func(t *testing.T, s *job) {
		if cs := s.result.collectives; len(cs) != 0 {
			t.Errorf("XLA inserted %s, want none", formatCollectives(cs))
		}
	})
	exact("constraint/replicated", constrained(sharding("{replicated}")), 4, cx, func(t *testing.T, s *job) {
		cs := s.result.collectives
		if len(cs) != 1 || cs[0].Op != "all-gather" || cs[0].ResultBytes != 16*8*4 || !reflect.DeepEqual(cs[0].DeviceGroups, [][]int{{0, 1, 2, 3}}) {
			t.Errorf("XLA inserted %s, want one all-gather of f32[16,8] over devices 0-3", formatCollectives(cs))
		}
	})
	exact("constraint/columns", constrained(sharding("{devices=[1,4]<=[4]}")), 4, cx, func(t *testing.T, s *job) {
		n := collectiveCounts(s.result.collectives)
		if n["all-to-all"] == 0 || len(n) != 1 {
			t.Errorf("XLA inserted %s, want all-to-all only", formatCollectives(s.result.collectives))
		}
	})

	// The sharding string forms, on x·y + x and reverse(x): the tiles
	// must land where the strings say for the results to be the
	// unpartitioned ones.
	forms := []struct {
		name           string
		n              int
		rows, cols     int
		sx, sy, s0, s1 string
	}{
		{"replicated", 2, 6, 4, "{replicated}", "{replicated}", "{replicated}", "{replicated}"},
		{"rows", 2, 6, 4, "{devices=[2,1]<=[2]}", "{devices=[2,1]<=[2]}", "{devices=[2,1]<=[2]}", "{devices=[2,1]<=[2]}"},
		{"last_tile_dim_replicate", 4, 6, 4, "{devices=[1,2,2]<=[4] last_tile_dim_replicate}", "{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
			"{devices=[1,2,2]<=[4] last_tile_dim_replicate}", "{devices=[2,2]<=[4]}"},
		{"maximal", 4, 6, 4, "{maximal device=1}", "{devices=[4,1]<=[4]}", "{maximal device=3}", "{replicated}"},
		{"iota_transposed", 8, 6, 8, "{devices=[2,4]<=[4,2]T(1,0)}", "{devices=[2,4]<=[8]}", "{devices=[2,4]<=[4,2]T(1,0)}", "{devices=[4,2]<=[2,4]T(1,0)}"},
		{"device_list", 4, 6, 4, "{devices=[2,2]3,1,0,2}", "{devices=[2,2]<=[4]}", "{devices=[2,2]3,1,0,2}", "{devices=[1,2,2]2,0,3,1 last_tile_dim_replicate}"},
		{"uneven", 4, 7, 5, "{devices=[4,1]<=[4]}", "{devices=[1,4]<=[4]}", "{devices=[1,2,2]<=[4] last_tile_dim_replicate}", "{devices=[4,1]<=[4]}"},
	}
	for _, f := range forms {
		ty := fmt.Sprintf("tensor<%dx%dxf32>", f.rows, f.cols)
		mlir := fmt.Sprintf(`module @forms attributes {mhlo.num_partitions = %d : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%%x: %[2]s {mhlo.sharding = "%[3]s"}, %%y: %[2]s {mhlo.sharding = "%[4]s"}) -> (%[2]s {mhlo.sharding = "%[5]s"}, %[2]s {mhlo.sharding = "%[6]s"}) {
    %%p = stablehlo.multiply %%x, %%y : %[2]s
    %%s = stablehlo.add %%p, %%x : %[2]s
    %%r = stablehlo.reverse %%x, dims = [0] : %[2]s
    return %%s, %%r : %[2]s, %[2]s
  }
}`, f.n, ty, f.sx, f.sy, f.s0, f.s1)
		exact("forms/"+f.name, mlir, f.n, []*ir.Literal{withNaNs(f32(f.rows, f.cols)), f32(f.rows, f.cols)}, func(t *testing.T, s *job) {
			// XLA compiled the shardings it was given, in its
			// canonical text (the copies of a tile are a set: XLA
			// sorts them).
			got := append(append([]string{}, s.result.paramShardings...), s.result.outShardings...)
			var want []string
			for _, sh := range []string{f.sx, f.sy, f.s0, f.s1} {
				want = append(want, s.result.canonical[sh])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("XLA compiled shardings %v, want %v", got, want)
			}
		})
	}

	// Other element types travel too (bf16 as numpy's V2, complex, i1),
	// NaNs of bf16 included; replicated results are checked copy by copy.
	exact("dtypes", `module @dtypes attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<4x6xbf16> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, %c: tensor<4x6xcomplex<f32>> {mhlo.sharding = "{devices=[1,2]<=[2]}"}, %p: tensor<4x6xi1> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, %i: tensor<4x6xi64> {mhlo.sharding = "{devices=[1,2]<=[2]}"}) -> (tensor<4x6xbf16> {mhlo.sharding = "{replicated}"}, tensor<4x6xcomplex<f32>> {mhlo.sharding = "{replicated}"}, tensor<4x6xi1> {mhlo.sharding = "{replicated}"}, tensor<4x6xi64> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) {
    %a = stablehlo.add %x, %x : tensor<4x6xbf16>
    %m = stablehlo.multiply %c, %c : tensor<4x6xcomplex<f32>>
    %n = stablehlo.not %p : tensor<4x6xi1>
    %k = stablehlo.negate %i : tensor<4x6xi64>
    return %a, %m, %n, %k : tensor<4x6xbf16>, tensor<4x6xcomplex<f32>>, tensor<4x6xi1>, tensor<4x6xi64>
  }
}`, 2, []*ir.Literal{withNaNs(randLit(r, ir.TensorOf(ir.BF16, 4, 6), false)), randLit(r, ir.TensorOf(ir.C64, 4, 6), true),
		randLit(r, ir.TensorOf(ir.Bool, 4, 6), false), randLit(r, ir.TensorOf(ir.S64, 4, 6), false)}, nil)

	// An iota tile assignment over more than one dimension needs its
	// transpose, even the identity: {devices=[1,4]<=[2,2]} does not parse
	// (the form without one is <=[4]). XLA drops such a string without a
	// word and replicates the value; the oracle fails the job instead.
	badMLIR := strings.Replace(megatron, "{devices=[1,4]<=[4]}", "{devices=[1,4]<=[2,2]}", 1)
	bad := b.add("iota_without_transpose", badMLIR, 4, mlpArgs)
	dropped := b.add("iota_without_transpose/lenient", badMLIR, 4, mlpArgs)
	dropped.lenient = true
	add("canonical", func(t *testing.T) {
		// XLA's canonical text of the strings of forms/device_list.
		const s, want = "{devices=[1,2,2]2,0,3,1 last_tile_dim_replicate}", "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}"
		for _, j := range b.jobs {
			if j.name == "forms/device_list" {
				if got := j.result.canonical[s]; got != want {
					t.Errorf("XLA prints %s as %q, want %s", s, got, want)
				}
				return
			}
		}
		t.Fatal("no job forms/device_list")
	})
	add("iota_without_transpose", func(t *testing.T) {
		const want = "expected 'T(' to start sharding devices iota_transpose_perm"
		if bad.result.ok || !strings.Contains(bad.result.err, want) {
			t.Errorf("the oracle on {devices=[1,4]<=[2,2]}: ok %v, error %q; want the error %q", bad.result.ok, bad.result.err, want)
		}
		if !dropped.result.ok {
			t.Fatal(dropped.result.err)
		}
		if got := dropped.result.paramShardings; len(got) != 3 || got[1] != "{replicated}" {
			t.Errorf("XLA compiled {devices=[1,4]<=[2,2]} as %v, want it dropped: {replicated}", got)
		}
	})

	// Where each device's tile lies: partition_id in each tile, and the
	// map given back as an argument minus partition_id (zeros). The maps
	// are written out from doc.go's rule: the tile assignment lists the
	// devices of the tiles in row-major order of the tile dimensions;
	// <=[dims] is iota(dims) flattened, <=[dims]T(perm) iota(dims)
	// transposed by perm, then flattened.
	orders := []struct {
		sharding string
		dims     []int
		want     []int64
	}{
		{"{devices=[8]<=[8]}", []int{8}, []int64{0, 1, 2, 3, 4, 5, 6, 7}},
		{"{devices=[2,4]<=[8]}", []int{2, 4}, []int64{0, 1, 2, 3, 4, 5, 6, 7}},
		{"{devices=[2,4]<=[4,2]T(1,0)}", []int{2, 4}, []int64{0, 2, 4, 6, 1, 3, 5, 7}},
		{"{devices=[4,2]<=[2,4]T(1,0)}", []int{4, 2}, []int64{0, 4, 1, 5, 2, 6, 3, 7}},
		{"{devices=[2,2,2]<=[2,2,2]T(2,0,1)}", []int{2, 2, 2}, []int64{0, 2, 4, 6, 1, 3, 5, 7}},
		{"{devices=[2,4]7,6,5,4,3,2,1,0}", []int{2, 4}, []int64{7, 6, 5, 4, 3, 2, 1, 0}},
	}
	for _, o := range orders {
		var full, ones []string
		for _, d := range o.dims {
			full = append(full, fmt.Sprint(d))
			ones = append(ones, "1")
		}
		tf := "tensor<" + strings.Join(full, "x") + "xui32>"
		t1 := "tensor<" + strings.Join(ones, "x") + "xui32>"
		mlir := fmt.Sprintf(`module @order attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%%x: %[1]s {mhlo.sharding = "%[3]s"}) -> (%[1]s {mhlo.sharding = "%[3]s"}, %[1]s {mhlo.sharding = "%[3]s"}) {
    %%p = stablehlo.partition_id : tensor<ui32>
    %%b = stablehlo.reshape %%p : (tensor<ui32>) -> %[2]s
    %%bm = stablehlo.custom_call @Sharding(%%b) {backend_config = "", mhlo.sharding = "{manual}"} : (%[2]s) -> %[2]s
    %%bf = stablehlo.custom_call @SPMDShardToFullShape(%%bm) {backend_config = "", mhlo.sharding = "%[3]s"} : (%[2]s) -> %[1]s
    %%xs = stablehlo.custom_call @Sharding(%%x) {backend_config = "", mhlo.sharding = "%[3]s"} : (%[1]s) -> %[1]s
    %%xm = stablehlo.custom_call @SPMDFullToShardShape(%%xs) {backend_config = "", mhlo.sharding = "{manual}"} : (%[1]s) -> %[2]s
    %%d = stablehlo.subtract %%xm, %%b : %[2]s
    %%dm = stablehlo.custom_call @Sharding(%%d) {backend_config = "", mhlo.sharding = "{manual}"} : (%[2]s) -> %[2]s
    %%df = stablehlo.custom_call @SPMDShardToFullShape(%%dm) {backend_config = "", mhlo.sharding = "%[3]s"} : (%[2]s) -> %[1]s
    return %%bf, %%df : %[1]s, %[1]s
  }
}`, tf, t1, o.sharding)
		want := ir.LiteralFromInt64s(ir.TensorOf(ir.U32, o.dims...), o.want)
		j := b.add("order/"+o.sharding, mlir, 8, []*ir.Literal{want})
		add("order/"+o.sharding, func(t *testing.T) {
			if !j.result.ok {
				t.Fatalf("%s\n%s", j.result.err, j.mlir)
			}
			if got := j.result.outs[0]; !ir.LiteralEqual(got, want) {
				t.Errorf("partition ids by tile: got %v, want %v", got.Int64s(), o.want)
			}
			zero := ir.LiteralFromInt64s(want.Type, make([]int64, want.Len()))
			if got := j.result.outs[1]; !ir.LiteralEqual(got, zero) {
				t.Errorf("the map given as argument, minus partition_id: got %v, want zeros", got.Int64s())
			}
		})
	}

	b.run(t)
	for _, c := range checks {
		t.Run(c.name, c.fn)
	}
}

// TestXLAShardedRun runs one program through runXLASharded, the helper
// for a single program: Stela's lowering of a data-parallel matmul would
// be checked like this.
func TestXLAShardedRun(t *testing.T) {
	const mlir = `module @dp attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<4x3xf64> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, %w: tensor<3x2xf64> {mhlo.sharding = "{replicated}"}) -> (tensor<4x2xf64> {mhlo.sharding = "{devices=[2,1]<=[2]}"}, tensor<4x2xf64> {mhlo.sharding = "{replicated}"}) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x3xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
    return %y, %y : tensor<4x2xf64>, tensor<4x2xf64>
  }
}`
	x := ir.LiteralFromFloat64s(ir.TensorOf(ir.F64, 4, 3), []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	w := ir.LiteralFromFloat64s(ir.TensorOf(ir.F64, 3, 2), []float64{1, 0, 0, 1, 1, -1})
	outs, colls, err := runXLASharded(t, mlir, 2, []*ir.Literal{x, w})
	if err != nil {
		t.Fatal(err)
	}
	// Small integers: every order of summation is exact.
	want := ir.LiteralFromFloat64s(ir.TensorOf(ir.F64, 4, 2), []float64{4, -1, 10, -1, 16, -1, 22, -1})
	for k, o := range outs {
		if !ir.LiteralEqual(o, want) {
			t.Errorf("result #%d: %v, want %v", k, o.Float64s(), want.Float64s())
		}
	}
	// The replicated result gathers the row blocks.
	if want := map[string]int{"all-gather": 1}; !reflect.DeepEqual(colls, want) {
		t.Errorf("collectives %v, want %v", colls, want)
	}
}

// sameResults checks that got and want are the same values bit for bit,
// NaN payloads aside.
func sameResults(got, want []*ir.Literal) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	for k := range want {
		g, w := got[k], want[k]
		if !g.Type.Equal(w.Type) {
			return fmt.Errorf("result #%d: %v, want %v", k, g.Type, w.Type)
		}
		d := w.Type.DType
		for i := range w.Len() {
			a, b := g.Elem(i), w.Elem(i)
			if sameBits(d, a, b) {
				continue
			}
			if (d.IsFloat() || d.IsComplex()) && isNaNC(ir.ToComplex128(d, a)) && isNaNC(ir.ToComplex128(d, b)) {
				continue
			}
			return fmt.Errorf("result #%d[%d]: %s, want %s", k, i, ir.FormatElem(d, a), ir.FormatElem(d, b))
		}
	}
	return nil
}

// closeSums checks float results that are sums of products along paths of
// terms roundings each: |got − want| ≤ 2·terms·u·scale + 1 ulp of want,
// where scale is the program on |inputs| (got and want are each within
// terms·u·scale of the exact value, to first order). It returns the
// largest difference as a fraction of its bound.
func closeSums(got, want, scale []*ir.Literal, terms int) (worst float64, err error) {
	if len(got) != len(want) || len(scale) != len(want) {
		return 0, fmt.Errorf("%d results, want %d (scale %d)", len(got), len(want), len(scale))
	}
	for k := range want {
		g, w, s := got[k], want[k], scale[k]
		if !g.Type.Equal(w.Type) {
			return 0, fmt.Errorf("result #%d: %v, want %v", k, g.Type, w.Type)
		}
		d := w.Type.DType
		u := unitRoundoff(d)
		gv, wv, sv := g.Float64s(), w.Float64s(), s.Float64s()
		for i := range wv {
			tol := 2*float64(terms)*u*sv[i] + ulpOf(d, wv[i])
			e := math.Abs(gv[i] - wv[i])
			if !(e <= tol) {
				return worst, fmt.Errorf("result #%d[%d]: %g, want %g within %g", k, i, gv[i], wv[i], tol)
			}
			worst = max(worst, e/tol)
		}
	}
	return worst, nil
}
