package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/runtime/check"
	"github.com/stela-ml/stela/stablehlo"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return fmt.Sprint(*s) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runRun compiles a StableHLO file (or a built-in example) on a plugin, runs
// it on one or more devices, and prints the results. With --example it also
// runs the reference evaluator on the same inputs and reports the largest
// difference, so it doubles as a check of the device against the oracle.
func runRun(argv []string, stdout, stderr io.Writer) error {
	fs := newFlags("run")
	plugin := fs.String("plugin", "", "the PJRT plugin, by `NAME|PATH` (default: the Stela CPU plugin)")
	devices := fs.Int("devices", 1, "run on `N` devices (replicated)")
	example := fs.String("example", "", "run the built-in example `NAME` instead of a file, and compare with the reference evaluator")
	pipeline := fs.String("pipeline", "", "with --example: run this `PIPELINE` before lowering (e.g. default)")
	noCompare := fs.Bool("no-compare", false, "with --example: skip the comparison with the reference evaluator")
	progressMode := fs.String("progress", "auto", "print each stage and its time to stderr: `auto|on|off` (auto: when stderr is a terminal)")
	var inputs stringList
	fs.Var(&inputs, "input", "an argument as a `FILE.npy` (repeat, in parameter order)")
	timeout := timeoutFlag(fs)
	pos, err := parseArgs(fs, argv)
	if err != nil {
		return err
	}
	limit, err := timeout()
	if err != nil {
		return err
	}
	pw, err := progressWriter(*progressMode, stderr, isTerminal)
	if err != nil {
		return err
	}
	prog := &progress{w: pw, prefix: "stela run: "}
	defer prog.close()
	var (
		mlir []byte
		args []*ir.Literal
		ref  *ir.Func
	)
	switch {
	case *example != "":
		if len(pos) != 0 {
			return usagef("--example takes no file argument")
		}
		ex, err := examples.Get(*example)
		if err != nil {
			return err
		}
		prog.begin("trace")
		tr, err := examples.Trace(ex)
		if err != nil {
			return err
		}
		for _, t := range ex.Inputs(1) {
			args = append(args, t.Literal())
		}
		prog.end()
		if !*noCompare {
			ref = tr.Func
		}
		if *pipeline != "" {
			prog.begin("passes")
			// The reference evaluator runs the traced program as it was,
			// the device the optimized one: the comparison checks the passes.
			parsed, err := ir.ParseFunc(tr.Func.String())
			if err != nil {
				return err
			}
			ps, err := passes.ParsePipeline(*pipeline)
			if err != nil {
				return err
			}
			before := countOps(parsed)
			if _, err := passes.Run(&ir.Module{Funcs: []*ir.Func{parsed}}, ps, passes.Options{VerifyEach: true}); err != nil {
				return err
			}
			prog.end()
			fmt.Fprintf(stdout, "pipeline %s: %d ops before, %d after\n", *pipeline, before, countOps(parsed))
			tr.Func = parsed
		}
		prog.begin("lower")
		text, err := runtime.StableHLOLocated(tr.Func) // with Go lines, so that a compile error names them
		if err != nil {
			return err
		}
		prog.end()
		mlir = []byte(text)
	default:
		if len(pos) != 1 {
			return usagef("want one FILE.mlir (or --example NAME)")
		}
		src, err := readInput(pos[0])
		if err != nil {
			return err
		}
		mlir = src
		for _, p := range inputs {
			l, err := npy.ReadFile(p)
			if err != nil {
				return err
			}
			args = append(args, l)
		}
		if err := checkArgs(src, args); err != nil {
			return err
		}
	}
	c, err := openClient(*plugin, *devices)
	if err != nil {
		return err
	}
	defer c.Destroy()
	devs := c.AddressableDevices()
	if *devices < 1 || *devices > len(devs) {
		return fmt.Errorf("--devices %d: the plugin has %d addressable devices", *devices, len(devs))
	}
	devs = devs[:*devices]
	opts := &pjrt.CompileOptions{}
	if len(devs) > 1 {
		opts.NumReplicas = len(devs)
		opts.DeviceAssignment = make([][]int, len(devs))
		for i, d := range devs {
			opts.DeviceAssignment[i] = []int{d.ID()}
		}
	}
	prog.begin("compile")
	t0 := time.Now()
	exe, err := c.Compile(string(mlir), opts)
	if err != nil {
		return err
	}
	defer exe.Destroy()
	compileTime := time.Since(t0)
	prog.end()
	argLists := make([][]*pjrt.Buffer, len(devs))
	for i, d := range devs {
		for _, a := range args {
			b, err := c.BufferFromLiteral(a, d)
			if err != nil {
				return err
			}
			defer b.Destroy()
			argLists[i] = append(argLists[i], b)
		}
	}
	prog.begin("run")
	t1 := time.Now()
	ctx := context.Background()
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	outs, err := exe.ExecuteContext(ctx, argLists, nil)
	if err != nil {
		if limit > 0 && errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%w (the time limit is %v: --timeout, %s)", err, limit, env.ExecTimeoutVar)
		}
		return err
	}
	runTime := time.Since(t1)
	prog.end()
	var want []*ir.Literal
	if ref != nil {
		prog.begin("compare with the reference evaluator")
		if want, err = ir.Eval(ref, args...); err != nil {
			return fmt.Errorf("reference evaluator: %w", err)
		}
		prog.end()
	}
	worst := 0.0
	for di, dev := range outs {
		for j, b := range dev {
			l, err := b.ToLiteral()
			b.Destroy()
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "device %d result %d: %v\n", devs[di].ID(), j, l.Type)
			fmt.Fprintln(stdout, ir.FormatLiteral(l))
			if want != nil {
				worst = max(worst, maxAbsDiff(l, want[j]))
			}
		}
	}
	fmt.Fprintf(stdout, "compile %v, run %v\n", compileTime.Round(time.Millisecond), runTime.Round(time.Microsecond))
	if want != nil {
		fmt.Fprintf(stdout, "max |device - reference evaluator| = %.3g\n", worst)
	}
	return nil
}

