package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stela-ml/stela/internal/torchbench"
)

// The peers of `stela bench --torch` and `--jax`: their servers, and
// their sides of interleaved measurements.

// torchBench is a peer's side: PyTorch's (torch_bench.py) or JAX's
// (jax_bench.py), one --serve process of the script for the invocation,
// started by startPeer, which takes one command a line and answers each
// with one JSON object a line (torch_bench.py's serve() documents the
// protocol; jax_bench.py speaks the same). Commands are answered before the
// next is sent, so a peer never runs while Stela or another peer is being
// timed.
type torchBench struct {
	label       string        // "PyTorch", "JAX": how messages name the peer
	defaultMode string        // the mode the script names by the workload alone
	all         []torchMetric // the peer's measurements, in order
	env         []string      // the server's environment; nil: this process's
	// results are the peer's results, kept for peerAlone.
	results map[torchMetric]benchResult

	python, script string
	threads        int
	device         string // torch_bench.py's --device
	err            error  // why the peer cannot run; reported once
	reported       bool

	cmd    *exec.Cmd // nil before start and after stop
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer // read only after cmd.Wait
}

// newTorchBench is PyTorch's side, run by python from the script file
// (torchbench.Write).
func newTorchBench(python, script string, threads int) *torchBench {
	return &torchBench{label: "PyTorch", defaultMode: torchEager, all: benchTorchAll(), python: python, script: script, threads: threads}
}

// newJAXBench is JAX's side, run by python from the script file
// (torchbench.WriteJAX) with $STELA_JAXLIB_PYTHONPATH on PYTHONPATH. XLA's
// CPU client uses every CPU, as Stela's plugin does by default.
func newJAXBench(python, script string) *torchBench {
	return &torchBench{label: "JAX", defaultMode: jaxJIT, all: benchJAXAll(), env: torchbench.JAXEnv(), python: python, script: script}
}

// metricsOf is the peer's measurements of workload.
func (tb *torchBench) metricsOf(workload string) []torchMetric {
	var out []torchMetric
	for _, m := range tb.all {
		if m.workload == workload {
			out = append(out, m)
		}
	}
	return out
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
	args := []string{tb.script, "--serve"}
	if tb.threads > 0 {
		args = append(args, "--threads", strconv.Itoa(tb.threads))
	}
	if tb.device != "" && tb.device != "cpu" {
		args = append(args, "--device", tb.device)
	}
	cmd := exec.Command(tb.python, args...)
	cmd.Env = tb.env
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
// it. There is no timeout: a hung peer hangs the benchmark, as a hung
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

// startPeer starts a peer's server if it is not running yet.
func (b *bencher) startPeer(tb *torchBench) {
	if err := tb.start(); err != nil {
		b.peerFailed(tb, err)
	}
}

// peerFailed reports why a peer cannot run, once, and stops using it.
// Stela's side goes on, but the comparison asked for did not happen: the
// command exits 1.
func (b *bencher) peerFailed(tb *torchBench, err error) {
	b.failed = true
	if !tb.reported {
		fmt.Fprintf(b.stderr, "stela bench: %s: %v\n", tb.label, err)
		tb.reported = true
	}
	tb.err = err
	tb.fail(nil)
}

// torchMeasurement is a peer's side of one measurement. Its methods do
// nothing once the peer has failed.
type torchMeasurement struct {
	b  *bencher
	tb *torchBench
	torchMetric
	runs int // timed runs answered
}

// partners are the peers' sides of Stela's measurement of mode on metric
// that a target compares it with (benchGoals), in the order of b.peers and
// of each peer's measurements.
func (b *bencher) partners(workload, mode, metric string) []*torchMeasurement {
	var out []*torchMeasurement
	for _, tb := range b.peers {
		for _, m := range tb.metricsOf(workload) {
			if m.metric != metric {
				continue
			}
			for _, g := range benchGoals {
				if g.workload == workload && g.mode == mode && g.vs == m.mode && (g.metric == "" || g.metric == metric) {
					out = append(out, &torchMeasurement{b: b, tb: tb, torchMetric: m})
					break
				}
			}
		}
	}
	return out
}

// alive reports whether the peer still runs.
func (tm *torchMeasurement) alive() bool { return tm.tb.err == nil }

func (tm *torchMeasurement) do(command string, v any) bool {
	if tm.tb.err != nil {
		return false
	}
	if err := tm.tb.call(command+" "+tm.id(tm.tb.defaultMode)+" "+tm.metric, v); err != nil {
		tm.b.peerFailed(tm.tb, err)
		return false
	}
	return true
}

// benchSettle is the pause before a run that follows another side's.
// After a parallel call, OpenBLAS's idle worker threads spin (yielding)
// for up to 2^28 cycles, about 0.1 s here, and PyTorch's OpenMP threads
// spin too: without a pause, a run that followed the other side's shared
// the two cores with its spinning threads (W3 1024³ measured 0.57x of
// PyTorch interleaved, 1.1x in blocks).
const benchSettle = 250 * time.Millisecond

// warmup is the peer's warm-up call (the first makes the inputs).
func (tm *torchMeasurement) warmup() {
	var r struct {
		Warmup *float64 `json:"warmup"`
	}
	if tm.do("warmup", &r) && r.Warmup == nil {
		tm.b.peerFailed(tm.tb, fmt.Errorf("%s: warmup %s %s: no \"warmup\" in the answer", tm.tb.name(), tm.id(tm.tb.defaultMode), tm.metric))
	}
}

// run is one timed run of the peer's.
func (tm *torchMeasurement) run() {
	var r struct {
		Sample *float64 `json:"sample"`
	}
	if !tm.do("run", &r) {
		return
	}
	if r.Sample == nil {
		tm.b.peerFailed(tm.tb, fmt.Errorf("%s: run %s %s: no \"sample\" in the answer", tm.tb.name(), tm.id(tm.tb.defaultMode), tm.metric))
		return
	}
	tm.runs++
}

// finish fetches the peer's result over its timed runs, for peerAlone.
func (tm *torchMeasurement) finish() {
	if tm.runs == 0 {
		return
	}
	var r benchResult
	if !tm.do("result", &r) {
		return
	}
	if r.Workload != tm.workload || r.Metric != tm.metric || r.Mode != tm.mode || r.Runs != tm.runs {
		tm.b.peerFailed(tm.tb, fmt.Errorf("%s: result %s %s: got %s %s %s over %d runs, want %s over %d",
			tm.tb.name(), tm.id(tm.tb.defaultMode), tm.metric, r.Workload, r.Mode, r.Metric, r.Runs, tm.mode, tm.runs))
		return
	}
	if tm.tb.results == nil {
		tm.tb.results = map[torchMetric]benchResult{}
	}
	tm.tb.results[tm.torchMetric] = r
}

// peerAlone prints a peer's results of workload, in the order of its
// measurements. A metric no Stela measurement was interleaved with (none
// is compared with it, or Stela's workload failed first) is measured by
// the peer alone.
func (b *bencher) peerAlone(tb *torchBench, workload string) {
	for _, key := range tb.metricsOf(workload) {
		if _, ok := tb.results[key]; !ok {
			tm := &torchMeasurement{b: b, tb: tb, torchMetric: key}
			tm.warmup()
			for range b.runs {
				tm.run()
			}
			tm.finish()
		}
		if r, ok := tb.results[key]; ok {
			b.emit(r)
		}
	}
}
