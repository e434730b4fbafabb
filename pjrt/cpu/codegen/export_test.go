package codegen

import (
	"strings"

	"github.com/stela-ml/stela/stablehlo"
)

// Test-only access to unexported facts of the package.

// MathULP is mathfn.go's table of ULP bounds, by element type ("f32",
// "f64") and op name.
func MathULP() map[string]map[string]int {
	out := map[string]map[string]int{}
	for k, m := range mathULP {
		t := map[string]int{}
		for name, u := range m {
			t[name] = u
		}
		out[k.mlir()] = t
	}
	return out
}

// KernelList describes the program's kernels, one line each: the op, its
// result type and, for a fused kernel, the buffers it reads.
func (p *Program) KernelList() []string {
	var out []string
	for _, n := range p.nodes {
		if n.kind == kConstant {
			continue
		}
		s := n.name + " -> " + n.out[0].t.String()
		if n.fused != nil {
			s += " fused, reads"
			for _, x := range n.in {
				s += " " + x.t.String()
			}
		}
		out = append(out, s)
	}
	return out
}

// PlanLLVM plans a module and emits its LLVM module text.
func PlanLLVM(m *stablehlo.Module) ([]byte, error) {
	p, err := Plan(m, Options{})
	if err != nil {
		return nil, err
	}
	return p.LLVM()
}

// LLVMHasParallel reports whether an LLVM module made by Program.LLVM
// runs a kernel through parallel_for.
func LLVMHasParallel(ll []byte) bool {
	return strings.Contains(string(ll), "define internal void @p")
}

// SetCancelChecks turns the cancellation checks of generated code (while
// back-edges, between kernels) on or off, for benchmarks that measure
// their cost; it returns the previous setting.
func SetCancelChecks(on bool) bool {
	old := cancelChecks
	cancelChecks = on
	return old
}

// MaxFusedExpensive is the most expensive elementwise ops (transcendental
// functions, divisions) one fused kernel computes inline.
const MaxFusedExpensive = maxFusedCost / (1 + parWeight)

// SetFFTExpand plans stablehlo.fft as stablehlo.ExpandFFT's products with
// DFT matrices (the old path) instead of the runtime's FFT, for the
// benchmarks' baseline; it returns the previous setting.
func SetFFTExpand(on bool) bool {
	old := fftExpand
	fftExpand = on
	return old
}

// LLVMEveryKernel is LLVM without the kernel deduplication.
func (p *Program) LLVMEveryKernel() ([]byte, error) { return p.llvm(false) }
