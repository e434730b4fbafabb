package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// demoExamples are the programs `stela demo` runs: small enough for the
// reference evaluator to check them in a second.
var demoExamples = []string{"mlp", "cnn", "transformer"}

// runDemo is Stela's main job in one command: each built-in example runs
// eagerly (op by op) and compiled (jit.Compile) on the default device,
// both are checked against each other and against the reference
// evaluator, and the timings are printed.
//
// `stela demo train [FLAGS]` is `stela train --model mlp [FLAGS] mnist`:
// the MLP trained on MNIST, with progress, the test accuracy as the last
// line, and the train command's flags (--png, --csv, --checkpoint, ...).
func runDemo(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "train" {
		return runTrain(append(append([]string{"--model", "mlp"}, args[1:]...), "mnist"), stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sharding" {
		return runDemoSharding(args[1:], stdout, stderr)
	}
	fs := newFlags("demo")
	device := fs.String("device", "cpu", "the `DEVICE` to run on (cpu, cpu:1, cuda, tpu, a plugin path, host)")
	runs := fs.Int("runs", 5, "`N` timed runs per mode (the median is printed)")
	tol := fs.Float64("tol", 1e-4, "the largest allowed |difference| `TOL`, relative to the result's largest magnitude")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	names := demoExamples
	if len(pos) > 0 {
		names = pos
	}
	dev, err := runtime.Lookup(*device)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "stela demo on %s: each example eagerly (op by op) and compiled (jit.Compile), checked against the reference evaluator\n\n", dev.Name())
	fmt.Fprintf(stdout, "%-12s %-9s %12s %12s %14s %14s\n", "example", "mode", "first call", "median", "max |Δ| vs ref", "vs eager")
	failed := 0
	for _, name := range names {
		ex, err := examples.Get(name)
		if err != nil {
			return err
		}
		var inputs, hostInputs []*tensor.Tensor
		for _, t := range ex.Inputs(1) {
			inputs = append(inputs, t.To(dev.Name()))
			hostInputs = append(hostInputs, t.To("host"))
		}
		ref, err := examples.Call(ex, hostInputs)
		if err != nil {
			return fmt.Errorf("%s on the reference evaluator: %w", name, err)
		}
		refLit := ref.Literal()

		compiled := jit.Compile(ex.Func(), jit.WithName(name))
		modes := []struct {
			mode string
			call func() (*tensor.Tensor, error)
		}{
			{"eager", func() (*tensor.Tensor, error) { return examples.Call(ex, inputs) }},
			{"compiled", func() (*tensor.Tensor, error) {
				outs, err := jit.Call(compiled, inputs...)
				if err != nil {
					return nil, err
				}
				return outs[0], nil
			}},
		}
		var eagerLit *ir.Literal
		for _, m := range modes {
			// Each call is timed to its result on the host: reads are
			// where asynchronous dispatch waits.
			var out *ir.Literal
			timed := func() (time.Duration, error) {
				start := time.Now()
				var res *tensor.Tensor
				err := tensor.Catch(func() {
					var e error
					if res, e = m.call(); e == nil {
						out = res.Literal()
					} else {
						err = e
					}
				})
				if err == nil && res == nil {
					err = fmt.Errorf("no result")
				}
				return time.Since(start), err
			}
			first, err := timed()
			if err != nil {
				return fmt.Errorf("%s %s: %w", name, m.mode, err)
			}
			var ds []time.Duration
			for range max(*runs, 1) {
				d, err := timed()
				if err != nil {
					return fmt.Errorf("%s %s: %w", name, m.mode, err)
				}
				ds = append(ds, d)
			}
			slices.Sort(ds)
			dRef, scale := maxDiff(out, refLit)
			vsEager := "-"
			ok := dRef <= *tol*max(scale, 1)
			if eagerLit == nil {
				eagerLit = out
			} else {
				d, _ := maxDiff(out, eagerLit)
				vsEager = fmt.Sprintf("%.2g", d)
				ok = ok && d <= *tol*max(scale, 1)
			}
			status := "ok"
			if !ok {
				status = "MISMATCH"
				failed++
			}
			fmt.Fprintf(stdout, "%-12s %-9s %12s %12s %14.2g %14s  %s\n", name, m.mode, fmtDur(first), fmtDur(ds[len(ds)/2]), dRef, vsEager, status)
		}
	}
	st := jit.CacheStats()
	rs := runtime.CacheStats()
	fmt.Fprintf(stdout, "\njit: %d compiles, %d cache hits; eager one-op programs: %d compiled, %d cache hits\n", st.Misses, st.Hits, rs.OpMisses, rs.OpHits)
	if failed > 0 {
		return fmt.Errorf("%d result(s) differ beyond --tol %g", failed, *tol)
	}
	return nil
}

// maxDiff returns the largest |a-b| over the elements and the largest |b|.
func maxDiff(a, b *ir.Literal) (diff, scale float64) {
	if !a.Type.Equal(b.Type) {
		return math.Inf(1), 0
	}
	for i := range a.Len() {
		xi, yi := ir.ToFloat64(a.Type.DType, a.Elem(i)), ir.ToFloat64(b.Type.DType, b.Elem(i))
		d := math.Abs(xi - yi)
		if math.IsNaN(d) {
			return math.Inf(1), 0
		}
		diff = max(diff, d)
		scale = max(scale, math.Abs(yi))
	}
	return diff, scale
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1f µs", float64(d)/1e3)
	}
}
