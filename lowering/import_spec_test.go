package lowering

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// The samples in testdata/import/spec are written by hand after the
// StableHLO specification and the forms JAX and MLIR print: NAME.mlir
// imports as NAME.sir (go test ./lowering -update rewrites the goldens).

// TestImportSpecSamples imports every sample, compares the ir with its
// golden, and checks that lowering the import and importing that again
// gives the same ir (where every op has a lowering rule).
func TestImportSpecSamples(t *testing.T) {
	for _, path := range readDir(t, filepath.Join("testdata", "import", "spec"), ".mlir") {
		name := strings.TrimSuffix(filepath.Base(path), ".mlir")
		t.Run(name, func(t *testing.T) {
			im := importText(t, readFile(t, path), ImportOptions{})
			var b strings.Builder
			ir.PrintModule(&b, im.Module, ir.PrintOptions{Locations: true})
			golden(t, filepath.Join("import", "spec", name+".sir"), b.String())

			lowerable := true
			for _, f := range im.Module.Funcs {
				f.Walk(func(in *ir.Instr) { lowerable = lowerable && HasRule(in.Op) })
			}
			if !lowerable {
				t.Logf("not lowered again: an op has no lowering rule yet")
				return
			}
			sm, err := LowerModule(im.Module, im.LowerOptions())
			if err != nil {
				t.Fatalf("lowering the import: %v", err)
			}
			again := importText(t, string(stablehlo.Format(sm, stablehlo.PrintOptions{Locations: true})), ImportOptions{})
			if len(again.Module.Funcs) != len(im.Module.Funcs) {
				t.Fatalf("%d functions after lowering and importing again, want %d", len(again.Module.Funcs), len(im.Module.Funcs))
			}
			for i, f := range im.Module.Funcs {
				if want, got := canonical(f), canonical(again.Module.Funcs[i]); got != want {
					t.Errorf("@%s: lower → import is not the identity on the import (-first +second):\n%s", f.Name, cmp.Diff(want, got))
				}
			}
		})
	}
}

// specSample imports testdata/import/spec/NAME.mlir.
func specSample(t *testing.T, name string) *Imported {
	t.Helper()
	return importText(t, readFile(t, filepath.Join("testdata", "import", "spec", name+".mlir")), ImportOptions{})
}

// TestImportConstantBits: the constants keep every bit (NaN payloads,
// subnormals, signed zeros, the extremes of each integer type).
func TestImportConstantBits(t *testing.T) {
	f := specSample(t, "constants").Module.Funcs[0]
	outs, err := ir.Eval(f)
	if err != nil {
		t.Fatal(err)
	}
	bits := func(i, j int) uint64 { return ir.ElemBits(outs[i].Type.DType, outs[i].Elem(j)) }
	for _, c := range []struct {
		out, elem int
		want      uint64
	}{
		{1, 0, 0x80}, {4, 0, 1 << 63}, {4, 1, 1<<63 - 1}, {8, 0, math.MaxUint64},
		{9, 0, 0x7C00}, {9, 1, 0x0001}, {9, 2, 0xC100},
		{10, 0, 0x7FC1}, {10, 1, 0x3F80}, {10, 2, 0xFF80},
		{11, 0, 0x7FC00001}, {11, 1, 0x80000000}, {11, 2, 1}, {11, 3, 0x7F7FFFFF},
		{12, 0, 1}, {12, 1, 0xFFF0000000000000},
		{15, 5, 0xFF800000}, {16, 3, 4}, {19, 1, 0xFFFFFFFE},
	} {
		if got := bits(c.out, c.elem); got != c.want {
			t.Errorf("result #%d element %d: bits %#x, want %#x", c.out, c.elem, got, c.want)
		}
	}
	if z := outs[13].Elem(1).(complex64); !math.IsNaN(float64(real(z))) || imag(z) != 0 {
		t.Errorf("complex NaN: %v", z)
	}
	if outs[17].Type.NumElements() != 0 {
		t.Errorf("empty tensor: %v", outs[17].Type)
	}
}

