package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The workloads themselves run in testdata/script/bench.txtar (W1 only:
// the others take seconds to minutes). These tests cover the arithmetic
// and the formats, never timings.

func TestParseBenchWorkloads(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", []string{"W1", "W2", "W3", "W4", "W5", "W6", "W7"}, ""},
		{"w2", []string{"W2"}, ""},
		{" W5 ,W1", []string{"W5", "W1"}, ""},
		{"W8", nil, `unknown workload "W8" (have W1, W2, W3, W4, W5, W6, W7)`},
	} {
		got, err := parseBenchWorkloads(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("parseBenchWorkloads(%q): error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !cmp.Equal(got, tc.want) {
			t.Errorf("parseBenchWorkloads(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestBenchSummaryMedianMinMax(t *testing.T) {
	r := benchSummary("W2", "eager", "m", "ms", []float64{5, 1, 4, 2})
	if r.Median != 3 || r.Min != 1 || r.Max != 5 || r.Runs != 4 {
		t.Errorf("even count: median %v min %v max %v runs %d, want 3 1 5 4", r.Median, r.Min, r.Max, r.Runs)
	}
	if !cmp.Equal(r.Samples, []float64{5, 1, 4, 2}) {
		t.Errorf("samples %v reordered: they must stay in run order", r.Samples)
	}
	if r := benchSummary("W2", "eager", "m", "ms", []float64{9, 7, 8}); r.Median != 8 {
		t.Errorf("odd count: median %v, want 8", r.Median)
	}
}

func TestFormatBenchResult(t *testing.T) {
	diff := 0.0
	for _, tc := range []struct {
		r    benchResult
		want string
	}{
		{
			benchResult{Workload: "W2", Mode: "compiled", Metric: "gelu_tanh(x*a+b) f32[4194304]", Unit: "ms",
				Median: 5.123, Min: 5, Max: 6.5, Runs: 7, Derived: map[string]float64{"GB/s": 6.551}, MaxAbsDiff: &diff},
			"W2 compiled gelu_tanh(x*a+b) f32[4194304]: 5.12 ms (6.55 GB/s) median of 7 [5.00–6.50]; max |compiled-eager| 0",
		},
		{
			benchResult{Workload: "W1", Mode: "torch-eager", Metric: "add f32[16] x10000", Unit: "µs/op",
				Median: 0.4567, Min: 0.4567, Max: 0.4567, Runs: 1, Threads: 2, TorchVersion: "1.13.0"},
			"W1 torch-eager add f32[16] x10000: 0.457 µs/op median of 1; torch 1.13.0, 2 threads",
		},
		{
			benchResult{Workload: "W5", Mode: "compiled", Metric: "block", Error: "unsupported: stablehlo.fft"},
			"W5 compiled block: error: unsupported: stablehlo.fft",
		},
	} {
		if got := formatBenchResult(tc.r); got != tc.want {
			t.Errorf("formatBenchResult:\n got %s\nwant %s", got, tc.want)
		}
	}
}

func TestBenchNum(t *testing.T) {
	for v, want := range map[float64]string{1234.5: "1234", 56.78: "56.8", 5.123: "5.12", 0: "0.00", 0.012345: "0.0123"} {
		if got := benchNum(v); got != want {
			t.Errorf("benchNum(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestBenchSchedule(t *testing.T) {
	str := func(s []int) string {
		var b strings.Builder
		for _, side := range s {
			b.WriteByte(byte('A' + side))
		}
		return b.String()
	}
	for runs, want := range map[int]string{1: "AB", 2: "ABBA", 3: "ABBAAB", 4: "ABBAABBA", 5: "ABBAABBAAB"} {
		if got := str(benchSchedule(runs, 2)); got != want {
			t.Errorf("benchSchedule(%d, 2) = %s, want %s", runs, got, want)
		}
	}
	for runs, want := range map[int]string{1: "ABC", 2: "ABCCBA", 3: "ABCCBAABC"} {
		if got := str(benchSchedule(runs, 3)); got != want {
			t.Errorf("benchSchedule(%d, 3) = %s, want %s", runs, got, want)
		}
	}
	if got := str(benchSchedule(3, 1)); got != "AAA" {
		t.Errorf("benchSchedule(3, 1) = %s, want AAA", got)
	}
}

// The torchServe tests exercise the Go side of the torch_bench.py --serve
// protocol against shell stand-ins for the server: what is sent, in which
// order, and what happens when the server dies or prints something else.
// PyTorch itself runs only in `stela bench --torch` (docs/performance.md).

// fakeTorchServe writes a shell stand-in for torch_bench.py --serve (named
// so, because errors name the script) whose command loop runs body for
// each command $cmd with workload $w and metric $m, and returns a bencher
// of runs runs that uses it, with its stderr.
func fakeTorchServe(t *testing.T, runs int, body string) (*bencher, *bytes.Buffer) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "torch_bench.py")
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	b := &bencher{runs: runs, out: io.Discard, lines: io.Discard, stderr: &stderr}
	b.peers = []*torchBench{newTorchBench(sh, script, 1)}
	t.Cleanup(b.peers[0].stop)
	return b, &stderr
}

// fakeTorchLoop is a well-behaved server; it appends "b" to $LOG for a
// warm-up and "B" for a timed run.
const fakeTorchLoop = `echo '{"ready": true, "torch_version": "fake", "threads": 1}'
while read -r cmd w m; do
	case "$w" in
	*/*) mode=${w#*/}; w=${w%%/*};;
	*) mode=torch-eager;;
	esac
	key=$(echo "$w$mode" | tr -c 'A-Za-z0-9\n' _)
	case "$cmd" in
	warmup) printf b >>"$LOG"; eval "n_$key=0"; echo '{"warmup": 0.5}';;
	run) printf B >>"$LOG"; eval "n_$key=\$((n_$key+1))"; echo '{"sample": 2}';;
	result) eval "n=\$n_$key"; printf '{"workload": "%s", "mode": "%s", "metric": "%s", "unit": "u", "median": 2, "min": 2, "max": 2, "runs": %d, "samples": [2], "threads": 1, "torch_version": "fake"}\n' "$w" "$mode" "$m" "$n";;
	quit) exit 0;;
	*) echo '{"error": "bad command"}';;
	esac
done
`

func TestTorchServeInterleaves(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	b, stderr := fakeTorchServe(t, 3, "LOG="+log+"\n"+fakeTorchLoop)
	logged := func() string {
		t.Helper()
		data, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		os.Remove(log)
		return string(data)
	}
	stela := func() error { // Stela's side of the log
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString("A")
		return err
	}
	tb := b.peers[0]
	b.startPeer(tb)

	// W1 eager has targets against PyTorch and NumPy, both on PyTorch's
	// side: the runs of the three alternate (A B C C B A ...), after the
	// warm-ups.
	ds, err := b.measure("W1", "eager", w1Metric, stela)
	if err != nil || len(ds) != 3 {
		t.Fatalf("measure: %d samples, %v; want 3, nil", len(ds), err)
	}
	if got, want := logged(), "AbbABBBBAABB"; got != want {
		t.Errorf("W1 eager ran %s, want %s (A Stela, B PyTorch or NumPy, lower case warm-ups)", got, want)
	}
	// W2 eager has none: Stela alone.
	b.measure("W2", "eager", w2Metric, stela)
	if got, want := logged(), "AAAA"; got != want {
		t.Errorf("W2 eager ran %s, want %s", got, want)
	}
	// W2 fused and compiled run together (a target compares them), with
	// compiled's partner, PyTorch: fused (F), compiled (A), PyTorch (B)
	// alternate F A B B A F F A B.
	fused := func() error {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString("F")
		return err
	}
	dss, errs := b.measureSides("W2", w2Metric, []benchSide{{"fused", fused}, {"compiled", stela}})
	if len(dss[0]) != 3 || len(dss[1]) != 3 || errs[0] != nil || errs[1] != nil {
		t.Errorf("measureSides: %d and %d samples, %v; want 3 each", len(dss[0]), len(dss[1]), errs)
	}
	if got, want := logged(), "FAbFABBAFFAB"; got != want {
		t.Errorf("W2 fused and compiled ran %s, want %s", got, want)
	}
	// W3 interleaves each size; b.peerAlone prints PyTorch's results in
	// metric order after the workload.
	b.measure("W3", "compiled", w3Metric(1024), stela)
	b.measure("W3", "compiled", w3Metric(2048), stela)
	if got, want := logged(), "AbABBAABAbABBAAB"; got != want {
		t.Errorf("W3 compiled ran %s, want %s", got, want)
	}
	b.peerAlone(tb, "W1")
	b.peerAlone(tb, "W2")
	b.peerAlone(tb, "W3")
	// W5's Stela side never measured (its workload failed first, say):
	// PyTorch measures alone.
	b.peerAlone(tb, "W5")
	if got, want := logged(), "bBBB"; got != want {
		t.Errorf("PyTorch alone ran %s, want %s", got, want)
	}
	// W4 has no target: PyTorch measures alone, in both its modes, the
	// jit one named W4/torch-jit-trace to the server.
	b.peerAlone(tb, "W4")
	if got, want := logged(), "bBBBbBBB"; got != want {
		t.Errorf("PyTorch's W4 ran %s, want %s", got, want)
	}
	var got []string
	for _, r := range b.results {
		got = append(got, fmt.Sprintf("%s %s %s runs %d", r.Workload, r.Mode, r.Metric, r.Runs))
	}
	want := []string{
		"W1 torch-eager " + w1Metric + " runs 3",
		"W1 numpy " + w1Metric + " runs 3",
		"W2 torch-eager " + w2Metric + " runs 3",
		"W3 torch-eager " + w3Metric(1024) + " runs 3",
		"W3 torch-eager " + w3Metric(2048) + " runs 3",
		"W5 torch-eager " + w5Metric + " runs 3",
		"W4 torch-eager " + w4Metric + " runs 3",
		"W4 torch-jit-trace " + w4Metric + " runs 3",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("PyTorch's results (-want +got):\n%s", d)
	}
	if stderr.Len() != 0 || tb.err != nil || b.failed {
		t.Errorf("stderr %q, error %v, failed %v; want none", stderr, tb.err, b.failed)
	}
	tb.stop()
	if tb.cmd != nil {
		t.Error("stop left the server running")
	}
}

func TestTorchServeFailures(t *testing.T) {
	// answer is the loop's answer to a timed run.
	loop := func(answer string) string {
		return strings.Replace(fakeTorchLoop, `printf B >>"$LOG"; eval "n_$key=\$((n_$key+1))"; echo '{"sample": 2}'`, answer, 1)
	}
	for _, tc := range []struct {
		name, script, want string
	}{
		{"no torch", "echo 'Traceback (most recent call last):' >&2\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n",
			`torch_bench.py --serve: exit status 1: ModuleNotFoundError: No module named 'torch'`},
		{"garbage at start", "echo hello\n",
			`torch_bench.py --serve printed "hello", not a JSON object`},
		{"not ready", "echo '{\"hello\": 1}'\nread -r x\n",
			`torch_bench.py --serve started with a line other than {"ready": true, ...}`},
		{"dies in a run", loop(`echo 'RuntimeError: boom' >&2; exit 3`),
			`torch_bench.py --serve: exit status 3 after "run W1 add f32[16] x10000": RuntimeError: boom`},
		{"garbage in a run", loop(`echo 'Warning: slow'`),
			`torch_bench.py --serve printed "Warning: slow" after "run W1 add f32[16] x10000", not a JSON object`},
		{"no sample", loop(`echo '{}'`),
			`torch_bench.py --serve: run W1 add f32[16] x10000: no "sample" in the answer`},
		{"error answer", loop(`echo '{"error": "RuntimeError: out of memory"}'`),
			`torch_bench.py --serve: run W1 add f32[16] x10000: RuntimeError: out of memory`},
		{"wrong result", strings.Replace(fakeTorchLoop, `"runs": %d`, `"runs": 9%d`, 1),
			`torch_bench.py --serve: result W1 add f32[16] x10000: got W1 torch-eager add f32[16] x10000 over 93 runs, want torch-eager over 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, stderr := fakeTorchServe(t, 3, "LOG=/dev/null\n"+tc.script)
			tb := b.peers[0]
			b.startPeer(tb)
			calls := 0
			ds, err := b.measure("W1", "eager", w1Metric, func() error { calls++; return nil })
			b.peerAlone(tb, "W1")
			// Stela's side is whole whatever PyTorch does.
			if err != nil || len(ds) != 3 || calls != 4 {
				t.Errorf("Stela: %d samples of %d calls, %v; want 3 of 4, nil", len(ds), calls, err)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr:\n%s\nwant it to contain\n%s", stderr, tc.want)
			}
			if n := strings.Count(stderr.String(), "stela bench: PyTorch:"); n != 1 {
				t.Errorf("PyTorch's failure reported %d times, want once", n)
			}
			if len(b.results) != 0 {
				t.Errorf("results %+v, want none from a failed PyTorch", b.results)
			}
			if tb.err == nil || tb.cmd != nil {
				t.Errorf("after a failure: error %v, server running %v; want an error and no server", tb.err, tb.cmd != nil)
			}
			// The comparison asked for did not happen: exit status 1.
			if !b.failed {
				t.Error("PyTorch failed, but the benchmark does not fail")
			}
		})
	}
}

func TestCheckBenchTargets(t *testing.T) {
	res := func(w, mode, metric, unit string, median float64) benchResult {
		return benchResult{Workload: w, Mode: mode, Metric: metric, Unit: unit, Median: median, Runs: 1}
	}
	rs := []benchResult{
		res("W1", "eager", "add", "µs/op", 10),
		res("W1", "torch-eager", "add", "µs/op", 5), // Stela 2x slower: missed
		res("W2", "eager", "gelu", "ms", 100),       // eager has no target
		res("W2", "compiled", "gelu", "ms", 10),
		res("W2", "torch-eager", "gelu", "ms", 30), // exactly 3x: ok
		res("W3", "compiled", "mm1024", "GFLOP/s", 45),
		res("W3", "torch-eager", "mm1024", "GFLOP/s", 50), // 90%: ok
		res("W3", "compiled", "mm2048", "GFLOP/s", 40),
		res("W3", "torch-eager", "mm2048", "GFLOP/s", 50), // 80%: missed
		res("W5", "compiled", "block", "ms", 100),
		res("W5", "torch-eager", "block", "ms", 100), // equal is not faster
		res("W6", "compiled", w6First, "ms", 1999),
		res("W6", "compiled", w6Warm, "ms", 100), // not under 100
		res("W2", "bound", "gelu", "ms", 9.5),    // 0.95x of the bound: ok (≥ 1/1.1)
		res("W2", "fused", "gelu", "ms", 16),     // 1.6x compiled's time: missed
		res("W2", "jax-jit", "gelu", "ms", 9),    // slower than JAX: missed
	}
	type verdict struct {
		Metric string
		Ratio  float64
		OK     bool
	}
	var got []verdict
	for _, tg := range checkBenchTargets(rs) {
		got = append(got, verdict{tg.Metric, tg.Ratio, tg.OK})
	}
	want := []verdict{
		{"add", 0.5, false}, // at least 2x PyTorch
		{"gelu", 3, true},   // at least 3x PyTorch
		{"mm1024", 0.9, true},
		{"mm2048", 0.8, false},
		{"block", 1, false},
		{"gelu", 0.9, false}, // no slower than JAX
		{"gelu", 0.95, true}, // within 1.1x of the bound
		{"gelu", 10.0 / 16, false},
		{w6First, 0, true},
		{w6Warm, 0, false},
		{w6Warm, 0, false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("checkBenchTargets (-want +got):\n%s", d)
	}
	// Without the peers' results only the absolute targets and those
	// against the bound and Stela's own modes remain.
	own := slices.DeleteFunc(slices.Clone(rs), func(r benchResult) bool { return r.Mode == "torch-eager" || r.Mode == "jax-jit" })
	if n := len(checkBenchTargets(own)); n != 5 {
		t.Errorf("checkBenchTargets without peers: %d targets, want 5 (the bound's, fused's and W6's)", n)
	}
	// A failed measurement checks nothing.
	rs[0].Error = "boom"
	for _, tg := range checkBenchTargets(rs) {
		if tg.Workload == "W1" {
			t.Errorf("target %q checked on a failed measurement", tg.Target)
		}
	}
}

func TestFormatBenchTarget(t *testing.T) {
	got := formatBenchTarget(benchTarget{Target: "W2 compiled gelu at least 3x faster than PyTorch eager",
		Stela: 10, Vs: "torch-eager", Peer: 35, Unit: "ms", Ratio: 3.5, Want: "≥ 3x", OK: true})
	want := "ok     W2 compiled gelu at least 3x faster than PyTorch eager: stela 10.0, torch-eager 35.0 ms: 3.50x (want ≥ 3x)"
	if got != want {
		t.Errorf("formatBenchTarget:\n got %s\nwant %s", got, want)
	}
	got = formatBenchTarget(benchTarget{Target: "W6 compile", Stela: 2500, Unit: "ms", Want: "< 2000 ms"})
	want = "MISSED W6 compile: 2500 ms (want < 2000 ms)"
	if got != want {
		t.Errorf("formatBenchTarget:\n got %s\nwant %s", got, want)
	}
}

// TestBenchTorchMetrics keeps the metric names that --torch joins on equal
// to test/bench/testdata/metrics.txt, which torch_bench.py is tested
// against (test/bench).
func TestBenchTorchMetrics(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "test", "bench", "testdata", "metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(b)), "\n")
	if d := cmp.Diff(want, benchTorchMetrics()); d != "" {
		t.Errorf("benchTorchMetrics differs from test/bench/testdata/metrics.txt (-file +code):\n%s", d)
	}
	b, err = os.ReadFile(filepath.Join("..", "..", "test", "bench", "testdata", "jax_metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want = strings.Split(strings.TrimSpace(string(b)), "\n")
	if d := cmp.Diff(want, benchJAXMetrics()); d != "" {
		t.Errorf("benchJAXMetrics differs from test/bench/testdata/jax_metrics.txt (-file +code):\n%s", d)
	}
}

func TestBenchMarkdown(t *testing.T) {
	rs := []benchResult{
		{Workload: "W2", Mode: "eager", Metric: "gelu", Unit: "ms", Median: 100, Runs: 5},
		{Workload: "W2", Mode: "compiled", Metric: "gelu", Unit: "ms", Median: 10, Runs: 5, Derived: map[string]float64{"GB/s": 3.4}},
		{Workload: "W2", Mode: "torch-eager", Metric: "gelu", Unit: "ms", Median: 40, Runs: 5, Threads: 2, TorchVersion: "1.13.0"},
		{Workload: "W3", Mode: "compiled", Metric: "mm", Unit: "GFLOP/s", Median: 20, Runs: 5},
		{Workload: "W3", Mode: "torch-eager", Metric: "mm", Unit: "GFLOP/s", Median: 40, Runs: 5, Threads: 2, TorchVersion: "1.13.0"},
		{Workload: "W5", Mode: "compiled", Metric: "block", Error: "a | b"},
	}
	got := benchMarkdown("today", rs, checkBenchTargets(rs))
	want := `Measured today. PyTorch 1.13.0, 2 threads.

| workload | metric | bound | Stela eager | Stela fused | Stela compiled | PyTorch | NumPy | JAX |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| W2 | gelu | – | 100 ms | – | 10.0 ms (3.40 GB/s) | 40.0 ms | – | – |
| W3 | mm | – | – | – | 20.0 GFLOP/s | 40.0 GFLOP/s | – | – |
| W5 | block | – | – | – | error: a \| b | – | – | – |

| target | Stela | compared with | ratio | want | |
| --- | ---: | ---: | ---: | --- | --- |
| W2 compiled gelu at least 3x faster than PyTorch eager | 10.0 ms | torch-eager 40.0 ms | 4.00x | ≥ 3x | ok |
| W3 compiled mm at least 90% of PyTorch | 20.0 GFLOP/s | torch-eager 40.0 GFLOP/s | 0.50x | ≥ 0.9x | **missed** |
`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("benchMarkdown (-want +got):\n%s", d)
	}
}

// TestReadCompileLog: the W6 parent takes the plugin's and the worker's
// times from a child's STELA_LOG=compile lines (the first compile's) and
// passes the other lines on.
func TestReadCompileLog(t *testing.T) {
	stderr := "stela cpu compile: @jit_gpt2_small: parse 0.4ms, verify 0.6ms, codegen 3.6ms, split 0.0ms (2 parts), opt+llc in process 150.5ms, link 6.4ms, total 161.5ms; 22 kernels, peak temporary memory 34607104 bytes (81870848 without buffer reuse)\n" +
		"stela: compiled @gpt2_small on cpu in 172.25ms (program a67d4ad6bfdbbfb6)\n" +
		"stela bench: W6: something else\n" +
		"stela: compiled @gpt2_small on cpu in 683µs (program a67d4ad6bfdbbfb6)\n"
	var tm benchCompileTimes
	rest := string(readCompileLog(&tm, []byte(stderr)))
	want := benchCompileTimes{Plugin: 172.25, Worker: 161.5, Codegen: 4.6, LLVM: 150.5, Link: 6.4}
	if math.Abs(tm.Codegen-want.Codegen) > 1e-9 {
		t.Errorf("codegen %v ms, want %v", tm.Codegen, want.Codegen)
	}
	tm.Codegen = want.Codegen
	if tm != want {
		t.Errorf("times %+v, want %+v", tm, want)
	}
	if rest != "stela bench: W6: something else\n" {
		t.Errorf("passed on %q", rest)
	}
	// The programs: opt and llc add up; a warm cache has no worker line.
	tm = benchCompileTimes{}
	readCompileLog(&tm, []byte("stela cpu compile: @f: parse 0.1ms, verify 0.1ms, codegen 1.0ms, split 20.0ms (2 parts), opt 100.0ms, llc 80.0ms, link 10.0ms, total 211.2ms; 1 kernels\n"))
	if tm.LLVM != 180 || tm.Worker != 211.2 || tm.Link != 10 {
		t.Errorf("opt and llc: %+v", tm)
	}
	tm = benchCompileTimes{}
	readCompileLog(&tm, []byte("stela: compiled @f on cpu in 1.5ms (program 0123)\n"))
	if tm.Plugin != 1.5 || tm.Worker != 0 {
		t.Errorf("warm cache: %+v", tm)
	}
}
