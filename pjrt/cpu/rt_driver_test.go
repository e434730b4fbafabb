package cpu

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/capi"
)

// buildRTDriver compiles testdata/rt_driver.c (with extra flags) into dir.
func buildRTDriver(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "rt_driver.c"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"rt_driver.c": src, capi.HeaderName: []byte(capi.Header)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "rt_driver")
	cc := compiler()
	args := append(append([]string{}, cc[1:]...), "-std=c11", "-O1", "-Wall", "-Werror")
	args = append(args, extra...)
	args = append(args, "-pthread", "-I", dir, "-o", exe, filepath.Join(dir, "rt_driver.c"), "-ldl", "-lm")
	if out, err := exec.Command(cc[0], args...).CombinedOutput(); err != nil {
		t.Fatalf("building the runtime driver: %v\n%s", err, out)
	}
	return exe
}

func runRTDriver(t *testing.T, driver, plugin, loops string, env ...string) {
	t.Helper()
	worker, cache := testWorker(t)
	cmd := exec.Command(driver, plugin, worker, cache, loops)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("runtime driver (%v): %v\n%s", env, err, out)
	}
}

// TestRuntimeDriver runs a compiled program that uses the runtime table
// (sgemm, dgemm, nested parallel_for) on four devices at once sharing a
// pool of three threads, with the BLAS library and with the plugin's own
// GEMM, then a program that all-reduces through the table's collectives
// on an executable of four devices (from two threads at once, and with a
// device that fails), and follows stela_cpu_live_buffers.
func TestRuntimeDriver(t *testing.T) {
	t.Parallel()
	plugin := testPlugin(t)
	driver := buildRTDriver(t, t.TempDir())
	runRTDriver(t, driver, plugin, "5")
	runRTDriver(t, driver, plugin, "5", "STELA_CPU_BLAS=openblas")
	runRTDriver(t, driver, plugin, "5", "STELA_CPU_BLAS=none")
}

// TestRuntimeDriverASan is TestRuntimeDriver on the AddressSanitizer and
// LeakSanitizer build of the plugin (the one TestCDriverASan uses): the
// pool's threads are joined and its memory freed when the client goes.
func TestRuntimeDriverASan(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the sanitizer build takes a few seconds")
	}
	t.Parallel()
	dir, asan, plugin := asanPlugin(t)
	driver := buildRTDriver(t, dir, asan...)
	env := "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23"
	// OpenBLAS rather than oneDNN: LeakSanitizer's tracer crashes when it
	// stops OpenMP's (libgomp's) threads at exit, which are not ours.
	runRTDriver(t, driver, plugin, "2", env, "STELA_CPU_BLAS=openblas")
	runRTDriver(t, driver, plugin, "2", env, "STELA_CPU_BLAS=none")
}