// progress reports the stages of a long command: a line per stage, begun
// when the stage starts (so that a slow one shows what it is doing) and
// finished with the time it took. A nil writer makes it quiet.
type progress struct {
	w      io.Writer
	prefix string
	stage  string
	start  time.Time
}

// begin starts a stage.
func (p *progress) begin(stage string) {
	if p.w == nil {
		return
	}
	p.stage, p.start = stage, time.Now()
	fmt.Fprintf(p.w, "%s%s ...", p.prefix, stage)
}

// end finishes the stage begun last with its elapsed time.
func (p *progress) end() {
	if p.w == nil || p.stage == "" {
		return
	}
	fmt.Fprintf(p.w, " %v\n", roundDuration(time.Since(p.start)))
	p.stage = ""
}

// close ends the line of a stage that failed, so that the error starts a
// line of its own.
func (p *progress) close() {
	if p.w != nil && p.stage != "" {
		fmt.Fprintln(p.w)
		p.stage = ""
	}
}

// roundDuration keeps three significant digits or so: 951ms, 4.81s, 312µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// progressWriter is where progress goes for a --progress mode: stderr
// when the mode is on, or auto and stderr is a terminal; nowhere otherwise,
// so that scripts and pipes see no progress lines.
func progressWriter(mode string, stderr io.Writer, terminal func(io.Writer) bool) (io.Writer, error) {
	switch mode {
	case "on":
		return stderr, nil
	case "off":
		return nil, nil
	case "auto":
		if terminal(stderr) {
			return stderr, nil
		}
		return nil, nil
	}
	return nil, usagef("--progress %q: want auto, on or off", mode)
}

// isTerminal reports whether w is a file open on a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// checkArgs compares the .npy arguments with the entry's parameters, so a
// wrong file is an error that names it before anything is compiled.
func checkArgs(src []byte, args []*ir.Literal) error {
	m, err := stablehlo.Parse(src)
	if err != nil {
		return err
	}
	f := m.Func("main")
	if f == nil && len(m.Funcs) == 1 {
		f = m.Funcs[0]
	}
	if f == nil {
		return fmt.Errorf("no @main function")
	}
	if len(f.Args) != len(args) {
		return fmt.Errorf("@%s takes %d arguments, got %d --input files", f.Name, len(f.Args), len(args))
	}
	for i, p := range f.Args {
		t, err := check.TensorType(p.Type)
		if err != nil {
			return fmt.Errorf("argument %d: %v", i, err)
		}
		if !t.Equal(args[i].Type) {
			return fmt.Errorf("argument %d: @%s wants %v, the .npy file holds %v", i, f.Name, t, args[i].Type)
		}
	}
	return nil
}

func maxAbsDiff(a, b *ir.Literal) float64 {
	if !a.Type.Equal(b.Type) {
		return inf
	}
	x, y := a.Float64s(), b.Float64s()
	worst := 0.0
	for i := range x {
		d := x[i] - y[i]
		if d < 0 {
			d = -d
		}
		if d != d { // NaN on one side only
			if x[i] == x[i] || y[i] == y[i] {
				return inf
			}
			continue
		}
		worst = max(worst, d)
	}
	return worst
}

var inf = math.Inf(1)
