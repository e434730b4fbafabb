package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/torchbench"
	"github.com/stela-ml/stela/ir/npy"
)

const script = torchbench.FileName

// python returns the Python to run torch_bench.py with, or skips: the one
// `stela bench --torch` picks (torchbench.Python), or $STELA_TORCH_PYTHON.
// It also writes the script that stela embeds into the test's directory
// and returns its path.
func python(t *testing.T) (py, path string) {
	t.Helper()
	py, err := torchbench.Python(os.Getenv("STELA_TORCH_PYTHON"))
	if err != nil {
		t.Skip(err)
	}
	if path, err = torchbench.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return py, path
}

// TestTorchMetrics: the names PyTorch's results carry are those
// `stela bench` joins on (cmd/stela tests its side against the same file).
func TestTorchMetrics(t *testing.T) {
	py, path := python(t)
	out, err := exec.Command(py, path, "--list").Output()
	if err != nil {
		t.Fatalf("%s --list: %v", script, err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(out)); d != "" {
		t.Errorf("%s --list differs from testdata/metrics.txt (-file +script):\n%s", script, d)
	}
}

// TestTorchBlockAndJSON runs one PyTorch process (importing torch costs
// seconds): the GPT-2 block on the small transformer's inputs, which must
// match Stela's result, then W1 once, whose JSON line must carry the
// fields `stela bench` reads.
func TestTorchBlockAndJSON(t *testing.T) {
	py, path := python(t)
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	ex := examples.SmallTransformer()
	inputs := ex.Inputs(7)
	dir := t.TempDir()
	for i, in := range inputs {
		if err := npy.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d.npy", i)), in.Literal()); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(py, path, "--check", dir, "--workload", "W1", "--runs", "1", "--threads", "1",
		"--batch", strconv.Itoa(ex.Batch), "--seq", strconv.Itoa(ex.Seq), "--d-model", strconv.Itoa(ex.DModel),
		"--heads", strconv.Itoa(ex.Heads), "--mlp", strconv.Itoa(ex.MLP))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if strings.Contains(stderr.String(), "No module named") {
			t.Skipf("%s cannot import torch and numpy (Debian: apt-get install python3-torch python3-numpy):\n%s", py, stderr.String())
		}
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}

	stela, err := examples.Call(ex, inputs)
	if err != nil {
		t.Fatal(err)
	}
	want := stela.Float32s()
	lit, err := npy.ReadFile(filepath.Join(dir, "out.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if !lit.Type.Equal(stela.Type()) {
		t.Fatalf("PyTorch's block returned %v, Stela's %v", lit.Type, stela.Type())
	}
	got := lit.Data.([]float32)
	worst, at := 0.0, 0
	for i := range want {
		d := math.Abs(float64(got[i])-float64(want[i])) / (1 + math.Abs(float64(want[i])))
		if d > worst || math.IsNaN(d) {
			worst, at = d, i
		}
	}
	t.Logf("max relative error of PyTorch's block: %.2g", worst)
	// f32 with different summation orders: a few ulps of the O(1) outputs.
	if worst > 1e-4 {
		t.Errorf("PyTorch's block differs from Stela's: element %d is %v, want %v (relative error %.2g)", at, got[at], want[at], worst)
	}

	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%s printed %d lines, want 2 (W1 in PyTorch and in NumPy):\n%s", script, len(lines), out)
	}
	for i, mode := range []string{"torch-eager", "numpy"} {
		var r map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatalf("%s printed %q: %v", script, lines[i], err)
		}
		checkResult(t, script, r, map[string]any{
			"workload": "W1", "mode": mode, "metric": "add f32[16] x10000", "unit": "µs/op", "runs": 1.0, "threads": 1.0,
		})
		if v, _ := r["torch_version"].(string); v == "" {
			t.Errorf("%s: no torch_version", script)
		}
	}
}

// checkResult checks a peer's JSON result: the fields want gives, and
// positive median, min and max.
func checkResult(t *testing.T, script string, r map[string]any, want map[string]any) {
	t.Helper()
	for field, want := range want {
		if r[field] != want {
			t.Errorf("%s: %q is %v, want %v", script, field, r[field], want)
		}
	}
	for _, field := range []string{"median", "min", "max"} {
		if v, ok := r[field].(float64); !ok || !(v > 0) {
			t.Errorf("%s: %s %q is %v, want a positive number", script, r["metric"], field, r[field])
		}
	}
}

