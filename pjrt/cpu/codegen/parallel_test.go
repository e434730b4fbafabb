package codegen_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// TestFusionParallel: fused loops big enough to run through the thread
// pool (elementwise with broadcasts and a mask, reductions over rows, over
// columns, over a middle dimension and over everything) are bit-identical
// to the reference evaluator, and the module does call parallel_for.
func TestFusionParallel(t *testing.T) {
	t.Parallel()
	const R, C, D = 384, 200, 24
	f32 := func(s ...int) ir.Type { return ir.TensorOf(ir.F32, s...) }
	b := newBuilder(t, "parallel", f32(R, C), f32(C), f32(R), f32(R/D, D, C))
	x, a, c, z := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3]
	bc := func(v *ir.Value, shape []int, dims ...int) *ir.Value {
		return b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: shape, Dims: dims}, v)
	}
	scalar := func(v float32) *ir.Value { return b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(v)}) }
	sum := func(v *ir.Value, dims ...int) *ir.Value {
		body := region(t, ir.F32, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.emit(ir.OpAdd, nil, acc[0], x[0])}
		})
		return b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: dims}, []*ir.Func{body}, v, scalar(0))[0]
	}
	rc := []int{R, C}
	y := b.emit(ir.OpAdd, nil, b.emit(ir.OpMultiply, nil, x, bc(a, rc, 1)), bc(c, rc, 0))
	row := b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(ir.S32, R, C), Dim: 0})
	col := b.emit(ir.OpIota, ir.IotaAttr{Type: ir.TensorOf(ir.S32, R, C), Dim: 1})
	mask := b.emit(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGE}, row, col)
	ew := b.emit(ir.OpSelect, nil, mask, b.emit(ir.OpMaximum, nil, y, bc(scalar(0), rc)), b.emit(ir.OpNegate, nil, y))
	sq := b.emit(ir.OpMultiply, nil, x, x)
	b.f.Return(ew, sum(sq, 1), sum(sq, 0), sum(b.emit(ir.OpAbs, nil, z), 1), sum(b.emit(ir.OpAbs, nil, x), 0, 1))
	src := lowerText(t, b.f)
	m, err := stablehlo.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ll, err := codegen.PlanLLVM(m)
	if err != nil {
		t.Fatal(err)
	}
	if !codegen.LLVMHasParallel(ll) {
		t.Error("no kernel runs through parallel_for")
	}
	r := rand.New(rand.NewPCG(5, 6))
	var args []*ir.Literal
	for _, p := range b.f.Params {
		args = append(args, randLiteral(r, p.Type))
	}
	evalAndCompare(t, b.f, nil, args...)
}
