package xla

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/ir"
)

// Cases for the elementwise ops: every op on every element type its type
// rule accepts (a rejected type is skipped: sweep), on specials and random
// values.

// nUnary and nBinary are the vector lengths of the elementwise cases; the
// binary ones grow to hold the cross product of the specials.
const nUnary, nBinary = 256, 256

func sweepCase(name string, op ir.Op, d ir.DType, in []*ir.Literal, build func(b *fb, ps []*ir.Value) []*ir.Value) *tcase {
	return &tcase{name: name, op: op, dtype: d, in: in, build: build, elementwise: true, sweep: true, ulp: -1}
}

func elementwiseCases() []*tcase {
	var cs []*tcase
	for _, op := range ir.AllOps() {
		info := op.Info()
		if !info.Has(ir.Elementwise) || info.Attr != nil || info.NumArgs > 2 {
			continue
		}
		for _, d := range ir.AllDTypes {
			name := fmt.Sprintf("%v/%v", op, d)
			r := rng(name)
			switch info.NumArgs {
			case 1:
				cs = append(cs, sweepCase(name, op, d, []*ir.Literal{vec(r, d, nUnary)},
					func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(op, nil, p) }))
			case 2:
				x, y := pair(r, d, nBinary)
				if op == ir.OpPower && d.IsComplex() {
					// Complex power is exp(y·log x): with parts of 1e30 its
					// phase is noise in either implementation. Keep the
					// random parts moderate (the specials stay).
					x, y = moderate(x), moderate(y)
				}
				cs = append(cs, sweepCase(name, op, d, []*ir.Literal{x, y},
					func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(op, nil, p) }))
			}
		}
	}
	cs = append(cs, compareCases()...)
	cs = append(cs, selectClampCases()...)
	cs = append(cs, convertCases()...)
	cs = append(cs, bitcastCases()...)
	cs = append(cs, reducePrecisionCases()...)
	return cs
}

func compareCases() []*tcase {
	var cs []*tcase
	dirs := []ir.ComparisonDirection{ir.CmpEQ, ir.CmpNE, ir.CmpGE, ir.CmpGT, ir.CmpLE, ir.CmpLT}
	for _, d := range ir.AllDTypes {
		for _, ct := range []ir.ComparisonType{ir.CmpNoType, ir.CmpTotalOrder} {
			if ct == ir.CmpTotalOrder && !d.IsFloat() {
				continue
			}
			name := fmt.Sprintf("compare/%v", d)
			if ct != ir.CmpNoType {
				name += "/" + ct.String()
			}
			r := rng(name)
			x, y := pair(r, d, nBinary)
			if d.IsFloat() {
				// TOTALORDER tells NaNs apart by sign and payload.
				x = withNaNs(x)
			}
			for _, dir := range dirs {
				attr := ir.CompareAttr{Direction: dir, Type: ct}
				cs = append(cs, sweepCase(name+"/"+dir.String(), ir.OpCompare, d, []*ir.Literal{x, y},
					func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpCompare, attr, p) }))
			}
		}
	}
	return cs
}

func selectClampCases() []*tcase {
	var cs []*tcase
	for _, d := range ir.AllDTypes {
		name := fmt.Sprintf("select/%v", d)
		r := rng(name)
		x, y := pair(r, d, 64)
		n := x.Len()
		pred := randLit(r, ir.TensorOf(ir.Bool, n), false)
		c := sweepCase(name, ir.OpSelect, d, []*ir.Literal{pred, withNaNs(x), y},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpSelect, nil, p) })
		c.bits = true
		cs = append(cs, c)
		for _, v := range []bool{false, true} {
			c := sweepCase(fmt.Sprintf("select/%v/scalar_%v", d, v), ir.OpSelect, d,
				[]*ir.Literal{ir.LiteralOf(nil, v), withNaNs(x), y},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpSelect, nil, p) })
			c.bits = true
			cs = append(cs, c)
		}

		name = fmt.Sprintf("clamp/%v", d)
		r = rng(name)
		lo, hi := pair(r, d, 64)
		x = vec(r, d, lo.Len())
		cs = append(cs, sweepCase(name, ir.OpClamp, d, []*ir.Literal{lo, x, hi},
			func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpClamp, nil, p) }))
		slo, shi := vec(r, d, 2), vec(r, d, 2)
		if d.IsInteger() || d.IsFloat() {
			slo, shi = ir.LiteralFromInt64s(ir.TensorOf(d, 2), []int64{-2, 1}), ir.LiteralFromInt64s(ir.TensorOf(d, 2), []int64{3, 0})
		}
		for k := range 2 {
			// Scalar bounds, the second pair with lo > hi.
			lo, hi := scalarAt(slo, k), scalarAt(shi, k)
			cs = append(cs, sweepCase(fmt.Sprintf("%s/scalar_bounds%d", name, k), ir.OpClamp, d, []*ir.Literal{lo, x, hi},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpClamp, nil, p) }))
		}
	}
	return cs
}

