package pjrt

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFindPlugin(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, f := range []string{
		filepath.Join(a, "pjrt_c_api_stela_cpu_plugin.so"),
		filepath.Join(b, "pjrt_c_api_stela_cpu_plugin.so"),
		filepath.Join(b, "pjrt-plugin-foo.so"),
		filepath.Join(b, "libtpu", "libtpu.so"),
	} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvPluginPath, a+string(os.PathListSeparator)+b)
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", "")
	for name, want := range map[string]string{
		"stela_cpu": filepath.Join(a, "pjrt_c_api_stela_cpu_plugin.so"), // first directory wins
		"foo":       filepath.Join(b, "pjrt-plugin-foo.so"),
		"tpu":       filepath.Join(b, "libtpu", "libtpu.so"),
	} {
		if got, err := FindPlugin(name); err != nil || got != want {
			t.Errorf("FindPlugin(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := FindPlugin("cpu"); !errors.Is(err, ErrNotFound) {
		t.Errorf("FindPlugin(cpu) = %v, want ErrNotFound", err)
	}
	if _, err := FindPlugin("a/b"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("FindPlugin(a/b) = %v, want ErrInvalidArgument", err)
	}
	// An empty file is found but does not load; the error says why and
	// nothing is cached.
	_, err := LoadPlugin("foo")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("LoadPlugin(foo) = %v, want a dlopen error", err)
	}
	if _, err := LoadPlugin(filepath.Join(a, "missing.so")); !errors.Is(err, ErrNotFound) {
		t.Errorf("LoadPlugin(missing) = %v", err)
	}
}
