package cpu

import (
	"fmt"
	"os"
	"testing"

	"github.com/stela-ml/stela/pjrt"
)

// TestCompileToolFaults: through the plugin and the real worker, a
// missing, crashing, failing or hanging opt or llc is a compile error of
// the right code (UNAVAILABLE for a tool that is missing or out of time,
// INTERNAL for one that failed; issue 20: all were INVALID_ARGUMENT, as if
// the program were wrong), and the same client compiles and runs a new
// program afterwards. Not parallel: it sets PATH, which the plugin passes
// to the worker.
func TestCompileToolFaults(t *testing.T) {
	needLLVM(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadPlugin(t).NewClient(
		pjrt.NamedValue{Name: "stela_worker", Value: exe},
		pjrt.NamedValue{Name: "stela_cache_dir", Value: t.TempDir()},
		// The worker gives its tools nine tenths of this: a hanging tool
		// is reported by the worker (UNAVAILABLE), not killed with it.
		pjrt.NamedValue{Name: "stela_compile_timeout_ms", Value: int64(10000)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	dev := c.AddressableDevices()[0]
	// The workers run the fake tools, not LLVM in process.
	t.Setenv("STELA_CPU_LLVM", "tools")
	path := os.Getenv("PATH")
	for i, tc := range []struct {
		tool, script string
		code         pjrt.ErrorCode
		sub          string
	}{
		{"opt", "", pjrt.CodeUnavailable, "needs opt, not found on PATH"},
		{"llc", "kill -SEGV $$", pjrt.CodeInternal, "llc was killed by signal: segmentation fault"},
		{"opt", "echo 'LLVM ERROR: out of luck' >&2; exit 1", pjrt.CodeInternal, "LLVM ERROR: out of luck"},
		{"llc", "exec sleep 600", pjrt.CodeUnavailable, "llc ran past the compile's time limit of 9s"},
		{"opt", "sleep 600 & echo 'broken' >&2; exit 1", pjrt.CodeInternal, "broken"},
	} {
		t.Setenv("PATH", toolDir(t, tc.tool, tc.script))
		prog := fmt.Sprintf(`module @jit_fault_%d {
  func.func public @main(%%x: tensor<f32>) -> tensor<f32> {
    %%0 = stablehlo.multiply %%x, %%x : tensor<f32>
    return %%0 : tensor<f32>
  }
}
`, i)
		if exe, err := c.Compile(prog, nil); err == nil {
			exe.Destroy()
			t.Errorf("%s %q: the compile succeeded", tc.tool, tc.script)
		} else {
			wantError(t, err, tc.code, tc.sub)
		}
		// The host works: with the tools back, the same program (not
		// cached: it failed) compiles and runs.
		os.Setenv("PATH", path)
		exe, err := c.Compile(prog, nil)
		if err != nil {
			t.Fatalf("after %s %q: %v", tc.tool, tc.script, err)
		}
		outs := []*pjrt.Buffer{new(pjrt.Buffer)}
		if err := exe.ExecuteOneInto(dev, outs, scalar(t, c, dev, 3)); err != nil {
			t.Fatal(err)
		}
		if got := floats(t, outs[0]); got[0] != 9 {
			t.Errorf("after %s %q: 3·3 = %v", tc.tool, tc.script, got[0])
		}
		outs[0].Destroy()
		exe.Destroy()
	}
}
