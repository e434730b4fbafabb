package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/stela-ml/stela/ir"
)

// TestDumpEachPassGolden runs `stela dump --after-each-pass`'s printer
// (cse, dce) on each testdata/dump/*.txtar's in.sir and compares its output
// with out; go test -update rewrites out.
func TestDumpEachPassGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "dump", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var in, want []byte
			for _, f := range a.Files {
				switch f.Name {
				case "in.sir":
					in = f.Data
				case "out":
					want = f.Data
				}
			}
			f, err := ir.ParseFunc(string(in))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := dumpEachPass(f, "cse,dce", "", false, &got); err != nil {
				t.Fatal(err)
			}
			if *update {
				for i := range a.Files {
					if a.Files[i].Name == "out" {
						a.Files[i].Data = got.Bytes()
					}
				}
				if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if d := cmp.Diff(string(want), got.String()); d != "" {
				t.Errorf("dump --after-each-pass (-want +got):\n%s", d)
			}
		})
	}
}
