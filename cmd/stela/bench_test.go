package main

import (
	"os"
	"path/filepath"
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
		{"", []string{"W1", "W2", "W3", "W5", "W6"}, ""},
		{"w2", []string{"W2"}, ""},
		{" W5 ,W1", []string{"W5", "W1"}, ""},
		{"W4", nil, `unknown workload "W4" (have W1, W2, W3, W5, W6)`},
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

func TestParseTorchOutput(t *testing.T) {
	out := `{"workload": "W1", "mode": "torch-eager", "metric": "add f32[16] x10000", "unit": "\u00b5s/op", "median": 4.5, "min": 4, "max": 5, "runs": 3, "samples": [4, 4.5, 5], "threads": 2, "torch_version": "1.13.0"}

`
	rs, err := parseTorchOutput(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []benchResult{{Workload: "W1", Mode: "torch-eager", Metric: "add f32[16] x10000", Unit: "µs/op",
		Median: 4.5, Min: 4, Max: 5, Runs: 3, Samples: []float64{4, 4.5, 5}, Threads: 2, TorchVersion: "1.13.0"}}
	if d := cmp.Diff(want, rs); d != "" {
		t.Errorf("parseTorchOutput (-want +got):\n%s", d)
	}
	if _, err := parseTorchOutput(strings.NewReader("Traceback (most recent call last):\n")); err == nil {
		t.Error("parseTorchOutput accepted a non-JSON line")
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
	}
	type verdict struct {
		Metric string
		Ratio  float64
		OK     bool
	}
	var got []verdict
	for _, tg := range checkBenchTargets(rs, true) {
		got = append(got, verdict{tg.Metric, tg.Ratio, tg.OK})
	}
	want := []verdict{
		{"add", 0.5, false},
		{"gelu", 3, true},
		{"mm1024", 0.9, true},
		{"mm2048", 0.8, false},
		{"block", 1, false},
		{w6First, 0, true},
		{w6Warm, 0, false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("checkBenchTargets (-want +got):\n%s", d)
	}
	// Without PyTorch only the absolute targets remain.
	if n := len(checkBenchTargets(rs, false)); n != 2 {
		t.Errorf("checkBenchTargets without torch: %d targets, want 2 (W6's)", n)
	}
	// A failed measurement checks nothing.
	rs[0].Error = "boom"
	for _, tg := range checkBenchTargets(rs, true) {
		if tg.Workload == "W1" {
			t.Errorf("target %q checked on a failed measurement", tg.Target)
		}
	}
}

func TestFormatBenchTarget(t *testing.T) {
	got := formatBenchTarget(benchTarget{Target: "W2 compiled gelu at least 3x faster than PyTorch eager",
		Stela: 10, Torch: 35, Unit: "ms", Ratio: 3.5, Want: "≥ 3x", OK: true})
	want := "ok     W2 compiled gelu at least 3x faster than PyTorch eager: stela 10.0, torch 35.0 ms: 3.50x (want ≥ 3x)"
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
	got := benchMarkdown("today", rs, checkBenchTargets(rs, true))
	want := `Measured today. PyTorch 1.13.0, 2 threads.

| workload | mode | metric | Stela | PyTorch eager | Stela vs PyTorch | target |
| --- | --- | --- | ---: | ---: | ---: | --- |
| W2 | eager | gelu | 100 ms | 40.0 ms | 0.40x | – |
| W2 | compiled | gelu | 10.0 ms (3.40 GB/s) | 40.0 ms | 4.00x | ≥ 3x: ok |
| W3 | compiled | mm | 20.0 GFLOP/s | 40.0 GFLOP/s | 0.50x | ≥ 0.9x: **missed** |
| W5 | compiled | block | error: a \| b | – | – | – |
`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("benchMarkdown (-want +got):\n%s", d)
	}
}
