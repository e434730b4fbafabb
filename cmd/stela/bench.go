package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/torchbench"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/runtime"
)

// `stela bench` runs the benchmark workloads (docs/performance.md says
// what each measures, which targets they have, and how to read the
// numbers). Every measurement is one warm-up call (which compiles), then
// --runs timed calls, each ending at a sync point (Tensor.Err waits for
// the computation without copying its result to Go), reported as their
// median. With --torch the same workloads run in PyTorch (torch_bench.py
// --serve, which package torchbench embeds, run by a python3 with torch,
// one process for the invocation), and each target is checked; the timed
// runs of a measurement a target compares run interleaved with PyTorch's,
// one by one (bencher.measure says why).

// benchChildEnv marks the child processes of W6: `stela bench` with it set
// measures one compile in a fresh process instead of running workloads.
const benchChildEnv = "STELA_BENCH_CHILD"

// benchWorkloads are the workloads in their default order, named as
// docs/performance.md names them.
var benchWorkloads = []struct {
	name, doc string
	run       func(b *bencher) error
}{
	{"W1", "eager dispatch: 10,000 chained adds of f32[16]", benchW1},
	{"W2", "gelu_tanh(x*a+b) on f32[4194304], eager and compiled", benchW2},
	{"W3", "f32 matmul 1024³ and 2048³, compiled", benchW3},
	{"W4", "MLP 784-1024-1024-10 training step, batch 256, compiled", benchW4},
	{"W5", "GPT-2-small block forward, eager and compiled", benchW5},
	{"W6", "compile latency of W5: fresh process, warm disk cache, same process", benchW6},
	{"W7", "GPT-2 small inference: prefill 128 tokens, decode 128 with the KV cache, batch 1 and 8 (bench_w7.go)", benchW7},
}

// w1Ops is W1's chain length.
const w1Ops = 10000

// The metrics that PyTorch measures too. torch_bench.py spells them the
// same; test/bench/testdata/metrics.txt lists them, and both sides' tests
// check against it.
const (
	w1Metric = "add f32[16] x10000"
	w2Metric = "gelu_tanh(x*a+b) f32[4194304]"
	w4Metric = "mlp train step b256 784-1024-1024-10"
	w5Metric = "gpt2-small block forward f32[4,256,768]"
)

// w3Sizes are W3's matrix sizes.
var w3Sizes = []int{1024, 2048}

func w3Metric(n int) string { return fmt.Sprintf("matmul f32 %dx%dx%d", n, n, n) }

// torchEager is the mode of PyTorch's eager results, the ones the targets
// compare with.
const torchEager = "torch-eager"

// torchMetric is one of PyTorch's measurements: a workload's metric in a
// mode, torch-eager unless the workload has others too (W4 has
// torch-jit-trace).
type torchMetric struct{ workload, mode, metric string }

// id is how torch_bench.py's --list and --serve name the workload in the
// mode: "W4", or "W4/torch-jit-trace" for a mode other than torch-eager.
func (m torchMetric) id() string {
	if m.mode == torchEager {
		return m.workload
	}
	return m.workload + "/" + m.mode
}

// benchTorchAll is PyTorch's measurements, in the order they run.
func benchTorchAll() []torchMetric {
	out := []torchMetric{{"W1", torchEager, w1Metric}, {"W2", torchEager, w2Metric}}
	for _, n := range w3Sizes {
		out = append(out, torchMetric{"W3", torchEager, w3Metric(n)})
	}
	out = append(out,
		torchMetric{"W4", torchEager, w4Metric}, torchMetric{"W4", "torch-jit-trace", w4Metric},
		torchMetric{"W5", torchEager, w5Metric})
	return append(out, w7TorchMetrics()...)
}

// benchTorchMetrics lists PyTorch's measurements as torch_bench.py --list
// does, "WORKLOAD<TAB>METRIC" with the workload as torchMetric.id writes
// it.
func benchTorchMetrics() []string {
	var out []string
	for _, m := range benchTorchAll() {
		out = append(out, m.id()+"\t"+m.metric)
	}
	return out
}

// benchTorchMetricsOf is PyTorch's measurements of workload.
func benchTorchMetricsOf(workload string) []torchMetric {
	var out []torchMetric
	for _, m := range benchTorchAll() {
		if m.workload == workload {
			out = append(out, m)
		}
	}
	return out
}

// benchVsTorch are the targets against PyTorch eager (docs/performance.md): Stela's mode
// of the workload against PyTorch on every metric of the workload; want is
// the least ratio, strict makes it exclusive. These are also the
// measurements that run interleaved with PyTorch's (bencher.measure).
var benchVsTorch = []struct {
	workload, mode, desc string
	want                 float64
	strict               bool
}{
	{"W1", "eager", "no slower than PyTorch eager", 1, false},
	{"W2", "compiled", "at least 3x faster than PyTorch eager", 3, false},
	{"W3", "compiled", "at least 90% of PyTorch", 0.9, false},
	{"W4", "eager", "within 1.5x of PyTorch eager", 1 / 1.5, false},
	{"W4", "compiled", "at least 1.1x faster than PyTorch eager (0.9x of JAX's step, which takes about PyTorch's time here)", 1.1, false},
	{"W5", "compiled", "faster than PyTorch eager", 1, true},
}

// benchResult is one measurement, and one line of `stela bench --json`.
// torch_bench.py writes the same objects (mode "torch-eager").
type benchResult struct {
	Workload string `json:"workload"`
	// Mode is "eager" or "compiled" for Stela, "torch-eager" (or
	// "torch-jit-trace", W4) for PyTorch.
	Mode string `json:"mode"`
	// Metric names what was measured; Stela and PyTorch results of one
	// workload with equal metrics measure the same thing.
	Metric  string    `json:"metric"`
	Unit    string    `json:"unit"`
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Runs    int       `json:"runs"`
	Samples []float64 `json:"samples,omitempty"`
	// Derived are the median in other units: GB/s for W2, ms for W3.
	Derived map[string]float64 `json:"derived,omitempty"`
	// MaxAbsDiff is max |compiled − eager| over the outputs, a guard
	// against timing a wrong program.
	MaxAbsDiff *float64 `json:"max_abs_diff_vs_eager,omitempty"`
	// Threads is PyTorch's intra-op thread count (torch.get_num_threads()).
	Threads      int    `json:"threads,omitempty"`
	TorchVersion string `json:"torch_version,omitempty"`
	// Device is PyTorch's device when it is not the CPU.
	Device string `json:"device,omitempty"`
	Error  string `json:"error,omitempty"`
}

