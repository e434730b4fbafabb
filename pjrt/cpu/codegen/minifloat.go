package codegen

import (
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/internal/minifloat"
	"github.com/stela-ml/stela/stablehlo"
)

// The 8-, 6- and 4-bit floats (f8E4M3FN, ..., f4E2M1FN): one element per
// byte, the bit pattern in the low bits (f6 and f4 with the upper bits
// zero), i8 in registers. They are "half" kinds for the rest of the
// package (isHalf): every op widens its operands to f32 exactly, computes
// there and rounds the result once, to nearest even, with the format's
// rules for overflow, NaN and zero (package minifloat, the same code the
// reference evaluator uses). f32 has 24 bits, more than 2p+2 for every one
// of them (p <= 5), so +, -, ×, ÷ and sqrt are correctly rounded, like the
// evaluator's. Widening is a lookup in a table of the format's values
// (256 entries at most) built from minifloat.Format.Decode; rounding from
// f32 is integer arithmetic (miniFromF32).
const (
	kF8E4M3FN elemKind = iota + 40
	kF8E5M2
	kF8E4M3FNUZ
	kF8E5M2FNUZ
	kF8E4M3B11FNUZ
	kF8E4M3
	kF8E3M4
	kF8E8M0FNU
	kF6E2M3FN
	kF6E3M2FN
	kF4E2M1FN
)

var miniNames = map[elemKind]string{
	kF8E4M3FN: "f8E4M3FN", kF8E5M2: "f8E5M2", kF8E4M3FNUZ: "f8E4M3FNUZ", kF8E5M2FNUZ: "f8E5M2FNUZ",
	kF8E4M3B11FNUZ: "f8E4M3B11FNUZ", kF8E4M3: "f8E4M3", kF8E3M4: "f8E3M4", kF8E8M0FNU: "f8E8M0FNU",
	kF6E2M3FN: "f6E2M3FN", kF6E3M2FN: "f6E3M2FN", kF4E2M1FN: "f4E2M1FN",
}

func init() {
	for k, name := range miniNames {
		extKinds[k] = kindInfo{stablehlo.ElementType(name), name, name, 8, 1, types.I8}
	}
}

func (k elemKind) isMini() bool { return k >= kF8E4M3FN && k <= kF4E2M1FN }

// miniFormat is the format of a mini float kind.
func (k elemKind) miniFormat() minifloat.Format { return minifloat.Formats[miniNames[k]] }

func c8(v int64) constant.Constant { return constant.NewInt(types.I8, v) }

// miniToF32 widens a mini float to float, exactly, by table lookup.
func (b *fb) miniToF32(k elemKind, x value.Value) value.Value {
	f := k.miniFormat()
	name := "stela." + k.mlir() + ".to.f32"
	fn := b.e.helper(name, types.Float, []types.Type{types.I8}, func(b *fb, a []value.Value) value.Value {
		n := 1 << f.Bits
		elems := make([]constant.Constant, n)
		for i := range n {
			elems[i] = constant.NewInt(types.I32, int64(int32(math.Float32bits(float32(f.Decode(uint64(i)))))))
		}
		t := types.NewArray(uint64(n), types.I32)
		g := b.e.m.NewGlobalDef("stela."+k.mlir()+".values", constant.NewArray(t, elems...))
		g.Immutable = true
		g.Linkage = enum.LinkagePrivate
		c := b.cur
		i := c.NewZExt(c.NewAnd(a[0], c8(int64(n-1))), types.I64)
		p := c.NewGetElementPtr(t, g, i64(0), i)
		p.InBounds = true
		v := c.NewLoad(types.I32, p)
		return c.NewBitCast(v, types.Float)
	})
	return b.call(fn, x)
}