func scalarAt(l *ir.Literal, i int) *ir.Literal {
	out := ir.Zeros(ir.Scalar(l.Type.DType))
	out.CopyElem(0, l, i)
	return out
}

func convertCases() []*tcase {
	var cs []*tcase
	for _, from := range ir.AllDTypes {
		r := rng("convert/" + from.String())
		x := vec(r, from, nUnary)
		if from.IsFloat() {
			// Values around every integer type's range and halfway points.
			extra := []float64{127.5, 128, -128.5, -129, 255.5, 256, 32767.5, 32768, 65535.9, 65536,
				2147483647, 2147483648, -2147483649, 4294967296, 9.3e18, 1.8e19, 1.9e19, -9.3e18, 0.99, -0.99, 2.5, 3.5}
			v := x.Float64s()
			copy(v[len(floatSpecials(from)):], extra)
			x = ir.LiteralFromFloat64s(x.Type, v)
		}
		for _, to := range ir.AllDTypes {
			name := fmt.Sprintf("convert/%v/%v", from, to)
			attr := ir.ConvertAttr{To: to}
			cs = append(cs, sweepCase(name, ir.OpConvert, from, []*ir.Literal{x},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpConvert, attr, p) }))
		}
	}
	return cs
}

func bitcastCases() []*tcase {
	var cs []*tcase
	for _, from := range ir.AllDTypes {
		for _, to := range ir.AllDTypes {
			fw, tw := from.Bits(), to.Bits()
			shape := []int{6, 4}
			if tw > fw && fw > 0 {
				shape = []int{6, tw / fw}
			}
			name := fmt.Sprintf("bitcast_convert/%v/%v", from, to)
			r := rng(name)
			x := withNaNs(randLit(r, ir.TensorOf(from, shape...), false))
			attr := ir.BitcastConvertAttr{To: to}
			c := sweepCase(name, ir.OpBitcastConvert, from, []*ir.Literal{x},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpBitcastConvert, attr, p) })
			c.bits, c.elementwise = true, false
			cs = append(cs, c)
		}
	}
	return cs
}

func reducePrecisionCases() []*tcase {
	var cs []*tcase
	for _, d := range []ir.DType{ir.F16, ir.BF16, ir.F32, ir.F64} {
		x := withNaNs(vec(rng("reduce_precision/"+d.String()), d, nUnary))
		for _, f := range [][2]int{{5, 10}, {8, 7}, {8, 23}, {4, 3}, {5, 2}, {2, 1}, {3, 0}, {11, 52}, {1, 0}} {
			name := fmt.Sprintf("reduce_precision/%v/e%dm%d", d, f[0], f[1])
			attr := ir.ReducePrecisionAttr{ExponentBits: f[0], MantissaBits: f[1]}
			c := sweepCase(name, ir.OpReducePrecision, d, []*ir.Literal{x},
				func(b *fb, p []*ir.Value) []*ir.Value { return b.emit(ir.OpReducePrecision, attr, p) })
			c.bits = true
			cs = append(cs, c)
		}
	}
	return cs
}

// moderate folds the finite parts of l beyond ±8 into [-8, 8).
func moderate(l *ir.Literal) *ir.Literal {
	return mapFloat(l, func(v float64) float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) <= 8 {
			return v
		}
		return math.Mod(v, 8)
	})
}