// benchTarget is one of the targets, checked after the workloads.
type benchTarget struct {
	Target   string  `json:"target"`
	Workload string  `json:"workload"`
	Mode     string  `json:"mode"`
	Metric   string  `json:"metric"`
	Stela    float64 `json:"stela"`
	Torch    float64 `json:"torch,omitempty"`
	Unit     string  `json:"unit"`
	// Ratio is how many times better Stela is than PyTorch (torch/stela
	// for times, stela/torch for rates); 0 for absolute targets.
	Ratio float64 `json:"ratio,omitempty"`
	Want  string  `json:"want"`
	OK    bool    `json:"ok"`
}

type bencher struct {
	runs   int
	device string
	json   bool
	out    io.Writer // JSON lines, or the text lines
	// lines is where the text lines go: out, or stderr with --markdown,
	// whose table goes to out at the end.
	lines   io.Writer
	stderr  io.Writer
	results []benchResult
	failed  bool
	// tb is PyTorch's side with --torch, else nil; torchResults are its
	// results, kept for b.torch.
	tb           *torchBench
	torchResults map[torchMetric]benchResult
}

func runBench(argv []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench")
	asJSON := fs.Bool("json", false, "print one JSON object per line")
	markdown := fs.Bool("markdown", false, "print the results as the markdown table of docs/performance.md (the lines go to stderr)")
	workloads := fs.String("workload", "", "the workloads to run, comma-separated: `W1,...` (default all: W1,W2,W3,W4,W5,W6,W7)")
	runs := fs.Int("runs", 5, "`N` timed runs per measurement, after one warm-up; the median is reported")
	device := fs.String("device", "cpu", "the `DEVICE` to run on (cpu, cpu:1, cuda, host, ...)")
	torch := fs.Bool("torch", false, "also run the workloads in PyTorch (torch_bench.py, built into stela) and check the targets against it; exit 1 when PyTorch cannot run")
	python := fs.String("python", "", "with --torch: the `PYTHON` that has torch (default: the first python3 on PATH that can import it)")
	torchThreads := fs.Int("torch-threads", 0, "with --torch: PyTorch's thread count `N` (default: the Stela CPU plugin's, so both use the same cores)")
	torchDevice := fs.String("torch-device", "", "with --torch: PyTorch's device, `cpu|cuda` (default: cuda when --device is cuda, else cpu)")
	if err := noArgs(fs, argv); err != nil {
		return err
	}
	if *runs < 1 {
		return usagef("--runs %d: want at least 1", *runs)
	}
	if ex := os.Getenv(benchChildEnv); ex != "" {
		return benchChild(*device, ex, stdout)
	}
	if *asJSON && *markdown {
		return usagef("--json and --markdown exclude each other")
	}
	names, err := parseBenchWorkloads(*workloads)
	if err != nil {
		return &usageError{err}
	}
	var torchPython string
	if *torch {
		// Before anything runs: a comparison that cannot happen is not
		// worth minutes of Stela's side.
		if torchPython, err = torchbench.Python(*python); err != nil {
			return fmt.Errorf("--torch: %w", err)
		}
	}
	if err := tensor.SetDefaultDevice(*device); err != nil {
		return err
	}
	b := &bencher{runs: *runs, device: *device, json: *asJSON, out: stdout, lines: stdout, stderr: stderr}
	if *markdown {
		b.lines = stderr
	}
	var tb *torchBench
	if *torch {
		threads := *torchThreads
		if threads <= 0 {
			threads = benchPoolSize()
		}
		dir, err := os.MkdirTemp("", "stela-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		script, err := torchbench.Write(dir)
		if err != nil {
			return err
		}
		tb = newTorchBench(torchPython, script, threads)
		tb.device = *torchDevice
		if tb.device == "" {
			tb.device = "cpu"
			if *device == "cuda" || strings.HasPrefix(*device, "cuda:") {
				tb.device = "cuda"
			}
		}
		b.tb = tb
		defer tb.stop()
	}
	if !b.json {
		threads := ""
		if *device == "cpu" || strings.HasPrefix(*device, "cpu:") {
			threads = ", " + benchThreads()
		}
		interleaved := ""
		if tb != nil {
			interleaved = "; Stela and PyTorch runs alternate (A B B A ...)"
		}
		fmt.Fprintf(b.lines, "stela bench: device %s%s; %d CPUs, GOMAXPROCS %d; median of %d run(s) after 1 warm-up%s\n",
			*device, threads, goruntime.NumCPU(), goruntime.GOMAXPROCS(0), *runs, interleaved)
	}
	for _, w := range benchWorkloads {
		if !slices.Contains(names, w.name) {
			continue
		}
		torchToo := tb != nil && len(benchTorchMetricsOf(w.name)) > 0
		if torchToo {
			b.startTorch() // before Stela's runs: importing torch takes seconds of CPU
		}
		var err error
		if perr := benchCatch(func() { err = w.run(b) }); perr != nil {
			err = perr // making the inputs failed, say
		}
		if err != nil {
			b.fail(benchResult{Workload: w.name, Metric: w.doc}, err)
		}
		if torchToo {
			b.torch(w.name)
		}
	}
	targets := checkBenchTargets(b.results, tb != nil)
	b.printTargets(targets, tb)
	if *markdown {
		fmt.Fprint(stdout, benchMarkdown(benchEnvironment(*device, *runs), b.results, targets))
	}
	if b.failed {
		return exitError{1}
	}
	return nil
}

// parseBenchWorkloads splits --workload, accepting "w2" for "W2".
func parseBenchWorkloads(s string) ([]string, error) {
	var known []string
	for _, w := range benchWorkloads {
		known = append(known, w.name)
	}
	if strings.TrimSpace(s) == "" {
		return known, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		name := strings.ToUpper(strings.TrimSpace(f))
		if !slices.Contains(known, name) {
			return nil, fmt.Errorf("unknown workload %q (have %s)", f, strings.Join(known, ", "))
		}
		out = append(out, name)
	}
	return out, nil
}

// benchThreads says how many threads the Stela CPU plugin's pool has.
func benchThreads() string {
	if s := os.Getenv("STELA_CPU_THREADS"); s != "" {
		return "STELA_CPU_THREADS=" + s
	}
	return fmt.Sprintf("%d plugin threads", benchPoolSize())
}

// benchPoolSize is the Stela CPU plugin's thread count: $STELA_CPU_THREADS,
// else the number of online CPUs (docs/cpu-plugin.md, "Threads").
func benchPoolSize() int {
	if n, err := strconv.Atoi(os.Getenv("STELA_CPU_THREADS")); err == nil && n > 0 {
		return n
	}
	return goruntime.NumCPU()
}

// measure runs fn once to warm up, then b.runs times, and returns the
// timed durations. A panic (a failed op panics with its located error, a
// jit.Compile'd function with its compile error) becomes an error, so that
// the other workloads still run.
//
// With --torch, a measurement that a target compares with PyTorch
// (benchVsTorch) is interleaved with PyTorch's of the same metric: Stela's
// warm-up, PyTorch's, then the timed runs of the two alternating in
// benchSchedule's order. The machine's speed changes from second to second,
// so measuring one side's runs in a block and the other's after them
// compares different machines; alternating single runs gives both the same
// mix. PyTorch's result is kept for b.torch, which prints it after Stela's
// lines of the workload. A failure on either side ends that side's runs,
// not the other's.
func (b *bencher) measure(workload, mode, metric string, fn func() error) ([]time.Duration, error) {
	call := func() error {
		var err error
		if perr := benchCatch(func() { err = fn() }); perr != nil {
			return perr
		}
		return err
	}
	tm := b.torchPartner(workload, mode, metric)
	var ds []time.Duration
	err := call()
	tm.settle()
	tm.warmup()
	prev := false // the side that ran last: PyTorch's warm-up
	for _, stela := range benchSchedule(b.runs) {
		if stela != prev {
			tm.settle()
		}
		prev = stela
		if !stela {
			tm.run()
			continue
		}
		if err != nil {
			continue
		}
		start := time.Now()
		if err = call(); err == nil {
			ds = append(ds, time.Since(start))
		}
	}
	tm.finish()
	return ds, err
}

// benchSchedule is the order of an interleaved measurement's timed runs,
// true for Stela's, runs of each: A B B A A B B A ... Neither side always
// goes first in a pair, and a side's runs follow the other side's about as
// often as its own.
func benchSchedule(runs int) []bool {
	out := make([]bool, 2*runs)
	for i := range out {
		out[i] = (i+1)/2%2 == 0
	}
	return out
}

// benchCatch runs fn and returns what it panics with as an error.
func benchCatch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	fn()
	return nil
}

