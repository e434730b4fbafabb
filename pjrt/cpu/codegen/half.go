package codegen

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// f16 and bf16: values are i16 bit patterns; an op widens its operands to
// f32 (exactly), computes in f32 with the f32 code and rounds the result
// once to nearest even. For +, -, ×, ÷ and sqrt that is the correctly
// rounded result (f32 has 24 bits, at least 2p+2 for f16's p = 11 and
// bf16's p = 8: Figueroa, "When is double rounding innocuous?", 1995), the
// same as the reference evaluator's, which computes in f64 and rounds
// once. remainder, min/max, the roundings, compares and converts are
// exact. The transcendental functions round glibc's f32 result, which
// differs from the evaluator's only when the f32 result lies within an
// f32 ULP of a rounding boundary of the narrow format (rare; measured in
// types_ext_test.go).
//
// All conversions are integer bit manipulation in small alwaysinline
// helpers (straight-line, so loops over them vectorize). Conversions to
// f16/bf16 from wider values (f64, 64-bit integers) round to f32 with
// round-to-odd first: that keeps one correct rounding to nearest even in
// the end (round-to-odd onto p+2 or more bits is innocuous), where the
// plain f64 → f32 → f16 path would round twice.

// helper returns the internal always-inline function name, creating it
// with body on first use.
func (e *emitter) helper(name string, ret types.Type, params []types.Type, body func(b *fb, args []value.Value) value.Value) *ir.Func {
	return e.helperFn(name, true, ret, params, body)
}

// helperFn is helper with a choice: inline (alwaysinline, for the small
// conversions inside vectorizable loops) or left to LLVM's inliner (the
// complex functions, large and scalar anyway: compiled once per module).
func (e *emitter) helperFn(name string, inline bool, ret types.Type, params []types.Type, body func(b *fb, args []value.Value) value.Value) *ir.Func {
	if f, ok := e.decls[name]; ok {
		return f
	}
	var ps []*ir.Param
	for i, t := range params {
		ps = append(ps, ir.NewParam(fmt.Sprintf("p%d", i), t))
	}
	b := e.newFunc(name, ret, ps...)
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoUnwind)
	if inline {
		b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrAlwaysInline)
	} else {
		b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoInline)
	}
	e.decls[name] = b.f
	var args []value.Value
	for _, p := range b.f.Params {
		args = append(args, p)
	}
	b.cur.NewRet(body(b, args))
	return b.f
}

func c32(v int64) constant.Constant { return constant.NewInt(types.I32, v) }
func c16(v int64) constant.Constant { return constant.NewInt(types.I16, v) }

// halfToF32 widens an f16/bf16 bit pattern to float, exactly. f16 NaNs
// come out quiet (as x448/float16, which the evaluator uses, and F16C do).
func (b *fb) halfToF32(k elemKind, x value.Value) value.Value {
	if k.isMini() {
		return b.miniToF32(k, x)
	}
	if k == kBF16 {
		f := b.e.helper("stela.bf16.to.f32", types.Float, []types.Type{types.I16}, func(b *fb, a []value.Value) value.Value {
			c := b.cur
			return c.NewBitCast(c.NewShl(c.NewZExt(a[0], types.I32), c32(16)), types.Float)
		})
		return b.call(f, x)
	}
	f := b.e.helper("stela.f16.to.f32", types.Float, []types.Type{types.I16}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		h := c.NewZExt(a[0], types.I32)
		sign := c.NewShl(c.NewAnd(h, c32(0x8000)), c32(16))
		exp := c.NewAnd(c.NewLShr(h, c32(10)), c32(0x1f))
		mant := c.NewAnd(h, c32(0x3ff))
		mhi := c.NewShl(mant, c32(13))
		normal := c.NewOr(c.NewShl(c.NewAdd(exp, c32(112)), c32(23)), mhi)
		quiet := c.NewSelect(c.NewICmp(enum.IPredNE, mant, c32(0)), c32(0x7fc00000), c32(0x7f800000))
		infNaN := c.NewOr(quiet, mhi)
		// Subnormals (and zero): mant·2^-24, exact in f32.
		sub := c.NewBitCast(c.NewFMul(c.NewUIToFP(mant, types.Float), floatConst(kF32, 0x1p-24)), types.I32)
		mag := c.NewSelect(c.NewICmp(enum.IPredEQ, exp, c32(0)), sub,
			c.NewSelect(c.NewICmp(enum.IPredEQ, exp, c32(31)), infNaN, normal))
		return c.NewBitCast(c.NewOr(mag, sign), types.Float)
	})
	return b.call(f, x)
}

