package cpu

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/gradcases"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/stablehlo"
)

// Manual computations (sharding.Map, JAX's shard_map) through the real
// plugin's SPMD partitioner: the worker rebuilds them from the custom
// calls of annotate mode, partitions and compiles; every device's results
// are compared with ir.Eval's (Stela's programs) or JAX's (shard_map).

// manualSPMDDevices is the device count of the "manualspmd" platform.
const manualSPMDDevices = 8

func init() {
	// What frontend/tensor gives the runtime (which this package's tests
	// cannot import: it registers this plugin).
	runtime.SetLowering(func(f *ir.Func, o runtime.LowerOptions) (*stablehlo.Module, error) {
		return lowering.Lower(f, lowering.Options{NumReplicas: o.NumReplicas, NumPartitions: o.NumPartitions, Aliases: o.Aliases, Annotate: o.Annotate})
	})
	runtime.RegisterPlugin("manualspmd", runtime.PluginProvider{
		Path: PluginPath,
		Options: func() ([]pjrt.NamedValue, error) {
			wo, err := WorkerOptions()
			return append([]pjrt.NamedValue{{Name: "cpu_device_count", Value: int64(manualSPMDDevices)}}, wo...), err
		},
	})
}

// needLLVM skips without the C compiler and LLVM tools the worker uses.
func needLLVM(t *testing.T) {
	t.Helper()
	testPlugin(t)
	for _, tool := range []string{"opt", "llc"} {
		if _, err := exec.LookPath(tool); err != nil {
			if _, err := exec.LookPath(tool + "-14"); err != nil {
				t.Skipf("no %s: apt-get install llvm-14", tool)
			}
		}
	}
}

// manualPrograms are Stela programs with manual computations: the .sir
// samples of ir (4 and 6 devices), the gradcases' manual cases (2 and 4
// devices, f64) and one on 8 devices with a sharded parameter.
func manualPrograms(t *testing.T) []*ir.Func {
	m, err := ir.Parse(readText(t, filepath.Join("..", "..", "ir", "testdata", "sir", "manual.sir")))
	if err != nil {
		t.Fatal(err)
	}
	fs := m.Funcs
	for _, c := range gradcases.Cases() {
		if c.Op == ir.OpManualComputation {
			fs = append(fs, c.F)
		}
	}
	f, err := ir.ParseFunc(`func @psum_gather8(%0: f32[4,16] sharding [{"a"}, {"b"}], %1: f32[16]) -> (f32[4,16], f32[4,16]) mesh ["a"=2, "b"=4] {
  %2, %3 = manual_computation %0, %1 {mesh = ["a"=2, "b"=4], in_shardings = [[{"a"}, {"b"}], [{"b"}]], out_shardings = [[{}, {"b"}], [{"a"}, {"b"}]]} (%0: f32[2,4], %1: f32[4]) {
    %2 = broadcast_in_dim %1 {shape = [2, 4], dims = [1]} : f32[2,4]
    %3 = multiply %0, %2 : f32[2,4]
    %4 = all_reduce %3 {replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]], channel_id = 1, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
      %2 = add %0, %1 : f32[]
      return %2
    } : f32[2,4]
    %5 = all_gather %4 {all_gather_dim = 0, replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]], channel_id = 2, use_global_device_ids = true} : f32[4,4]
    %6 = partition_id : ui32[]
    %7 = convert %6 {to = f32} : f32[]
    %8 = broadcast_in_dim %7 {shape = [2, 4], dims = []} : f32[2,4]
    %9 = add %0, %8 : f32[2,4]
    return %5, %9
  } : f32[4,16], f32[4,16]
  %4 = tanh %2 : f32[4,16]
  return %4, %3
}`)
	if err != nil {
		t.Fatal(err)
	}
	return append(fs, f)
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSPMDManualComputation compiles each program with runtime.CompileMulti
// and SPMD on as many devices as its mesh has, the parameters' pieces on
// each, and checks that every device's results are ir.Eval's.
func TestSPMDManualComputation(t *testing.T) {
	needLLVM(t)
	for _, f := range manualPrograms(t) {
		t.Run(f.Name, func(t *testing.T) {
			g := ir.CloneFunc(f)
			var mc *ir.Instr
			for _, in := range g.Body {
				if in.Op == ir.OpManualComputation {
					mc = in
				}
			}
			if g.Mesh == nil {
				m := mc.Attr.(ir.ManualComputationAttr).Mesh
				g.Mesh = &m
			}
			n := g.Mesh.NumDevices()
			if n > manualSPMDDevices {
				t.Fatalf("%d devices", n)
			}
			var devs []runtime.Device
			for d := range n {
				dev, err := runtime.Lookup("manualspmd:" + strconv.Itoa(d))
				if err != nil {
					t.Fatal(err)
				}
				devs = append(devs, dev)
			}
			// The parameters' shardings: each device gets its pieces.
			shs := make([]*ir.Sharding, len(g.Params))
			pts := make([]ir.Type, len(g.Params))
			for i, p := range g.Params {
				shs[i] = p.Sharding
				if shs[i] == nil {
					shs[i] = g.InSharding(i)
				}
				if shs[i] == nil {
					shs[i] = ir.Replicated(p.Type.Rank())
				}
				pts[i] = shs[i].ShardType(g.Mesh, p.Type)
			}
			exe, err := runtime.CompileMulti(g, runtime.CompileSpec{Partitions: n, Devices: devs, SPMD: true, DeviceParams: pts})
			if err != nil {
				t.Fatal(err)
			}
			rep, ok := exe.(runtime.ProgramReporter)
			if !ok {
				t.Fatal("the executable reports no optimized program")
			}
			prog, _, err := rep.OptimizedProgram()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(prog), "SPMDFullToShardShape") || !strings.Contains(string(prog), "stela.collectives") ||
				!strings.Contains(string(prog), "mhlo.spmd_output_sharding") || !strings.Contains(string(prog), "mhlo.spmd_parameters_shardings") {
				t.Errorf("the optimized program is not the partitioned one:\n%s", prog)
			}
			r := rand.New(rand.NewPCG(7, 8))
			args := make([]*ir.Literal, len(g.Params))
			for i, p := range g.Params {
				args[i] = gradcases.Normal(r, p.Type)
			}
			want, err := ir.Eval(f, args...)
			if err != nil {
				t.Fatal(err)
			}
			bufs := make([][]runtime.Buffer, n)
			for d := range n {
				for i, a := range args {
					b, err := devs[d].Put(ir.ShardLiteral(a, g.Mesh, shs[i], d))
					if err != nil {
						t.Fatal(err)
					}
					bufs[d] = append(bufs[d], b)
				}
			}
			outs, err := exe.RunDevices(bufs, ir.UnknownLoc)
			if err != nil {
				t.Fatal(err)
			}
			// No result has a sharding of its own: annotate mode makes them
			// replicated, so every device holds each whole.
			for d := range n {
				for k, w := range want {
					got, err := outs[d][k].Literal()
					if err != nil {
						t.Fatal(err)
					}
					if err := ir.LiteralsAllClose(got, w, 1e-5, 1e-5); err != nil {
						t.Errorf("device %d, result #%d: %v", d, k, err)
					}
				}
			}
		})
	}
}

