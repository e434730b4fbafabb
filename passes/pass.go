package passes

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
)

// Pass is one IR transformation. Run must keep no state between calls and
// give the same output for the same input, byte for byte.
type Pass struct {
	Name string // flag-friendly name: "canonicalize", "cse"
	Doc  string // one line for `stela passes`
	Run  func(m *ir.Module, cx *Context) error
}

func (p *Pass) String() string { return p.Name }

// Context is what a running pass may use besides the module: the remark
// stream. It is made by the runner for each pass.
type Context struct {
	pass    string
	remarks *[]Remark
}

// Remark is a note from a pass about one instruction: what it did or why
// it did not.
type Remark struct {
	Pass string
	Op   string
	Loc  ir.Loc
	Msg  string
}

// String prints "file.go:LINE: pass: op: message" with the primary Go line.
func (r Remark) String() string {
	return fmt.Sprintf("%v: %s: %s: %s", r.Loc.Primary(), r.Pass, r.Op, r.Msg)
}

// Remarkf records a remark about in. A nil Context (a pass called outside
// the runner) drops it.
func (cx *Context) Remarkf(in *ir.Instr, format string, args ...any) {
	if cx == nil || cx.remarks == nil {
		return
	}
	r := Remark{Pass: cx.pass, Msg: fmt.Sprintf(format, args...)}
	if in != nil {
		r.Op, r.Loc = in.Op.String(), in.Loc
	}
	*cx.remarks = append(*cx.remarks, r)
}

// Options select the runner's instrumentation.
type Options struct {
	// VerifyEach runs ir.Verify on the module after every pass. The entry
	// is always verified. STELA_DEBUG=verify turns it on.
	VerifyEach bool
	// PrintBefore and PrintAfter name passes (or "all") whose input or
	// output is printed to Out.
	PrintBefore, PrintAfter []string
	// PrintChanged prints the output of a pass only when its text differs
	// from its input. Printed IR and dumps name values by their IDs
	// (ir.PrintOptions.StableNames), so that the output of consecutive
	// passes differs only where a pass changed something.
	PrintChanged bool
	// Locations adds loc(...) to printed IR and dumps.
	Locations bool
	// Out receives printed IR and remarks; nil means os.Stderr.
	Out io.Writer
	// DumpDir, if set, receives <func>.<seq>.<pass>.sir after each pass
	// (seq 0 is the input, named "input").
	DumpDir string
	// ReproDir is where a failing pass's reproducer goes; empty means
	// os.TempDir().
	ReproDir string
	// CheckDeterminism runs each pass a second time on a fresh parse of its
	// input and fails (as an internal error) if the output text differs:
	// passes must not depend on map order, pointers or globals. STELA_DEBUG=verify
	// turns it on, as wazero's determinism verifier does for its compiler.
	CheckDeterminism bool
	// Shuffle reorders independent instructions (with a fixed seed) before
	// each pass, to flush out passes that depend on program order.
	// STELA_DEBUG=shuffle turns it on; the output order then differs from a
	// plain run, so goldens are not compared under it.
	Shuffle bool
	// Remarks prints remarks to Out as they are collected; STELA_LOG=remarks
	// turns it on.
	Remarks bool
}

// Timing is how long one pass ran.
type Timing struct {
	Pass     string
	Duration time.Duration
}

// Result is what the runner collected.
type Result struct {
	Remarks []Remark
	Timings []Timing
	// Cached is true when the output came from the run cache (cache.go):
	// the passes did not run, and Timings is empty.
	Cached bool
}

// PassError is a pass that failed (returned an error, panicked, or left IR
// that does not verify). Reproducer names the file that replays it.
type PassError struct {
	Pass       string
	Err        error
	Internal   bool // a panic or a verifier failure: a bug in the pass
	Reproducer string
}

func (e *PassError) Error() string {
	var b strings.Builder
	if e.Internal {
		fmt.Fprintf(&b, "stela: internal error in pass %s: %v", e.Pass, e.Err)
	} else {
		fmt.Fprintf(&b, "pass %s: %v", e.Pass, e.Err)
	}
	if e.Reproducer != "" {
		fmt.Fprintf(&b, " (reproducer: %s)", e.Reproducer)
	}
	return b.String()
}