// benchSummary summarizes samples (already in unit) into a benchResult.
func benchSummary(workload, mode, metric, unit string, samples []float64) benchResult {
	s := slices.Clone(samples)
	sort.Float64s(s)
	return benchResult{
		Workload: workload, Mode: mode, Metric: metric, Unit: unit,
		Median: benchMedian(s), Min: s[0], Max: s[len(s)-1], Runs: len(s), Samples: samples,
	}
}

// benchMedian is the median of sorted values; the mean of the middle two for an even count.
func benchMedian(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func benchScaled(ds []time.Duration, per time.Duration, div float64) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(d) / float64(per) / div
	}
	return out
}

func (b *bencher) emit(r benchResult) {
	b.results = append(b.results, r)
	if b.json {
		writeJSONLine(b.out, r)
		return
	}
	fmt.Fprintln(b.lines, formatBenchResult(r))
}

// writeJSONLine writes v as one line of JSON, with "<" and ">" as they
// are (targets say "< 100 ms").
func writeJSONLine(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // the bench types always marshal
	}
}

func (b *bencher) fail(r benchResult, err error) {
	b.failed = true
	r.Error = err.Error()
	b.emit(r)
}

// benchValue is a result's median in its unit, then its derived values in
// parentheses: "5.12 ms (6.55 GB/s)".
func benchValue(r benchResult) string {
	s := benchNum(r.Median) + " " + r.Unit
	if len(r.Derived) > 0 {
		units := make([]string, 0, len(r.Derived))
		for u := range r.Derived {
			units = append(units, u)
		}
		sort.Strings(units)
		var parts []string
		for _, u := range units {
			parts = append(parts, benchNum(r.Derived[u])+" "+u)
		}
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// formatBenchResult is a result's text line:
// "W2 compiled gelu_tanh(x*a+b) f32[4194304]: 5.12 ms (6.55 GB/s) median of 7".
func formatBenchResult(r benchResult) string {
	head := strings.Join(slices.DeleteFunc([]string{r.Workload, r.Mode, r.Metric}, func(s string) bool { return s == "" }), " ")
	if r.Error != "" {
		return head + ": error: " + r.Error
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", head, benchValue(r))
	fmt.Fprintf(&b, " median of %d", r.Runs)
	if r.Runs > 1 {
		fmt.Fprintf(&b, " [%s–%s]", benchNum(r.Min), benchNum(r.Max))
	}
	if r.MaxAbsDiff != nil {
		fmt.Fprintf(&b, "; max |compiled-eager| %.2g", *r.MaxAbsDiff)
	}
	if r.Threads > 0 {
		fmt.Fprintf(&b, "; torch %s, %d threads", r.TorchVersion, r.Threads)
	}
	if r.Device != "" {
		fmt.Fprintf(&b, " on %s", r.Device)
	}
	return b.String()
}

// benchNum prints about three significant digits without exponents for
// the magnitudes benchmarks produce.
func benchNum(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprint(v)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1 || a == 0:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

// benchRatio prints a ratio of Stela to PyTorch: "0.34x".
func benchRatio(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) + "x" }

// benchRandom is a tensor of n uniform samples in [-2, 2), on the default
// device.
func benchRandom(seed uint64, shape ...int) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 5))
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = r.Float32()*4 - 2
	}
	return tensor.FromSlice(data, shape...)
}

