package codegen

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Scalar semantics of the elementwise ops, shared by the elementwise
// kernels and by region bodies (reduce). Every case follows Stela's
// reference evaluator (ir/eval_elementwise.go, ir/literal_convert.go):
//
//   - integers wrap; x/0 is -1 (all ones), INT_MIN/-1 is INT_MIN, x%0 is
//     x; shift counts are read as unsigned, and a count >= the width gives
//     0 (left, logical right) or the sign fill (arithmetic right);
//   - maximum/minimum on floats propagate NaN and order -0 < +0;
//   - float → int truncates toward zero and saturates, NaN → 0;
//   - i1: add/or/maximum are or, multiply/and/minimum are and;
//   - round_nearest_afz rounds ties away from zero, round_nearest_even to
//     even; sign keeps NaN and ±0.
//
// The code is straight-line (selects, no branches), so loops over it
// vectorize; integer power, which needs a loop, is a helper function.

// fconst is a float constant of kind k.
func fconst(k elemKind, v float64) constant.Constant { return floatConst(k, v) }

// iconst is an integer constant of kind k.
func iconst(k elemKind, v int64) constant.Constant {
	if k == kBool {
		return constant.NewBool(v != 0)
	}
	return constant.NewInt(k.reg().(*types.IntType), v)
}

func fsuffix(k elemKind) string {
	if k == kF32 {
		return "f32"
	}
	return "f64"
}

// intrinsic1 calls a unary LLVM float intrinsic (llvm.<name>.f32/f64).
func (b *fb) intrinsic1(name string, k elemKind, x value.Value) value.Value {
	return b.call(b.e.decl("llvm."+name+"."+fsuffix(k), k.reg(), k.reg()), x)
}

// libm1 calls a unary libm function (expm1f / expm1 ...).
func (b *fb) libm1(name string, k elemKind, x value.Value) value.Value {
	if k == kF32 {
		name += "f"
	}
	return b.call(pure(b.e.decl(name, k.reg(), k.reg())), x)
}

func (b *fb) copysign(k elemKind, mag, sgn value.Value) value.Value {
	return b.call(b.e.decl("llvm.copysign."+fsuffix(k), k.reg(), k.reg(), k.reg()), mag, sgn)
}

func (b *fb) isNaN(x value.Value) value.Value { return b.cur.NewFCmp(enum.FPredUNO, x, x) }

