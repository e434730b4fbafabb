package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stela-ml/stela/internal/torchbench"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"stela":              func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
		"stela-dist-helper":  distHelper,
		"stela-spmd-helper":  spmdHelper,
		"stela-train-helper": trainHelper,
		"stela-bench-helper": benchHelper,
	})
}

// TestScript runs the CLI script tests in testdata/script: each file is a
// txtar archive of commands and their expected output.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: *update,
		Cmds:          map[string]func(ts *testscript.TestScript, neg bool, args []string){"mknpy": mknpy},
		Setup: func(e *testscript.Env) error {
			// $STELABIN is the directory that holds the stela command,
			// for scripts that set a PATH of their own.
			exe, err := exec.LookPath("stela")
			if err != nil {
				return err
			}
			e.Setenv("STELABIN", filepath.Dir(exe))
			// JAX's side of `stela bench --jax` finds jax there.
			e.Setenv(torchbench.JAXPathEnv, os.Getenv(torchbench.JAXPathEnv))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "torch":
				return hasTorch(), nil
			case "jax":
				// CI installs jax (.ci/run): there, a missing one fails.
				err := hasJAX()
				if err != nil && os.Getenv("CI") == "true" {
					return false, fmt.Errorf("CI=true, but `stela bench --jax` cannot run: %v", err)
				}
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// hasTorch is the [torch] condition: a python3 on PATH can import torch,
// so `stela bench --torch` can run.
var hasTorch = sync.OnceValue(func() bool {
	_, err := torchbench.Python("")
	return err == nil
})

// hasJAX is the [jax] condition: a python3 on PATH finds jax with
// $STELA_JAXLIB_PYTHONPATH, so `stela bench --jax` can run; the error
// says why not.
var hasJAX = sync.OnceValue(func() error {
	_, err := torchbench.JAXPython("")
	return err
})

// mknpy writes a .npy file: mknpy FILE TYPE V1 V2 ..., with TYPE in .sir
// form (f32[2,3]) and the values in row-major order.
func mknpy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mknpy FILE TYPE VALUES...")
	}
	typ, err := ir.ParseType(args[1])
	ts.Check(err)
	vals := make([]float64, len(args)-2)
	for i, a := range args[2:] {
		vals[i], err = strconv.ParseFloat(a, 64)
		ts.Check(err)
	}
	if len(vals) != typ.NumElements() {
		ts.Fatalf("mknpy: %d values for %v", len(vals), typ)
	}
	l := ir.LiteralFromFloat64s(typ, vals)
	ts.Check(npy.WriteFile(ts.MkAbs(args[0]), l))
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

// TestCheckExitStatus: `stela check` with several files exits with the
// worst file's status, a failure (1) worse than a rejection (2).
func TestCheckExitStatus(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.mlir":     "func.func @main() {\n  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>\n  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>\n  return\n}\n",
		"fail.mlir":   "func.func @main() {\n  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>\n  check.expect_eq_const %0, dense<[1, 3]> : tensor<2xi32>\n  return\n}\n",
		"reject.mlir": "func.func @main() {\n  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>\n  check.expect_eq_const %0, dense<[1, 2]> tensor<2xi32>\n  return\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		files []string
		want  int
	}{
		{[]string{"ok.mlir"}, 0},
		{[]string{"fail.mlir"}, 1},
		{[]string{"reject.mlir"}, 2},
		{[]string{"ok.mlir", "ok.mlir"}, 0},
		{[]string{"ok.mlir", "reject.mlir"}, 2},
		{[]string{"reject.mlir", "ok.mlir"}, 2},
		{[]string{"reject.mlir", "fail.mlir", "ok.mlir"}, 1},
		{[]string{"fail.mlir", "reject.mlir"}, 1},
		{[]string{"ok.mlir", "missing.mlir"}, 2},
	} {
		args := []string{"check"}
		for _, f := range tc.files {
			args = append(args, filepath.Join(dir, f))
		}
		var out, errb strings.Builder
		if got := run(args, &out, &errb); got != tc.want {
			t.Errorf("stela check %v: exit %d, want %d\nstdout: %s\nstderr: %s", tc.files, got, tc.want, out.String(), errb.String())
		}
	}
}