// TestImportControlSemantics evaluates the control-flow sample: the loop
// with captured values, the case inside it, if on both predicates, the
// inlined calls, the tuple and the composite.
func TestImportControlSemantics(t *testing.T) {
	f := specSample(t, "control").Module.Funcs[0]
	x := ir.LiteralOf([]int{3}, float32(1), 2, 3)
	for _, pred := range []bool{true, false} {
		outs, err := ir.Eval(f, x, ir.ScalarOf(int32(3)), ir.ScalarOf(pred))
		if err != nil {
			t.Fatal(err)
		}
		// i = 0: x*0.5, i = 1: x + arg0, i = 2: x*0.5.
		loop := []float64{0.75, 1.5, 2.25}
		chosen := []float64{0.5, 0.5, 0.5}
		if pred {
			for i, v := range loop {
				chosen[i] = float64(float32(math.Sin(v)))
			}
		}
		called := make([]float64, 3)
		softplus := make([]float64, 3)
		for i, v := range chosen {
			called[i] = float64(float32(v) * 3)
			softplus[i] = math.Log1p(math.Exp(called[i]))
		}
		f32 := func(v []float64) *ir.Literal { return ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 3), v) }
		want := []*ir.Literal{ir.ScalarOf(int32(3)), f32(loop), f32(chosen), f32(called), f32(softplus), ir.ScalarOf(int32(3))}
		for i := range want {
			if err := ir.LiteralsAllClose(outs[i], want[i], 1e-6, 1e-6); err != nil {
				t.Errorf("pred %v: result #%d: %v", pred, i, err)
			}
		}
	}
}

// TestImportCollectiveSemantics runs the collectives sample on its grid
// of 2 replicas × 2 partitions and checks each result against the
// specification's process groups, worked out by hand.
func TestImportCollectiveSemantics(t *testing.T) {
	im := specSample(t, "collectives")
	if im.NumReplicas != 2 || im.NumPartitions != 2 {
		t.Fatalf("grid %d × %d, want 2 × 2", im.NumReplicas, im.NumPartitions)
	}
	x := func(d int) []int64 {
		v := make([]int64, 8)
		for k := range v {
			v[k] = int64(100*d + k)
		}
		return v
	}
	args := make([][]*ir.Literal, 4)
	for d := range args {
		args[d] = []*ir.Literal{ir.LiteralFromInt64s(ir.TensorOf(ir.S64, 2, 4), x(d))}
	}
	outs, err := ir.EvalSPMD(im.Module.Funcs[0], 2, 2, args)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(ds ...int) []int64 {
		out := make([]int64, 8)
		for _, d := range ds {
			for k, v := range x(d) {
				out[k] += v
			}
		}
		return out
	}
	for d := range 4 {
		r, p := d/2, d%2
		other := 2 + p // the other replica's device in this partition
		var flat []int64
		if d == 1 {
			flat = x(1)
		} else {
			flat = sum(0, 2, 3)
		}
		rs := sum(2*r, 2*r+1) // the reduce_scatter group
		var a2a []int64
		for _, src := range []int{p, other} { // group order: replica 0, then 1
			xs := x(src)
			a2a = append(a2a, xs[2*r:2*r+2]...)
			a2a = append(a2a, xs[4+2*r:4+2*r+2]...)
		}
		perm := make([]int64, 8)
		if p == 1 {
			perm = x(2 * r)
		}
		want := [][]int64{
			sum(p, other),             // cross_replica sum over {p, 2+p}
			x(2*r + 1),                // max over the replica's two partitions
			flat,                      // flattened ids {0, 2, 3} and {1}
			x(p),                      // min over all replicas (empty groups)
			append(x(p), x(other)...), // gathered along dim 0
			rs[4*p : 4*p+4],           // member p of group {2r, 2r+1}: row p of its sum
			a2a,                       // all_to_all
			perm,                      // partition 0 → 1
			{int64(r)}, {int64(p)},
		}
		for i, w := range want {
			got := outs[d][i]
			var vals []int64
			if got.Type.DType == ir.U32 {
				vals = []int64{int64(got.Uint64s()[0])}
			} else {
				vals = got.Int64s()
			}
			if !cmp.Equal(vals, w) {
				t.Errorf("device %d (replica %d, partition %d): result #%d = %v, want %v", d, r, p, i, vals, w)
			}
		}
	}
}

// TestImportCompareTypes: StableHLO's integers are signless, so an
// UNSIGNED comparison of i32 compares bits as ui32, and SIGNED of ui32 as
// si32.
func TestImportCompareTypes(t *testing.T) {
	im := importText(t, `func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>, %c: tensor<2xui32>, %d: tensor<2xui32>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %0 = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %1 = stablehlo.compare GT, %c, %d, SIGNED : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xi1>
  %2 = stablehlo.compare GT, %a, %b, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  return %0, %1, %2 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}`, ImportOptions{})
	a := ir.LiteralOf([]int{2}, int32(-1), 1)
	b := ir.LiteralOf([]int{2}, int32(1), 2)
	c := ir.LiteralOf([]int{2}, uint32(math.MaxUint32), 3)
	d := ir.LiteralOf([]int{2}, uint32(1), 2)
	outs, err := ir.Eval(im.Module.Funcs[0], a, b, c, d)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]bool{{true, false}, {false, true}, {false, false}} {
		if got := outs[i].Bools(); !cmp.Equal(got, want) {
			t.Errorf("compare #%d = %v, want %v", i, got, want)
		}
	}
}
