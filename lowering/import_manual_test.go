package lowering

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/gradcases"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// manualOps lists the manual computations of f (top level) and counts the
// custom_calls left anywhere in it.
func manualOps(f *ir.Func) (mcs []*ir.Instr, calls int) {
	for _, in := range f.Body {
		if in.Op == ir.OpManualComputation {
			mcs = append(mcs, in)
		}
	}
	f.Walk(func(in *ir.Instr) {
		if in.Op == ir.OpCustomCall {
			calls++
		}
	})
	return mcs, calls
}

// manualFuncs are the programs with manual computations that the round
// trip takes: the .sir samples of ir and the gradcases' manual cases.
func manualFuncs(t *testing.T) []*ir.Func {
	t.Helper()
	m, err := ir.Parse(readFile(t, filepath.Join("..", "ir", "testdata", "sir", "manual.sir")))
	if err != nil {
		t.Fatal(err)
	}
	fs := m.Funcs
	for _, c := range gradcases.Cases() {
		if c.Op == ir.OpManualComputation {
			fs = append(fs, c.F)
		}
	}
	f, err := ir.ParseFunc(manualProgram)
	if err != nil {
		t.Fatal(err)
	}
	return append(fs, f)
}

// TestImportManualRoundTrip: a program with manual computations, lowered
// in annotate mode (JAX's custom calls around each body) and imported with
// ManualComputations, has its manual computations back, over the prime
// mesh of its partition count, and evaluates as the original does (ir.Eval
// runs the bodies with EvalSPMD).
func TestImportManualRoundTrip(t *testing.T) {
	fs := manualFuncs(t)
	if len(fs) < 5 {
		t.Fatalf("only %d programs", len(fs))
	}
	for _, f := range fs {
		t.Run(f.Name, func(t *testing.T) {
			want, _ := manualOps(f)
			if len(want) == 0 {
				t.Fatal("no manual computation")
			}
			g := ir.CloneFunc(f)
			if g.Mesh == nil {
				mesh := want[0].Attr.(ir.ManualComputationAttr).Mesh
				g.Mesh = &mesh
			}
			sm, err := Lower(g, Options{Annotate: true})
			if err != nil {
				t.Fatal(err)
			}
			text := string(stablehlo.Format(sm, stablehlo.PrintOptions{Locations: true}))
			im := importText(t, text, ImportOptions{ManualComputations: true})
			h := im.Module.Funcs[0]
			got, calls := manualOps(h)
			if len(got) != len(want) || calls != 0 {
				t.Fatalf("%d manual computations and %d custom_calls after the round trip, want %d and none:\n%s", len(got), calls, len(want), h)
			}
			if len(im.ShardingCalls) != 0 {
				t.Errorf("sharding calls left: %+v", im.ShardingCalls)
			}
			n := g.Mesh.NumDevices()
			for _, mc := range got {
				if m := mc.Attr.(ir.ManualComputationAttr).Mesh; !m.Equal(PrimeMesh(n)) {
					t.Errorf("mesh %v, want %v", &m, PrimeMesh(n))
				}
			}
			r := rand.New(rand.NewPCG(3, 4))
			for range 3 {
				args := make([]*ir.Literal, len(f.Params))
				for i, p := range f.Params {
					args[i] = gradcases.Normal(r, p.Type)
				}
				wantOut, err := ir.Eval(f, args...)
				if err != nil {
					t.Fatal(err)
				}
				gotOut, err := ir.Eval(h, args...)
				if err != nil {
					t.Fatalf("eval of the import: %v\n%s", err, h)
				}
				for k := range wantOut {
					if err := ir.LiteralsClose(gotOut[k], wantOut[k], 0); err != nil {
						t.Errorf("result #%d: %v", k, err)
					}
				}
			}
			// Lowered again on the prime mesh, the import gives the same
			// text (the shardings are the same strings), when no parameter
			// or result has a sharding of its own (those name g's axes).
			if len(g.InShardings) > 0 || len(g.OutShardings) > 0 {
				return
			}
			for _, p := range g.Params {
				if p.Sharding != nil {
					return
				}
			}
			h.Mesh = PrimeMesh(n)
			lo := im.LowerOptions()
			lo.Annotate = true
			back, err := Lower(h, lo)
			if err != nil {
				t.Fatalf("lowering the import: %v", err)
			}
			if b := string(stablehlo.Format(back, stablehlo.PrintOptions{})); b != string(stablehlo.Format(sm, stablehlo.PrintOptions{})) {
				t.Errorf("lower → import → lower differs:\n%s\nwant\n%s", b, stablehlo.Format(sm, stablehlo.PrintOptions{}))
			}
		})
	}
}

