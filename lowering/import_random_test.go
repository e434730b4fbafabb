package lowering

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// randomProgram builds a random program over f32[2,3], si32[2,3],
// i1[2,3] and f32[3] values: elementwise ops, compares, selects,
// converts, constants (with NaN, -0 and infinities), iotas, data
// movement, dot_general, reduce, sort, and while loops and cases whose
// regions compute with what they are given. Ill-typed picks are skipped
// (Emit checks them), so the program verifies. Each instruction has its
// own location, so the round trip checks locations too.
func randomProgram(t *testing.T, r *rand.Rand) *ir.Func {
	F := ir.TensorOf(ir.F32, 2, 3)
	I := ir.TensorOf(ir.S32, 2, 3)
	B := ir.TensorOf(ir.Bool, 2, 3)
	V := ir.TensorOf(ir.F32, 3)
	f := ir.NewFunc("random", F, F, I, V)
	for i, p := range f.Params {
		p.SetParamLoc(ir.Loc{File: "param.go", Line: i + 1})
	}
	pools := map[ir.DType][]*ir.Value{}
	var vecs []*ir.Value
	add := func(v *ir.Value) {
		if v == nil {
			return
		}
		if v.Type.Equal(V) {
			vecs = append(vecs, v)
			return
		}
		if v.Type.Equal(F) || v.Type.Equal(I) || v.Type.Equal(B) {
			pools[v.Type.DType] = append(pools[v.Type.DType], v)
		}
	}
	for _, p := range f.Params {
		add(p)
	}
	pick := func(d ir.DType) *ir.Value {
		p := pools[d]
		if len(p) == 0 {
			return nil
		}
		return p[r.IntN(len(p))]
	}
	line := 0
	// emit appends to g and returns its first result, nil on a type error.
	emit := func(g *ir.Func, op ir.Op, attr any, args []*ir.Value, regions ...*ir.Func) *ir.Value {
		for _, a := range args {
			if a == nil {
				return nil
			}
		}
		line++
		loc := ir.Loc{File: "random.go", Line: line}
		if r.IntN(10) == 0 {
			loc = ir.UnknownLoc
		}
		rs, err := g.Emit(loc, op, args, attr, regions...)
		if err != nil || len(rs) == 0 {
			return nil
		}
		return rs[0]
	}
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(-1)}
	constant := func(g *ir.Func, typ ir.Type) *ir.Value {
		vals := make([]float64, typ.NumElements())
		for i := range vals {
			vals[i] = specials[r.IntN(len(specials))]
			if typ.DType != ir.F32 {
				vals[i] = float64(r.IntN(7) - 3)
			}
		}
		var l *ir.Literal
		switch typ.DType {
		case ir.Bool:
			bs := make([]bool, len(vals))
			for i, v := range vals {
				bs[i] = v > 0
			}
			l = ir.LiteralFromBools(typ, bs)
		case ir.S32:
			is := make([]int64, len(vals))
			for i, v := range vals {
				is[i] = int64(v)
			}
			l = ir.LiteralFromInt64s(typ, is)
		default:
			l = ir.LiteralFromFloat64s(typ, vals)
		}
		return emit(g, ir.OpConstant, ir.ConstantAttr{Value: l}, nil)
	}
	binaryRegion := func(op ir.Op, d ir.DType) *ir.Func {
		g := ir.NewFunc("", ir.Scalar(d), ir.Scalar(d))
		g.Return(emit(g, op, nil, g.Params))
		return g
	}
	floatUnary := []ir.Op{ir.OpNegate, ir.OpAbs, ir.OpExp, ir.OpTanh, ir.OpSine, ir.OpFloor, ir.OpSqrt, ir.OpLogistic, ir.OpSign, ir.OpRoundNearestEven}
	floatBinary := []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpDivide, ir.OpMaximum, ir.OpMinimum, ir.OpAtan2, ir.OpPower, ir.OpRemainder}
	intBinary := []ir.Op{ir.OpAdd, ir.OpMultiply, ir.OpAnd, ir.OpXor, ir.OpShiftLeft, ir.OpShiftRightArithmetic, ir.OpMaximum, ir.OpDivide}
	add(constant(f, B))
	for range 24 {
		switch k := r.IntN(20); k {
		case 0:
			add(constant(f, []ir.Type{F, I, B, V}[r.IntN(4)]))
		case 1, 2:
			add(emit(f, floatUnary[r.IntN(len(floatUnary))], nil, []*ir.Value{pick(ir.F32)}))
		case 3, 4:
			add(emit(f, floatBinary[r.IntN(len(floatBinary))], nil, []*ir.Value{pick(ir.F32), pick(ir.F32)}))
		case 5:
			op := intBinary[r.IntN(len(intBinary))]
			add(emit(f, op, nil, []*ir.Value{pick(ir.S32), pick(ir.S32)}))
			add(emit(f, []ir.Op{ir.OpPopcnt, ir.OpClz, ir.OpNot, ir.OpNegate}[r.IntN(4)], nil, []*ir.Value{pick(ir.S32)}))
		case 6:
			d := []ir.DType{ir.F32, ir.S32}[r.IntN(2)]
			typ := ir.CmpNoType
			if d == ir.F32 && r.IntN(3) == 0 {
				typ = ir.CmpTotalOrder
			}
			add(emit(f, ir.OpCompare, ir.CompareAttr{Direction: ir.ComparisonDirection(r.IntN(6)), Type: typ}, []*ir.Value{pick(d), pick(d)}))
			add(emit(f, []ir.Op{ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot}[r.IntN(3)], nil, []*ir.Value{pick(ir.Bool), pick(ir.Bool)}))
		case 7:
			d := []ir.DType{ir.F32, ir.S32}[r.IntN(2)]
			add(emit(f, ir.OpSelect, nil, []*ir.Value{pick(ir.Bool), pick(d), pick(d)}))
			add(emit(f, ir.OpClamp, nil, []*ir.Value{pick(d), pick(d), pick(d)}))
		case 8:
			if r.IntN(2) == 0 {
				add(emit(f, ir.OpConvert, ir.ConvertAttr{To: ir.S32}, []*ir.Value{pick(ir.F32)}))
			} else {
				add(emit(f, ir.OpConvert, ir.ConvertAttr{To: ir.F32}, []*ir.Value{pick(ir.S32)}))
			}
			add(emit(f, ir.OpBitcastConvert, ir.BitcastConvertAttr{To: ir.S32}, []*ir.Value{pick(ir.F32)}))
		case 9:
			add(emit(f, ir.OpIota, ir.IotaAttr{Type: []ir.Type{F, I}[r.IntN(2)], Dim: r.IntN(2)}, nil))
		case 10:
			if len(vecs) > 0 {
				add(emit(f, ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{2, 3}, Dims: []int{1}}, []*ir.Value{vecs[r.IntN(len(vecs))]}))
			}
			x := emit(f, ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, []*ir.Value{pick(ir.F32)})
			add(emit(f, ir.OpReshape, ir.ReshapeAttr{Shape: []int{2, 3}}, []*ir.Value{x}))
		case 11:
			x := pick(ir.F32)
			a := emit(f, ir.OpSlice, ir.SliceAttr{Start: []int{0, 0}, Limit: []int{1, 3}, Stride: []int{1, 1}}, []*ir.Value{x})
			b := emit(f, ir.OpSlice, ir.SliceAttr{Start: []int{1, 0}, Limit: []int{2, 3}, Stride: []int{1, 2}}, []*ir.Value{x})
			b = emit(f, ir.OpPad, ir.PadAttr{Low: []int{0, 0}, High: []int{0, 0}, Interior: []int{0, 1}}, []*ir.Value{b, constant(f, ir.Scalar(ir.F32))})
			add(emit(f, ir.OpConcatenate, ir.ConcatenateAttr{Dim: 0}, []*ir.Value{b, a}))
			add(emit(f, ir.OpReverse, ir.ReverseAttr{Dims: []int{r.IntN(2)}}, []*ir.Value{pick(ir.F32)}))
		case 12:
			x, y := pick(ir.F32), pick(ir.F32)
			p := emit(f, ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{1}}, []*ir.Value{x, y})
			add(emit(f, ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0},
				Precision: []ir.Precision{ir.PrecisionHighest, ir.PrecisionDefault}}, []*ir.Value{p, pick(ir.F32)}))
		case 13:
			d := []ir.DType{ir.F32, ir.S32}[r.IntN(2)]
			op := []ir.Op{ir.OpAdd, ir.OpMaximum, ir.OpMultiply}[r.IntN(3)]
			red := emit(f, ir.OpReduce, ir.ReduceAttr{Dims: []int{0}}, []*ir.Value{pick(d), constant(f, ir.Scalar(d))}, binaryRegion(op, d))
			if d == ir.F32 {
				add(red)
			} else {
				add(emit(f, ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{2, 3}, Dims: []int{1}}, []*ir.Value{red}))
			}
		case 14: // sort a float key with an int payload
			s := ir.Scalar(ir.F32)
			cmp := ir.NewFunc("", s, s, ir.Scalar(ir.S32), ir.Scalar(ir.S32))
			cmp.Return(emit(cmp, ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT, Type: ir.CmpTotalOrder}, cmp.Params[:2]))
			line++
			rs, err := f.Emit(ir.Loc{File: "random.go", Line: line}, ir.OpSort, []*ir.Value{pick(ir.F32), pick(ir.S32)}, ir.SortAttr{Dim: r.IntN(2), IsStable: r.IntN(2) == 0}, cmp)
			if err == nil {
				add(rs[0])
				add(rs[1])
			}
		case 15, 16: // a loop: i counts to n, x steps
			x := pick(ir.F32)
			n := r.IntN(4)
			S := ir.Scalar(ir.S32)
			cond := ir.NewFunc("", S, F)
			lim := emit(cond, ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(n))}, nil)
			cond.Return(emit(cond, ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, []*ir.Value{cond.Params[0], lim}))
			body := ir.NewFunc("", S, F)
			one := emit(body, ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(1))}, nil)
			next := emit(body, ir.OpAdd, nil, []*ir.Value{body.Params[0], one})
			step := emit(body, floatUnary[r.IntN(len(floatUnary))], nil, []*ir.Value{body.Params[1]})
			body.Return(next, emit(body, ir.OpAdd, nil, []*ir.Value{step, body.Params[1]}))
			zero := emit(f, ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(0))}, nil)
			line++
			rs, err := f.Emit(ir.Loc{File: "random.go", Line: line}, ir.OpWhile, []*ir.Value{zero, x}, nil, cond, body)
			if err == nil {
				add(rs[1])
			}
		case 17, 18: // a case on a computed index; branches use their parameters in order
			x, y := pick(ir.F32), pick(ir.F32)
			if x == y { // the import passes a value once
				continue
			}
			idx := emit(f, ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(r.IntN(4) - 1))}, nil)
			var branches []*ir.Func
			for range 1 + r.IntN(3) {
				g := ir.NewFunc("", F, F)
				a := emit(g, floatUnary[r.IntN(len(floatUnary))], nil, []*ir.Value{g.Params[0]})
				g.Return(emit(g, floatBinary[r.IntN(len(floatBinary))], nil, []*ir.Value{a, g.Params[1]}))
				branches = append(branches, g)
			}
			line++
			rs, err := f.Emit(ir.Loc{File: "random.go", Line: line}, ir.OpCase, []*ir.Value{idx, x, y}, nil, branches...)
			if err == nil {
				add(rs[0])
			}
		case 19:
			add(emit(f, ir.OpReducePrecision, ir.ReducePrecisionAttr{ExponentBits: 5, MantissaBits: 10}, []*ir.Value{pick(ir.F32)}))
			// A composite whose decomposition has located parameters
			// and ops. Its constant makes each decomposition distinct: the
			// lowering shares one function between composites of the same
			// decomposition, locations aside, so their locations would
			// come back as the first one's.
			g := ir.NewFunc("", F)
			emit(g, ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarLiteral(ir.F32, float64(line))}, nil)
			g.Params[0].SetParamLoc(ir.Loc{File: "composite.go", Line: r.IntN(9)})
			a := emit(g, floatUnary[r.IntN(len(floatUnary))], nil, g.Params)
			g.Return(emit(g, floatBinary[r.IntN(len(floatBinary))], nil, []*ir.Value{a, g.Params[0]}))
			attrs := []ir.NamedAttr{{Name: "k", Value: int64(r.IntN(5))}, {Name: "b", Value: r.IntN(2) == 0}}
			add(emit(f, ir.OpComposite, ir.CompositeAttr{Name: "rand.op", Attrs: attrs, Version: r.IntN(2)}, []*ir.Value{pick(ir.F32)}, g))
		}
	}
	var results []*ir.Value
	for _, d := range []ir.DType{ir.F32, ir.S32, ir.Bool} {
		p := pools[d]
		results = append(results, p[len(p)-1])
	}
	f.Return(results...)
	return f
}
