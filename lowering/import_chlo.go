package lowering

import (
	"math"
	"slices"

	"github.com/stela-ml/stela/ir"
)

// The chlo ops that have an exact IR form: chlo's broadcasting binary ops
// (their operands broadcast to the result shape, then the IR's
// elementwise op), and the unary ops the IR has (tan) or that are exact
// IR expressions (square, conj, is_inf, is_pos_inf, is_neg_inf). The
// other chlo math functions (lgamma, digamma, erf_inv, next_after, zeta,
// ...) have no IR op and stay unimported: an IR expansion would be a new
// approximation, not chlo's function.

// chloBroadcastTargets maps each chlo.broadcast_* op that imports to the
// StableHLO op whose import rule it applies after broadcasting.
var chloBroadcastTargets = map[string]string{
	"chlo.broadcast_add": "stablehlo.add", "chlo.broadcast_subtract": "stablehlo.subtract",
	"chlo.broadcast_multiply": "stablehlo.multiply", "chlo.broadcast_divide": "stablehlo.divide",
	"chlo.broadcast_remainder": "stablehlo.remainder", "chlo.broadcast_maximum": "stablehlo.maximum",
	"chlo.broadcast_minimum": "stablehlo.minimum", "chlo.broadcast_power": "stablehlo.power",
	"chlo.broadcast_atan2": "stablehlo.atan2", "chlo.broadcast_and": "stablehlo.and",
	"chlo.broadcast_or": "stablehlo.or", "chlo.broadcast_xor": "stablehlo.xor",
	"chlo.broadcast_shift_left":             "stablehlo.shift_left",
	"chlo.broadcast_shift_right_arithmetic": "stablehlo.shift_right_arithmetic",
	"chlo.broadcast_shift_right_logical":    "stablehlo.shift_right_logical",
	"chlo.broadcast_compare":                "stablehlo.compare",
	"chlo.broadcast_select":                 "stablehlo.select",
	"chlo.broadcast_complex":                "stablehlo.complex",
}

// registerChlo adds the rules to importRules (called by its init).
func registerChlo() {
	for name := range chloBroadcastTargets {
		importRules[name] = importChloBroadcast
	}
	importRules["chlo.tan"] = importSame(ir.OpTan)
	importRules["chlo.square"] = importChloSquare
	importRules["chlo.conj"] = importChloConj
	for _, name := range []string{"chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf"} {
		importRules[name] = importChloIsInf
	}
}

// importChloBroadcast broadcasts each operand whose shape is not the
// result's to it, as chlo defines (and the code generator does): by
// broadcast_dimensions when given and the operand has that many
// dimensions, fewer than the result; else numpy-style, aligned at the
// trailing dimensions, a dimension of size 1 stretching. Then it imports
// the target op on the broadcast operands.
func importChloBroadcast(c *opCtx) ([]*ir.Value, error) {
	target := chloBroadcastTargets[c.o.Name]
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	var bdims []int
	if c.attr("broadcast_dimensions") != nil {
		d, err := c.ints("broadcast_dimensions", true)
		if err != nil {
			return nil, err
		}
		bdims = d
	}
	r := c.types[0]
	args := make([]*ir.Value, len(c.args))
	for i, x := range c.args {
		xt := x.Type
		if slices.Equal(xt.Shape, r.Shape) {
			args[i] = x
			continue
		}
		var dims []int
		if bdims != nil && xt.Rank() == len(bdims) && xt.Rank() < r.Rank() {
			dims = bdims
		} else {
			if xt.Rank() > r.Rank() {
				return nil, c.errorf("operand #%d %v does not broadcast to %v", i, xt, r)
			}
			for d := range xt.Rank() {
				dims = append(dims, r.Rank()-xt.Rank()+d)
			}
		}
		for k, d := range dims {
			if d < 0 || d >= r.Rank() || xt.Shape[k] != 1 && xt.Shape[k] != r.Shape[d] {
				return nil, c.errorf("operand #%d %v does not broadcast to %v", i, xt, r)
			}
		}
		b, err := c.emit1(ir.OpBroadcastInDim, []*ir.Value{x}, ir.BroadcastInDimAttr{Shape: append([]int{}, r.Shape...), Dims: dims})
		if err != nil {
			return nil, err
		}
		args[i] = b
	}
	sub := *c
	sub.args = args
	sub.attrs = nil
	for _, a := range c.attrs {
		if a.Name != "broadcast_dimensions" {
			sub.attrs = append(sub.attrs, a)
		}
	}
	return importRules[target](&sub)
}

// importChloSquare: x·x, one rounding (complex: as multiply).
func importChloSquare(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.errorf("has %d operands, want 1", len(c.args))
	}
	return c.emit(ir.OpMultiply, []*ir.Value{c.args[0], c.args[0]}, nil)
}

// importChloConj: a real number is its own conjugate; a complex one is
// complex(real, -imag).
func importChloConj(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.errorf("has %d operands, want 1", len(c.args))
	}
	x := c.args[0]
	if !x.Type.DType.IsComplex() {
		return []*ir.Value{x}, nil
	}
	re, err := c.emit1(ir.OpReal, []*ir.Value{x}, nil)
	if err != nil {
		return nil, err
	}
	im, err := c.emit1(ir.OpImag, []*ir.Value{x}, nil)
	if err != nil {
		return nil, err
	}
	neg, err := c.emit1(ir.OpNegate, []*ir.Value{im}, nil)
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpComplex, []*ir.Value{re, neg}, nil)
}

// importChloIsInf: |x| == +Inf (is_inf), x == +Inf, x == -Inf, compared
// as floats. The f8, f6 and f4 types widen to f32 first (exactly), so that
// a type without Inf gives false rather than comparing with what Inf
// encodes to there.
func importChloIsInf(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.errorf("has %d operands, want 1", len(c.args))
	}
	x := c.args[0]
	if !x.Type.DType.IsFloat() {
		return nil, c.errorf("operand type %v: want a float type", x.Type)
	}
	if x.Type.DType.IsNarrowFloat() {
		w, err := c.emit1(ir.OpConvert, []*ir.Value{x}, ir.ConvertAttr{To: ir.F32})
		if err != nil {
			return nil, err
		}
		x = w
	}
	inf := math.Inf(1)
	switch c.o.Name {
	case "chlo.is_inf":
		a, err := c.emit1(ir.OpAbs, []*ir.Value{x}, nil)
		if err != nil {
			return nil, err
		}
		x = a
	case "chlo.is_neg_inf":
		inf = math.Inf(-1)
	}
	k, err := c.emit1(ir.OpConstant, nil, ir.ConstantAttr{Value: ir.FullLiteral(x.Type, inf)})
	if err != nil {
		return nil, err
	}
	return c.emit(ir.OpCompare, []*ir.Value{x, k}, ir.CompareAttr{Direction: ir.CmpEQ, Type: ir.CmpFloat})
}