func (e *PassError) Unwrap() error { return e.Err }

func named(list []string, name string) bool {
	for _, n := range list {
		if n == "all" || n == name {
			return true
		}
	}
	return false
}

func moduleText(m *ir.Module, locs bool) string {
	var b strings.Builder
	ir.PrintModule(&b, m, ir.PrintOptions{Locations: locs})
	return b.String()
}

// shownText is the module as the runner prints and dumps it.
func shownText(m *ir.Module, locs bool) string {
	var b strings.Builder
	ir.PrintModule(&b, m, ir.PrintOptions{Locations: locs, StableNames: true})
	return b.String()
}

// Run runs the pipeline on m in place. The module is verified on entry;
// after each pass the runner verifies (if asked), prints, dumps and times.
// A pass failure comes back as a *PassError with a reproducer written.
func Run(m *ir.Module, pipeline []*Pass, opts Options) (*Result, error) {
	if opts.Out == nil {
		opts.Out = os.Stderr
	}
	if err := env.Err(); err != nil {
		return nil, err
	}
	if env.Debug().Verify {
		opts.VerifyEach, opts.CheckDeterminism = true, true
	}
	if env.Debug().Shuffle {
		opts.Shuffle = true
	}
	if env.Log().Remarks {
		opts.Remarks = true
	}
	var key string
	if cacheable(opts) && smallConstants(m) {
		// A module with the text of one that verified and ran is that
		// module (ir.Parse reads it back): its output is known.
		key = runKey(m, pipeline)
		if remarks, ok := cachedOutput(m, key); ok {
			return &Result{Remarks: remarks, Cached: true}, nil
		}
	}
	if err := m.Verify(); err != nil {
		return nil, fmt.Errorf("pipeline input: %w", err)
	}
	res := &Result{}
	if opts.DumpDir != "" {
		if err := dump(m, opts, 0, "input"); err != nil {
			return res, err
		}
	}
	// Printing the module before and after every pass was most of a
	// pipeline's time (jit's compile of a transformer block, W6 of
	// `stela bench`): the text is made only where it is used. A failing
	// pass's reproducer needs its input: a copy of the pipeline's input
	// is kept, and the passes before the failing one run again on it
	// (passes are deterministic; STELA_DEBUG=verify checks it).
	needText := opts.CheckDeterminism || opts.PrintChanged || opts.Shuffle
	var orig *ir.Module
	if !needText {
		orig = cloneModule(m)
	}
	for i, p := range pipeline {
		if opts.Shuffle {
			r := rand.New(rand.NewPCG(uint64(i), 0x5ce1a))
			for _, f := range m.Funcs {
				shuffle(f, r)
			}
		}
		var before string
		if needText {
			before = moduleText(m, true)
		}
		if named(opts.PrintBefore, p.Name) {
			fmt.Fprintf(opts.Out, "// -----// IR before %s //----- //\n%s\n", p.Name, shownText(m, opts.Locations))
		}
		var remarks []Remark
		cx := &Context{pass: p.Name, remarks: &remarks}
		start := time.Now()
		err, internal := runOne(p, m, cx)
		res.Timings = append(res.Timings, Timing{p.Name, time.Since(start)})
		if err == nil && opts.VerifyEach {
			if verr := m.Verify(); verr != nil {
				err, internal = fmt.Errorf("output does not verify: %w", verr), true
			}
		}
		if err == nil && opts.CheckDeterminism {
			if derr := rerun(p, before, moduleText(m, true)); derr != nil {
				err, internal = derr, true
			}
		}
		res.Remarks = append(res.Remarks, remarks...)
		if opts.Remarks {
			for _, r := range remarks {
				fmt.Fprintln(opts.Out, r)
			}
		}
		if err != nil {
			pe := &PassError{Pass: p.Name, Err: err, Internal: internal}
			if !needText {
				before = inputText(orig, pipeline, i)
			}
			pe.Reproducer = writeReproducer(opts.ReproDir, before, PipelineString(pipeline[i:]), pe)
			return res, pe
		}
		if named(opts.PrintAfter, p.Name) || (opts.PrintChanged && moduleText(m, true) != before) {
			fmt.Fprintf(opts.Out, "// -----// IR after %s //----- //\n%s\n", p.Name, shownText(m, opts.Locations))
		}
		if opts.DumpDir != "" {
			if err := dump(m, opts, i+1, p.Name); err != nil {
				return res, err
			}
		}
	}
	if key != "" {
		storeOutput(m, key, res.Remarks)
	}
	return res, nil
}

