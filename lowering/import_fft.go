package lowering

import (
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// importFFT imports stablehlo.fft as the ops stablehlo.ExpandFFT gives (a
// dot_general with a constant DFT matrix per transformed dimension), as
// the code generator plans it.
func importFFT(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("fft_type", "fft_length"); err != nil {
		return nil, err
	}
	return c.importExpanded(stablehlo.ExpandFFT)
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