// f32ToHalf rounds a float to f16/bf16 once, to nearest even; overflow
// gives ±Inf, NaN stays a quiet NaN with its sign and top payload bits
// (the evaluator's Float16FromFloat64/BFloat16FromFloat64 rule).
func (b *fb) f32ToHalf(k elemKind, x value.Value) value.Value {
	if k.isMini() {
		return b.miniFromF32(k, x)
	}
	if k == kBF16 {
		f := b.e.helper("stela.f32.to.bf16", types.I16, []types.Type{types.Float}, func(b *fb, a []value.Value) value.Value {
			c := b.cur
			u := c.NewBitCast(a[0], types.I32)
			hi := c.NewLShr(u, c32(16))
			nan := c.NewOr(hi, c32(0x40))
			// u + 0x7fff + lsb rounds to nearest even; the carry moves into
			// the exponent (and to Inf) by itself.
			r := c.NewLShr(c.NewAdd(u, c.NewAdd(c32(0x7fff), c.NewAnd(hi, c32(1)))), c32(16))
			return c.NewTrunc(c.NewSelect(b.isNaN(a[0]), nan, r), types.I16)
		})
		return b.call(f, x)
	}
	f := b.e.helper("stela.f32.to.f16", types.I16, []types.Type{types.Float}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		u := c.NewBitCast(a[0], types.I32)
		sign := c.NewAnd(c.NewLShr(u, c32(16)), c32(0x8000))
		abs := c.NewAnd(u, c32(0x7fffffff))
		nan := c.NewOr(c32(0x7e00), c.NewAnd(c.NewLShr(abs, c32(13)), c32(0x1ff)))
		// Below 2^-14 the result is subnormal: adding 0.5 (ULP 2^-24, the
		// f16 subnormal spacing) rounds to nearest even in hardware and
		// leaves the f16 bits at the bottom (1024 is the smallest normal).
		s := c.NewFAdd(c.NewBitCast(abs, types.Float), floatConst(kF32, 0.5))
		sub := c.NewSub(c.NewBitCast(s, types.I32), c32(0x3f000000))
		// Normal: rebias the exponent and round the 13 dropped bits to
		// nearest even; a carry reaches the exponent, and 65520 and above
		// become Inf.
		odd := c.NewAnd(c.NewLShr(abs, c32(13)), c32(1))
		norm := c.NewLShr(c.NewAdd(c.NewAdd(abs, c32(-0x37fff001)), odd), c32(13))
		mag := c.NewSelect(c.NewICmp(enum.IPredUGT, abs, c32(0x7f800000)), nan,
			c.NewSelect(c.NewICmp(enum.IPredUGE, abs, c32(0x47800000)), c32(0x7c00),
				c.NewSelect(c.NewICmp(enum.IPredULT, abs, c32(0x38800000)), sub, norm)))
		return c.NewTrunc(c.NewOr(mag, sign), types.I16)
	})
	return b.call(f, x)
}

// f64ToF32Odd rounds a double to float with round-to-odd: truncated toward
// zero, with the last bit set when the result is inexact. Values beyond
// the float range become the largest float with the odd bit (rounding on
// to f16/bf16 then overflows correctly); NaN stays NaN.
func (b *fb) f64ToF32Odd(x value.Value) value.Value {
	f := b.e.helper("stela.f64.to.f32.odd", types.Float, []types.Type{types.Double}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		x := a[0]
		r := c.NewFPTrunc(x, types.Float)
		back := c.NewFPExt(r, types.Double)
		away := c.NewFCmp(enum.FPredOGT, b.intrinsic1("fabs", kF64, back), b.intrinsic1("fabs", kF64, x))
		inexact := c.NewFCmp(enum.FPredONE, back, x)
		rb := c.NewSub(c.NewBitCast(r, types.I32), c.NewZExt(away, types.I32))
		rb2 := c.NewOr(rb, c.NewZExt(inexact, types.I32))
		return c.NewBitCast(rb2, types.Float)
	})
	return b.call(f, x)
}

// f64ToHalf rounds a double to f16/bf16 once. NaN is built from the
// double's bits, as the evaluator does.
func (b *fb) f64ToHalf(k elemKind, x value.Value) value.Value {
	if k.isMini() {
		// Round-to-odd onto f32 (24 bits, at least p+2 for every mini
		// format) keeps the one rounding to nearest even correct; NaN
		// stays NaN with its sign.
		return b.miniFromF32(k, b.f64ToF32Odd(x))
	}
	name := "stela.f64.to." + k.mlir()
	f := b.e.helper(name, types.I16, []types.Type{types.Double}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		r := b.f32ToHalf(k, b.f64ToF32Odd(a[0]))
		u := c.NewBitCast(a[0], types.I64)
		sign := c.NewAnd(c.NewLShr(u, i64(48)), i64(0x8000))
		var nan value.Value
		if k == kF16 {
			nan = c.NewOr(c.NewOr(sign, i64(0x7e00)), c.NewAnd(c.NewLShr(u, i64(42)), i64(0x1ff)))
		} else {
			nan = c.NewOr(c.NewOr(sign, i64(0x7fc0)), c.NewAnd(c.NewLShr(u, i64(45)), i64(0x3f)))
		}
		return c.NewSelect(b.isNaN(a[0]), c.NewTrunc(nan, types.I16), r)
	})
	return b.call(f, x)
}

