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
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	blk, err := stablehlo.ExpandFFT(c.o)
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	s := c.s
	s.env[blk.Args[0]] = c.args[0]
	for _, o := range blk.Ops {
		if o.Name == "stablehlo.return" {
			return []*ir.Value{s.env[o.Operands[0]]}, nil
		}
		o.Line = c.o.Line
		if err := s.op(o); err != nil {
			return nil, err
		}
	}
	return nil, c.errorf("internal error: the expansion of stablehlo.fft has no return")
}
