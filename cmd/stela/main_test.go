package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"stela": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the CLI script tests in testdata/script: each file is a
// txtar archive of commands and their expected output.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: *update,
	})
}

// TestOpsMarkdownFresh keeps docs/ops.md equal to what the op table
// generates; run `go test ./cmd/stela -update` after changing an op.
func TestOpsMarkdownFresh(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "ops.md")
	got := opsMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/stela -update)", err)
	}
	if string(want) != got {
		t.Errorf("docs/ops.md is stale (run go test ./cmd/stela -update):\n%s", cmp.Diff(string(want), got))
	}
}

// TestOpsComplete fails when an op lacks a type rule, an evaluator or a
// lowering rule: every op must work at every stage of the spine.
func TestOpsComplete(t *testing.T) {
	for _, r := range opRows() {
		if !r.shape || !r.eval || !r.lower {
			t.Errorf("op %s: shape rule %v, evaluator %v, lowering %v", r.name, r.shape, r.eval, r.lower)
		}
		if r.doc == "" {
			t.Errorf("op %s has no doc line", r.name)
		}
	}
}