// benchMaxDiff compares two f32 tensors (a host read of both).
func benchMaxDiff(a, b *tensor.Tensor) float64 {
	x, y := a.Float32s(), b.Float32s()
	m := 0.0
	for i := range x {
		d := math.Abs(float64(x[i]) - float64(y[i]))
		if d > m || math.IsNaN(d) {
			m = d
		}
	}
	return m
}

// W1: the cost of one eager op on tiny tensors, which is all dispatch:
// cache lookup, argument checks, the plugin's execute, the result buffer.
func benchW1(b *bencher) error {
	x := benchRandom(1, 16)
	y := benchRandom(2, 16)
	ds, err := b.measure("W1", "eager", w1Metric, func() error {
		z := x
		for range w1Ops {
			z = tensor.Add(z, y)
		}
		return z.Err()
	})
	if err != nil {
		return err
	}
	b.emit(benchSummary("W1", "eager", w1Metric, "µs/op", benchScaled(ds, time.Microsecond, w1Ops)))
	return nil
}

// benchGELU is W2's function: tensor.GELU is the tanh approximation.
func benchGELU(x, a, c *tensor.Tensor) *tensor.Tensor {
	return tensor.GELU(tensor.Add(tensor.Mul(x, a), c))
}

// W2: a memory-bound elementwise chain: eager pays one pass over memory
// per op, compiled code can fuse them into one.
func benchW2(b *bencher) error {
	const n = 4194304
	const metric = w2Metric
	const bytes = 2 * 4 * n // one read of x, one write of y
	x := benchRandom(3, n)
	a := tensor.Scalar(float32(0.75))
	c := tensor.Scalar(float32(0.25))
	var eagerOut *tensor.Tensor
	run := func(mode string, f func(x, a, c *tensor.Tensor) *tensor.Tensor) error {
		var last *tensor.Tensor
		ds, err := b.measure("W2", mode, metric, func() error {
			if last != nil {
				last.Free()
			}
			last = f(x, a, c)
			return last.Err()
		})
		if err != nil {
			b.fail(benchResult{Workload: "W2", Mode: mode, Metric: metric}, err)
			return nil
		}
		r := benchSummary("W2", mode, metric, "ms", benchScaled(ds, time.Millisecond, 1))
		r.Derived = map[string]float64{"GB/s": bytes / (r.Median / 1e3) / 1e9}
		if mode == "eager" {
			eagerOut = last
		} else if eagerOut != nil {
			d := benchMaxDiff(last, eagerOut)
			r.MaxAbsDiff = &d
		}
		b.emit(r)
		return nil
	}
	if err := run("eager", benchGELU); err != nil {
		return err
	}
	return run("compiled", jit.Compile(benchGELU, jit.WithName("bench_gelu")))
}

// W3: compute-bound GEMM.
func benchW3(b *bencher) error {
	mm := jit.Compile(tensor.MatMul, jit.WithName("bench_matmul"))
	for _, n := range w3Sizes {
		metric := w3Metric(n)
		x := benchRandom(4, n, n)
		y := benchRandom(5, n, n)
		var last *tensor.Tensor
		ds, err := b.measure("W3", "compiled", metric, func() error {
			if last != nil {
				last.Free()
			}
			last = mm(x, y)
			return last.Err()
		})
		last.Free()
		x.Free()
		y.Free()
		if err != nil {
			b.fail(benchResult{Workload: "W3", Mode: "compiled", Metric: metric}, err)
			continue
		}
		flops := 2 * float64(n) * float64(n) * float64(n)
		gf := make([]float64, len(ds))
		for i, d := range ds {
			gf[i] = flops / d.Seconds() / 1e9
		}
		r := benchSummary("W3", "compiled", metric, "GFLOP/s", gf)
		ms := benchScaled(ds, time.Millisecond, 1)
		sort.Float64s(ms)
		r.Derived = map[string]float64{"ms": benchMedian(ms)}
		b.emit(r)
	}
	return nil
}

// benchCall calls an example's function (or a jit.Compile of it) on
// concrete inputs.
func benchCall(fn any, inputs []*tensor.Tensor) *tensor.Tensor {
	args := make([]reflect.Value, len(inputs))
	for i, t := range inputs {
		args[i] = reflect.ValueOf(t)
	}
	return reflect.ValueOf(fn).Call(args)[0].Interface().(*tensor.Tensor)
}

// W4: one training step of an MLP 784-1024-1024-10 (ReLU) on a batch of
// 256: forward, softmax cross-entropy, backward by autodiff, SGD (lr
// 0.01), examples.MLPTrain's step. Eagerly it runs op by op (the forward,
// then the derivative that passes/autodiff makes of it); compiled it is
// one program with the weights donated (jit.Donate), so they update in
// place. Each mode trains its own copy of the weights from the same start;
// the guard compares the two modes' first losses.
func benchW4(b *bencher) error {
	ex := examples.DefaultMLPTrain()
	in := ex.Inputs(1)
	x, y := in[0], in[1]
	fresh := func() []*tensor.Tensor {
		ws := make([]*tensor.Tensor, 6)
		for i, w := range in[2:] {
			ws[i] = tensor.FromLiteral(w.Literal())
		}
		return ws
	}
	var eagerLoss float64
	for _, mode := range []string{"eager", "compiled"} {
		step := ex.Step
		if mode == "compiled" {
			step = jit.Compile(ex.Step, jit.WithName("bench_mlp_train"), jit.Donate(2, 3, 4, 5, 6, 7))
		}
		ws := fresh()
		var first float64
		ds, err := b.measure("W4", mode, w4Metric, func() error {
			out := step(x, y, ws[0], ws[1], ws[2], ws[3], ws[4], ws[5])
			ws = out[1:]
			if err := out[0].Err(); err != nil {
				return err
			}
			if first == 0 {
				first = float64(out[0].Float32s()[0])
			}
			return nil
		})
		if err != nil {
			b.fail(benchResult{Workload: "W4", Mode: mode, Metric: w4Metric}, err)
			continue
		}
		r := benchSummary("W4", mode, w4Metric, "ms", benchScaled(ds, time.Millisecond, 1))
		if mode == "eager" {
			eagerLoss = first
		} else {
			d := math.Abs(first - eagerLoss)
			r.MaxAbsDiff = &d
		}
		b.emit(r)
	}
	return nil
}