// TestSPMDShardMapJAX compiles JAX's shard_map programs
// (lowering/testdata/import/shard_map, written by gen.py there with jaxlib
// 0.10.2) on the plugin with SPMD, runs them on the devices' pieces of the
// inputs (the entry's mhlo.sharding) and checks the assembled results
// against JAX's outputs.
func TestSPMDShardMapJAX(t *testing.T) {
	needLLVM(t)
	dir := filepath.Join("..", "..", "lowering", "testdata", "import", "shard_map")
	for _, name := range []string{"psum_gather", "ring8", "around2"} {
		t.Run(name, func(t *testing.T) {
			text := readText(t, filepath.Join(dir, name+".mlir"))
			sm, err := stablehlo.Parse([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			im, err := lowering.Import(sm)
			if err != nil {
				t.Fatal(err)
			}
			n := im.NumPartitions
			mesh := lowering.PrimeMesh(n)
			f := im.Module.Funcs[0]
			arrays := readArrays(t, filepath.Join(dir, name+".npz"))
			var args []*ir.Literal
			for i := range f.Params {
				a, ok := arrays["in"+strconv.Itoa(i)]
				if !ok {
					t.Fatalf("no in%d", i)
				}
				args = append(args, a)
			}
			shardingOf := func(list []string, i int, typ ir.Type) *ir.Sharding {
				if i >= len(list) || list[i] == "" {
					t.Fatalf("no mhlo.sharding for #%d", i)
				}
				sh, err := lowering.ParseHLOSharding(list[i], mesh, typ)
				if err != nil {
					t.Fatal(err)
				}
				return sh
			}
			c := realClient(t, n)
			da := [][]int{make([]int, n)}
			for d := range n {
				da[0][d] = d
			}
			exe, err := c.Compile(text, &pjrt.CompileOptions{NumReplicas: 1, NumPartitions: n, DeviceAssignment: da, UseSPMDPartitioning: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(exe.Destroy)
			per := make([][]*ir.Literal, n)
			for d := range n {
				for i, a := range args {
					per[d] = append(per[d], ir.ShardLiteral(a, mesh, shardingOf(im.ArgShardings, i, a.Type), d))
				}
			}
			outs, err := runOn(t, c, exe, per)
			if err != nil {
				t.Fatal(err)
			}
			for k, r := range f.Results {
				want, ok := arrays["out"+strconv.Itoa(k)]
				if !ok {
					t.Fatalf("no out%d", k)
				}
				pieces := make([]*ir.Literal, n)
				for d := range n {
					pieces[d] = outs[d][k]
				}
				got, err := ir.UnshardLiteral(pieces, mesh, shardingOf(im.ResultShardings, k, r.Type), r.Type)
				if err != nil {
					t.Fatalf("result #%d: %v", k, err)
				}
				if err := ir.LiteralsAllClose(got, want, 1e-5, 1e-5); err != nil {
					t.Errorf("result #%d: %v", k, err)
				}
			}
		})
	}
}

// TestSPMDShardMapPartial: a shard_map manual over some mesh axes only is
// refused by the worker with an error that says so.
func TestSPMDShardMapPartial(t *testing.T) {
	needLLVM(t)
	text := readText(t, filepath.Join("..", "..", "lowering", "testdata", "import", "shard_map", "partial.mlir"))
	c := realClient(t, 4)
	_, err := c.Compile(text, &pjrt.CompileOptions{NumReplicas: 1, NumPartitions: 4, DeviceAssignment: [][]int{{0, 1, 2, 3}}, UseSPMDPartitioning: true})
	if err == nil || !strings.Contains(err.Error(), "custom_call @SPMDFullToShardShape: manual computation (shard_map): mhlo.sharding") ||
		!strings.Contains(err.Error(), "partially manual shard_maps (axes left to the automatic partitioner) are not supported") {
		t.Errorf("error %v", err)
	}
}

// readArrays reads the arrays of an .npz (numpy's savez).
func readArrays(t *testing.T, path string) map[string]*ir.Literal {
	t.Helper()
	out, err := npy.ReadNPZFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
