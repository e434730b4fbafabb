package pjrt

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// libtpu compiles for named TPU topologies without TPU hardware
// (PJRT_TopologyDescription_Create, PJRT_Compile). The plugin is found as
// in TestRealPluginTPU and loaded once per process.

var tpuOnce struct {
	sync.Once
	p   *Plugin
	err error
}

func loadLibTPU(t *testing.T) *Plugin {
	t.Helper()
	path := findRealPlugin(t, "STELA_TEST_LIBTPU", "libtpu/libtpu.so")
	for k, v := range map[string]string{"TPU_SKIP_MDS_QUERY": "1", "TPU_WORKER_ID": "0", "TPU_WORKER_HOSTNAMES": "localhost", "ALLOW_MULTIPLE_LIBTPU_LOAD": "1"} {
		if _, ok := os.LookupEnv(k); !ok {
			os.Setenv(k, v)
		}
	}
	tpuOnce.Do(func() { tpuOnce.p, tpuOnce.err = LoadPlugin(path) })
	if tpuOnce.err != nil {
		t.Fatalf("LoadPlugin(%s): %v", path, tpuOnce.err)
	}
	return tpuOnce.p
}

const matmulMLIR = `module @matmul {
  func.func public @main(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>) -> tensor<256x128xf32> {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x128xf32>) -> tensor<256x128xf32>
    return %0 : tensor<256x128xf32>
  }
}`

// shardedMLIR is matmulMLIR split over 4 devices along the contracted
// dimension, the result replicated: each device computes a quarter of the
// products, and XLA's partitioner adds an all-reduce.
const shardedMLIR = `module @sharded attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%a: tensor<256x512xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %b: tensor<512x128xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<256x128xf32> {mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x128xf32>) -> tensor<256x128xf32>
    return %0 : tensor<256x128xf32>
  }
}`

func TestTopologyTPU(t *testing.T) {
	p := loadLibTPU(t)
	topo, err := p.NewTopology("v5e:2x2")
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Destroy()
	t.Logf("platform %q version %q, attributes %v", topo.PlatformName(), topo.PlatformVersion(), topo.Attributes())
	if topo.PlatformName() != "tpu" {
		t.Errorf("platform %q, want tpu", topo.PlatformName())
	}
	if n := len(topo.Devices()); n != 4 {
		t.Errorf("v5e:2x2 has %d devices, want 4", n)
	}
	for _, d := range topo.Devices() {
		t.Logf("  device %d %q: %s %v", d.ID, d.Kind, d.String, d.Attributes)
	}
	ser, err := topo.Serialize()
	if err != nil || len(ser) == 0 {
		t.Errorf("Serialize: %d bytes, %v", len(ser), err)
	}
	if _, err := p.NewTopology("v5e:3x7x9"); err == nil {
		t.Error("NewTopology(v5e:3x7x9) succeeded")
	} else {
		t.Logf("NewTopology(v5e:3x7x9): %v", err)
	}

	compile := func(code string, opts *CompileOptions) (*Executable, CostAnalysis) {
		t.Helper()
		exe, err := topo.Compile([]byte(code), FormatMLIR, opts)
		if err != nil {
			t.Fatal(err)
		}
		ca, err := exe.CostAnalysis()
		if err != nil {
			t.Fatal(err)
		}
		return exe, ca
	}
	exe, ca := compile(matmulMLIR, nil)
	defer exe.Destroy()
	t.Logf("cost analysis: %v", ca)
	if f, want := ca.Flops(), 2.0*256*512*128; f != want {
		t.Errorf("flops %g, want %g", f, want)
	}
	if exe.Name() != "matmul" || exe.NumOutputs() != 1 || exe.NumPartitions() != 1 || exe.NumReplicas() != 1 {
		t.Errorf("name %q, %d outputs, %d partitions, %d replicas", exe.Name(), exe.NumOutputs(), exe.NumPartitions(), exe.NumReplicas())
	}
	if fmt.Sprint(exe.OutputTypes(), exe.OutputDims()) != "[F32] [[256 128]]" {
		t.Errorf("outputs %v %v, want [F32] [[256 128]]", exe.OutputTypes(), exe.OutputDims())
	}
	ms, err := exe.MemoryStats()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("memory: %+v", ms)
	if ms.Arguments != (256*512+512*128)*4 || ms.Outputs != 256*128*4 || ms.GeneratedCode <= 0 {
		t.Errorf("memory %+v: want %d argument bytes, %d output bytes, some code", ms, (256*512+512*128)*4, 256*128*4)
	}
	data, err := exe.Serialize()
	if err != nil || len(data) == 0 {
		t.Fatalf("Serialize: %d bytes, %v", len(data), err)
	}
	code, format, err := exe.OptimizedProgram()
	if err != nil || len(code) == 0 {
		t.Errorf("OptimizedProgram: %d bytes %q, %v", len(code), format, err)
	}
	again, ca2 := compile(matmulMLIR, nil)
	defer again.Destroy()
	if fmt.Sprint(ca) != fmt.Sprint(ca2) {
		t.Errorf("the same program compiled twice: cost analyses differ:\n%v\n%v", ca, ca2)
	}

	sh, ca := compile(shardedMLIR, &CompileOptions{NumPartitions: 4, UseSPMDPartitioning: true})
	defer sh.Destroy()
	t.Logf("sharded: %d partitions, outputs %v, cost %v", sh.NumPartitions(), sh.OutputDims(), ca)
	if sh.NumPartitions() != 4 {
		t.Errorf("sharded program has %d partitions, want 4", sh.NumPartitions())
	}
	if f, want := ca.Flops(), 2.0*256*512*128/4; f < want*0.95 || f > want*1.05 {
		t.Errorf("sharded flops per device %g, want %g", f, want)
	}
	if _, err := topo.Compile([]byte(shardedMLIR), FormatMLIR, &CompileOptions{NumPartitions: 8, UseSPMDPartitioning: true}); err == nil {
		t.Error("8 partitions on 4 devices compiled")
	}
	_, err = topo.Compile([]byte("module @bad { func.func @main() { stablehlo.no_such_op } }"), FormatMLIR, nil)
	t.Logf("bad program: %v", err)
	if err == nil {
		t.Error("a malformed program compiled")
	}
	exe.Destroy()
	if _, err := exe.CostAnalysis(); !errors.Is(err, ErrDestroyed) {
		t.Errorf("CostAnalysis after Destroy: %v, want ErrDestroyed", err)
	}
}