// miniFromF32 rounds a float to the mini float kind k once, to nearest
// even (f8E8M0FNU: by its significand, 1.5 and up rounding up), with the
// format's rules (minifloat.Format.Encode).
func (b *fb) miniFromF32(k elemKind, x value.Value) value.Value {
	f := k.miniFormat()
	name := "stela.f32.to." + k.mlir()
	fn := b.e.helper(name, types.I8, []types.Type{types.Float}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		u := c.NewBitCast(a[0], types.I32)
		abs := c.NewAnd(u, c32(0x7fffffff))
		neg := c.NewICmp(enum.IPredSLT, u, c32(0))
		isNaN := c.NewICmp(enum.IPredUGT, abs, c32(0x7f800000))
		if f.Kind == minifloat.NaNE8M0 {
			e := c.NewLShr(abs, c32(23))
			up := c.NewZExt(c.NewICmp(enum.IPredUGE, c.NewAnd(abs, c32(0x7fffff)), c32(0x400000)), types.I32)
			norm := c.NewAdd(e, up)
			sub := c.NewZExt(c.NewICmp(enum.IPredUGE, abs, c32(0x600000)), types.I32)
			code := c.NewSelect(c.NewICmp(enum.IPredEQ, e, c32(0)), sub, norm)
			bad := c.NewOr(c.NewOr(isNaN, neg), c.NewOr(c.NewICmp(enum.IPredEQ, abs, c32(0)), c.NewICmp(enum.IPredUGT, code, c32(254))))
			return c.NewTrunc(c.NewSelect(bad, c32(0xff), code), types.I8)
		}
		mant, bias := int64(f.Mant), int64(f.Bias)
		emin := int64(f.Emin())
		// Below the smallest normal value: adding M = 2^(emin-mant+23),
		// whose ULP is the format's subnormal spacing, rounds to nearest
		// even in hardware and leaves the code in M's low bits.
		m := math.Ldexp(1, int(emin-mant+23))
		s := c.NewFAdd(c.NewBitCast(abs, types.Float), floatConst(kF32, m))
		sub := c.NewSub(c.NewBitCast(s, types.I32), c32(int64(math.Float32bits(float32(m)))))
		// Normal: rebias the exponent, round the dropped bits to nearest
		// even (a carry moves into the exponent).
		shift := 23 - mant
		odd := c.NewAnd(c.NewLShr(abs, c32(shift)), c32(1))
		r := c.NewAdd(c.NewSub(abs, c32((127-bias)<<23)), c.NewAdd(c32(1<<(shift-1)-1), odd))
		norm := c.NewLShr(r, c32(shift))
		isSub := c.NewICmp(enum.IPredULT, abs, c32((emin+127)<<23))
		code := c.NewSelect(isSub, sub, norm)
		maxCode := int64(f.MaxCode())
		over := c.NewICmp(enum.IPredUGT, code, c32(maxCode))
		sign := c.NewSelect(neg, c32(1<<(f.Bits-1)), c32(0))
		var res value.Value
		switch f.Kind {
		case minifloat.NaNIEEE:
			infCode := int64((1<<f.Exp - 1) << f.Mant)
			mag := c.NewSelect(isNaN, c32(int64(f.NaNCode())), c.NewSelect(over, c32(infCode), code))
			res = c.NewOr(mag, sign)
		case minifloat.NaNFN:
			mag := c.NewSelect(c.NewOr(isNaN, over), c32(int64(f.NaNCode())), code)
			res = c.NewOr(mag, sign)
		case minifloat.NaNFNUZ:
			zero := c.NewICmp(enum.IPredEQ, code, c32(0))
			v := c.NewSelect(zero, c32(0), c.NewOr(code, sign))
			res = c.NewSelect(c.NewOr(isNaN, over), c32(int64(f.NaNCode())), v)
		default: // finite only: saturate; NaN gives +0
			mag := c.NewSelect(over, c32(maxCode), code)
			res = c.NewSelect(isNaN, c32(0), c.NewOr(mag, sign))
		}
		return c.NewTrunc(res, types.I8)
	})
	return b.call(fn, x)
}

// miniTotalOrderKey maps a mini float's bits to an i32 whose signed order
// is the total order the evaluator uses (ir's totalOrderKey): sign and
// magnitude, -0 just below +0; f8E8M0FNU has no sign bit.
func (b *fb) miniTotalOrderKey(k elemKind, x value.Value) value.Value {
	c := b.cur
	f := k.miniFormat()
	u := c.NewZExt(x, types.I32)
	if f.Kind == minifloat.NaNE8M0 {
		return u
	}
	signBit := int64(1) << (f.Bits - 1)
	mag := c.NewAnd(u, c32(signBit-1))
	neg := c.NewICmp(enum.IPredNE, c.NewAnd(u, c32(signBit)), c32(0))
	return c.NewSelect(neg, c.NewSub(c32(-1), mag), mag)
}

// miniULPBits shifts a mini float's bits so that its sign is bit 7 (f6 and
// f4 keep theirs lower), for ulpDist's sign-and-magnitude arithmetic.
func (b *fb) miniULPBits(k elemKind, x value.Value) value.Value {
	if sh := 8 - k.miniFormat().Bits; sh > 0 {
		return b.cur.NewShl(x, c8(int64(sh)))
	}
	return x
}

// miniNextAfter is chlo.next_after on a mini float: C's nextafter(x, y)
// in the format's own code space. NaN (the format's) if either is NaN, y
// if x == y, from ±0 the smallest subnormal with y's sign, else one code
// up or down in magnitude. The FNUZ types have no -0: stepping from the
// smallest negative subnormal towards zero gives +0, not the NaN at
// 0x80. f8E8M0FNU has neither sign nor zero: one code towards y.
func (b *fb) miniNextAfter(k elemKind, x, y value.Value) value.Value {
	c := b.cur
	f := k.miniFormat()
	xf, yf := b.miniToF32(k, x), b.miniToF32(k, y)
	one := c8(1)
	away := c.NewICmp(enum.IPredEQ, c.NewFCmp(enum.FPredOLT, xf, yf), c.NewFCmp(enum.FPredOGT, xf, floatConst(kF32, 0)))
	var r value.Value = c.NewSelect(away, c.NewAdd(x, one), c.NewSub(x, one))
	if f.Kind != minifloat.NaNE8M0 {
		signMask := c8(int64(1) << (f.Bits - 1))
		if f.Kind == minifloat.NaNFNUZ {
			r = c.NewSelect(c.NewICmp(enum.IPredEQ, r, signMask), c8(0), r)
		}
		tiny := c.NewOr(c.NewAnd(y, signMask), one)
		r = c.NewSelect(c.NewFCmp(enum.FPredOEQ, xf, floatConst(kF32, 0)), tiny, r)
	}
	r = c.NewSelect(c.NewFCmp(enum.FPredOEQ, xf, yf), y, r)
	return c.NewSelect(c.NewFCmp(enum.FPredUNO, xf, yf), b.miniFromF32(k, c.NewFAdd(xf, yf)), r)
}
