package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/runtime/check"
)

// The TPU compile tests run libtpu's real compiler for named topologies,
// without a TPU, in this process (the plugin is loaded once). They skip
// unless $STELA_TEST_LIBTPU names libtpu.so (.ci/run sets it).
//
// libtpu takes from 0.3 s (mlp) to a minute (gpt2-small, whose f32 dots at
// HIGHEST precision are slow to tile) per compile on a CI machine, so by
// default the examples that compile fast run for both topologies and the
// others are left to $STELA_TEST_TPU_ALL=1 (docs/tpu.md has their
// numbers).

func needLibTPU(t *testing.T) {
	t.Helper()
	p := os.Getenv("STELA_TEST_LIBTPU")
	if p == "" {
		t.Skip("libtpu not given: set STELA_TEST_LIBTPU to libtpu.so (pip install libtpu; .ci/run does)")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("STELA_TEST_LIBTPU=%s: %v", p, err)
	}
	if os.Getenv(runtime.EnvLibTPU) == "" {
		t.Setenv(runtime.EnvLibTPU, p)
	}
}

var tpuTopologies = []string{"tpu:v5e:2x2", "tpu:v6e:2x2"}

// TestCompileTPUExamples: the examples compile for v5e and v6e slices, with
// the compiler's flops within 5% of Stela's count of their dots and
// convolutions, and memory stats.
func TestCompileTPUExamples(t *testing.T) {
	needLibTPU(t)
	names := []string{"mlp", "transformer"}
	if os.Getenv("STELA_TEST_TPU_ALL") == "1" {
		names = examples.Names()
	}
	for _, name := range names {
		tr, err := examples.TraceNamed(name)
		if err != nil {
			t.Fatal(err)
		}
		want := ir.MatmulFlops(tr.Func)
		for _, target := range tpuTopologies {
			r, err := runtime.CompileFor(target, tr.Func)
			if err != nil {
				t.Errorf("%s for %s: %v", name, target, err)
				continue
			}
			got := r.Cost.Flops()
			t.Logf("%s for %s: %v, %.4g flops (Stela's dots and convolutions: %.4g, %+.2f%%), %.4g bytes accessed, memory %+v",
				name, target, r.CompileTime.Round(1e6), got, want, 100*(got-want)/want, r.Cost.BytesAccessed(), r.Memory)
			if want == 0 || got < want*0.95 || got > want*1.05 {
				t.Errorf("%s for %s: the compiler counts %.6g flops, Stela %.6g: more than 5%% apart", name, target, got, want)
			}
			if r.Memory.Arguments <= 0 || r.Memory.Outputs <= 0 || r.Memory.GeneratedCode <= 0 {
				t.Errorf("%s for %s: memory stats %+v lack arguments, outputs or code", name, target, r.Memory)
			}
			if r.NumPartitions != 1 {
				t.Errorf("%s for %s: %d partitions, want 1", name, target, r.NumPartitions)
			}
		}
	}
}

// TestCompileTPUCLI runs `stela compile --json --out` and checks the JSON
// object's fields, the exported executable, and that a second compile of
// the same program reports the same costs.
func TestCompileTPUCLI(t *testing.T) {
	needLibTPU(t)
	out := filepath.Join(t.TempDir(), "mlp.exe")
	var reports []map[string]any
	for range 2 {
		var stdout, stderr bytes.Buffer
		if err := runCompile([]string{"--target", "tpu:v5e:2x2", "--example", "mlp", "--json", "--out", out}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		var rep map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%v:\n%s", err, stdout.String())
		}
		reports = append(reports, rep)
	}
	rep := reports[0]
	var keys []string
	for k := range rep {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if want := []string{"bytes_accessed", "compile_ms", "estimated_step_ms", "flops", "memory", "num_partitions", "ok", "target"}; !slices.Equal(keys, want) {
		t.Errorf("JSON fields %v, want %v", keys, want)
	}
	if rep["ok"] != true || rep["target"] != "tpu:v5e:2x2" || rep["num_partitions"] != 1.0 || rep["flops"].(float64) <= 0 || rep["estimated_step_ms"].(float64) <= 0 {
		t.Errorf("report %v", rep)
	}
	if mem, _ := rep["memory"].(map[string]any); mem == nil || mem["arguments"].(float64) <= 0 {
		t.Errorf("memory %v", rep["memory"])
	}
	for _, k := range []string{"flops", "bytes_accessed", "memory"} {
		if a, b := fmt.Sprint(reports[0][k]), fmt.Sprint(reports[1][k]); a != b {
			t.Errorf("%s differs between two compiles of the same program: %s, %s", k, a, b)
		}
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Errorf("--out wrote %v, %v", st, err)
	}

	var stdout bytes.Buffer
	if err := runCompile([]string{"--target", "tpu:v5e:2x2", "--example", "mlp"}, &stdout, &stdout); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", stdout.String())
	for _, want := range []string{"compiled in", "memory per device", "flops", "bytes accessed", "estimated step", "MFU", "197 TFLOP/s"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("human output lacks %q", want)
		}
	}
}

