package passes

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
)

// TestOrder checks Default against the order table: each constraint's
// before pass runs at least once before the last run of its after pass.
func TestOrder(t *testing.T) {
	for _, o := range order {
		first, last := -1, -1
		for i, p := range Default {
			if p == o.before && first < 0 {
				first = i
			}
			if p == o.after {
				last = i
			}
		}
		if first < 0 || last < 0 || first > last {
			t.Errorf("Default = %s: %s must run before %s: %s", PipelineString(Default), o.before.Name, o.after.Name, o.why)
		}
	}
}

func TestPipelineRoundTrip(t *testing.T) {
	for _, s := range []string{"", "cse", "canonicalize,fold,cse,dce", PipelineString(Default), "dce,dce"} {
		ps, err := ParsePipeline(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got := PipelineString(ps); got != s {
			t.Errorf("round trip of %q = %q", s, got)
		}
	}
	if ps, err := ParsePipeline("default"); err != nil || PipelineString(ps) != PipelineString(Default) {
		t.Errorf(`"default" = %v, %v`, PipelineString(ps), err)
	}
	if _, err := ParsePipeline("cse,nope"); err == nil || err.Error() != `pipeline: unknown pass "nope" (valid: canonicalize, fold, cse, dce, sink, fuse-composites, or default for canonicalize,fold,cse,canonicalize,dce,sink)` {
		t.Errorf("unknown pass: err = %v", err)
	}
}

func TestPassesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		if p.Name == "" || p.Doc == "" || p.Run == nil {
			t.Errorf("pass %q lacks a name, doc or function", p.Name)
		}
		if seen[p.Name] {
			t.Errorf("duplicate pass name %q", p.Name)
		}
		seen[p.Name] = true
	}
}

const sample = `func @f(%0: f32[4]) -> f32[4] {
  %1 = exponential %0 : f32[4] loc("m.go":10)
  %2 = exponential %0 : f32[4] loc("m.go":11)
  %3 = add %1, %2 : f32[4] loc("m.go":12)
  %4 = negate %3 : f32[4] loc("m.go":13)
  return %3
}
`

func parse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRunPrintAndDump(t *testing.T) {
	var out bytes.Buffer
	dir := t.TempDir()
	m := parse(t, sample)
	res, err := Run(m, []*Pass{CSE, Fold, DCE}, Options{Out: &out, PrintChanged: true, PrintBefore: []string{"cse"}, DumpDir: dir, VerifyEach: true, Remarks: true})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"IR before cse", "IR after cse", "IR after dce", "m.go:11: cse: exponential: merged into an identical exponential"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "IR after fold") {
		t.Errorf("fold changed nothing but was printed:\n%s", got)
	}
	if len(res.Timings) != 3 || res.Timings[0].Pass != "cse" {
		t.Errorf("timings = %v", res.Timings)
	}
	if len(res.Remarks) != 1 || res.Remarks[0].Loc.Line != 11 {
		t.Errorf("remarks = %v", res.Remarks)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if want := "f.00.input.sir f.01.cse.sir f.02.fold.sir f.03.dce.sir"; strings.Join(names, " ") != want {
		t.Errorf("dump files = %v, want %s", names, want)
	}
}

// TestFailingPassWritesReproducer: a panicking pass is recovered, named, and
// leaves a reproducer that reads back to its input and pipeline.
func TestFailingPassWritesReproducer(t *testing.T) {
	boom := &Pass{Name: "boom", Doc: "panics", Run: func(m *ir.Module, cx *Context) error {
		m.Funcs[0].Body = nil // half-done damage must not reach the reproducer
		panic("broken invariant")
	}}
	fails := &Pass{Name: "fails", Doc: "errs", Run: func(m *ir.Module, cx *Context) error {
		return ir.Errorf(m.Funcs[0].Body[0].Loc, "fails", "cannot do it")
	}}
	for _, tc := range []struct {
		p        *Pass
		internal bool
		msg      string
	}{{boom, true, "stela: internal error in pass boom: panic: broken invariant"}, {fails, false, "pass fails: m.go:10: fails: cannot do it"}} {
		dir := t.TempDir()
		m := parse(t, sample)
		_, err := Run(m, []*Pass{CSE, tc.p, DCE}, Options{ReproDir: dir})
		var pe *PassError
		if !errors.As(err, &pe) || pe.Internal != tc.internal || !strings.HasPrefix(err.Error(), tc.msg) {
			t.Fatalf("err = %v", err)
		}
		src, rerr := os.ReadFile(pe.Reproducer)
		if rerr != nil || filepath.Dir(pe.Reproducer) != dir {
			t.Fatalf("reproducer %q: %v", pe.Reproducer, rerr)
		}
		if !strings.Contains(string(src), "// pipeline: "+tc.p.Name+",dce") {
			t.Errorf("reproducer lacks the pipeline:\n%s", src)
		}
		// Unknown test-only passes cannot be looked up; the IR must still parse
		// and be the input of the failing pass (after cse).
		rm, perr := ir.Parse(string(src))
		if perr != nil {
			t.Fatal(perr)
		}
		if n := len(rm.Funcs[0].Body); n != 3 {
			t.Errorf("reproducer IR has %d instructions, want 3 (after cse):\n%s", n, src)
		}
		if !strings.Contains(string(src), `loc(fused<"cse">`) {
			t.Errorf("reproducer lost locations:\n%s", src)
		}
	}
}

