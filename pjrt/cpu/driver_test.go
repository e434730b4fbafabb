package cpu

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/capi"
)

// buildDriver compiles testdata/driver.c (with extra flags) into dir.
func buildDriver(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "driver.c"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"driver.c": src, capi.HeaderName: []byte(capi.Header)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeSlots(t, dir)
	exe := filepath.Join(dir, "driver")
	cc := compiler()
	args := append(append([]string{}, cc[1:]...), "-std=c11", "-Wall", "-Werror", "-Wno-cast-function-type")
	args = append(args, extra...)
	args = append(args, "-pthread", "-I", dir, "-o", exe, filepath.Join(dir, "driver.c"), "-ldl")
	if out, err := exec.Command(cc[0], args...).CombinedOutput(); err != nil {
		t.Fatalf("building the driver: %v\n%s", err, out)
	}
	return exe
}

// runDriver runs the driver on plugin and checks it passes.
func runDriver(t *testing.T, driver, plugin string, loops string, env ...string) {
	t.Helper()
	worker, cache := testWorker(t)
	log := filepath.Join(t.TempDir(), "worker.log")
	cmd := exec.Command(driver, plugin, worker, cache, log, nonce(), loops)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("driver: %v\n%s", err, out)
	}
}

// TestCDriver drives the plugin from C through its PJRT_Api table: every
// slot, every implemented function, the error paths, compile with the fake
// worker and execute.
func TestCDriver(t *testing.T) {
	t.Parallel()
	plugin := testPlugin(t)
	driver := buildDriver(t, t.TempDir())
	runDriver(t, driver, plugin, "300")
}

// TestCDriverASan runs the same driver on a build of the plugin with
// AddressSanitizer and LeakSanitizer: any invalid access, or memory still
// unfreed at exit, fails it.
func TestCDriverASan(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the sanitizer build takes a few seconds")
	}
	t.Parallel()
	dir, asan, plugin := asanPlugin(t)
	driver := buildDriver(t, dir, asan...)
	runDriver(t, driver, plugin, "200", "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23")
}

// asanPlugin builds the plugin with AddressSanitizer and LeakSanitizer
// (skipping when the C compiler has none) and returns a temporary
// directory, the sanitizer flags for drivers and the plugin's path.
func asanPlugin(t *testing.T) (dir string, asan []string, plugin string) {
	t.Helper()
	needCC(t)
	dir = t.TempDir()
	probe := filepath.Join(dir, "probe.c")
	os.WriteFile(probe, []byte("int main(void){return 0;}\n"), 0o644)
	if out, err := exec.Command(compiler()[0], "-fsanitize=address", "-o", filepath.Join(dir, "probe"), probe).CombinedOutput(); err != nil {
		t.Skipf("the C compiler has no AddressSanitizer: %v\n%s", err, out)
	}
	asan = []string{"-fsanitize=address", "-fno-omit-frame-pointer", "-g", "-O1"}
	// Kept in the user cache like the plugin itself: built once per change
	// of the sources.
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	plugin, err = buildPlugin(filepath.Join(cache, "stela", "plugin-asan"), asan)
	if err != nil {
		t.Fatal(err)
	}
	return dir, asan, plugin
}
