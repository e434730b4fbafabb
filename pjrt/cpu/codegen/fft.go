package codegen

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"

	"github.com/stela-ml/stela/stablehlo"
)

// FFT. stablehlo.fft is one call of the runtime's FFT (rt->fft, ABI
// version 7, pjrt/cpu/internal/rt/rt_fft.c): pocketfft's transforms, as
// numpy.fft applies them, of any length (Bluestein's algorithm for
// lengths with large prime factors), in double for complex<f64> and f64,
// in float for complex<f32> and f32, across lines on the pool.

// fftPlan is the plan of a kFFT node: in is the operand, out the result.
type fftPlan struct {
	kind  int64   // 0 FFT, 1 IFFT, 2 RFFT, 3 IRFFT (rt_fft.h)
	f64   bool    // complex<f64> / f64, else complex<f32> / f32
	batch int64   // the product of the dimensions before the transformed ones
	lens  []int64 // fft_length
}

// fftKinds are the fft_types in rt->fft's numbering.
var fftKinds = []string{"FFT", "IFFT", "RFFT", "IRFFT"}

// fftExpand plans stablehlo.fft as stablehlo.ExpandFFT's products with
// DFT matrices instead (lengths up to stablehlo.MaxFFTLength): the old
// path, for benchmarks (export_test.go).
var fftExpand = false

// fftOp plans stablehlo.fft as a kFFT node.
func (p *planner) fftOp(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	if len(ins) != 1 {
		return nil, fmt.Errorf("has %d operands, want 1", len(ins))
	}
	if fftExpand {
		blk, err := stablehlo.ExpandFFT(op)
		if stablehlo.IsFFTLengthError(err) {
			return nil, unsupportedf("stablehlo.fft: %v", err)
		}
		if err != nil {
			return nil, err
		}
		return p.expanded(n, op, blk, ins)
	}
	info, err := stablehlo.CheckFFT(op)
	if err != nil {
		return nil, err
	}
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	x := ins[0].t
	pl := &fftPlan{kind: int64(slices.Index(fftKinds, info.Kind)), lens: info.Lengths, batch: 1}
	part := x.elem
	if isComplexKind(part) {
		part = part.part()
	}
	switch part {
	case kF64:
		pl.f64 = true
	case kF32:
	default:
		return nil, fmt.Errorf("element type %s: want complex<f32>, complex<f64>, f32 or f64", x)
	}
	for _, d := range x.shape[:x.rank()-len(pl.lens)] {
		pl.batch *= d
	}
	n.kind, n.plan = kFFT, pl
	return p.add(n, outs...), nil
}

// fftKernel emits a kFFT node: i32 (rt, err, out, in) returning what
// rt->fft returns (0, or 1 with its message in err).
func (e *emitter) fftKernel(n *node) (*ir.Func, error) {
	pl := n.plan.(*fftPlan)
	b, rt, outs, ins := e.newKernelFallible(n, n.out, n.in)
	b.f.SetName(fmt.Sprintf("k%d.fft", e.nk))
	e.usesFFT = true
	lens := []int64{1, 1, 1}
	copy(lens, pl.lens)
	f64 := int64(0)
	if pl.f64 {
		f64 = 1
	}
	rc := b.cur.NewCall(b.rtField(rt, rtFFT), b.cur.NewBitCast(rt, types.I8Ptr), i32(pl.kind), i32(f64),
		i64(pl.batch), i64(int64(len(pl.lens))), i64(lens[0]), i64(lens[1]), i64(lens[2]),
		b.cur.NewBitCast(ins[0], types.I8Ptr), b.cur.NewBitCast(outs[0], types.I8Ptr), b.f.Params[1])
	b.cur.NewRet(rc)
	return b.f, nil
}
