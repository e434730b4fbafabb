package lowering

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// TestSirGolden lowers each testdata/sir/NAME.sir (its first function is
// the entry) and compares the printed module with testdata/sir/NAME.mlir.
// A program with loc(...) in it is printed with locations.
func TestSirGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "sir", "*.sir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/sir/*.sir files")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".sir")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ir.Parse(string(src))
			if err != nil {
				t.Fatalf("%s:%v", path, err)
			}
			if err := m.Verify(); err != nil {
				t.Fatalf("%s does not verify: %v", path, err)
			}
			sm, err := LowerModule(m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			locs := strings.Contains(string(src), "loc(")
			golden(t, filepath.Join("sir", name+".mlir"), string(stablehlo.Format(sm, stablehlo.PrintOptions{Locations: locs})))
		})
	}
}
