package codegen_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// TestHostCPU: the detected features agree with /proc/cpuinfo for the
// ones that decide vectorization, and the CPU is an x86-64 level LLVM 14
// knows.
func TestHostCPU(t *testing.T) {
	mcpu, mattr := codegen.HostCPU()
	t.Logf("-mcpu=%s -mattr=%s", mcpu, mattr)
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	var flags []string
	for _, line := range strings.Split(string(info), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = strings.Fields(v)
			break
		}
	}
	has := func(f string) bool {
		for _, x := range flags {
			if x == f {
				return true
			}
		}
		return false
	}
	attrs := map[string]bool{}
	for _, a := range strings.Split(mattr, ",") {
		attrs[a] = true
	}
	for _, f := range []string{"avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl"} {
		if has(f) != attrs["+"+f] {
			t.Errorf("/proc/cpuinfo has %s: %v, but -mattr=%s", f, has(f), mattr)
		}
	}
	if has("avx512f") != attrs["-prefer-256-bit"] {
		t.Errorf("-mattr=%s: want -prefer-256-bit exactly when AVX-512 is there", mattr)
	}
	switch mcpu {
	case "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4":
	default:
		t.Errorf("-mcpu=%s", mcpu)
	}
	if has("avx2") && has("fma") && has("bmi2") && mcpu == "x86-64" {
		t.Errorf("an AVX2 machine got -mcpu=%s", mcpu)
	}
}
