package codegen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// Real /proc/cpuinfo flags lines: an Intel Xeon Platinum 8480+ (Sapphire
// Rapids: AMX, AVX512-FP16, AVX-VNNI, SERIALIZE, ...; bare metal, from
// lscpu) and an AMD EPYC of the Zen 4 generation (a KVM guest: the
// project's CI machines).
const (
	sapphireRapidsFlags = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 invpcid_single intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp ibrs_enhanced tpr_shadow vnmi flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm ida arat pln pts hwp hwp_act_window hwp_epp hwp_pkg_req avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b enqcmd fsrm md_clear serialize tsxldtrk pconfig arch_lbr amx_bf16 avx512_fp16 amx_tile amx_int8 flush_l1d arch_capabilities"
	zen4Flags           = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx512_bf16 clzero xsaveerptr arat avx512vbmi umip avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm"
)

// The same target for both: their common features, nothing of Sapphire
// Rapids' own (AMX, AVX512-FP16, AVX-VNNI), so that the code is the same.
const wantAVX512Attrs = "+sse3,+ssse3,+sse4.1,+sse4.2,+popcnt,+avx,+avx2,+fma,+bmi,+bmi2,+xsave,+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512cd,+avx512vnni,+avx512bf16,+avx512vbmi,+avx512vpopcntdq,-prefer-256-bit"

// TestCPUTarget: the target derived from each flags line, and LLVM 14's
// opt and llc (the real tools) accept it on a small vectorizable module
// without a warning (an unknown -mattr feature is only a warning, so the
// test reads stderr).
func TestCPUTarget(t *testing.T) {
	opt, llc := lookTool("opt", "opt-14"), lookTool("llc", "llc-14")
	if opt == "" || llc == "" {
		t.Skip("no LLVM 14 opt and llc on PATH")
	}
	dir := t.TempDir()
	ll := filepath.Join(dir, "m.ll")
	module := `target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(double* noalias nocapture %x, double* noalias nocapture readonly %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pa = getelementptr inbounds double, double* %a, i64 %i
  %v = load double, double* %pa, align 8
  %s = call double @llvm.sqrt.f64(double %v)
  %f = call double @llvm.fma.f64(double %v, double %s, double 1.0)
  %px = getelementptr inbounds double, double* %x, i64 %i
  store double %f, double* %px, align 8
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare double @llvm.sqrt.f64(double)
declare double @llvm.fma.f64(double, double, double)
`
	if err := os.WriteFile(ll, []byte(module), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, flags, mcpu, mattr string }{
		{"sapphire rapids", sapphireRapidsFlags, "x86-64-v4", wantAVX512Attrs},
		{"zen 4", zen4Flags, "x86-64-v4", wantAVX512Attrs},
		{"haswell-like", "fpu sse sse2 pni ssse3 fma sse4_1 sse4_2 popcnt xsave avx bmi1 avx2 bmi2", "x86-64-v3",
			"+sse3,+ssse3,+sse4.1,+sse4.2,+popcnt,+avx,+avx2,+fma,+bmi,+bmi2,+xsave"},
		{"sse2 only", "fpu sse sse2", "x86-64", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mcpu, mattr := codegen.CPUTarget(strings.Fields(tc.flags))
			if mcpu != tc.mcpu || mattr != tc.mattr {
				t.Errorf("-mcpu=%s -mattr=%s\nwant -mcpu=%s -mattr=%s", mcpu, mattr, tc.mcpu, tc.mattr)
			}
			target := []string{"-mcpu=" + mcpu}
			if mattr != "" {
				target = append(target, "-mattr="+mattr)
			}
			bc, obj := filepath.Join(dir, tc.name+".bc"), filepath.Join(dir, tc.name+".o")
			for _, cmd := range [][]string{
				append([]string{opt, "-O2"}, append(target, ll, "-o", bc)...),
				append([]string{llc, "-O2", "-filetype=obj"}, append(target, bc, "-o", obj)...),
			} {
				out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput()
				if err != nil || len(out) > 0 {
					t.Errorf("%s: %v\n%s", strings.Join(cmd, " "), err, out)
				}
			}
		})
	}
}

// lookTool is the path of the first of names on PATH, or "" (Debian's
// LLVM 14 tools may carry only the -14 suffix).
func lookTool(names ...string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// TestHostCPU: golang.org/x/sys/cpu (what HostCPU reads) and this
// machine's /proc/cpuinfo flags give the same target, and the CPU is an
// x86-64 level LLVM 14 knows.
func TestHostCPU(t *testing.T) {
	mcpu, mattr := codegen.HostCPU()
	t.Logf("-mcpu=%s -mattr=%s", mcpu, mattr)
	if runtime.GOARCH != "amd64" {
		if mcpu != "generic" || mattr != "" {
			t.Errorf("on %s: -mcpu=%s -mattr=%s, want generic and no features", runtime.GOARCH, mcpu, mattr)
		}
		return
	}
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
	if flags == nil {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	if m, a := codegen.CPUTarget(flags); m != mcpu || a != mattr {
		t.Errorf("from /proc/cpuinfo: -mcpu=%s -mattr=%s\nfrom x/sys/cpu:   -mcpu=%s -mattr=%s", m, a, mcpu, mattr)
	}
	switch mcpu {
	case "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4":
	default:
		t.Errorf("-mcpu=%s", mcpu)
	}
}
