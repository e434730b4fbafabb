package codegen

import (
	"runtime"
	"strings"

	"golang.org/x/sys/cpu"
)

// cpuFeatures are the x86 features the code generator gives opt and llc:
// the LLVM 14 -mattr name, the /proc/cpuinfo flag that reports it, and
// golang.org/x/sys/cpu's field for this machine (which reports AVX and
// AVX-512 only when the OS saves their registers).
//
// These are the features that decide vectorization and instruction
// selection for the code generator's IR, the same on Intel and AMD
// processors that have them. Others are left out on purpose, so that the
// same feature set gives the same code on any vendor's processor: AMX
// (amx_tile, amx_bf16, amx_int8), AVX-VNNI, SERIALIZE and the like have no
// use in this IR, and avx512_fp16 would let LLVM do half-precision
// arithmetic natively, where the code generator keeps f16 as bits and
// computes in f32 (half.go), as the reference evaluator does.
var cpuFeatures = []cpuFeature{
	{"sse3", "pni", &cpu.X86.HasSSE3}, {"ssse3", "ssse3", &cpu.X86.HasSSSE3},
	{"sse4.1", "sse4_1", &cpu.X86.HasSSE41}, {"sse4.2", "sse4_2", &cpu.X86.HasSSE42},
	{"popcnt", "popcnt", &cpu.X86.HasPOPCNT}, {"avx", "avx", &cpu.X86.HasAVX},
	{"avx2", "avx2", &cpu.X86.HasAVX2}, {"fma", "fma", &cpu.X86.HasFMA},
	{"bmi", "bmi1", &cpu.X86.HasBMI1}, {"bmi2", "bmi2", &cpu.X86.HasBMI2},
	{"xsave", "xsave", &cpu.X86.HasOSXSAVE},
	{"avx512f", "avx512f", &cpu.X86.HasAVX512F}, {"avx512bw", "avx512bw", &cpu.X86.HasAVX512BW},
	{"avx512vl", "avx512vl", &cpu.X86.HasAVX512VL}, {"avx512dq", "avx512dq", &cpu.X86.HasAVX512DQ},
	{"avx512cd", "avx512cd", &cpu.X86.HasAVX512CD}, {"avx512vnni", "avx512_vnni", &cpu.X86.HasAVX512VNNI},
	{"avx512bf16", "avx512_bf16", &cpu.X86.HasAVX512BF16}, {"avx512vbmi", "avx512vbmi", &cpu.X86.HasAVX512VBMI},
	{"avx512vpopcntdq", "avx512_vpopcntdq", &cpu.X86.HasAVX512VPOPCNTDQ},
}

// cpuFeature is an entry of cpuFeatures.
type cpuFeature struct {
	llvm, cpuinfo string
	host          *bool
}

// HostCPU returns opt's and llc's -mcpu and -mattr for this machine. LLVM 14 does not
// know the processors of the project's machines (`llc --version` prints
// `Host CPU: (unknown)`), so -mcpu=native would give plain x86-64 without
// AVX (codegen-notes.md, trap 1). Instead: the x86-64 micro-architecture
// level the features reach (x86-64-v2, -v3, -v4) as the CPU, and every
// detected feature of cpuFeatures explicitly.
func HostCPU() (mcpu, mattr string) {
	if runtime.GOARCH != "amd64" {
		return "generic", ""
	}
	return target(func(f cpuFeature) bool { return *f.host })
}

// CPUTarget is HostCPU for the x86-64 processor whose /proc/cpuinfo
// "flags" line lists flags (another machine's, say, to compile for it).
func CPUTarget(flags []string) (mcpu, mattr string) {
	set := map[string]bool{}
	for _, f := range flags {
		set[f] = true
	}
	return target(func(f cpuFeature) bool { return set[f.cpuinfo] })
}

// target derives -mcpu and -mattr from which of cpuFeatures are present.
func target(present func(cpuFeature) bool) (mcpu, mattr string) {
	var attrs []string
	has := map[string]bool{}
	for _, f := range cpuFeatures {
		if present(f) {
			attrs = append(attrs, "+"+f.llvm)
			has[f.llvm] = true
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
