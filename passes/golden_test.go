package passes

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/stela-ml/stela/ir"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden runs each pass on testdata/<pass>/*.txtar: parse in.sir,
// verify, run the pass (or the pipeline named by an optional "pipeline"
// section), verify, print, compare with out.sir. -update rewrites out.sir.
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join("testdata", d.Name(), "*.txtar"))
		for _, file := range files {
			name := d.Name() + "/" + strings.TrimSuffix(filepath.Base(file), ".txtar")
			t.Run(name, func(t *testing.T) { runGolden(t, file, d.Name()) })
		}
	}
}

func runGolden(t *testing.T, file, pass string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, f := range ar.Files {
		sections[f.Name] = string(f.Data)
	}
	pipeText := pass
	if p, ok := sections["pipeline"]; ok {
		pipeText = strings.TrimSpace(p)
	}
	pipe, err := ParsePipeline(pipeText)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.Parse(sections["in.sir"])
	if err != nil {
		t.Fatalf("in.sir: %v", err)
	}
	// Goldens omit locations unless the test is about them: an input that
	// spells loc(...) gets them printed.
	got := runChecked(t, m, pipe, strings.Contains(sections["in.sir"], "loc("))
	if *update {
		found := false
		for i := range ar.Files {
			if ar.Files[i].Name == "out.sir" {
				ar.Files[i].Data = []byte(got)
				found = true
			}
		}
		if !found {
			ar.Files = append(ar.Files, txtar.File{Name: "out.sir", Data: []byte(got)})
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := sections["out.sir"]; got != want {
		t.Errorf("%s: output differs (-want +got):\n%s", file, cmp.Diff(want, got))
	}
}

// runChecked runs the pipeline with verification after each pass, checks
// that no known location was lost and that a second run on a fresh parse of
// the same input prints the same bytes, and returns the printed module.
func runChecked(t *testing.T, m *ir.Module, pipe []*Pass, locs bool) string {
	t.Helper()
	in := moduleText(m, true)
	locsBefore := knownLocs(m)
	if _, err := Run(m, pipe, Options{VerifyEach: true, ReproDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	got := moduleText(m, locs)
	for _, l := range knownLocs(m) {
		if !containsLoc(locsBefore, l) {
			t.Errorf("location %v appeared from nowhere", l)
		}
	}
	if len(knownLocs(m)) == 0 && len(locsBefore) > 0 && len(m.Funcs[0].Body) > 0 {
		t.Errorf("all locations lost")
	}
	// Determinism: the same input gives byte-identical output.
	m2, err := ir.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(m2, pipe, Options{VerifyEach: true, ReproDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if again := moduleText(m2, true); again != moduleText(m, true) {
		t.Errorf("second run differs:\n%s", cmp.Diff(moduleText(m, true), again))
	}
	return got
}

// knownLocs lists the member locations of every instruction's Loc.
func knownLocs(m *ir.Module) []ir.Loc {
	var out []ir.Loc
	for _, f := range m.Funcs {
		f.Walk(func(in *ir.Instr) {
			if len(in.Loc.Fused) > 0 {
				out = append(out, in.Loc.Fused...)
			} else if in.Loc.IsKnown() {
				out = append(out, in.Loc)
			}
		})
	}
	return out
}

func containsLoc(ls []ir.Loc, l ir.Loc) bool {
	for _, m := range ls {
		if m.Equal(l) {
			return true
		}
	}
	return false
}