// unary emits an elementwise unary op on kind k.
func (b *fb) unary(name string, k elemKind, x value.Value) (value.Value, error) {
	if v, ok, err := b.unaryExt(name, k, x); ok { // f16, bf16, complex, real/imag (types_ext.go)
		return v, err
	}
	c := b.cur
	if k == kBool {
		if name == "not" {
			return c.NewXor(x, constant.True), nil
		}
		return nil, fmt.Errorf("%s is not defined on i1", name)
	}
	if k.isInt() {
		switch name {
		case "abs":
			neg := c.NewICmp(enum.IPredSLT, x, iconst(k, 0))
			return c.NewSelect(neg, c.NewSub(iconst(k, 0), x), x), nil
		case "negate":
			return c.NewSub(iconst(k, 0), x), nil
		case "sign":
			neg := c.NewICmp(enum.IPredSLT, x, iconst(k, 0))
			pos := c.NewICmp(enum.IPredSGT, x, iconst(k, 0))
			return c.NewSelect(neg, iconst(k, -1), c.NewZExt(pos, k.reg())), nil
		case "not":
			return c.NewXor(x, iconst(k, -1)), nil
		case "popcnt":
			t := k.reg()
			return b.call(b.e.decl(fmt.Sprintf("llvm.ctpop.i%d", k.bits()), t, t), x), nil
		case "count_leading_zeros":
			t := k.reg()
			f := b.e.decl(fmt.Sprintf("llvm.ctlz.i%d", k.bits()), t, t, types.I1)
			return b.call(f, x, constant.False), nil
		}
		return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
	}
	// exp, log, tanh, ... as inline polynomials (mathfn.go), so loops
	// over them vectorize.
	if v, ok := b.mathFn(name, k, x); ok {
		return v, nil
	}
	switch name {
	case "abs":
		return b.intrinsic1("fabs", k, x), nil
	case "negate":
		return c.NewFNeg(x), nil
	case "sign":
		// NaN and ±0 stay themselves, anything else is ±1.
		keep := c.NewFCmp(enum.FPredUEQ, x, fconst(k, 0))
		return c.NewSelect(keep, x, b.copysign(k, fconst(k, 1), x)), nil
	case "exponential":
		return b.intrinsic1("exp", k, x), nil
	case "exponential_minus_one":
		return b.libm1("expm1", k, x), nil
	case "log":
		return b.intrinsic1("log", k, x), nil
	case "log_plus_one":
		return b.libm1("log1p", k, x), nil
	case "logistic":
		// 1/(1+e^-x) for x >= 0, e^x/(1+e^x) below: e = e^-|x| <= 1, so
		// neither branch overflows to NaN.
		ax := b.intrinsic1("fabs", k, x)
		e := b.intrinsic1("exp", k, c.NewFNeg(ax))
		den := c.NewFAdd(fconst(k, 1), e)
		pos := c.NewFCmp(enum.FPredOGE, x, fconst(k, 0))
		num := c.NewSelect(pos, fconst(k, 1), e)
		return c.NewFDiv(num, den), nil
	case "sqrt":
		return b.intrinsic1("sqrt", k, x), nil
	case "rsqrt":
		return b.rsqrt(k, x), nil // correctly rounded (rsqrt.go)
	case "cbrt":
		return b.libm1("cbrt", k, x), nil
	case "tanh":
		return b.libm1("tanh", k, x), nil
	case "sine":
		return b.intrinsic1("sin", k, x), nil
	case "cosine":
		return b.intrinsic1("cos", k, x), nil
	case "tan":
		return b.libm1("tan", k, x), nil
	case "floor":
		return b.intrinsic1("floor", k, x), nil
	case "ceil":
		return b.intrinsic1("ceil", k, x), nil
	case "round_nearest_afz":
		return b.intrinsic1("round", k, x), nil
	case "round_nearest_even":
		return b.intrinsic1("roundeven", k, x), nil
	case "is_finite":
		return c.NewFCmp(enum.FPredONE, b.intrinsic1("fabs", k, x), fconst(k, math.Inf(1))), nil
	}
	return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
}

// binary emits an elementwise binary op on kind k.
func (b *fb) binary(name string, k elemKind, x, y value.Value) (value.Value, error) {
	if v, ok, err := b.binaryExt(name, k, x, y); ok { // unsigned, f16, bf16, complex (types_ext.go)
		return v, err
	}
	c := b.cur
	if k == kBool {
		switch name {
		case "add", "or", "maximum":
			return c.NewOr(x, y), nil
		case "multiply", "and", "minimum":
			return c.NewAnd(x, y), nil
		case "xor":
			return c.NewXor(x, y), nil
		}
		return nil, fmt.Errorf("%s is not defined on i1", name)
	}
	if k.isInt() {
		zero, one, ones := iconst(k, 0), iconst(k, 1), iconst(k, -1)
		width := int64(k.bits())
		switch name {
		case "add":
			return c.NewAdd(x, y), nil
		case "subtract":
			return c.NewSub(x, y), nil
		case "multiply":
			return c.NewMul(x, y), nil
		case "divide", "remainder":
			// sdiv/srem by 0 and INT_MIN/-1 are undefined in LLVM: divide
			// by 1 instead and fix the result up.
			isZero := c.NewICmp(enum.IPredEQ, y, zero)
			isM1 := c.NewICmp(enum.IPredEQ, y, ones)
			safe := c.NewSelect(c.NewOr(isZero, isM1), one, y)
			if name == "divide" {
				q := c.NewSDiv(x, safe)
				q2 := c.NewSelect(isM1, c.NewSub(zero, x), q)
				return c.NewSelect(isZero, ones, q2), nil
			}
			r := c.NewSRem(x, safe) // x % 1 = 0 = x % -1
			return c.NewSelect(isZero, x, r), nil
		case "power":
			return b.call(b.e.ipow(k), x, y), nil
		case "maximum":
			return c.NewSelect(c.NewICmp(enum.IPredSGT, x, y), x, y), nil
		case "minimum":
			return c.NewSelect(c.NewICmp(enum.IPredSLT, x, y), x, y), nil
		case "and":
			return c.NewAnd(x, y), nil
		case "or":
			return c.NewOr(x, y), nil
		case "xor":
			return c.NewXor(x, y), nil
		case "shift_left", "shift_right_arithmetic", "shift_right_logical":
			inRange := c.NewICmp(enum.IPredULT, y, iconst(k, width))
			s := c.NewAnd(y, iconst(k, width-1))
			switch name {
			case "shift_left":
				return c.NewSelect(inRange, c.NewShl(x, s), zero), nil
			case "shift_right_logical":
				return c.NewSelect(inRange, c.NewLShr(x, s), zero), nil
			}
			return c.NewSelect(inRange, c.NewAShr(x, s), c.NewAShr(x, iconst(k, width-1))), nil
		}
		return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
	}
	switch name {
	case "add":
		return c.NewFAdd(x, y), nil
	case "subtract":
		return c.NewFSub(x, y), nil
	case "multiply":
		return c.NewFMul(x, y), nil
	case "divide":
		return c.NewFDiv(x, y), nil
	case "remainder":
		return c.NewFRem(x, y), nil // fmod: exact, sign of x
	case "power":
		return b.call(b.e.decl("llvm.pow."+fsuffix(k), k.reg(), k.reg(), k.reg()), x, y), nil
	case "atan2":
		n := "atan2"
		if k == kF32 {
			n = "atan2f"
		}
		return b.call(pure(b.e.decl(n, k.reg(), k.reg(), k.reg())), x, y), nil
	case "maximum", "minimum":
		return b.fminmax(name == "maximum", k, x, y), nil
	}
	return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
}

