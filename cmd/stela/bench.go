package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"regexp"
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
	{"W1", "eager dispatch: 10,000 chained adds of f32[16], plain and fused eager", benchW1},
	{"W2", "gelu_tanh(x*a+b) on f32[4194304], eager, fused eager and compiled", benchW2},
	{"W3", "f32 matmul 1024³ and 2048³, compiled", benchW3},
	{"W4", "MLP 784-1024-1024-10 training step, batch 256, compiled", benchW4},
	{"W5", "GPT-2-small block forward, eager, fused eager and compiled", benchW5},
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

// The peers' modes: PyTorch's eager results (the ones most targets
// compare with), NumPy's (W1, run by PyTorch's side), and JAX's.
const (
	torchEager = "torch-eager"
	numpyMode  = "numpy"
	jaxEager   = "jax-eager"
	jaxJIT     = "jax-jit"
)

// torchMetric is one of a peer's measurements: a workload's metric in a
// mode (torch-eager, torch-jit-trace, numpy; jax-eager, jax-jit).
type torchMetric struct{ workload, mode, metric string }

// id is how a peer's script (--list, --serve) names the workload in the
// mode: "W4" in the peer's default mode (torch-eager, jax-jit), else
// "W4/torch-jit-trace".
func (m torchMetric) id(defaultMode string) string {
	if m.mode == defaultMode {
		return m.workload
	}
	return m.workload + "/" + m.mode
}

// benchTorchAll is PyTorch's measurements, in the order they run.
func benchTorchAll() []torchMetric {
	out := []torchMetric{{"W1", torchEager, w1Metric}, {"W1", numpyMode, w1Metric}, {"W2", torchEager, w2Metric}}
	for _, n := range w3Sizes {
		out = append(out, torchMetric{"W3", torchEager, w3Metric(n)})
	}
	out = append(out,
		torchMetric{"W4", torchEager, w4Metric}, torchMetric{"W4", "torch-jit-trace", w4Metric},
		torchMetric{"W5", torchEager, w5Metric})
	return append(out, w7Metrics(torchEager)...)
}

// benchJAXAll is JAX's measurements, in the order they run.
func benchJAXAll() []torchMetric {
	out := []torchMetric{{"W1", jaxEager, w1Metric}, {"W2", jaxJIT, w2Metric}}
	for _, n := range w3Sizes {
		out = append(out, torchMetric{"W3", jaxJIT, w3Metric(n)})
	}
	out = append(out, torchMetric{"W4", jaxJIT, w4Metric}, torchMetric{"W5", jaxJIT, w5Metric},
		torchMetric{"W6", jaxJIT, w6First}, torchMetric{"W6", jaxJIT, w6Warm})
	return append(out, w7Metrics(jaxJIT)...)
}

// benchPeerMetrics lists measurements as a peer script's --list does,
// "WORKLOAD<TAB>METRIC" with the workload as torchMetric.id writes it.
func benchPeerMetrics(all []torchMetric, defaultMode string) []string {
	var out []string
	for _, m := range all {
		out = append(out, m.id(defaultMode)+"\t"+m.metric)
	}
	return out
}

// benchTorchMetrics is PyTorch's list (torch_bench.py --list).
func benchTorchMetrics() []string { return benchPeerMetrics(benchTorchAll(), torchEager) }

