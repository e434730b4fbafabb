package stelacpu_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/runtime/stelacpu"
)

// BenchmarkClientCreate makes and destroys a client of the plugin with
// 1, 4 and 8 virtual devices: what opening the "cpu" platform costs per
// device (DefaultCPUDevices).
func BenchmarkClientCreate(b *testing.B) {
	for _, n := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("devices=%d", n), func(b *testing.B) {
			for range b.N {
				c, _, err := runtime.OpenClient(stelacpu.Family, stelacpu.DeviceCount(n))
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Devices()) != n {
					b.Fatalf("%d devices, want %d", len(c.Devices()), n)
				}
				c.Destroy()
			}
		})
	}
}

func TestDevices(t *testing.T) {
	t.Setenv(stelacpu.EnvCPUDevices, "")
	if n, err := stelacpu.Devices(); err != nil || n != stelacpu.DefaultCPUDevices {
		t.Errorf("Devices() = %d, %v; want %d", n, err, stelacpu.DefaultCPUDevices)
	}
	t.Setenv(stelacpu.EnvCPUDevices, "3")
	if n, err := stelacpu.Devices(); err != nil || n != 3 {
		t.Errorf("STELA_CPU_DEVICES=3: Devices() = %d, %v", n, err)
	}
	for _, bad := range []string{"0", "-1", "two"} {
		t.Setenv(stelacpu.EnvCPUDevices, bad)
		if _, err := stelacpu.Devices(); err == nil || !strings.Contains(err.Error(), "STELA_CPU_DEVICES=") {
			t.Errorf("STELA_CPU_DEVICES=%s: %v", bad, err)
		}
		// The client of a bad setting is not made either.
		if _, _, err := runtime.OpenClient(stelacpu.Family); err == nil || !strings.Contains(err.Error(), "want a positive integer") {
			t.Errorf("OpenClient with STELA_CPU_DEVICES=%s: %v", bad, err)
		}
	}
}

// TestRegistered: importing the package registers the "cpu" family, whose
// devices are the plugin's, with the worker options that let it compile.
func TestRegistered(t *testing.T) {
	found := false
	for _, n := range runtime.Backends() {
		found = found || n == stelacpu.Family
	}
	if !found {
		t.Fatalf("backends %v lack %q", runtime.Backends(), stelacpu.Family)
	}
	c, path, err := runtime.OpenClient(stelacpu.Family, stelacpu.DeviceCount(2))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	if !strings.HasSuffix(path, "pjrt_c_api_stela_cpu_plugin.so") || len(c.Devices()) != 2 {
		t.Errorf("client of %s with %d devices", path, len(c.Devices()))
	}
	// The compile worker is this test binary: a compile works.
	exe, err := c.Compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	exe.Destroy()
}
