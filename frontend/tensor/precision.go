package tensor

import (
	"slices"
	"sync/atomic"

	"github.com/stela-ml/stela/ir"
)

// defaultPrecision is read by every float dot and convolution, eager ones
// included, so it is an atomic rather than a mutex like defaultDevice.
var defaultPrecision atomic.Uint32

func init() { defaultPrecision.Store(uint32(ir.PrecisionHighest)) }

// SetDefaultPrecision chooses the precision that new floating-point dots
// (DotGeneral, MatMul) and convolutions (Convolution, Conv2D) get when
// their attribute sets none. The default is ir.PrecisionHighest: products
// in the element type, as the reference evaluator computes them.
// ir.PrecisionDefault lets a backend take faster, lossier passes (XLA's
// GPU compiler then computes f32 dots in TF32); Stela's CPU plugin always
// computes in the element type, whatever the hint.
//
// The precision is written into each op when it is created, so it changes
// eager ops and traces from now on; programs already traced (a jit
// function's cached trace) keep the precision they were traced with.
func SetDefaultPrecision(p ir.Precision) {
	if p.String() == "?" {
		panic(fail("precision", "unknown precision %d (want ir.PrecisionDefault, PrecisionHigh or PrecisionHighest)", p))
	}
	defaultPrecision.Store(uint32(p))
}

// DefaultPrecision returns the precision that new floating-point dots and
// convolutions get when their attribute sets none (see SetDefaultPrecision).
func DefaultPrecision() ir.Precision {
	return ir.Precision(defaultPrecision.Load())
}

// precisionFor is the precision config of a dot or convolution whose
// operands have element type d and whose attribute asked for given: given
// (copied) when set, else the default for float and complex operands,
// else none.
// Integer and boolean dots get none: they are exact, and a hint there
// would only be noise in dumps.
func precisionFor(d ir.DType, given []ir.Precision) []ir.Precision {
	if len(given) != 0 || !d.IsFloat() && !d.IsComplex() {
		return slices.Clone(given)
	}
	p := DefaultPrecision()
	return []ir.Precision{p, p}
}
