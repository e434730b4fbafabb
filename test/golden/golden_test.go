// Package golden checks the built-in examples at every stage against
// committed golden files: the traced IR (.sir) and the lowered StableHLO
// (.mlir). Run `go test ./test/golden -update` to rewrite them after an
// intended change, and read the diff.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/stablehlo"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenExamples are the examples with goldens; gpt2-small has the same
// program as transformer at a larger size.
var goldenExamples = []string{"mlp", "cnn", "transformer"}

func check(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

func TestExamples(t *testing.T) {
	for _, name := range goldenExamples {
		t.Run(name, func(t *testing.T) {
			ex, err := examples.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := examples.Trace(ex)
			if err != nil {
				t.Fatal(err)
			}
			f := tr.Func
			if err := ir.Verify(f); err != nil {
				t.Fatalf("traced %s does not verify: %v", name, err)
			}

			// Stage ir: the .sir text, which must parse back to itself.
			sir := f.String()
			check(t, filepath.Join("testdata", name+".sir"), []byte(sir))
			back, err := ir.ParseFunc(sir)
			if err != nil {
				t.Fatalf("parse .sir back: %v", err)
			}
			if err := ir.Verify(back); err != nil {
				t.Fatalf("parsed .sir does not verify: %v", err)
			}
			if got := back.String(); got != sir {
				t.Errorf(".sir print→parse→print changed the text:\n%s", cmp.Diff(sir, got))
			}

			// Stage stablehlo: the MLIR text, which must parse back to itself.
			m, err := lowering.Lower(f, lowering.Options{})
			if err != nil {
				t.Fatal(err)
			}
			mlir := stablehlo.Format(m, stablehlo.PrintOptions{})
			check(t, filepath.Join("testdata", name+".mlir"), mlir)
			pm, err := stablehlo.Parse(mlir)
			if err != nil {
				t.Fatalf("parse MLIR back: %v", err)
			}
			if got := stablehlo.Format(pm, stablehlo.PrintOptions{}); !bytes.Equal(got, mlir) {
				t.Errorf("MLIR print→parse→print changed the text:\n%s", cmp.Diff(string(mlir), string(got)))
			}

			// With locations, every op names a line of the example's source.
			withLocs := stablehlo.Format(m, stablehlo.PrintOptions{Locations: true})
			if !bytes.Contains(withLocs, []byte(".go\":")) {
				t.Errorf("StableHLO with locations names no Go source line")
			}
		})
	}
}

// TestEvalAfterParse runs each example's traced IR and the IR parsed back
// from its text on the same inputs with the reference evaluator: the text
// form must keep the program's meaning, not only its spelling.
func TestEvalAfterParse(t *testing.T) {
	for _, name := range goldenExamples {
		t.Run(name, func(t *testing.T) {
			ex, _ := examples.Get(name)
			tr, err := examples.Trace(ex)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ir.ParseFunc(tr.Func.String())
			if err != nil {
				t.Fatal(err)
			}
			var args []*ir.Literal
			for _, in := range ex.Inputs(1) {
				args = append(args, in.Literal())
			}
			want, err := ir.Eval(tr.Func, args...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ir.Eval(back, args...)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if !ir.LiteralEqual(want[i], got[i]) {
					t.Errorf("result %d differs after print and parse", i)
				}
			}
		})
	}
}
