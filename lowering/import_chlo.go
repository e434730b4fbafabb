package lowering

import (
	"math"
	"slices"

	"github.com/stela-ml/stela/internal/minifloat"
	"github.com/stela-ml/stela/ir"
)

// The chlo ops that have an exact IR form: chlo's broadcasting binary ops
// (their operands broadcast to the result shape, then the IR's
// elementwise op), the unary ops the IR has (tan) or that are exact IR
// expressions (square, conj, is_inf, is_pos_inf, is_neg_inf), and
// next_after (integer steps on the bits). The other chlo math functions
// (lgamma, digamma, erf_inv, zeta, ...) have no IR op and stay
// unimported: an IR expansion would be a new approximation, not chlo's
// function.

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
	"chlo.broadcast_next_after":             "chlo.next_after",
}

// registerChlo adds the rules to importRules (called by its init).
func registerChlo() {
	for name := range chloBroadcastTargets {
		importRules[name] = importChloBroadcast
	}
	importRules["chlo.tan"] = importSame(ir.OpTan)
	importRules["chlo.square"] = importChloSquare
	importRules["chlo.next_after"] = importChloNextAfter
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

// importChloNextAfter: C's nextafter(x, y) on the storage bits, exact IR:
// NaN (x + y) if either is NaN, y if x == y, from ±0 the smallest
// subnormal with y's sign, else the bits of x plus or minus one (plus
// when moving away from zero). The f8 types step in their own code space
// the same way (the FNUZ types have no -0: the step from the smallest
// negative subnormal towards zero gives +0; f8E8M0FNU has no zero and no
// sign). f6 and f4 have no integer type of their width to step in and
// stay unimported.
func importChloNextAfter(c *opCtx) ([]*ir.Value, error) {
	if err := c.only(); err != nil {
		return nil, err
	}
	if len(c.args) != 2 || !c.args[0].Type.Equal(c.args[1].Type) {
		return nil, c.errorf("want two operands of one type")
	}
	x, y := c.args[0], c.args[1]
	d := x.Type.DType
	bits := map[ir.DType]ir.DType{ir.F16: ir.U16, ir.BF16: ir.U16, ir.F32: ir.U32, ir.F64: ir.U64}[d]
	f, narrow := ir.NarrowFormat(d)
	switch {
	case narrow && f.Bits == 8:
		bits = ir.U8
	case bits == ir.InvalidDType:
		return nil, c.errorf("element type %v: next_after imports on f16, bf16, f32, f64 and the f8 types", d)
	}
	shape := x.Type.Shape
	it := ir.TensorOf(bits, shape...)
	e := func(op ir.Op, attr any, args ...*ir.Value) *ir.Value {
		v, err := c.emit1(op, args, attr)
		if err != nil {
			panic(err)
		}
		return v
	}
	konst := func(t ir.Type, v float64) *ir.Value {
		return e(ir.OpConstant, ir.ConstantAttr{Value: ir.FullLiteral(t, v)})
	}
	var out *ir.Value
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				e, ok := p.(error)
				if !ok {
					panic(p)
				}
				err = e
			}
		}()
		cmp := func(dir ir.ComparisonDirection, a, b *ir.Value) *ir.Value {
			return e(ir.OpCompare, ir.CompareAttr{Direction: dir, Type: ir.CmpFloat}, a, b)
		}
		xb := e(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: bits}, x)
		yb := e(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: bits}, y)
		one := konst(it, 1)
		e8m0 := narrow && f.Kind == minifloat.NaNE8M0
		// Away from zero: x < y for a positive x, x > y for a negative
		// one (f8E8M0FNU is always positive and has no zero to compare
		// with).
		away := cmp(ir.CmpLT, x, y)
		var zero *ir.Value
		if !e8m0 {
			zero = konst(x.Type, 0)
			away = e(ir.OpNot, nil, e(ir.OpXor, nil, away, cmp(ir.CmpGT, x, zero)))
		}
		r := e(ir.OpSelect, nil, away, e(ir.OpAdd, nil, xb, one), e(ir.OpSubtract, nil, xb, one))
		if !e8m0 {
			sign := konst(it, math.Ldexp(1, it.DType.Bits()-1))
			if narrow && f.Kind == minifloat.NaNFNUZ {
				r = e(ir.OpSelect, nil, e(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpEQ}, r, sign), konst(it, 0), r)
			}
			tiny := e(ir.OpOr, nil, e(ir.OpAnd, nil, yb, sign), one)
			r = e(ir.OpSelect, nil, cmp(ir.CmpEQ, x, zero), tiny, r)
		}
		r = e(ir.OpSelect, nil, cmp(ir.CmpEQ, x, y), yb, r)
		res := e(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: d}, r)
		unordered := e(ir.OpOr, nil, cmp(ir.CmpNE, x, x), cmp(ir.CmpNE, y, y))
		out = e(ir.OpSelect, nil, unordered, e(ir.OpAdd, nil, x, y), res)
		return nil
	}()
	if err != nil {
		return nil, err
	}
	return []*ir.Value{out}, nil
}
