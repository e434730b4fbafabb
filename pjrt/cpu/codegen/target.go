package codegen

import (
	"runtime"
	"strings"

	"golang.org/x/sys/cpu"
)

// HostCPU returns opt's and llc's -mcpu and -mattr for this machine. LLVM 14 does not
// know the processors of the project's machines (`llc --version` prints
// `Host CPU: (unknown)`), so -mcpu=native would give plain x86-64 without
// AVX (codegen-notes.md, trap 1). Instead: the x86-64 micro-architecture
// level the features reach (x86-64-v2, -v3, -v4) as the CPU, and every
// detected feature explicitly. golang.org/x/sys/cpu reports AVX and
// AVX-512 only when the OS saves their registers.
func HostCPU() (mcpu, mattr string) {
	if runtime.GOARCH != "amd64" {
		return "generic", ""
	}
	x := cpu.X86
	feats := []struct {
		on   bool
		name string
	}{
		{x.HasSSE3, "sse3"}, {x.HasSSSE3, "ssse3"}, {x.HasSSE41, "sse4.1"}, {x.HasSSE42, "sse4.2"},
		{x.HasPOPCNT, "popcnt"}, {x.HasAVX, "avx"}, {x.HasAVX2, "avx2"}, {x.HasFMA, "fma"},
		{x.HasBMI1, "bmi"}, {x.HasBMI2, "bmi2"}, {x.HasOSXSAVE, "xsave"},
		{x.HasAVX512F, "avx512f"}, {x.HasAVX512BW, "avx512bw"}, {x.HasAVX512VL, "avx512vl"},
		{x.HasAVX512DQ, "avx512dq"}, {x.HasAVX512CD, "avx512cd"}, {x.HasAVX512VNNI, "avx512vnni"},
		{x.HasAVX512BF16, "avx512bf16"}, {x.HasAVX512VBMI, "avx512vbmi"},
		{x.HasAVX512VPOPCNTDQ, "avx512vpopcntdq"},
	}
	var attrs []string
	has := map[string]bool{}
	for _, f := range feats {
		if f.on {
			attrs = append(attrs, "+"+f.name)
			has[f.name] = true
		}
	}
	all := func(names ...string) bool {
		for _, n := range names {
			if !has[n] {
				return false
			}
		}
		return true
	}
	mcpu = "x86-64"
	if all("sse3", "ssse3", "sse4.1", "sse4.2", "popcnt") {
		mcpu = "x86-64-v2"
		if all("avx", "avx2", "fma", "bmi", "bmi2") {
			mcpu = "x86-64-v3"
			if all("avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd") {
				mcpu = "x86-64-v4"
			}
		}
	}
	if has["avx512f"] {
		// x86-64-v4's tuning prefers 256-bit vectors; AMD's AVX-512
		// processors (these machines) run 512-bit ones at full speed.
		attrs = append(attrs, "-prefer-256-bit")
	}
	return mcpu, strings.Join(attrs, ",")
}