func TestReadReproducer(t *testing.T) {
	m, ps, err := ReadReproducer("// stela reproducer: pass cse failed: x\n// pipeline: cse,dce\n" + sample)
	if err != nil {
		t.Fatal(err)
	}
	if PipelineString(ps) != "cse,dce" || len(m.Funcs) != 1 {
		t.Errorf("got %s, %d funcs", PipelineString(ps), len(m.Funcs))
	}
	if _, _, err := ReadReproducer(sample); err == nil {
		t.Error("no pipeline line: want an error")
	}
}

// TestVerifyCatchesBrokenPass: with VerifyEach, a pass that leaves bad IR is
// an internal error.
func TestVerifyCatchesBrokenPass(t *testing.T) {
	bad := &Pass{Name: "bad", Doc: "drops a def", Run: func(m *ir.Module, cx *Context) error {
		m.Funcs[0].Body = m.Funcs[0].Body[1:]
		return nil
	}}
	_, err := Run(parse(t, sample), []*Pass{bad}, Options{VerifyEach: true, ReproDir: t.TempDir()})
	var pe *PassError
	if !errors.As(err, &pe) || !pe.Internal || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("err = %v", err)
	}
}

func TestDebugVerifyEnv(t *testing.T) {
	envtest.Setenv(t, "STELA_DEBUG", "verify")
	bad := &Pass{Name: "bad", Doc: "drops a def", Run: func(m *ir.Module, cx *Context) error {
		m.Funcs[0].Body = m.Funcs[0].Body[1:]
		return nil
	}}
	if _, err := Run(parse(t, sample), []*Pass{bad}, Options{ReproDir: t.TempDir()}); err == nil {
		t.Fatal("STELA_DEBUG=verify did not verify")
	}
}

func TestRemarksEnv(t *testing.T) {
	envtest.Setenv(t, "STELA_LOG", "remarks")
	var out bytes.Buffer
	if _, err := Run(parse(t, sample), []*Pass{CSE}, Options{Out: &out}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "m.go:11: cse:") {
		t.Errorf("STELA_LOG=remarks printed %q", out.String())
	}
}

// TestDeterminismCheck: a pass whose output depends on hidden state is caught.
func TestDeterminismCheck(t *testing.T) {
	n := 0
	flaky := &Pass{Name: "flaky", Doc: "renames on the second run", Run: func(m *ir.Module, cx *Context) error {
		n++
		m.Funcs[0].Name = fmt.Sprintf("f%d", n)
		return nil
	}}
	_, err := Run(parse(t, sample), []*Pass{flaky}, Options{CheckDeterminism: true, ReproDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not deterministic") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Run(parse(t, sample), Default, Options{CheckDeterminism: true}); err != nil {
		t.Fatal(err)
	}
}

// TestShuffleKeepsDepsAndEffects: shuffling changes the order of independent
// ops but keeps definitions before uses and side effects in order.
func TestShuffleKeepsDepsAndEffects(t *testing.T) {
	src := `func @f(%0: f32[4]) -> f32[4] {
  %1 = exponential %0 : f32[4]
  %2 = negate %0 : f32[4]
  %3 = log %0 : f32[4]
  %4 = tanh %0 : f32[4]
  custom_call %1 {target = "a", result_types = [], has_side_effect = true}
  custom_call %2 {target = "b", result_types = [], has_side_effect = true}
  custom_call %3 {target = "c", result_types = [], has_side_effect = true}
  %5 = add %1, %4 : f32[4]
  return %5
}
`
	orig := parse(t, src).String()
	changed := false
	for seed := uint64(0); seed < 20; seed++ {
		m := parse(t, src)
		shuffle(m.Funcs[0], rand.New(rand.NewPCG(seed, 1)))
		if err := m.Verify(); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, m)
		}
		got := m.String()
		if got != orig {
			changed = true
		}
		a, b, c := strings.Index(got, `"a"`), strings.Index(got, `"b"`), strings.Index(got, `"c"`)
		if !(a < b && b < c) {
			t.Errorf("seed %d: side effects reordered:\n%s", seed, got)
		}
	}
	if !changed {
		t.Error("shuffle never changed the order")
	}
}

// TestUnknownSwitchWord: a word of STELA_DEBUG that means nothing fails
// the run, naming the word and the valid ones.
func TestUnknownSwitchWord(t *testing.T) {
	envtest.Setenv(t, "STELA_DEBUG", "verfy")
	_, err := Run(parse(t, sample), []*Pass{CSE}, Options{})
	if err == nil || !strings.Contains(err.Error(), `STELA_DEBUG=verfy: unknown word "verfy" (valid: nans, noattention, nofusion, nolean, shuffle, verify;`) {
		t.Errorf("err = %v", err)
	}
}