// fminmax is IEEE 754-2019 maximum/minimum: NaN if either operand is
// (the first NaN operand is the result), and -0 < +0. Equal operands are
// merged bitwise (and for max, or for min), which picks +0 (max) or -0
// (min) for a pair of zeros and is the identity otherwise.
func (b *fb) fminmax(isMax bool, k elemKind, x, y value.Value) value.Value {
	c := b.cur
	pred := enum.FPredOLT
	if isMax {
		pred = enum.FPredOGT
	}
	r := c.NewSelect(c.NewFCmp(pred, x, y), x, y)
	it := k.intOfSameWidth()
	xi, yi := c.NewBitCast(x, it), c.NewBitCast(y, it)
	var merged value.Value
	if isMax {
		merged = c.NewAnd(xi, yi)
	} else {
		merged = c.NewOr(xi, yi)
	}
	eq := c.NewFCmp(enum.FPredOEQ, x, y)
	r2 := c.NewSelect(eq, c.NewBitCast(merged, k.reg()), r)
	r3 := c.NewSelect(b.isNaN(y), y, r2)
	return c.NewSelect(b.isNaN(x), x, r3)
}

// ipow returns the helper computing integer x^y with wrap-around, by
// repeated squaring; for y < 0 it is 1 for x = 1, ±1 for x = -1 (by the
// parity of y), else 0.
func (e *emitter) ipow(k elemKind) *ir.Func { return e.intPow(k, true) }

// upow is x^y modulo 2^bits by repeated squaring, y read as unsigned.
func (e *emitter) upow(k elemKind) *ir.Func { return e.intPow(k, false) }