// W5: a realistic forward pass: GEMMs, softmax, layer norms and the GELU
// MLP of one GPT-2-small block.
func benchW5(b *bencher) error {
	ex, err := examples.Get("gpt2-small")
	if err != nil {
		return err
	}
	inputs := ex.Inputs(1)
	var eagerOut *tensor.Tensor
	for _, mode := range []string{"eager", "compiled"} {
		fn := ex.Func()
		if mode == "compiled" {
			fn = jit.Compile(fn, jit.WithName("bench_gpt2_small"))
		}
		var last *tensor.Tensor
		ds, err := b.measure("W5", mode, w5Metric, func() error {
			if last != nil && last != eagerOut {
				last.Free()
			}
			last = benchCall(fn, inputs)
			return last.Err()
		})
		if err != nil {
			b.fail(benchResult{Workload: "W5", Mode: mode, Metric: w5Metric}, err)
			continue
		}
		r := benchSummary("W5", mode, w5Metric, "ms", benchScaled(ds, time.Millisecond, 1))
		if mode == "eager" {
			eagerOut = last
		} else if eagerOut != nil {
			d := benchMaxDiff(last, eagerOut)
			r.MaxAbsDiff = &d
		}
		b.emit(r)
	}
	return nil
}

// W6 metrics. A first call of a jit.Compile'd function compiles and then
// runs it; on a slow machine the run alone (W5) takes longer than the
// targets, and subtracting a separately timed run is all noise. So W6
// times what jit.Compile's first call does before it runs the program,
// through the same public pieces: trace (jit.TraceFull), the default pass
// pipeline, and the device's Compile (lowering, program hash, the runtime's
// in-memory cache, the plugin with its disk cache). A user's first call
// costs this plus one W5 compiled run.
const (
	w6First = "W5 compile, fresh process, empty compile cache"
	w6Warm  = "W5 compile, fresh process, warm disk cache"
	w6Again = "W5 compile, again in the same process"
	// The same for W4's training step: tracing it takes its derivative.
	w6TrainFirst = "W4 compile, fresh process, empty compile cache"
	w6TrainWarm  = "W4 compile, fresh process, warm disk cache"
	w6TrainAgain = "W4 compile, again in the same process"
)

// benchCompiled are the programs W6 compiles: the example, and its three
// metrics (empty cache, warm cache, again).
var benchCompiled = []struct {
	example            string
	first, warm, again string
}{
	{"gpt2-small", w6First, w6Warm, w6Again},
	{"mlp-train", w6TrainFirst, w6TrainWarm, w6TrainAgain},
}

// benchCompileTimes is one compile of W5 in ms, by stage.
type benchCompileTimes struct {
	Trace   float64 `json:"trace_ms"`
	Passes  float64 `json:"passes_ms"`
	Compile float64 `json:"compile_ms"` // lowering, hashing, cache lookups, the plugin
}

func (c benchCompileTimes) total() float64 { return c.Trace + c.Passes + c.Compile }

// benchChildResult is what a W6 child prints.
type benchChildResult struct {
	First  benchCompileTimes `json:"first"`
	Second benchCompileTimes `json:"second"` // the same again in the same process
	// Compiles and ProgramHits are runtime.CacheStats deltas over the
	// second compile: 0 and 1 when the runtime's in-memory cache served it.
	Compiles    int64 `json:"compiles"`
	ProgramHits int64 `json:"program_hits"`
}

// benchChild is the body of a W6 child process: open the device (building
// the plugin if needed) outside the timed region, then compile the
// example twice ("1", as older parents say, is W5's gpt2-small).
func benchChild(device, example string, stdout io.Writer) error {
	if example == "1" {
		example = "gpt2-small"
	}
	if err := tensor.SetDefaultDevice(device); err != nil {
		return err
	}
	comp, ok := tensor.DefaultDevice().(runtime.Compiler)
	if !ok {
		return fmt.Errorf("device %s does not compile programs", device)
	}
	ex, err := examples.Get(example)
	if err != nil {
		return err
	}
	compile := func() (benchCompileTimes, error) {
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		var t benchCompileTimes
		start := time.Now()
		tr, err := examples.Trace(ex)
		if err != nil {
			return t, err
		}
		t.Trace = ms(time.Since(start))
		start = time.Now()
		m := &ir.Module{Funcs: []*ir.Func{tr.Func}}
		if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
			return t, err
		}
		t.Passes = ms(time.Since(start))
		start = time.Now()
		if _, err := comp.Compile(m.Funcs[0]); err != nil {
			return t, err
		}
		t.Compile = ms(time.Since(start))
		return t, nil
	}
	var res benchChildResult
	if res.First, err = compile(); err != nil {
		return err
	}
	before := runtime.CacheStats()
	if res.Second, err = compile(); err != nil {
		return err
	}
	after := runtime.CacheStats()
	res.Compiles = after.Compiles - before.Compiles
	res.ProgramHits = after.ProgramHits - before.ProgramHits
	writeJSONLine(stdout, res)
	return nil
}

