// Package torchbench is the peers' side of `stela bench --torch` and
// `stela bench --jax` (docs/performance.md): torch_bench.py and
// jax_bench.py, embedded so that a stela binary runs them from any
// directory, and the search for a Python that can run each.
//
// In: torch_bench.py (this directory), which runs the workloads W1 to W5
// in PyTorch eager mode (W4 also with torch.jit.trace, W1 also in NumPy),
// and jax_bench.py, which runs W1 to W6 in JAX on XLA's CPU compiler; both
// print the JSON lines `stela bench --json` prints. Out: Script, Write
// and Python (PyTorch's), JAXScript, WriteJAX and JAXPython (JAX's), which
// cmd/stela's bench command and test/bench's tests of the scripts use.
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

// Write writes Script into dir as FileName, with the module it imports
// (Common), and returns its path.
func Write(dir string) (string, error) {
	return write(dir, FileName, Script)
}

// Common is bench_common.py, the median, result fields and --serve loop
// that both scripts import from their own directory.
//
//go:embed bench_common.py
var Common []byte

// CommonFileName is Common's file name, the module name the scripts import.
const CommonFileName = "bench_common.py"

// write writes script into dir as name, and Common beside it.
func write(dir, name string, script []byte) (string, error) {
	if err := os.WriteFile(filepath.Join(dir, CommonFileName), Common, 0o644); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, script, 0o644); err != nil {
		return "", err
	}
	return p, nil
}

// JAXScript is jax_bench.py.
//
//go:embed jax_bench.py
var JAXScript []byte

// JAXFileName is jax_bench.py's file name, which WriteJAX keeps.
const JAXFileName = "jax_bench.py"

// WriteJAX writes JAXScript into dir as JAXFileName, with Common, and
// returns its path.
func WriteJAX(dir string) (string, error) {
	return write(dir, JAXFileName, JAXScript)
}

// JAXPathEnv names a directory with jax and jaxlib (pip's --target), put
// first on PYTHONPATH for JAX's side; .ci/run installs jax and jaxlib
// 0.10.2 there.
const JAXPathEnv = "STELA_JAXLIB_PYTHONPATH"

// JAXEnv is the environment JAX's side runs in: this process's, with
// $STELA_JAXLIB_PYTHONPATH first on PYTHONPATH.
func JAXEnv() []string {
	env := os.Environ()
	dir := os.Getenv(JAXPathEnv)
	if dir == "" {
		return env
	}
	pp := dir
	if old := os.Getenv("PYTHONPATH"); old != "" {
		pp += string(os.PathListSeparator) + old
	}
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PYTHONPATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PYTHONPATH="+pp)
}

// hasJAX is the probe for jax: found, and importable in a blink (its
// version), without importing jaxlib's compiler.
const hasJAX = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('jax') and importlib.util.find_spec('jaxlib') else 3)"

// installJAX says how to get jax.
const installJAX = "pip install --target DIR jax==0.10.2 jaxlib==0.10.2 and set " + JAXPathEnv + "=DIR, as .ci/run does"

// JAXPython is Python for JAX's side: python if not empty, else the first
// python3 on PATH that finds jax and jaxlib with JAXEnv's PYTHONPATH.
func JAXPython(python string) (string, error) {
	return find(python, hasJAX, "jax", installJAX, JAXEnv())
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
	return find(python, hasTorch, "torch", install, nil)
}

// find is Python and JAXPython: the Python that the probe code accepts in
// env (nil: this process's), module naming what it looks for.
func find(python, code, module, install string, env []string) (string, error) {
	probe := func(path string) error { return probe(path, code, module, env) }
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
	return "", fmt.Errorf("no python3 on PATH can import %s (tried %s; %s)", module, strings.Join(tried, ", "), install)
}

// probe reports why python cannot import module (code exits 3 when it
// cannot), nil if it can.
func probe(python, code, module string, env []string) error {
	cmd := exec.Command(python, "-c", code)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 3:
		return errors.New("cannot import " + module)
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