// intPow builds ipow (signed: negative exponents handled first) or upow.
func (e *emitter) intPow(k elemKind, signed bool) *ir.Func {
	name := "stela.upow." + k.mlir()
	if signed {
		name = "stela.ipow." + k.mlir()
	}
	if f, ok := e.decls[name]; ok {
		return f
	}
	t := k.reg()
	b := e.newFunc(name, t, ir.NewParam("x", t), ir.NewParam("y", t))
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrReadNone)
	e.decls[name] = b.f
	x, y := b.f.Params[0], b.f.Params[1]
	zero, one := iconst(k, 0), iconst(k, 1)
	entry := b.cur
	head := b.f.NewBlock("loop")
	body := b.f.NewBlock("body")
	done := b.f.NewBlock("done")
	if signed {
		// y < 0
		neg := b.f.NewBlock("neg")
		entry.NewCondBr(entry.NewICmp(enum.IPredSLT, y, zero), neg, head)
		isOne := neg.NewICmp(enum.IPredEQ, x, one)
		isM1 := neg.NewICmp(enum.IPredEQ, x, iconst(k, -1))
		odd := neg.NewICmp(enum.IPredNE, neg.NewAnd(y, one), zero)
		m1 := neg.NewSelect(odd, iconst(k, -1), one)
		neg.NewRet(neg.NewSelect(isOne, one, neg.NewSelect(isM1, m1, zero)))
	} else {
		entry.NewBr(head)
	}

	// while y != 0 { if y&1 { r *= x }; x *= x; y >>= 1 }
	r := head.NewPhi(ir.NewIncoming(one, entry))
	xx := head.NewPhi(ir.NewIncoming(x, entry))
	yy := head.NewPhi(ir.NewIncoming(y, entry))
	head.NewCondBr(head.NewICmp(enum.IPredEQ, yy, zero), done, body)
	bit := body.NewICmp(enum.IPredNE, body.NewAnd(yy, one), zero)
	r2 := body.NewSelect(bit, body.NewMul(r, xx), r)
	x2 := body.NewMul(xx, xx)
	y2 := body.NewLShr(yy, one)
	body.NewBr(head)
	r.Incs = append(r.Incs, ir.NewIncoming(r2, body))
	xx.Incs = append(xx.Incs, ir.NewIncoming(x2, body))
	yy.Incs = append(yy.Incs, ir.NewIncoming(y2, body))
	done.NewRet(r)
	return b.f
}

// compare emits a comparison of kind k values with direction dir under
// comparison type ct (SIGNED, UNSIGNED, FLOAT, TOTALORDER).
func (b *fb) compare(dir, ct string, k elemKind, x, y value.Value) value.Value {
	if v, ok := b.compareExt(dir, ct, k, x, y); ok { // f16, bf16, complex (types_ext.go)
		return v
	}
	c := b.cur
	if ct == "FLOAT" {
		preds := map[string]enum.FPred{
			"EQ": enum.FPredOEQ, "NE": enum.FPredUNE, // unordered is not equal
			"GE": enum.FPredOGE, "GT": enum.FPredOGT, "LE": enum.FPredOLE, "LT": enum.FPredOLT,
		}
		return c.NewFCmp(preds[dir], x, y)
	}
	if ct == "TOTALORDER" {
		// -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN: flip the
		// magnitude bits of negative numbers and compare as signed.
		it := k.intOfSameWidth()
		key := func(v value.Value) value.Value {
			bits := c.NewBitCast(v, it)
			sign := c.NewAShr(bits, constant.NewInt(it, int64(k.bits()-1)))
			return c.NewXor(bits, c.NewLShr(sign, constant.NewInt(it, 1)))
		}
		x, y = key(x), key(y)
		ct = "SIGNED"
	}
	signed := map[string]enum.IPred{
		"EQ": enum.IPredEQ, "NE": enum.IPredNE,
		"GE": enum.IPredSGE, "GT": enum.IPredSGT, "LE": enum.IPredSLE, "LT": enum.IPredSLT,
	}
	unsigned := map[string]enum.IPred{
		"EQ": enum.IPredEQ, "NE": enum.IPredNE,
		"GE": enum.IPredUGE, "GT": enum.IPredUGT, "LE": enum.IPredULE, "LT": enum.IPredULT,
	}
	if ct == "UNSIGNED" {
		return c.NewICmp(unsigned[dir], x, y)
	}
	return c.NewICmp(signed[dir], x, y)
}

// convert emits the convert op from kind `from` to kind `to`.
func (b *fb) convert(from, to elemKind, x value.Value) value.Value {
	if v, ok := b.convertExt(from, to, x); ok { // unsigned, f16, bf16, complex (types_ext.go)
		return v
	}
	c := b.cur
	switch {
	case from == to:
		return x
	case from == kBool && to.isFloat():
		return c.NewUIToFP(x, to.reg())
	case from == kBool:
		return c.NewZExt(x, to.reg())
	case to == kBool && from.isFloat():
		return c.NewFCmp(enum.FPredUNE, x, fconst(from, 0)) // NaN is true
	case to == kBool:
		return c.NewICmp(enum.IPredNE, x, iconst(from, 0))
	case from.isInt() && to.isInt():
		if from.bits() < to.bits() {
			return c.NewSExt(x, to.reg())
		}
		return c.NewTrunc(x, to.reg())
	case from.isInt():
		return c.NewSIToFP(x, to.reg())
	case to.isFloat():
		if from.bits() < to.bits() {
			return c.NewFPExt(x, to.reg())
		}
		return c.NewFPTrunc(x, to.reg())
	}
	// float → int: truncate toward zero, saturate, NaN → 0.
	f := b.e.decl(fmt.Sprintf("llvm.fptosi.sat.i%d.%s", to.bits(), fsuffix(from)), to.reg(), from.reg())
	return b.call(f, x)
}