// TestTorchW4Trains: PyTorch's W4 step is a training step (a few steps
// from nn.Linear's initialization on random labels start near ln 10 and
// fall), and its torch.jit.trace mode computes the same steps as its
// eager one, so that the two timings time the same work.
func TestTorchW4Trains(t *testing.T) {
	py, path := python(t)
	out, err := exec.Command(py, path, "--w4-losses", "4", "--threads", "1").Output()
	if err != nil {
		t.Fatalf("%s --w4-losses: %v", script, err)
	}
	losses := map[string][]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Mode   string    `json:"mode"`
			Losses []float64 `json:"losses"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s printed %q: %v", script, line, err)
		}
		losses[r.Mode] = r.Losses
	}
	eager, traced := losses["torch-eager"], losses["torch-jit-trace"]
	if len(eager) != 4 || len(traced) != 4 {
		t.Fatalf("losses by mode: %v, want 4 of torch-eager and of torch-jit-trace", losses)
	}
	t.Logf("W4 losses: %v", eager)
	if math.Abs(eager[0]-math.Log(10)) > 0.1 {
		t.Errorf("first loss %v, want about ln 10 = 2.303", eager[0])
	}
	for i := range eager {
		if i > 0 && !(eager[i] < eager[i-1]) {
			t.Errorf("the loss did not fall at step %d: %v", i+1, eager)
		}
		if math.Abs(eager[i]-traced[i]) > 1e-5 {
			t.Errorf("step %d: eager loss %v, traced %v", i+1, eager[i], traced[i])
		}
	}
}

// jaxPython returns the Python to run jax_bench.py with, and the script
// written to a temporary directory: the one `stela bench --jax` picks
// (torchbench.JAXPython, with $STELA_JAXLIB_PYTHONPATH). Without jax it
// skips, except under CI=true, whose .ci/run installs it: there it fails.
func jaxPython(t *testing.T) (py, path string) {
	t.Helper()
	py, err := torchbench.JAXPython("")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true, but jax_bench.py cannot run: %v", err)
		}
		t.Skip(err)
	}
	if path, err = torchbench.WriteJAX(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return py, path
}

// TestJAXMetrics: jax_bench.py's names are those `stela bench --jax` joins
// on (testdata/jax_metrics.txt; cmd/stela checks its side). --list needs
// no jax.
func TestJAXMetrics(t *testing.T) {
	dir := t.TempDir()
	path, err := torchbench.WriteJAX(dir)
	if err != nil {
		t.Fatal(err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	out, err := exec.Command(py, path, "--list").Output()
	if err != nil {
		t.Fatalf("%s --list: %v", torchbench.JAXFileName, err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "jax_metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(out)); d != "" {
		t.Errorf("%s --list differs from testdata/jax_metrics.txt (-file +script):\n%s", torchbench.JAXFileName, d)
	}
}

// TestJAXSmall runs jax_bench.py's GPT-2 block on the small transformer's
// inputs, which must match Stela's, then every workload once at its tiny
// sizes (--small: the JSON, not the numbers; W6 starts its fresh processes,
// with and without a compilation cache).
func TestJAXSmall(t *testing.T) {
	py, path := jaxPython(t)
	run := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(py, append([]string{path}, args...)...)
		cmd.Env = torchbench.JAXEnv()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", torchbench.JAXFileName, strings.Join(args, " "), err, stderr.String())
		}
		return out
	}
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	ex := examples.SmallTransformer()
	inputs := ex.Inputs(7)
	dir := t.TempDir()
	for i, in := range inputs {
		if err := npy.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d.npy", i)), in.Literal()); err != nil {
			t.Fatal(err)
		}
	}
	// One process (importing jax takes seconds): the check, then every
	// workload.
	out := run("--check", dir, "--batch", strconv.Itoa(ex.Batch), "--seq", strconv.Itoa(ex.Seq), "--d-model", strconv.Itoa(ex.DModel),
		"--heads", strconv.Itoa(ex.Heads), "--mlp", strconv.Itoa(ex.MLP), "--small", "--runs", "1", "--workload", "W1,W2,W3,W4,W5,W6,W7")
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s printed %q: %v", torchbench.JAXFileName, line, err)
		}
		checkResult(t, torchbench.JAXFileName, r, map[string]any{"runs": 1.0, "jax_version": "0.10.2"})
		id := r["workload"].(string)
		if r["mode"] != "jax-jit" {
			id += "/" + r["mode"].(string)
		}
		got = append(got, id+"\t"+r["metric"].(string))
		if r["workload"] == "W6" {
			d, _ := r["derived"].(map[string]any)
			if _, ok := d["ms compile"].(float64); !ok {
				t.Errorf("W6 %s: derived %v, want the compile's ms", r["metric"], r["derived"])
			}
		}
	}
	want, err := os.ReadFile(filepath.Join("testdata", "jax_metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(strings.Split(strings.TrimSpace(string(want)), "\n"), got); d != "" {
		t.Errorf("jax_bench.py --small measured (-want +got):\n%s", d)
	}

	stela, err := examples.Call(ex, inputs)
	if err != nil {
		t.Fatal(err)
	}
	wantOut := stela.Float32s()
	lit, err := npy.ReadFile(filepath.Join(dir, "out.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if !lit.Type.Equal(stela.Type()) {
		t.Fatalf("JAX's block returned %v, Stela's %v", lit.Type, stela.Type())
	}
	gotOut := lit.Data.([]float32)
	worst, at := 0.0, 0
	for i := range wantOut {
		d := math.Abs(float64(gotOut[i])-float64(wantOut[i])) / (1 + math.Abs(float64(wantOut[i])))
		if d > worst || math.IsNaN(d) {
			worst, at = d, i
		}
	}
	t.Logf("max relative error of JAX's block: %.2g", worst)
	if worst > 1e-4 {
		t.Errorf("JAX's block differs from Stela's: element %d is %v, want %v (relative error %.2g)", at, gotOut[at], wantOut[at], worst)
	}
}
