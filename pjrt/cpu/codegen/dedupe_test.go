package codegen_test

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// TestDedupeKernels: a program whose kernels repeat (the same chain on
// an argument, on a planned buffer, and again on a planned buffer, with
// transposes between that keep them apart) is emitted with one copy of
// the repeated kernel, and computes what the evaluator does.
func TestDedupeKernels(t *testing.T) {
	const n = 4
	b := newBuilder(t, "dedupe", ir.TensorOf(ir.F32, n, n), ir.TensorOf(ir.F32, n, n))
	x, w := b.f.Params[0], b.f.Params[1]
	chain := func(v *ir.Value) *ir.Value {
		return b.emit(ir.OpSubtract, nil, b.emit(ir.OpMultiply, nil, v, v), v)
	}
	dot := func(v *ir.Value) *ir.Value {
		return b.emit(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, v, w)
	}
	y := chain(dot(chain(dot(chain(x)))))
	b.f.Return(y)
	m, err := stablehlo.Parse([]byte(lowerText(t, b.f)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := codegen.Plan(m, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	every, err := p.LLVMEveryKernel()
	if err != nil {
		t.Fatal(err)
	}
	one, err := p.LLVM()
	if err != nil {
		t.Fatal(err)
	}
	// Kernels are named k<N>.<op>: count the subtract kernels' definitions.
	defs := func(ll []byte) int {
		return len(regexp.MustCompile(`(?m)^define internal void @k[0-9]+\.subtract\(`).FindAll(ll, -1))
	}
	if got, all := defs(one), defs(every); got != 1 || all != 3 {
		t.Errorf("%d subtract kernels with deduplication, %d without: want 1 and 3\nkernels: %v", got, all, p.KernelList())
	}
	r := rand.New(rand.NewPCG(1, 2))
	tt := ir.TensorOf(ir.F32, n, n)
	evalAndCompare(t, b.f, []checked{{"y", 2}}, smallInts(r, tt, -3, 3), smallInts(r, tt, -1, 1))
}