// intToF32Odd converts an integer (sign- or zero-extended to i64) to
// float with round-to-odd: the magnitude keeps its top 24 bits, and a
// sticky last bit records whether anything below was dropped.
func (b *fb) intToF32Odd(signed bool, x value.Value) value.Value {
	name := "stela.u64.to.f32.odd"
	if signed {
		name = "stela.s64.to.f32.odd"
	}
	f := b.e.helper(name, types.Float, []types.Type{types.I64}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		x := a[0]
		var neg value.Value = constant.False
		m := x
		if signed {
			neg = c.NewICmp(enum.IPredSLT, x, i64(0))
			m = c.NewSelect(neg, c.NewSub(i64(0), x), x) // |INT_MIN| = 2^63 as unsigned
		}
		lz := b.call(b.e.decl("llvm.ctlz.i64", types.I64, types.I64, types.I1), m, constant.False)
		s := c.NewSelect(c.NewICmp(enum.IPredULT, lz, i64(40)), c.NewSub(i64(40), lz), i64(0))
		mask := c.NewSub(c.NewShl(i64(1), s), i64(1))
		sticky := c.NewZExt(c.NewICmp(enum.IPredNE, c.NewAnd(m, mask), i64(0)), types.I64)
		m2 := c.NewOr(c.NewLShr(m, s), sticky)
		f := c.NewUIToFP(m2, types.Float)
		scale := c.NewBitCast(c.NewTrunc(c.NewShl(c.NewAdd(s, i64(127)), i64(23)), types.I32), types.Float)
		r := c.NewFMul(f, scale)
		return c.NewSelect(neg, c.NewFNeg(r), r)
	})
	return b.call(f, x)
}

// toHalf converts a value of any real kind to f16/bf16 with one rounding.
func (b *fb) toHalf(from, k elemKind, x value.Value) value.Value {
	c := b.cur
	switch {
	case from == k:
		return x
	case from.isHalf():
		return b.f32ToHalf(k, b.halfToF32(from, x)) // exact in f32, then one rounding
	case from == kF32:
		return b.f32ToHalf(k, x)
	case from == kF64:
		return b.f64ToHalf(k, x)
	case from == kBool:
		return b.f32ToHalf(k, c.NewUIToFP(x, types.Float))
	case from.isUnsigned():
		v := x
		if from != kU64 {
			v = c.NewZExt(x, types.I64)
		}
		return b.f32ToHalf(k, b.intToF32Odd(false, v))
	}
	v := x
	if from != kI64 {
		v = c.NewSExt(x, types.I64)
	}
	return b.f32ToHalf(k, b.intToF32Odd(true, v))
}

// fromHalf converts an f16/bf16 value to any real kind (the f32 value is
// exact, so this is the f32 conversion).
func (b *fb) fromHalf(k, to elemKind, x value.Value) value.Value {
	if to.isHalf() {
		return b.toHalf(k, to, x)
	}
	return b.convert(kF32, to, b.halfToF32(k, x))
}

// halfUnary computes a unary op on f16/bf16 in f32.
func (b *fb) halfUnary(name string, k elemKind, x value.Value) (value.Value, error) {
	switch name {
	case "real":
		return x, nil // the same bits, as the evaluator's copy
	case "imag":
		return b.f32ToHalf(k, floatConst(kF32, 0)), nil
	case "rsqrt":
		// In double and rounded once: correctly rounded (rsqrt.go).
		return b.f64ToHalf(k, b.rsqrtViaF64(b.cur.NewFPExt(b.halfToF32(k, x), types.Double))), nil
	}
	r, err := b.unary(name, kF32, b.halfToF32(k, x))
	if err != nil {
		return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
	}
	if name == "is_finite" {
		return r, nil
	}
	return b.f32ToHalf(k, r), nil
}

// halfBinary computes a binary op on f16/bf16 in f32 (f8E8M0FNU, whose
// range is f32's, in f64: a product or quotient must not underflow or
// overflow before the one rounding).
func (b *fb) halfBinary(name string, k elemKind, x, y value.Value) (value.Value, error) {
	if k == kF8E8M0FNU {
		wide := func(v value.Value) value.Value { return b.cur.NewFPExt(b.halfToF32(k, v), types.Double) }
		r, err := b.binary(name, kF64, wide(x), wide(y))
		if err != nil {
			return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
		}
		return b.f64ToHalf(k, r), nil
	}
	r, err := b.binary(name, kF32, b.halfToF32(k, x), b.halfToF32(k, y))
	if err != nil {
		return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
	}
	return b.f32ToHalf(k, r), nil
}

// halfCompare compares f16/bf16 values: FLOAT on the exact f32 values,
// TOTALORDER on the bit patterns.
func (b *fb) halfCompare(dir, ct string, k elemKind, x, y value.Value) value.Value {
	if ct == "TOTALORDER" && k.isMini() {
		return b.compare(dir, "SIGNED", kI32, b.miniTotalOrderKey(k, x), b.miniTotalOrderKey(k, y))
	}
	if ct == "TOTALORDER" {
		c := b.cur
		key := func(v value.Value) value.Value {
			sign := c.NewAShr(v, c16(15))
			return c.NewXor(v, c.NewLShr(sign, c16(1)))
		}
		return b.compare(dir, "SIGNED", kI16, key(x), key(y))
	}
	return b.compare(dir, ct, kF32, b.halfToF32(k, x), b.halfToF32(k, y))
}
