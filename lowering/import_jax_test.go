package lowering

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
	"github.com/stela-ml/stela/stablehlo"
)

// The JAX samples in testdata/import/jax were written by gen.py there
// (jaxlib 0.10.2): NAME.mlir is jax.jit(f).lower(...).as_text(), NAME.npz
// the inputs and the outputs JAX computed on CPU.

// readNPZ reads the arrays of an .npz (numpy's savez).
func readNPZ(t *testing.T, path string) map[string]*ir.Literal {
	t.Helper()
	out, err := npy.ReadNPZFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// jaxClose compares an evaluated result with JAX's: exactly for integers
// and booleans, within a few ULPs or a small tolerance for floats (XLA's
// and Go's transcendental functions round differently).
func jaxClose(got, want *ir.Literal) error {
	if !got.Type.Equal(want.Type) {
		return fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	d := want.Type.DType
	if !d.IsFloat() && !d.IsComplex() {
		if !ir.LiteralEqual(got, want) {
			return fmt.Errorf("got %v, want %v", ir.FormatLiteral(got), ir.FormatLiteral(want))
		}
		return nil
	}
	if ir.LiteralsClose(got, want, 4) == nil {
		return nil
	}
	return ir.LiteralsAllClose(got, want, 1e-6, 2e-6)
}

// TestImportJAX imports every JAX sample that has recorded outputs and
// checks that ir.Eval of the import computes what JAX computed.
func TestImportJAX(t *testing.T) {
	n := 0
	for _, path := range readDir(t, filepath.Join("testdata", "import", "jax"), ".mlir") {
		npz := strings.TrimSuffix(path, ".mlir") + ".npz"
		if _, err := os.Stat(npz); err != nil || jaxSPMD[filepath.Base(path)] {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			im := importText(t, readFile(t, path), ImportOptions{})
			f := im.Module.Funcs[0]
			arrays := readNPZ(t, npz)
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
			// JAX's modules carry the counts and result names.
			if im.NumReplicas != 1 || im.NumPartitions < 1 || len(im.ResultInfo) != len(f.Results) {
				t.Errorf("replicas %d, partitions %d, result info %q", im.NumReplicas, im.NumPartitions, im.ResultInfo)
			}
		})
	}
	if n < 25 {
		t.Errorf("only %d samples with outputs", n)
	}
}

// jaxSPMD are the samples whose entry runs the body of a shard_map between
// SPMDFullToShardShape and SPMDShardToFullShape, which ir.Eval cannot run:
// TestImportJAXPmap runs their body on every device instead.
var jaxSPMD = map[string]bool{"pmap.mlir": true, "all_to_all.mlir": true}

// TestImportJAXPmap runs the shard_map body of JAX's pmap programs, as
// imported, on 4 devices (ir.EvalSPMD) with row d of the input on device
// d, and compares what the devices compute, stacked, with what JAX
// computed.
func TestImportJAXPmap(t *testing.T) {
	for name := range jaxSPMD {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "import", "jax", name)
			im := importText(t, readFile(t, path), ImportOptions{})
			if im.NumPartitions != 4 || im.NumReplicas != 1 {
				t.Fatalf("grid %d × %d, want 1 × 4", im.NumReplicas, im.NumPartitions)
			}
			var body *ir.Func
			for _, f := range im.Module.Funcs {
				if f.Name == "shmap_body" {
					body = f
				}
			}
			if body == nil {
				t.Fatal("no @shmap_body")
			}
			arrays := readNPZ(t, strings.TrimSuffix(path, ".mlir")+".npz")
			x := arrays["in0"]
			rows := x.Type.Shape[0]
			args := make([][]*ir.Literal, rows)
			for d := range args {
				n := x.Len() / rows
				row := ir.Zeros(ir.TensorOf(x.Type.DType, append([]int{1}, x.Type.Shape[1:]...)...))
				for k := range n {
					row.CopyElem(k, x, d*n+k)
				}
				args[d] = []*ir.Literal{row}
			}
			outs, err := ir.EvalSPMD(body, 1, rows, args)
			if err != nil {
				t.Fatal(err)
			}
			for i := range outs[0] {
				want, ok := arrays["out"+strconv.Itoa(i)]
				if !ok {
					t.Fatalf("JAX recorded fewer than %d outputs", i+1)
				}
				got := ir.Zeros(want.Type)
				k := 0
				for d := range outs {
					if outs[d][i].Type.DType != want.Type.DType {
						t.Fatalf("result #%d: %v, JAX's is %v", i, outs[d][i].Type, want.Type)
					}
					for j := range outs[d][i].Len() {
						got.CopyElem(k, outs[d][i], j)
						k++
					}
				}
				if k != want.Len() {
					t.Fatalf("result #%d: the devices computed %d elements, JAX %d", i, k, want.Len())
				}
				if err := jaxClose(got, want); err != nil {
					t.Errorf("result #%d: %v", i, err)
				}
			}
		})
	}
}