// W6: compile latency. Each run makes a new compile cache directory
// (STELA_CACHE_DIR, the CPU plugin's object cache) and starts two child
// processes on it: the first finds it empty, the second warm. Both also
// compile a second time in the same process.
func benchW6(b *bencher) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	for _, c := range benchCompiled {
		var first, warm, again []benchCompileTimes
		for range b.runs {
			dir, err := os.MkdirTemp("", "stela-bench-cache-")
			if err != nil {
				return err
			}
			for i, dst := range []*[]benchCompileTimes{&first, &warm} {
				r, err := b.child(exe, dir, c.example)
				if err != nil {
					os.RemoveAll(dir)
					return err
				}
				if r.Compiles != 0 || r.ProgramHits != 1 {
					fmt.Fprintf(b.stderr, "stela bench: W6: the second compile of %s was not served by the in-memory cache (%d compiles, %d program hits)\n", c.example, r.Compiles, r.ProgramHits)
				}
				*dst = append(*dst, r.First)
				if i == 1 {
					again = append(again, r.Second)
				}
			}
			os.RemoveAll(dir)
		}
		for _, m := range []struct {
			metric string
			ts     []benchCompileTimes
		}{{c.first, first}, {c.warm, warm}, {c.again, again}} {
			var total, trace, pass, comp []float64
			for _, t := range m.ts {
				total = append(total, t.total())
				trace = append(trace, t.Trace)
				pass = append(pass, t.Passes)
				comp = append(comp, t.Compile)
			}
			r := benchSummary("W6", "compiled", m.metric, "ms", total)
			r.Derived = map[string]float64{
				"ms trace": sortedMedian(trace), "ms passes": sortedMedian(pass), "ms lower+compile": sortedMedian(comp),
			}
			b.emit(r)
		}
	}
	return nil
}

// sortedMedian is the median of unsorted values.
func sortedMedian(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	return benchMedian(s)
}

func (b *bencher) child(exe, cacheDir, example string) (benchChildResult, error) {
	cmd := exec.Command(exe, "bench", "--device", b.device)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "STELA_CACHE_DIR=") || strings.HasPrefix(kv, "STELA_CPU_NO_CACHE=")
	})
	cmd.Env = append(env, benchChildEnv+"="+example, "STELA_CACHE_DIR="+cacheDir)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = b.stderr
	var r benchChildResult
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("W6 child process: %v", err)
	}
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &r); err != nil {
		return r, fmt.Errorf("W6 child process printed %q: %v", out.String(), err)
	}
	return r, nil
}

// torchBench is PyTorch's side: one torch_bench.py --serve process for the
// invocation, started by startTorch, which takes one command a line and
// answers each with one JSON object a line (its serve() documents the
// protocol). Commands are answered before the next is sent, so PyTorch
// never runs while Stela is being timed, nor the other way round.
type torchBench struct {
	python, script string
	threads        int
	device         string // torch_bench.py's --device
	err            error  // why PyTorch cannot run; reported once
	reported       bool

	cmd    *exec.Cmd // nil before start and after stop
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer // read only after cmd.Wait
}

// newTorchBench is PyTorch's side, run by python from the script file
// (torchbench.Write).
func newTorchBench(python, script string, threads int) *torchBench {
	return &torchBench{python: python, script: script, threads: threads}
}

// name is the server's command line, for errors.
func (tb *torchBench) name() string {
	return tb.python + " " + filepath.Base(tb.script) + " --serve"
}

// start starts the server and waits until it has imported torch.
func (tb *torchBench) start() error {
	if tb.err != nil || tb.cmd != nil {
		return tb.err
	}
	args := []string{tb.script, "--serve", "--threads", strconv.Itoa(tb.threads)}
	if tb.device != "" && tb.device != "cpu" {
		args = append(args, "--device", tb.device)
	}
	cmd := exec.Command(tb.python, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	tb.stderr = new(bytes.Buffer)
	cmd.Stderr = tb.stderr
	// A child the server leaves behind may hold its stderr open; Wait
	// gives up on it after this.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %v", tb.name(), err)
	}
	tb.cmd, tb.stdin, tb.stdout = cmd, stdin, bufio.NewReader(stdout)
	var ready struct {
		Ready bool `json:"ready"`
	}
	if err := tb.read("", &ready); err != nil {
		return err
	}
	if !ready.Ready {
		return tb.fail(fmt.Errorf("%s started with a line other than {\"ready\": true, ...}", tb.name()))
	}
	return nil
}

// call sends one command and decodes its answer into v.
func (tb *torchBench) call(command string, v any) error {
	if tb.cmd == nil {
		return fmt.Errorf("%s: not running", tb.name())
	}
	// Writing to a server that died fails; read then says how it died.
	io.WriteString(tb.stdin, command+"\n")
	return tb.read(command, v)
}

// read reads the answer to command ("" for the ready line) into v. The
// server dying, printing something other than a JSON object, or answering
// with an error is an error that says what it printed; the first two stop
// it. There is no timeout: a hung PyTorch hangs the benchmark, as a hung
// Stela run would.
func (tb *torchBench) read(command string, v any) error {
	after := ""
	if command != "" {
		after = fmt.Sprintf(" after %q", command)
	}
	line, err := tb.stdout.ReadBytes('\n')
	if err != nil {
		if len(bytes.TrimSpace(line)) > 0 { // a last line without a newline
			return tb.fail(fmt.Errorf("%s printed %q%s, then %v", tb.name(), line, after, err))
		}
		return tb.died(after)
	}
	line = bytes.TrimSpace(line)
	var e struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(line, &e); err != nil || line[0] != '{' {
		return tb.fail(fmt.Errorf("%s printed %q%s, not a JSON object", tb.name(), line, after))
	}
	if e.Error != nil {
		return fmt.Errorf("%s: %s: %s", tb.name(), command, *e.Error)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return tb.fail(fmt.Errorf("%s printed %q%s: %v", tb.name(), line, after, err))
	}
	return nil
}

