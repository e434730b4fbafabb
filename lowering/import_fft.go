package lowering

import (
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// importFFT imports stablehlo.fft as the IR's fft op (the CPU plugin
// calls its runtime's FFT; the evaluator computes the transform
// directly).
func importFFT(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("fft_type", "fft_length"); err != nil {
		return nil, err
	}
	kind, err := c.enum("fft_type", "fft_type", true)
	if err != nil {
		return nil, err
	}
	t := slices.Index(ir.FFTType(0).EnumNames(), kind)
	if t < 0 {
		return nil, c.errorf("fft_type %s: want FFT, IFFT, RFFT or IRFFT", kind)
	}
	lens, err := c.ints("fft_length", true)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpFFT, c.args, ir.FFTAttr{Type: ir.FFTType(t), Length: lens})
}

// importErf imports chlo.erf, the one CHLO op with an IR form (the IR's
// erf lowers to it).
func importErf(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	return c.emit(ir.OpErf, c.args, nil)
}

// importCholesky and importTriangularSolve import the while loops of
// stablehlo.ExpandCholesky and ExpandTriangularSolve.
func importCholesky(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("lower"); err != nil {
		return nil, err
	}
	return c.importExpanded(stablehlo.ExpandCholesky)
}

func importTriangularSolve(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("left_side", "lower", "unit_diagonal", "transpose_a"); err != nil {
		return nil, err
	}
	return c.importExpanded(stablehlo.ExpandTriangularSolve)
}

// importExpanded imports the ops of an expansion of the op (a block whose
// arguments are its operands and which returns its results) in its place.
func (c *opCtx) importExpanded(expand func(*stablehlo.Op) (*stablehlo.Block, error)) ([]*ir.Value, error) {
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	blk, err := expand(c.o)
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	s := c.s
	for i, a := range blk.Args {
		s.env[a] = c.args[i]
	}
	for _, o := range blk.Ops {
		if o.Name == "stablehlo.return" {
			var outs []*ir.Value
			for _, x := range o.Operands {
				outs = append(outs, s.env[x])
			}
			return outs, nil
		}
		setLine(o, c.o.Line)
		if err := s.op(o); err != nil {
			return nil, err
		}
	}
	return nil, c.errorf("internal error: the expansion has no return")
}

// setLine gives o and the ops of its regions the line of the op they
// expand (for error messages).
func setLine(o *stablehlo.Op, line int) {
	o.Line = line
	for _, r := range o.Regions {
		for _, b := range r.Blocks {
			for _, x := range b.Ops {
				setLine(x, line)
			}
		}
	}
}
