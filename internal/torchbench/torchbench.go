// Package torchbench is PyTorch's side of `stela bench --torch`
// (docs/performance.md): torch_bench.py, embedded so that a stela binary
// runs it from any directory, and the search for a Python that can run it.
//
// In: torch_bench.py (this directory), which runs the workloads W1 to W5
// in PyTorch eager mode (W4 also with torch.jit.trace) and prints the JSON
// lines `stela bench --json` prints. Out: Script, Write and Python, which cmd/stela's bench
// command and test/bench's tests of the script both use.
package torchbench

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Script is torch_bench.py.
//
//go:embed torch_bench.py
var Script []byte

// FileName is the script's file name; Write keeps it, so that errors that
// name the script name this one.
const FileName = "torch_bench.py"

// Write writes Script into dir as FileName and returns its path.
func Write(dir string) (string, error) {
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, Script, 0o644); err != nil {
		return "", err
	}
	return p, nil
}

// hasTorch is the probe Python runs: it finds the torch package without
// importing it (which takes seconds).
const hasTorch = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('torch') else 3)"

// install says how to get a Python with torch.
const install = "Debian: apt-get install python3-torch"

// Python returns the Python to run Script with. A non-empty python (a path,
// or a name looked up on PATH) must be able to import torch; an empty one
// means the first python3 on PATH that can (pyenv's shims and virtual
// environments come first on many PATHs and often lack torch). The error
// says why there is none.
func Python(python string) (string, error) {
	if python != "" {
		path, err := exec.LookPath(python)
		if err != nil {
			return "", err
		}
		if err := probe(path); err != nil {
			return "", fmt.Errorf("%s %w (%s)", path, err, install)
		}
		return path, nil
	}
	var tried []string
	seen := map[string]bool{}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		path := filepath.Join(dir, "python3")
		if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			continue
		}
		// /bin and /usr/bin are one directory on merged-/usr systems.
		if real, err := filepath.EvalSymlinks(path); err == nil {
			if seen[real] {
				continue
			}
			seen[real] = true
		}
		if probe(path) == nil {
			return path, nil
		}
		tried = append(tried, path)
	}
	if len(tried) == 0 {
		return "", fmt.Errorf("no python3 on PATH (%s)", install)
	}
	return "", fmt.Errorf("no python3 on PATH can import torch (tried %s; %s)", strings.Join(tried, ", "), install)
}

// probe reports why python cannot import torch, nil if it can.
func probe(python string) error {
	out, err := exec.Command(python, "-c", hasTorch).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 3:
		return errors.New("cannot import torch")
	}
	msg := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if msg != "" {
		return fmt.Errorf("does not run: %v: %s", err, msg)
	}
	return fmt.Errorf("does not run: %v", err)
}
