package gomlx_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGoMLXMNIST runs test/gomlx/mnist: GoMLX's MNIST CNN trained with
// GoMLX's own Trainer, Adam and loss on real MNIST images, on GoMLX's Go
// backend and on Stela from the same initial weights and batches; it
// fails when a step's loss differs by more than 1e-4 (relative), when
// the loss does not fall, or when the test accuracy after 500 Stela steps
// is below 0.9 (docs/gomlx.md). test/gomlx is its own module (it needs
// GoMLX, which this module does not), so the test builds it with the go
// command, GOWORK=off and GOFLAGS=-mod=mod. It skips when GoMLX's module
// cannot be had (no module proxy, no module cache) or in -short mode,
// and fails then under CI=true.
func TestGoMLXMNIST(t *testing.T) {
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("required in CI: "+format, args...)
		}
		t.Skipf(format, args...)
	}
	if testing.Short() {
		skip("builds and runs test/gomlx/mnist (about a minute)")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		skip("the go command is needed to build test/gomlx/mnist: %v", err)
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "test", "gomlx"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	goCmd := func(args ...string) ([]byte, error) {
		cmd := exec.Command(goTool, args...)
		cmd.Dir, cmd.Env = dir, env
		return cmd.CombinedOutput()
	}

	// Resolving the packages fetches GoMLX's modules (module proxy or cache).
	start := time.Now()
	if out, err := goCmd("list", "-tags", "noxla", "-deps", "./mnist"); err != nil {
		skip("cannot get test/gomlx's modules (GoMLX v0.28.8): %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "mnist")
	if out, err := goCmd("build", "-tags", "noxla", "-o", bin, "./mnist"); err != nil {
		t.Fatalf("building test/gomlx/mnist: %v\n%s", err, out)
	}
	t.Logf("test/gomlx/mnist built in %v", time.Since(start).Round(time.Millisecond))

	start = time.Now()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	t.Logf("test/gomlx/mnist ran in %v:\n%s", time.Since(start).Round(time.Millisecond), out.Bytes())
	if err != nil {
		t.Fatalf("test/gomlx/mnist: %v", err)
	}
}