// died is the error of a server whose stdout ended: its exit status and
// the last line of its stderr (a Python traceback ends with the exception).
func (tb *torchBench) died(after string) error {
	tb.stdin.Close()
	err := tb.cmd.Wait()
	tb.cmd = nil
	if err == nil {
		err = fmt.Errorf("exited")
	}
	msg := strings.TrimSpace(tb.stderr.String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if msg != "" {
		msg = ": " + msg
	}
	return fmt.Errorf("%s: %v%s%s", tb.name(), err, after, msg)
}

// fail stops a server that cannot be trusted any more and returns err.
func (tb *torchBench) fail(err error) error {
	if tb.cmd != nil {
		tb.cmd.Process.Kill()
		tb.stdin.Close()
		tb.cmd.Wait()
		tb.cmd = nil
	}
	return err
}

// stop asks the server to quit and waits for it, killing it if it does not
// exit in a few seconds.
func (tb *torchBench) stop() {
	if tb.cmd == nil {
		return
	}
	io.WriteString(tb.stdin, "quit\n")
	tb.stdin.Close()
	p := tb.cmd.Process
	t := time.AfterFunc(5*time.Second, func() { p.Kill() })
	tb.cmd.Wait()
	t.Stop()
	tb.cmd = nil
}

// startTorch starts PyTorch's server if it is not running yet.
func (b *bencher) startTorch() {
	if err := b.tb.start(); err != nil {
		b.torchFailed(err)
	}
}

// torchFailed reports why PyTorch cannot run, once, and stops using it.
// Stela's side goes on, but the comparison asked for did not happen: the
// command exits 1.
func (b *bencher) torchFailed(err error) {
	tb := b.tb
	b.failed = true
	if !tb.reported {
		fmt.Fprintf(b.stderr, "stela bench: PyTorch: %v\n", err)
		tb.reported = true
	}
	tb.err = err
	tb.fail(nil)
}

// torchMeasurement is PyTorch's side of one measurement. Its methods do
// nothing on a nil receiver (no PyTorch) or once PyTorch has failed.
type torchMeasurement struct {
	b *bencher
	torchMetric
	runs int // timed runs answered
}

// torchPartner is PyTorch's side of Stela's measurement of mode if a
// target compares that with PyTorch on metric, else nil.
func (b *bencher) torchPartner(workload, mode, metric string) *torchMeasurement {
	tm := torchMetric{workload, torchEager, metric}
	if b.tb == nil || !slices.Contains(benchTorchMetricsOf(workload), tm) {
		return nil
	}
	for _, v := range benchVsTorch {
		if v.workload == workload && v.mode == mode {
			return &torchMeasurement{b: b, torchMetric: tm}
		}
	}
	return nil
}

func (tm *torchMeasurement) do(command string, v any) bool {
	if tm == nil || tm.b.tb.err != nil {
		return false
	}
	if err := tm.b.tb.call(command+" "+tm.id()+" "+tm.metric, v); err != nil {
		tm.b.torchFailed(err)
		return false
	}
	return true
}

// benchSettle is the pause before a run that follows the other side's.
// After a parallel call, OpenBLAS's idle worker threads spin (yielding)
// for up to 2^28 cycles, about 0.1 s here, and PyTorch's OpenMP threads
// spin too: without a pause, a run that followed the other side's shared
// the two cores with its spinning threads (W3 1024³ measured 0.57x of
// PyTorch interleaved, 1.1x in blocks).
const benchSettle = 250 * time.Millisecond

// settle pauses before switching sides, when there is a PyTorch side.
func (tm *torchMeasurement) settle() {
	if tm != nil && tm.b.tb.err == nil {
		time.Sleep(benchSettle)
	}
}

// warmup is PyTorch's warm-up call (the first makes the inputs).
func (tm *torchMeasurement) warmup() {
	var r struct {
		Warmup *float64 `json:"warmup"`
	}
	if tm.do("warmup", &r) && r.Warmup == nil {
		tm.b.torchFailed(fmt.Errorf("%s: warmup %s %s: no \"warmup\" in the answer", tm.b.tb.name(), tm.id(), tm.metric))
	}
}

// run is one timed run of PyTorch's.
func (tm *torchMeasurement) run() {
	var r struct {
		Sample *float64 `json:"sample"`
	}
	if !tm.do("run", &r) {
		return
	}
	if r.Sample == nil {
		tm.b.torchFailed(fmt.Errorf("%s: run %s %s: no \"sample\" in the answer", tm.b.tb.name(), tm.id(), tm.metric))
		return
	}
	tm.runs++
}

// finish fetches PyTorch's result over its timed runs, for b.torch.
func (tm *torchMeasurement) finish() {
	if tm == nil || tm.runs == 0 {
		return
	}
	var r benchResult
	if !tm.do("result", &r) {
		return
	}
	if r.Workload != tm.workload || r.Metric != tm.metric || r.Mode != tm.mode || r.Runs != tm.runs {
		tm.b.torchFailed(fmt.Errorf("%s: result %s %s: got %s %s %s over %d runs, want %s over %d",
			tm.b.tb.name(), tm.id(), tm.metric, r.Workload, r.Mode, r.Metric, r.Runs, tm.mode, tm.runs))
		return
	}
	if tm.b.torchResults == nil {
		tm.b.torchResults = map[torchMetric]benchResult{}
	}
	tm.b.torchResults[tm.torchMetric] = r
}

// torch prints PyTorch's results of workload, in the order of
// benchTorchMetrics. A metric whose Stela measurement never ran (its
// workload failed first) is measured by PyTorch alone.
func (b *bencher) torch(workload string) {
	for _, key := range benchTorchMetricsOf(workload) {
		if _, ok := b.torchResults[key]; !ok {
			tm := &torchMeasurement{b: b, torchMetric: key}
			tm.warmup()
			for range b.runs {
				tm.run()
			}
			tm.finish()
		}
		if r, ok := b.torchResults[key]; ok {
			b.emit(r)
		}
	}
}

// checkBenchTargets evaluates the targets on the results. Targets against
// PyTorch are checked only when it ran.
func checkBenchTargets(rs []benchResult, torch bool) []benchTarget {
	find := func(workload, mode, metric string) *benchResult {
		for i := range rs {
			r := &rs[i]
			if r.Workload == workload && r.Mode == mode && r.Metric == metric && r.Error == "" {
				return r
			}
		}
		return nil
	}
	var ts []benchTarget
	vsTorch := func(workload, mode, desc string, want float64, strict bool) {
		for _, s := range rs {
			if s.Workload != workload || s.Mode != mode || s.Error != "" {
				continue
			}
			t := find(workload, torchEager, s.Metric)
			if t == nil {
				continue
			}
			ratio := t.Median / s.Median // times: how many times faster
			if s.Unit == "GFLOP/s" || s.Unit == "GB/s" {
				ratio = s.Median / t.Median
			}
			op := "≥"
			ok := ratio >= want
			if strict {
				op, ok = ">", ratio > want
			}
			ts = append(ts, benchTarget{
				Target: fmt.Sprintf("%s %s %s %s", workload, mode, s.Metric, desc), Workload: workload, Mode: mode, Metric: s.Metric,
				Stela: s.Median, Torch: t.Median, Unit: s.Unit, Ratio: ratio,
				Want: fmt.Sprintf("%s %gx", op, want), OK: ok,
			})
		}
	}
	if torch {
		for _, v := range benchVsTorch {
			vsTorch(v.workload, v.mode, v.desc, v.want, v.strict)
		}
	}
	for _, c := range []struct {
		metric, desc string
		limit        float64
	}{
		{w6First, "compile latency, empty cache, under 2 s", 2000},
		{w6Warm, "compile latency, warm disk cache, under 100 ms", 100},
		{w6TrainFirst, "training step compile latency, empty cache, under 1 s", 1000},
		{w6TrainWarm, "training step compile latency, warm disk cache, under 20 ms", 20},
	} {
		if s := find("W6", "compiled", c.metric); s != nil {
			ts = append(ts, benchTarget{
				Target: "W6 " + c.desc, Workload: "W6", Mode: "compiled", Metric: c.metric, Stela: s.Median, Unit: s.Unit,
				Want: fmt.Sprintf("< %g %s", c.limit, s.Unit), OK: s.Median < c.limit,
			})
		}
	}
	return append(ts, w7Targets(find, torch)...)
}

func (b *bencher) printTargets(ts []benchTarget, tb *torchBench) {
	if b.json {
		for _, t := range ts {
			writeJSONLine(b.out, t)
		}
		return
	}
	if len(ts) > 0 {
		fmt.Fprintln(b.lines, "targets:")
	}
	for _, t := range ts {
		fmt.Fprintln(b.lines, "  "+formatBenchTarget(t))
	}
	if tb != nil && tb.err != nil {
		fmt.Fprintf(b.lines, "  (PyTorch did not run: the targets against it were not checked)\n")
	}
}

// formatBenchTarget is a target's text line.
func formatBenchTarget(t benchTarget) string {
	verdict := "MISSED"
	if t.OK {
		verdict = "ok"
	}
	if t.Torch == 0 {
		return fmt.Sprintf("%-6s %s: %s %s (want %s)", verdict, t.Target, benchNum(t.Stela), t.Unit, t.Want)
	}
	return fmt.Sprintf("%-6s %s: stela %s, torch %s %s: %s (want %s)",
		verdict, t.Target, benchNum(t.Stela), benchNum(t.Torch), t.Unit, benchRatio(t.Ratio), t.Want)
}

// benchEnvironment describes the run for the markdown table's heading:
// date, commit, machine, Go.
func benchEnvironment(device string, runs int) string {
	commit := "unknown commit"
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		commit = "commit " + strings.TrimSpace(string(out))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
			commit += " with uncommitted changes"
		}
	}
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %s; %s, %d CPUs; %s; device %s, %s; median of %d runs",
		time.Now().UTC().Format("2006-01-02"), commit, cpu, goruntime.NumCPU(), goruntime.Version(), device, benchThreads(), runs)
}

