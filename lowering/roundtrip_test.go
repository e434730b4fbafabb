package lowering

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// TestPrintParseRoundTrip checks that what the lowering makes prints as
// text that stablehlo.Parse reads back and prints identically, with and
// without locations.
func TestPrintParseRoundTrip(t *testing.T) {
	for _, c := range opCases() {
		t.Run(c.name, func(t *testing.T) {
			m := lower(t, c.build(t))
			for _, locs := range []bool{false, true} {
				roundTrip(t, string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: locs})), locs)
			}
		})
	}
}

// TestGoldenFilesParse checks print(parse(golden)) == golden for every
// golden file, so the goldens stay valid StableHLO text. testdata/import
// holds the importer's inputs, written by JAX and by hand rather than by
// the printer, so they are not in its canonical form.
func TestGoldenFilesParse(t *testing.T) {
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == filepath.Join("testdata", "import") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".mlir") {
			return nil
		}
		t.Run(path, func(t *testing.T) {
			text := readFile(t, path)
			roundTrip(t, text, strings.Contains(text, "loc("))
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func roundTrip(t *testing.T, text string, locs bool) {
	t.Helper()
	m, err := stablehlo.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	got := string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: locs}))
	if diff := cmp.Diff(text, got); diff != "" {
		t.Errorf("print(parse(text)) differs (-text +reprinted):\n%s", diff)
	}
}

// TestConstantsSurviveText checks bit-exactness end to end: the constants
// of every element type, printed and parsed back, hold the literal's
// memory image.
func TestConstantsSurviveText(t *testing.T) {
	lits := constantLiterals()
	b := newFB(t, "constants")
	var outs []*ir.Value
	for _, l := range lits {
		outs = append(outs, b.e1(ir.OpConstant, ir.ConstantAttr{Value: l}))
	}
	m, err := stablehlo.Parse([]byte(lower(t, b.ret(outs...)).String()))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for _, o := range allOps(m) {
		if o.Name != "stablehlo.constant" {
			continue
		}
		d := o.Attr("value").(*stablehlo.DenseElements)
		if got, want := d.Bytes(), lits[i].Bytes(); string(got) != string(want) {
			t.Errorf("constant #%d (%v): bytes after parsing %x, want %x", i, lits[i].Type, got, want)
		}
		i++
	}
	if i != len(lits) {
		t.Errorf("%d constants after parsing, want %d", i, len(lits))
	}
}

// TestEmitsKnownOps checks that every op the lowering emits is one whose
// syntax the stablehlo package knows, so that it prints in its custom form
// and the consumers of the model recognize it.
func TestEmitsKnownOps(t *testing.T) {
	known := map[string]bool{}
	for _, n := range stablehlo.KnownOps() {
		known[n] = true
	}
	for _, c := range opCases() {
		for _, o := range allOps(lower(t, c.build(t))) {
			if !known[o.Name] {
				t.Errorf("%s: emits %s, which the stablehlo package does not know", c.name, o.Name)
			}
		}
	}
}