// benchJAXMetrics is JAX's list (jax_bench.py --list).
func benchJAXMetrics() []string { return benchPeerMetrics(benchJAXAll(), jaxJIT) }

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
	// Threads is PyTorch's intra-op thread count (torch.get_num_threads()),
	// or the CPUs JAX's XLA sees.
	Threads      int    `json:"threads,omitempty"`
	TorchVersion string `json:"torch_version,omitempty"`
	JAXVersion   string `json:"jax_version,omitempty"`
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
	// Vs is the mode Stela's is compared with: a peer's (torch-eager,
	// numpy, jax-jit, ...), "bound" (the machine's), or another of
	// Stela's (compiled); Peer is its median. Both are empty for an
	// absolute target.
	Vs   string  `json:"vs,omitempty"`
	Peer float64 `json:"peer,omitempty"`
	Unit string  `json:"unit"`
	// Ratio is how many times better Stela is than Vs (peer/stela for
	// times, stela/peer for rates); 0 for absolute targets.
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
	// peers are the peers' sides asked for: PyTorch (--torch), then JAX
	// (--jax).
	peers []*torchBench
	// bounds are the machine's bounds of measurements (mode "bound"),
	// by workload and metric, when they were measured.
	bounds map[[2]string]benchResult
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
	jax := fs.Bool("jax", false, "also run the workloads in JAX on XLA's CPU compiler (jax_bench.py, built into stela; jax from $STELA_JAXLIB_PYTHONPATH) and check the targets against it; exit 1 when JAX cannot run")
	jaxPython := fs.String("jax-python", "", "with --jax: the `PYTHON` that has jax (default: the first python3 on PATH that finds it, with $STELA_JAXLIB_PYTHONPATH on PYTHONPATH)")
	gomlx := fs.Bool("gomlx", false, "run the GoMLX comparison instead (GoMLX's Go backend, GoMLX on Stela and frontend/jit on W1-W6 of docs/gomlx.md): go run of test/gomlx/bench in the Stela checkout around the working directory; --workload and --runs apply")
	if err := noArgs(fs, argv); err != nil {
		return err
	}
	if *runs < 1 {
		return usagef("--runs %d: want at least 1", *runs)
	}
	if *gomlx {
		if *torch || *jax || *asJSON || *markdown {
			return usagef("--gomlx prints the GoMLX comparison's own table: it takes no --torch, --jax, --json or --markdown")
		}
		runsSet := false
		fs.Visit(func(f *flag.Flag) { runsSet = runsSet || f.Name == "runs" })
		return runBenchGoMLX(*workloads, *runs, runsSet, stdout, stderr)
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
	var torchPython, jaxPy string
	// Before anything runs: a comparison that cannot happen is not worth
	// minutes of Stela's side.
	if *torch {
		if torchPython, err = torchbench.Python(*python); err != nil {
			return fmt.Errorf("--torch: %w", err)
		}
	}
	if *jax {
		if jaxPy, err = torchbench.JAXPython(*jaxPython); err != nil {
			return fmt.Errorf("--jax: %w", err)
		}
	}
	if err := tensor.SetDefaultDevice(*device); err != nil {
		return err
	}
	b := &bencher{runs: *runs, device: *device, json: *asJSON, out: stdout, lines: stdout, stderr: stderr}
	if *markdown {
		b.lines = stderr
	}
	if *torch || *jax {
		dir, err := os.MkdirTemp("", "stela-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if *torch {
			threads := *torchThreads
			if threads <= 0 {
				threads = benchPoolSize()
			}
			script, err := torchbench.Write(dir)
			if err != nil {
				return err
			}
			tb := newTorchBench(torchPython, script, threads)
			tb.device = *torchDevice
			if tb.device == "" {
				tb.device = "cpu"
				if *device == "cuda" || strings.HasPrefix(*device, "cuda:") {
					tb.device = "cuda"
				}
			}
			b.peers = append(b.peers, tb)
			defer tb.stop()
		}
		if *jax {
			script, err := torchbench.WriteJAX(dir)
			if err != nil {
				return err
			}
			jb := newJAXBench(jaxPy, script)
			b.peers = append(b.peers, jb)
			defer jb.stop()
		}
	}
	if !b.json {
		threads := ""
		if *device == "cpu" || strings.HasPrefix(*device, "cpu:") {
			threads = ", " + benchThreads()
		}
		interleaved := ""
		if len(b.peers) > 0 {
			sides, order := []string{"Stela"}, "A"
			for i, p := range b.peers {
				sides = append(sides, p.label)
				order += string(rune('B' + i))
			}
			interleaved = fmt.Sprintf("; %s runs alternate (%s %s ...)", benchJoin(sides), strings.Join(strings.Split(order, ""), " "),
				strings.Join(strings.Split(benchReverse(order), ""), " "))
		}
		fmt.Fprintf(b.lines, "stela bench: device %s%s; %d CPUs, GOMAXPROCS %d; median of %d run(s) after 1 warm-up%s\n",
			*device, threads, goruntime.NumCPU(), goruntime.GOMAXPROCS(0), *runs, interleaved)
	}
	b.measureBounds(names)
	for _, w := range benchWorkloads {
		if !slices.Contains(names, w.name) {
			continue
		}
		for _, p := range b.peers {
			if len(p.metricsOf(w.name)) > 0 {
				b.startPeer(p) // before Stela's runs: importing torch or jax takes seconds of CPU
			}
		}
		var err error
		if perr := benchCatch(func() { err = w.run(b) }); perr != nil {
			err = perr // making the inputs failed, say
		}
		if err != nil {
			b.fail(benchResult{Workload: w.name, Metric: w.doc}, err)
		}
		for _, p := range b.peers {
			b.peerAlone(p, w.name)
		}
	}
	targets := checkBenchTargets(b.results)
	b.printTargets(targets)
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
// With --torch or --jax, a measurement that a target compares with a
// peer's (benchGoals) is interleaved with the peer's of the same metric:
// Stela's warm-up, each partner's, then the timed runs of all sides
// alternating in benchSchedule's order. The machine's speed changes from
// second to second, so measuring one side's runs in a block and the
// other's after them compares different machines; alternating single runs
// gives all the same mix. The peers' results are kept for b.peerAlone,
// which prints them after Stela's lines of the workload. A failure on one
// side ends that side's runs, not the others'.
func (b *bencher) measure(workload, mode, metric string, fn func() error) ([]time.Duration, error) {
	ds, errs := b.measureSides(workload, metric, []benchSide{{mode, fn}})
	return ds[0], errs[0]
}

// benchSide is one of Stela's modes of a measurement: its mode and one
// call.
type benchSide struct {
	mode string
	fn   func() error
}

// measureSides is measure for several of Stela's modes of one metric at
// once (W2's and W5's fused and compiled, which a target compares): their
// timed runs alternate with each other's, and with the partners' of each,
// in benchSchedule's order, so that all see the same machine. It returns
// each side's durations and error.
func (b *bencher) measureSides(workload, metric string, sides []benchSide) ([][]time.Duration, []error) {
	call := func(fn func() error) error {
		var err error
		if perr := benchCatch(func() { err = fn() }); perr != nil {
			return perr
		}
		return err
	}
	var tms []*torchMeasurement
	for _, sd := range sides {
		for _, tm := range b.partners(workload, sd.mode, metric) {
			if !slices.ContainsFunc(tms, func(o *torchMeasurement) bool { return o.tb == tm.tb && o.torchMetric == tm.torchMetric }) {
				tms = append(tms, tm)
			}
		}
	}
	settle := func() {
		for _, tm := range tms {
			if tm.alive() {
				time.Sleep(benchSettle)
				return
			}
		}
	}
	ds := make([][]time.Duration, len(sides))
	errs := make([]error, len(sides))
	for i, sd := range sides {
		errs[i] = call(sd.fn)
	}
	for _, tm := range tms {
		settle()
		tm.warmup()
	}
	n := len(sides)
	prev := n + len(tms) - 1 // the side that ran last: the last warm-up
	for _, side := range benchSchedule(b.runs, n+len(tms)) {
		if side != prev {
			settle()
		}
		prev = side
		if side >= n {
			tms[side-n].run()
			continue
		}
		if errs[side] != nil {
			continue
		}
		start := time.Now()
		if errs[side] = call(sides[side].fn); errs[side] == nil {
			ds[side] = append(ds[side], time.Since(start))
		}
	}
	for _, tm := range tms {
		tm.finish()
	}
	return ds, errs
}

// benchSchedule is the order of an interleaved measurement's timed runs
// over sides sides (0 is Stela's, then the partners'), runs of each: with
// two sides A B B A A B B A ..., with three A B C C B A A B C ... No side
// always goes first in a round, and a side's runs follow each other side's
// about as often.
func benchSchedule(runs, sides int) []int {
	out := make([]int, 0, runs*sides)
	for r := range runs {
		for i := range sides {
			if r%2 == 0 {
				out = append(out, i)
			} else {
				out = append(out, sides-1-i)
			}
		}
	}
	return out
}

// benchJoin joins names as prose: "A", "A and B", "A, B and C".
func benchJoin(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// benchReverse reverses an ASCII string.
func benchReverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
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
	r = b.withBound(r)
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
		fmt.Fprintf(&b, "; max |%s-eager| %.2g", r.Mode, *r.MaxAbsDiff)
	}
	switch {
	case r.JAXVersion != "":
		fmt.Fprintf(&b, "; jax %s, %d CPUs", r.JAXVersion, r.Threads)
	case r.Threads > 0:
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
	for _, mode := range []string{"eager", "fused"} {
		ds, err := b.measure("W1", mode, w1Metric, benchInMode(mode, func() error {
			z := x
			for range w1Ops {
				z = tensor.Add(z, y)
			}
			return z.Err()
		}))
		if err != nil {
			b.fail(benchResult{Workload: "W1", Mode: mode, Metric: w1Metric}, err)
			continue
		}
		b.emit(benchSummary("W1", mode, w1Metric, "µs/op", benchScaled(ds, time.Microsecond, w1Ops)))
	}
	return nil
}

// benchInMode is fn run in the eager mode of a bench mode: fused eager mode
// (tensor.EagerFused) for "fused", else plain. The mode is set around each
// call; leaving fused mode flushes nothing, since each call ends at a sync
// point that ran its window.
func benchInMode(mode string, fn func() error) func() error {
	if mode != "fused" {
		return fn
	}
	return func() (err error) {
		tensor.WithEagerMode(tensor.EagerFused, func() { err = fn() })
		return err
	}
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
	// Eager alone, then fused and compiled interleaved: a target compares
	// those two.
	modes := []string{"eager", "fused", "compiled"}
	fns := []func(x, a, c *tensor.Tensor) *tensor.Tensor{benchGELU, benchGELU, jit.Compile(benchGELU, jit.WithName("bench_gelu"))}
	last := make([]*tensor.Tensor, len(modes))
	side := func(i int) benchSide {
		return benchSide{modes[i], benchInMode(modes[i], func() error {
			if last[i] != nil {
				last[i].Free() // the last one stays, for the comparison
			}
			last[i] = fns[i](x, a, c)
			return last[i].Err()
		})}
	}
	eds, eerr := b.measureSides("W2", metric, []benchSide{side(0)})
	ds, errs := b.measureSides("W2", metric, []benchSide{side(1), side(2)})
	ds, errs = append(eds, ds...), append(eerr, errs...)
	for i, mode := range modes {
		if errs[i] != nil {
			b.fail(benchResult{Workload: "W2", Mode: mode, Metric: metric}, errs[i])
			continue
		}
		r := benchSummary("W2", mode, metric, "ms", benchScaled(ds[i], time.Millisecond, 1))
		r.Derived = map[string]float64{"GB/s": bytes / (r.Median / 1e3) / 1e9}
		if i > 0 && errs[0] == nil {
			d := benchMaxDiff(last[i], last[0])
			r.MaxAbsDiff = &d
		}
		b.emit(r)
	}
	return nil
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
	// Eager alone, then fused and compiled interleaved (a target compares
	// those two).
	modes := []string{"eager", "fused", "compiled"}
	last := make([]*tensor.Tensor, len(modes))
	side := func(i int) benchSide {
		fn := ex.Func()
		if modes[i] == "compiled" {
			fn = jit.Compile(fn, jit.WithName("bench_gpt2_small"))
		}
		return benchSide{modes[i], benchInMode(modes[i], func() error {
			if last[i] != nil {
				last[i].Free() // the last one stays, for the comparison
			}
			last[i] = benchCall(fn, inputs)
			return last[i].Err()
		})}
	}
	eds, eerr := b.measureSides("W5", w5Metric, []benchSide{side(0)})
	ds, errs := b.measureSides("W5", w5Metric, []benchSide{side(1), side(2)})
	ds, errs = append(eds, ds...), append(eerr, errs...)
	for i, mode := range modes {
		if errs[i] != nil {
			b.fail(benchResult{Workload: "W5", Mode: mode, Metric: w5Metric}, errs[i])
			continue
		}
		r := benchSummary("W5", mode, w5Metric, "ms", benchScaled(ds[i], time.Millisecond, 1))
		if i > 0 && errs[0] == nil {
			d := benchMaxDiff(last[i], last[0])
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
	// Of Compile, from the child's STELA_LOG=compile lines (the parent
	// reads them; the first compile only): the plugin's compile call
	// (starting the worker, the worker, loading its object; or the disk
	// cache's lookup and load), and of that the worker's stages: LLVM IR
	// from StableHLO (parse, verify, codegen, split), opt and llc (in
	// process or not), the link.
	// ChildCPU is the CPU time of the whole child process (user and
	// system, its start and the device's opening included, the worker
	// too), which a busy machine inflates less than wall times. The
	// parent fills it in.
	ChildCPU float64 `json:"child_cpu_ms,omitempty"`
	Plugin   float64 `json:"plugin_ms,omitempty"`
	Worker   float64 `json:"worker_ms,omitempty"`
	Codegen  float64 `json:"worker_codegen_ms,omitempty"`
	LLVM     float64 `json:"worker_llvm_ms,omitempty"`
	Link     float64 `json:"worker_link_ms,omitempty"`
}

// Lines of STELA_LOG=compile that the W6 parent reads from a child's
// stderr: the runtime's "stela: compiled @f on cpu in 12.3ms (program
// ...)" and the CPU worker's "stela cpu compile: @f: parse 0.2ms, ...".
var (
	benchCompiledLine = regexp.MustCompile(`^stela: compiled @\S+ on .* in (\S+) \(program`)
	benchWorkerStage  = regexp.MustCompile(`(parse|verify|codegen|split|opt|llc|opt\+llc in process|link|total) ([0-9.]+)ms`)
)

// readCompileLog fills t's plugin and worker times from a child's
// stderr and returns the rest of it, the lines that are not
// STELA_LOG=compile's.
func readCompileLog(t *benchCompileTimes, stderr []byte) []byte {
	var rest bytes.Buffer
	for _, line := range strings.SplitAfter(string(stderr), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			rest.WriteString(line)
		case benchCompiledLine.MatchString(trimmed):
			if d, err := time.ParseDuration(benchCompiledLine.FindStringSubmatch(trimmed)[1]); err == nil && t.Plugin == 0 {
				t.Plugin = float64(d) / float64(time.Millisecond)
			}
		case strings.HasPrefix(trimmed, "stela cpu compile: @"):
			if t.Worker != 0 {
				continue
			}
			for _, m := range benchWorkerStage.FindAllStringSubmatch(trimmed, -1) {
				v, _ := strconv.ParseFloat(m[2], 64)
				switch m[1] {
				case "parse", "verify", "codegen", "split":
					t.Codegen += v
				case "opt", "llc", "opt+llc in process":
					t.LLVM += v
				case "link":
					t.Link = v
				case "total":
					t.Worker = v
				}
			}
		default:
			rest.WriteString(line)
		}
	}
	return rest.Bytes()
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
		// JAX's W6 (the cold compile's target compares them) runs after
		// each run's two children, one fresh process of its own each.
		tms := b.partners("W6", "compiled", c.first)
		for _, tm := range tms {
			tm.warmup()
		}
		defer func() {
			for _, tm := range tms {
				tm.finish()
			}
		}()
		for range b.runs {
			for _, tm := range tms {
				tm.run()
			}
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
			stages := map[string][]float64{}
			for _, t := range m.ts {
				total = append(total, t.total())
				trace = append(trace, t.Trace)
				pass = append(pass, t.Passes)
				comp = append(comp, t.Compile)
				for name, v := range map[string]float64{
					"ms plugin": t.Plugin, "ms worker": t.Worker, "ms worker codegen": t.Codegen,
					"ms worker opt+llc": t.LLVM, "ms worker link": t.Link, "ms child CPU": t.ChildCPU,
				} {
					if v > 0 {
						stages[name] = append(stages[name], v)
					}
				}
			}
			r := benchSummary("W6", "compiled", m.metric, "ms", total)
			r.Derived = map[string]float64{
				"ms trace": sortedMedian(trace), "ms passes": sortedMedian(pass), "ms lower+compile": sortedMedian(comp),
			}
			// The stages of lower+compile where every run reported them
			// (the plugin's compile call, and the worker's stages when
			// it ran).
			for name, vs := range stages {
				if len(vs) == len(m.ts) {
					r.Derived[name] = sortedMedian(vs)
				}
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
	// STELA_LOG=compile: the runtime and the CPU worker say what the
	// plugin's compile and the worker's stages took (readCompileLog).
	logs := "compile"
	if l := os.Getenv("STELA_LOG"); l != "" {
		logs = l + ",compile"
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "STELA_LOG=") })
	cmd.Env = append(env, benchChildEnv+"="+example, "STELA_CACHE_DIR="+cacheDir, "STELA_LOG="+logs)
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	var r benchChildResult
	err := cmd.Run()
	b.stderr.Write(readCompileLog(&r.First, stderr.Bytes()))
	if err != nil {
		return r, fmt.Errorf("W6 child process: %v", err)
	}
	first := r.First
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &r); err != nil {
		return r, fmt.Errorf("W6 child process printed %q: %v", out.String(), err)
	}
	r.First.Plugin, r.First.Worker, r.First.Codegen, r.First.LLVM, r.First.Link = first.Plugin, first.Worker, first.Codegen, first.LLVM, first.Link
	if st := cmd.ProcessState; st != nil {
		r.First.ChildCPU = float64(st.UserTime()+st.SystemTime()) / float64(time.Millisecond)
	}
	return r, nil
}