// clamp is minimum(maximum(x, lo), hi) with those ops' semantics.
func (b *fb) clamp(k elemKind, lo, x, hi value.Value) value.Value {
	m, _ := b.binary("maximum", k, x, lo)
	r, _ := b.binary("minimum", k, m, hi)
	return r
}

// elementwise emits the scalar computation of an elementwise StableHLO
// op with operands of kinds in and result kind out.
func (b *fb) elementwise(op string, attrs func(string) stablehlo.Attr, in []elemKind, out elemKind, args []value.Value) (value.Value, error) {
	short := shortName(op)
	switch {
	case unaryOps[short]:
		return b.unary(short, in[0], args[0])
	case binaryOps[short]:
		return b.binary(short, in[0], args[0], args[1])
	}
	switch short {
	case "compare":
		dir, _ := attrs("comparison_direction").(stablehlo.EnumAttr)
		ct := defaultCompareType(in[0])
		if a, ok := attrs("compare_type").(stablehlo.EnumAttr); ok && a.Value != "NOTYPE" {
			ct = a.Value // checked by checkScalarOp
		}
		return b.compare(dir.Value, ct, in[0], args[0], args[1]), nil
	case "select":
		return b.cur.NewSelect(args[0], args[1], args[2]), nil
	case "clamp":
		return b.clamp(in[1], args[0], args[1], args[2]), nil
	case "convert":
		return b.convert(in[0], out, args[0]), nil
	case "reshape", "broadcast_in_dim", "optimization_barrier":
		return args[0], nil
	case "bitcast_convert": // same width (checkScalarOp)
		if out.isSubByte() {
			return b.subNorm(out, args[0]), nil
		}
		if out.isMini() && out.valueBits() < 8 {
			return b.cur.NewAnd(args[0], c8(1<<out.valueBits()-1)), nil
		}
		if in[0].reg().Equal(out.reg()) {
			return args[0], nil
		}
		return b.cur.NewBitCast(args[0], out.reg()), nil
	}
	if len(args) == 1 && out == in[0] {
		// chlo.erf and friends: the inline approximation where there is
		// one (mathfn.go).
		if v, ok := b.mathFn(short, in[0], args[0]); ok {
			return v, nil
		}
	}
	return b.extElementwise(op, attrs, in, out, args)
}

// region emits a region body (already checked by checkScalarBlock) on
// scalar arguments and returns the values it returns.
func (b *fb) region(blk *stablehlo.Block, args []value.Value) ([]value.Value, error) {
	env := map[*stablehlo.Value]value.Value{}
	kinds := map[*stablehlo.Value]elemKind{}
	for i, a := range blk.Args {
		env[a] = args[i]
		t, _ := tensorType(a.Type)
		kinds[a] = t.elem
	}
	for _, op := range blk.Ops {
		var vals []value.Value
		var in []elemKind
		for _, o := range op.Operands {
			vals = append(vals, env[o])
			in = append(in, kinds[o])
		}
		if op.Name == "stablehlo.return" {
			return vals, nil
		}
		t, err := tensorType(op.Results[0].Type)
		if err != nil {
			return nil, err
		}
		var v value.Value
		if op.Name == "stablehlo.constant" {
			d := op.Attr("value").(*stablehlo.DenseElements)
			one := d.SplatBytes()
			if one == nil {
				one = d.Bytes()
			}
			v = elemConst(t.elem, one[:t.elem.size()])
		} else {
			v, err = b.elementwise(op.Name, op.Attr, in, t.elem, vals)
			if err != nil {
				return nil, inContext(op.Name+opLoc(op), err)
			}
		}
		env[op.Results[0]] = v
		kinds[op.Results[0]] = t.elem
	}
	return nil, fmt.Errorf("region does not end with stablehlo.return")
}