// TestImportManualJAX: JAX's shard_map programs (testdata/import/shard_map,
// written by its gen.py with jaxlib 0.10.2) import with one manual
// computation per shard_map and evaluate to what JAX computed; so do the
// shard_maps of its pmap programs (testdata/import/jax).
func TestImportManualJAX(t *testing.T) {
	cases := map[string]int{
		"shard_map/psum_gather.mlir": 1,
		"shard_map/ring8.mlir":       1,
		"shard_map/around2.mlir":     2,
		"jax/pmap.mlir":              1,
		"jax/all_to_all.mlir":        1,
	}
	for name, wantMC := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "import", name)
			im := importText(t, readFile(t, path), ImportOptions{ManualComputations: true})
			f := im.Module.Funcs[0]
			mcs, calls := manualOps(f)
			if len(mcs) != wantMC || calls != 0 {
				t.Errorf("%d manual computations and %d custom_calls, want %d and none:\n%s", len(mcs), calls, wantMC, f)
			}
			arrays := readNPZ(t, strings.TrimSuffix(path, ".mlir")+".npz")
			var args []*ir.Literal
			for i := 0; ; i++ {
				a, ok := arrays["in"+strconv.Itoa(i)]
				if !ok {
					break
				}
				args = append(args, a)
			}
			got, err := ir.Eval(f, args...)
			if err != nil {
				t.Fatalf("eval: %v\n%s", err, f)
			}
			for i, g := range got {
				want, ok := arrays["out"+strconv.Itoa(i)]
				if !ok {
					t.Fatalf("JAX recorded fewer than %d outputs", len(got))
				}
				if err := jaxClose(g, want); err != nil {
					t.Errorf("result #%d: %v", i, err)
				}
			}
			if _, ok := arrays["out"+strconv.Itoa(len(got))]; ok {
				t.Errorf("JAX recorded more than %d outputs", len(got))
			}
		})
	}
}

// TestImportManualKeepShardingCalls: the @Sharding calls that are not part
// of a shard_map stay custom_calls with KeepShardingCalls, and are the
// identity without it; the consumed calls leave ShardingCalls.
func TestImportManualKeepShardingCalls(t *testing.T) {
	const src = `module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<2xf32>
    %2 = stablehlo.negate %1 : tensor<2xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<2xf32>) -> tensor<4xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %6 = stablehlo.add %5, %0 : tensor<4xf32>
    return %6 : tensor<4xf32>
  }
}`
	for _, keep := range []bool{false, true} {
		im := importText(t, src, ImportOptions{ManualComputations: true, KeepShardingCalls: keep})
		f := im.Module.Funcs[0]
		mcs, calls := manualOps(f)
		wantCalls := 0
		if keep {
			wantCalls = 2 // %0 (also used by the add) and %5
		}
		if len(mcs) != 1 || calls != wantCalls || len(im.ShardingCalls) != 2 {
			t.Errorf("keep %v: %d manual computations, %d custom_calls, sharding calls %+v:\n%s", keep, len(mcs), calls, im.ShardingCalls, f)
		}
		for _, c := range im.ShardingCalls {
			if c.Target != "Sharding" || (c.Instr != nil) != keep {
				t.Errorf("keep %v: sharding call %+v", keep, c)
			}
		}
		if keep {
			continue
		}
		x := ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 4), []float64{1, 2, 3, 4})
		out, err := ir.Eval(f, x)
		if err != nil {
			t.Fatal(err)
		}
		if want := ir.Zeros(ir.TensorOf(ir.F32, 4)); !ir.LiteralEqual(out[0], want) {
			t.Errorf("got %v, want zeros", ir.FormatLiteral(out[0]))
		}
	}
}

// TestImportManualErrors: what the rebuild cannot take is an error naming
// the op and the problem.
func TestImportManualErrors(t *testing.T) {
	head := `module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<2xf32>
`
	tail := `    %8 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
    %9 = stablehlo.custom_call @SPMDShardToFullShape(%8) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<2xf32>) -> tensor<4xf32>
    return %9 : tensor<4xf32>
  }
}`
	partial, err := os.ReadFile(filepath.Join("testdata", "import", "shard_map", "partial.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ src, want string }{
		"global operand": {head + "    %2 = stablehlo.add %1, %arg1 : tensor<2xf32>\n" + tail,
			"add: manual computation (shard_map): operand #1 is parameter #1 of @f, a value of the global program: pass it to shard_map (through @SPMDFullToShardShape) (in @main, line 5 of the StableHLO text)"},
		"global value": {head + "    %7 = stablehlo.negate %arg1 : tensor<2xf32>\n    %2 = stablehlo.add %1, %7 : tensor<2xf32>\n" + tail,
			"add: manual computation (shard_map): operand #1 is the result of negate, a value of the global program that is not computed from constants alone"},
		"returned piece": {strings.Replace(head, "-> tensor<4xf32>", "-> tensor<2xf32>", 1) + "    return %1 : tensor<2xf32>\n  }\n}",
			"custom_call @SPMDFullToShardShape: manual computation (shard_map): its result, a per-device value, is returned without custom_call @SPMDShardToFullShape"},
		"no manual sharding": {head + "    %2 = stablehlo.negate %1 : tensor<2xf32>\n" + strings.Replace(tail, `mhlo.sharding = "{manual}"`, `mhlo.sharding = "{replicated}"`, 1),
			`custom_call @SPMDShardToFullShape: manual computation (shard_map): its operand's @Sharding is "{replicated}", not "{manual}"`},
		"bad piece": {strings.Replace(head, `{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<4xf32>`, `{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>`, 1) + "    %2 = stablehlo.negate %1 : tensor<2xf32>\n" + tail,
			`custom_call @SPMDFullToShardShape: manual computation (shard_map): gives f32[2], but the piece of f32[4] under {replicated} on mesh ["p0"=2] is f32[4]`},
		"partial": {string(partial), `custom_call @SPMDFullToShardShape: manual computation (shard_map): mhlo.sharding "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}" is not "{manual}": partially manual shard_maps (axes left to the automatic partitioner) are not supported`},
		"no partitions": {strings.Replace(head, `attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} `, "", 1) + "    %2 = stablehlo.negate %1 : tensor<2xf32>\n" + tail,
			"the module has no mhlo.num_partitions"},
	} {
		t.Run(name, func(t *testing.T) {
			err := importErr(t, c.src, ImportOptions{ManualComputations: true})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant %q", err, c.want)
			}
		})
	}
}
