package pjrt

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Real plugins, without their hardware: XLA's CUDA plugin (PyPI
// jax-cuda13-pjrt or jax-cuda12-pjrt) and libtpu (PyPI libtpu). Their paths
// come from STELA_TEST_CUDA_PLUGIN / STELA_TEST_LIBTPU or are looked for in
// Python's site-packages; the tests skip when neither finds them.

func findRealPlugin(t *testing.T, env string, rels ...string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", env, p, err)
		}
		return p
	}
	var dirs []string
	if py, err := exec.LookPath("python3"); err == nil {
		out, err := exec.Command(py, "-c", "import site; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))").Output()
		if err == nil {
			dirs = strings.Fields(string(out))
		}
	}
	for _, d := range dirs {
		for _, rel := range rels {
			if p := filepath.Join(d, rel); fileExists(p) {
				return p
			}
		}
	}
	t.Skipf("no %s in Python's site-packages %v; pip install it or set %s", rels[0], dirs, env)
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func TestRealPluginCUDA(t *testing.T) {
	path := findRealPlugin(t, "STELA_TEST_CUDA_PLUGIN",
		"jax_plugins/xla_cuda13/xla_cuda_plugin.so", "jax_plugins/xla_cuda12/xla_cuda_plugin.so")
	p := testRealPlugin(t, path)
	// The CUDA plugin checks create options strictly: an unknown one is an
	// error of its own, before any device is looked for.
	_, err := p.NewClient(NamedValue{"no_such_option_stela", int64(1)})
	t.Logf("NewClient(no_such_option_stela=1): %v", err)
	if err == nil {
		t.Error("NewClient accepted an unknown option")
	}
	// Option types arrive as sent: memory_fraction must be a float.
	_, err = p.NewClient(NamedValue{"memory_fraction", int64(1)})
	t.Logf("NewClient(memory_fraction=int64(1)): %v", err)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("a wrongly typed option: %v, want ErrInvalidArgument", err)
	}
	_, err = p.NewClient(NamedValue{"memory_fraction", float32(0.5)}, NamedValue{"preallocate", false},
		NamedValue{"visible_devices", []int64{0}}, NamedValue{"platform_name", "cuda"})
	t.Logf("NewClient(memory_fraction=0.5, preallocate=false, visible_devices=[0], platform_name=cuda): %v", err)
	if errors.Is(err, ErrInvalidArgument) {
		t.Errorf("well-typed options refused: %v", err)
	}
}

func TestRealPluginTPU(t *testing.T) {
	path := findRealPlugin(t, "STELA_TEST_LIBTPU", "libtpu/libtpu.so")
	// Off Google Cloud, libtpu spends minutes retrying the instance
	// metadata server unless told not to ask it.
	for k, v := range map[string]string{"TPU_SKIP_MDS_QUERY": "1", "TPU_WORKER_ID": "0", "TPU_WORKER_HOSTNAMES": "localhost", "ALLOW_MULTIPLE_LIBTPU_LOAD": "1"} {
		if _, ok := os.LookupEnv(k); !ok {
			t.Setenv(k, v)
		}
	}
	testRealPlugin(t, path)
}

// testRealPlugin loads the plugin and creates a client, which must fail
// cleanly (a *Error) on a machine without the hardware.
func testRealPlugin(t *testing.T, path string) *Plugin {
	t.Helper()
	p, err := LoadPlugin(path)
	if err != nil {
		t.Fatalf("LoadPlugin(%s): %v", path, err)
	}
	major, minor := p.APIVersion()
	t.Logf("%s: PJRT C API %d.%d, table of %d bytes (%d slots)", path, major, minor, p.apiSize, (p.apiSize-40)/8)
	for _, a := range p.Attributes() {
		t.Logf("  attribute %v", a)
	}
	if major != 0 {
		t.Errorf("major version %d", major)
	}
	for i, ok := range p.slots {
		if !ok {
			t.Logf("  slot %s is NULL", slotNames[i])
		}
	}
	if again, err := LoadPlugin(path); err != nil || again != p {
		t.Errorf("second LoadPlugin = %p, %v; want the same plugin %p", again, err, p)
	}
	c, err := p.NewClient()
	if err == nil {
		t.Logf("NewClient succeeded (the hardware is here): %v", c)
		for _, d := range c.AddressableDevices() {
			t.Logf("  device %v kind=%q id=%d", d, d.Kind(), d.ID())
		}
		c.Destroy()
		return p
	}
	var perr *Error
	if !errors.As(err, &perr) {
		t.Fatalf("NewClient error %T %v, want *pjrt.Error", err, err)
	}
	t.Logf("NewClient without hardware: code %v: %v", perr.Code, err)
	return p
}
