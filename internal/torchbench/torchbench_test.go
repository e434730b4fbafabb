package torchbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePython writes an executable python3 into a new directory: one that
// has torch (the probe exits 0) or not (it exits 3, as the probe does).
func fakePython(t *testing.T, withTorch bool) string {
	t.Helper()
	dir := t.TempDir()
	code := "3"
	if withTorch {
		code = "0"
	}
	if err := os.WriteFile(filepath.Join(dir, "python3"), []byte("#!/bin/sh\nexit "+code+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestPythonSearch(t *testing.T) {
	without, with := fakePython(t, false), fakePython(t, true)
	empty := t.TempDir()

	t.Setenv("PATH", empty)
	if _, err := Python(""); err == nil || err.Error() != "no python3 on PATH (Debian: apt-get install python3-torch)" {
		t.Errorf("PATH without python3: %v", err)
	}

	t.Setenv("PATH", without)
	want := "no python3 on PATH can import torch (tried " + filepath.Join(without, "python3") + "; Debian: apt-get install python3-torch)"
	if _, err := Python(""); err == nil || err.Error() != want {
		t.Errorf("PATH with a python3 without torch: %v, want %s", err, want)
	}

	// The first python3 without torch is passed over for a later one.
	t.Setenv("PATH", without+string(os.PathListSeparator)+with)
	if got, err := Python(""); err != nil || got != filepath.Join(with, "python3") {
		t.Errorf("Python(\"\") = %q, %v; want %s", got, err, filepath.Join(with, "python3"))
	}

	// A Python asked for by name must have torch itself.
	if _, err := Python(filepath.Join(without, "python3")); err == nil || !strings.HasSuffix(err.Error(), "python3 cannot import torch (Debian: apt-get install python3-torch)") {
		t.Errorf("--python without torch: %v", err)
	}
	if _, err := Python(filepath.Join(empty, "python3")); err == nil {
		t.Error("a missing --python: no error")
	}
}

func TestWrite(t *testing.T) {
	p, err := Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || filepath.Base(p) != FileName || string(b) != string(Script) || !strings.Contains(string(b), "def serve():") {
		t.Errorf("Write wrote %s (%d bytes, %v), want torch_bench.py", p, len(b), err)
	}
}