// cloneModule copies m (ir.CloneFunc of each function).
func cloneModule(m *ir.Module) *ir.Module {
	c := &ir.Module{Funcs: make([]*ir.Func, len(m.Funcs))}
	for i, f := range m.Funcs {
		c.Funcs[i] = ir.CloneFunc(f)
	}
	return c
}

// inputText is the text of what pipeline[i] got when the pipeline ran on
// orig (which stays as it is): the passes before it run again on a copy.
func inputText(orig *ir.Module, pipeline []*Pass, i int) string {
	m := cloneModule(orig)
	for _, p := range pipeline[:i] {
		var remarks []Remark
		if err, _ := runOne(p, m, &Context{pass: p.Name, remarks: &remarks}); err != nil {
			break
		}
	}
	return moduleText(m, true)
}

// runOne runs a pass, turning a panic into an internal error.
func runOne(p *Pass, m *ir.Module, cx *Context) (err error, internal bool) {
	defer func() {
		if r := recover(); r != nil {
			buf := make([]byte, 4096)
			buf = buf[:goruntime.Stack(buf, false)]
			err, internal = fmt.Errorf("panic: %v\n%s", r, buf), true
		}
	}()
	return p.Run(m, cx), false
}

// rerun runs p on a fresh parse of its input text and compares the output.
func rerun(p *Pass, before, want string) error {
	m2, err := ir.Parse(before)
	if err != nil {
		return fmt.Errorf("determinism check: input does not parse back: %w", err)
	}
	if err, _ := runOne(p, m2, &Context{pass: p.Name}); err != nil {
		return fmt.Errorf("determinism check: second run failed: %w", err)
	}
	if got := moduleText(m2, true); got != want {
		return fmt.Errorf("not deterministic: a second run on the same input printed different IR")
	}
	return nil
}

func dump(m *ir.Module, opts Options, seq int, pass string) error {
	if err := os.MkdirAll(opts.DumpDir, 0o755); err != nil {
		return err
	}
	for _, f := range m.Funcs {
		var b strings.Builder
		ir.Print(&b, f, ir.PrintOptions{Locations: opts.Locations, StableNames: true})
		name := fmt.Sprintf("%s.%02d.%s.sir", f.Name, seq, pass)
		if err := os.WriteFile(filepath.Join(opts.DumpDir, name), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// reproPrefix starts the reproducer line that names the pipeline.
const reproPrefix = "// pipeline: "

// writeReproducer writes the IR a failing pass got and the pipeline from
// that pass on, as a .sir file whose comment header names the pipeline. It
// returns the path, or "" if the file could not be written.
func writeReproducer(dir, ir, pipeline string, pe *PassError) string {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, "stela-repro-"+pe.Pass+"-*.sir")
	if err != nil {
		return ""
	}
	defer f.Close()
	msg := strings.SplitN(pe.Err.Error(), "\n", 2)[0]
	fmt.Fprintf(f, "// stela reproducer: pass %s failed: %s\n%s%s\n%s", pe.Pass, msg, reproPrefix, pipeline, ir)
	return f.Name()
}

// ReadReproducer splits a reproducer file into its module and pipeline.
func ReadReproducer(src string) (*ir.Module, []*Pass, error) {
	var pipe string
	found := false
	for _, line := range strings.Split(src, "\n") {
		if s, ok := strings.CutPrefix(line, reproPrefix); ok {
			pipe, found = s, true
			break
		}
	}
	if !found {
		return nil, nil, fmt.Errorf("reproducer: no %q line", strings.TrimSpace(reproPrefix))
	}
	ps, err := ParsePipeline(pipe)
	if err != nil {
		return nil, nil, err
	}
	m, err := ir.Parse(src)
	if err != nil {
		return nil, nil, err
	}
	return m, ps, nil
}