// TestImportJAXShardings: the GSPMD annotations of JAX's sharded and
// shard_map (pmap) programs come back as strings.
func TestImportJAXShardings(t *testing.T) {
	dir := filepath.Join("testdata", "import", "jax")
	im := importText(t, readFile(t, filepath.Join(dir, "sharded.mlir")), ImportOptions{})
	if im.NumPartitions != 4 || im.NumReplicas != 1 {
		t.Errorf("sharded: %d partitions, %d replicas", im.NumPartitions, im.NumReplicas)
	}
	wantArgs := []string{"{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}
	if !slices.Equal(im.ArgShardings, wantArgs) {
		t.Errorf("sharded: argument shardings %q, want %q", im.ArgShardings, wantArgs)
	}
	if want := []string{"{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}; !slices.Equal(im.ResultShardings, want) {
		t.Errorf("sharded: result shardings %q, want %q", im.ResultShardings, want)
	}
	f := im.Module.Funcs[0]
	if len(im.ShardingCalls) != 1 {
		t.Fatalf("sharded: %d sharding calls, want 1", len(im.ShardingCalls))
	}
	sc := im.ShardingCalls[0]
	if sc.Target != "Sharding" || sc.Sharding != "{devices=[2,1,2]<=[4] last_tile_dim_replicate}" || sc.Instr != nil ||
		sc.Func != f || sc.Operand == nil || sc.Operand.Def == nil || sc.Operand.Def.Op != ir.OpDotGeneral {
		t.Errorf("sharded: sharding call %+v, want @Sharding of the dot_general's result", sc)
	}

	// pmap lowers through shard_map: the body runs in manual mode between
	// SPMDFullToShardShape and SPMDShardToFullShape.
	im = importText(t, readFile(t, filepath.Join(dir, "pmap.mlir")), ImportOptions{})
	var targets []string
	for _, sc := range im.ShardingCalls {
		targets = append(targets, sc.Target+" "+sc.Sharding)
		if sc.Target != "Sharding" && (sc.Instr == nil || sc.Instr.Op != ir.OpCustomCall) {
			t.Errorf("pmap: %s has no custom_call instruction", sc.Target)
		}
	}
	want := []string{"Sharding {devices=[4,1]<=[4]}", "SPMDFullToShardShape {manual}"}
	for _, s := range []string{"{devices=[4,1]<=[4]}", "{devices=[4,1,1]<=[4]}", "{devices=[4,1]<=[4]}", "{devices=[4]<=[4]}", "{devices=[4,1]<=[4]}", "{devices=[4,1]<=[4]}"} {
		want = append(want, "Sharding {manual}", "SPMDShardToFullShape "+s)
	}
	if !slices.Equal(targets, want) {
		t.Errorf("pmap: sharding calls\n%q\nwant\n%q", targets, want)
	}
	// The collectives of the body, inlined into the entry.
	var ops []string
	im.Module.Funcs[0].Walk(func(in *ir.Instr) {
		if info := in.Op.Info(); info.Has(ir.Collective) {
			ops = append(ops, in.Op.String())
		}
	})
	if want := []string{"all_reduce", "all_gather", "collective_permute", "partition_id", "reduce_scatter", "all_reduce"}; !slices.Equal(ops, want) {
		t.Errorf("pmap: collectives %v, want %v", ops, want)
	}
	if len(im.Module.Funcs) != 2 || im.Module.Funcs[1].Name != "shmap_body" {
		t.Errorf("pmap: functions %d, want the entry and @shmap_body", len(im.Module.Funcs))
	}
	im = importText(t, readFile(t, filepath.Join(dir, "all_to_all.mlir")), ImportOptions{})
	ops = nil
	im.Module.Funcs[0].Walk(func(in *ir.Instr) {
		if a, ok := in.Attr.(ir.AllToAllAttr); ok {
			ops = append(ops, fmt.Sprintf("%+v", a))
		}
	})
	if want := []string{"{SplitDim:0 ConcatDim:0 SplitCount:4 ReplicaGroups:[[0 1 2 3]] ChannelID:1}"}; !slices.Equal(ops, want) {
		t.Errorf("all_to_all: %v, want %v", ops, want)
	}
}

// TestImportJAXUnsupported: JAX programs with ops the IR lacks fail with
// an error naming the op and where it is.
//
// (erf.mlir, JAX's chlo.erf, imports as the IR's erf: TestImportJAXErf.)
func TestImportJAXUnsupported(t *testing.T) {
	dir := filepath.Join("testdata", "import", "jax")
	for name, want := range map[string]string{
		"top_k":             "chlo.top_k: CHLO ops have no IR form",
		"rng_bit_generator": "stablehlo.rng_bit_generator: the IR has no op for it (in @main, line 5 of the StableHLO text)",
	} {
		err := importErr(t, readFile(t, filepath.Join(dir, name+".mlir")), ImportOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", name, err, want)
		}
	}
}

// TestImportJAXErf: JAX's chlo.erf imports as the IR's erf, which ir.Eval
// computes as Go's math.Erf rounded to the type.
func TestImportJAXErf(t *testing.T) {
	sm, err := stablehlo.Parse([]byte(readFile(t, filepath.Join("testdata", "import", "jax", "erf.mlir"))))
	if err != nil {
		t.Fatal(err)
	}
	im, err := ImportWithOptions(sm, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := im.Module
	x := []float32{-1.5, 0.25, 3}
	out, err := ir.Eval(m.Funcs[0], ir.LiteralOf([]int{3}, x...))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out[0].Float64s() {
		if want := float64(float32(math.Erf(float64(x[i])))); v != want {
			t.Errorf("erf(%v) = %v, want %v", x[i], v, want)
		}
	}
}
