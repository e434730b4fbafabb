package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The GoMLX comparison (docs/gomlx.md, "Speed") is its own module,
// test/gomlx, which needs GoMLX itself; cmd/stela does not link GoMLX.
// `stela bench --gomlx` runs that module's benchmark program from the
// Stela checkout around the working directory with `go run` and passes
// its table through.

// gomlxBenchDir is the test/gomlx module of the Stela checkout that holds
// dir (or a directory above it).
func gomlxBenchDir(dir string) (string, error) {
	for d := dir; ; {
		mod, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && strings.Contains(string(mod), "module github.com/stela-ml/stela\n") {
			m := filepath.Join(d, "test", "gomlx")
			if _, err := os.Stat(filepath.Join(m, "bench", "main.go")); err == nil {
				return m, nil
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("--gomlx: no Stela checkout with test/gomlx/bench around %s: run it inside one (the GoMLX comparison is the separate module test/gomlx; docs/gomlx.md)", dir)
		}
		d = up
	}
}

// gomlxBenchArgs maps bench's --workload (W1..W6 of the GoMLX
// comparison) and --runs (when given) to the program's -w and -iters.
func gomlxBenchArgs(workloads string, runs int, runsSet bool) ([]string, error) {
	var args []string
	if strings.TrimSpace(workloads) != "" {
		var ws []string
		for _, f := range strings.Split(workloads, ",") {
			name := strings.ToUpper(strings.TrimSpace(f))
			n, err := strconv.Atoi(strings.TrimPrefix(name, "W"))
			if !strings.HasPrefix(name, "W") || err != nil || n < 1 || n > 6 {
				return nil, fmt.Errorf("--gomlx: unknown workload %q (the GoMLX comparison has W1, W2, W3, W4, W5, W6)", f)
			}
			ws = append(ws, strconv.Itoa(n))
		}
		args = append(args, "-w", strings.Join(ws, ","))
	}
	if runsSet {
		args = append(args, "-iters", strconv.Itoa(runs))
	}
	return args, nil
}

// runBenchGoMLX runs test/gomlx/bench (`go run -tags noxla ./bench`),
// its output going to stdout and stderr.
func runBenchGoMLX(workloads string, runs int, runsSet bool, stdout, stderr io.Writer) error {
	args, err := gomlxBenchArgs(workloads, runs, runsSet)
	if err != nil {
		return &usageError{err}
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	dir, err := gomlxBenchDir(wd)
	if err != nil {
		return err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("--gomlx: the go command is needed to build test/gomlx/bench: %w", err)
	}
	fmt.Fprintf(stderr, "stela bench --gomlx: go run -tags noxla ./bench %s (in %s)\n", strings.Join(args, " "), dir)
	cmd := exec.Command(goTool, append([]string{"run", "-tags", "noxla", "./bench"}, args...)...)
	cmd.Dir = dir
	// test/gomlx's go.mod replaces Stela with this checkout; a go.work
	// around it would change what is built.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("--gomlx: test/gomlx/bench: %w", err)
	}
	return nil
}