// benchMarkdown is the results table of docs/performance.md: one row per
// Stela measurement, with PyTorch's of the same metric and the target.
func benchMarkdown(env string, rs []benchResult, ts []benchTarget) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s.", env)
	for _, r := range rs {
		if r.Mode == "torch-eager" && r.TorchVersion != "" {
			fmt.Fprintf(&b, " PyTorch %s, %d threads.", r.TorchVersion, r.Threads)
			break
		}
	}
	b.WriteString("\n\n| workload | mode | metric | Stela | PyTorch eager | Stela vs PyTorch | target |\n")
	b.WriteString("| --- | --- | --- | ---: | ---: | ---: | --- |\n")
	cell := func(r *benchResult) string {
		if r == nil {
			return "–"
		}
		if r.Error != "" {
			return "error: " + strings.ReplaceAll(r.Error, "|", "\\|")
		}
		return benchValue(*r)
	}
	for i := range rs {
		r := &rs[i]
		if strings.HasPrefix(r.Mode, "torch-") {
			continue
		}
		var torch *benchResult
		for j := range rs {
			if t := &rs[j]; t.Mode == "torch-eager" && t.Workload == r.Workload && t.Metric == r.Metric && t.Error == "" {
				torch = t
			}
		}
		ratio := "–"
		if torch != nil && r.Error == "" {
			x := torch.Median / r.Median
			if r.Unit == "GFLOP/s" || r.Unit == "GB/s" {
				x = r.Median / torch.Median
			}
			ratio = benchRatio(x)
		}
		target := "–"
		for _, t := range ts {
			if t.Workload == r.Workload && t.Mode == r.Mode && t.Metric == r.Metric {
				target = t.Want + ": **missed**"
				if t.OK {
					target = t.Want + ": ok"
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Workload, r.Mode, r.Metric, cell(r), cell(torch), ratio, target)
	}
	return b.String()
}