// TestCompileTPUSharding: the sharding cases compile, SPMD-partitioned by
// libtpu, with the mesh's partition count, and the collectives the
// layouts call for.
func TestCompileTPUSharding(t *testing.T) {
	needLibTPU(t)
	wantColl := map[string]string{
		"mlp-data-parallel":   "none",
		"mlp-tensor-parallel": "all-reduce",
		"fsdp":                "all-gather",
		"train-data-parallel": "all-reduce",
	}
	targets := map[string][]string{"tpu:v5e:2x2": nil, "tpu:v6e:2x2": {"mlp-tensor-parallel"}, "tpu:v5p:2x2x1": {"mlp-tensor-parallel"}, "tpu:v5e:4x4": {"mesh-2d"}}
	for _, target := range []string{"tpu:v5e:2x2", "tpu:v6e:2x2", "tpu:v5p:2x2x1", "tpu:v5e:4x4"} {
		tg, err := runtime.OpenTarget(target)
		if err != nil {
			t.Fatal(err)
		}
		n := len(tg.Topology.Devices())
		for _, c := range examples.ShardingCases() {
			if c.Manual != nil || (targets[target] != nil && !slices.Contains(targets[target], c.Name)) {
				continue
			}
			f, err := c.TraceSharded(n)
			if err != nil {
				t.Fatal(err)
			}
			r, err := runtime.CompileFor(target, f)
			if err != nil {
				t.Errorf("%s for %s: %v", c.Name, target, err)
				continue
			}
			t.Logf("%s for %s (mesh %v): %d partitions in %v, collectives %s, %.4g flops per device", c.Name, target, f.Mesh, r.NumPartitions, r.CompileTime.Round(1e6), r.CollectiveList(), r.Cost.Flops())
			if r.NumPartitions != n {
				t.Errorf("%s for %s: %d partitions, want %d", c.Name, target, r.NumPartitions, n)
			}
			if w, ok := wantColl[c.Name]; ok && !strings.Contains(r.CollectiveList(), w) {
				t.Errorf("%s for %s: collectives %s, want %s", c.Name, target, r.CollectiveList(), w)
			}
		}
	}
}

// TestCompileTPUCheckFiles: a sample of the spec's check files (test/check)
// compile for a TPU topology; $STELA_TEST_TPU_ALL=1 compiles them all.
// Ops libtpu refuses are listed in docs/ops.md and expected to fail here.
func TestCompileTPUCheckFiles(t *testing.T) {
	needLibTPU(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "test", "check", "testdata", "*.mlir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no check files: %v", err)
	}
	if os.Getenv("STELA_TEST_TPU_ALL") != "1" {
		var sample []string
		for i, f := range files {
			if i%8 == 0 {
				sample = append(sample, f)
			}
		}
		files = sample
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		preps, err := check.Prepare(src)
		if err != nil {
			t.Logf("%s: not a runnable check file: %v", filepath.Base(path), err)
			continue
		}
		for _, p := range preps {
			_, err := runtime.CompileTextFor("tpu:v5e:2x2", string(p.MLIR), 1)
			refused := tpuRefusals[filepath.Base(path)]
			switch {
			case err != nil && refused == "":
				t.Errorf("%s @%s: %v", filepath.Base(path), p.Entry, err)
			case err == nil && refused != "":
				t.Errorf("%s @%s compiles; docs/ops.md says libtpu refuses it (%s)", filepath.Base(path), p.Entry, refused)
			case err != nil:
				t.Logf("%s @%s: refused as documented: %v", filepath.Base(path), p.Entry, firstLine(err.Error()))
			}
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// TestCompileTPUErrorLocated: libtpu's refusal of an op (an i64 matrix
// product) comes back with libtpu's message, located at the Go line that
// made the op.
func TestCompileTPUErrorLocated(t *testing.T) {
	needLibTPU(t)
	matmul := func(a, b *tensor.Tensor) *tensor.Tensor {
		return tensor.MatMul(a, b) // the line the error must name
	}
	_, _, line, _ := goruntime.Caller(0)
	line -= 2
	tr, err := jit.TraceFull(matmul, ir.TensorOf(ir.S64, 4, 8), ir.TensorOf(ir.S64, 8, 2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runtime.CompileFor("tpu:v5e:2x2", tr.Func)
	t.Logf("%v", err)
	if err == nil {
		t.Fatal("an i64 dot compiled for TPU; the test needs an op libtpu refuses")
	}
	if want := fmt.Sprintf("compile_test.go:%d", line); !strings.HasPrefix(err.Error(), want) && !strings.Contains(firstLine(err.Error()), want) {
		t.Errorf("error not located at %s:\n%v", want, err)
	}
	if !strings.Contains(err.Error(), "X{64|128}") {
		t.Errorf("error lacks libtpu's message")
	}
}

// TestCompileCPU: `stela compile --target cpu` compiles through the Stela
// CPU plugin's client (no libtpu needed): the JSON report has the
// plugin's memory plan; the plugin has no cost analysis, so flops are 0.
func TestCompileCPU(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runCompile([]string{"--target", "cpu", "--example", "mlp", "--json"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var rep struct {
		Target        string           `json:"target"`
		OK            bool             `json:"ok"`
		NumPartitions int              `json:"num_partitions"`
		Memory        map[string]int64 `json:"memory"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
	if rep.Target != "cpu" || !rep.OK || rep.NumPartitions != 1 || rep.Memory["arguments"] <= 0 || rep.Memory["generated_code"] <= 0 {
		t.Errorf("report %+v", rep)
	}
}
