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

// The element kinds beyond types.go's first five: the narrow signed
// integers, the unsigned integers, f16 and bf16, and the complex types.
// How each lives in registers and memory:
//
//   - si8, si16 and ui8 ... ui64 are LLVM integers of their width, like
//     si32; signedness is in the ops (division, comparison, conversion,
//     maximum/minimum, power), never in the type;
//   - f16 and bf16 are i16 bit patterns, in memory and in registers. Each
//     op widens its operands to f32 exactly (bit manipulation), computes in
//     f32 and rounds the result back once, to nearest even, as XLA's CPU
//     compiler does. LLVM 14 has no usable bfloat arithmetic on x86 and
//     lowers half through libgcc calls or F16C, whose availability and
//     NaN handling vary, so half.go does the conversions with integer
//     operations, which also vectorize;
//   - c64 and c128 are <2 x float> and <2 x double> vectors (real part in
//     lane 0): in memory exactly the interleaved (re, im) pairs StableHLO
//     buffers hold. complex.go computes c64 in double and rounds each part
//     once, as the reference evaluator does.
//
// For code elsewhere in the package: isFloat includes f16 and bf16, whose
// registers are i16, so float instructions on them must go through
// b.convert or halfToF32/f32ToHalf (scalar.go's unary, binary, compare and
// convert do, through the hooks below); isInt includes the unsigned kinds;
// complex kinds are neither.
//
// The numbering starts apart from types.go's list so that both can grow.
const (
	kI8 elemKind = iota + 20 // si8 (signless i8 in StableHLO)
	kI16
	kU8
	kU16
	kU32
	kU64
	kF16 // IEEE half, stored as its bits
	kBF16
	kC64 // complex<f32>: <2 x float>
	kC128
)

// kindInfo are the facts of one element kind.
type kindInfo struct {
	elem      stablehlo.ElementType
	sir, mlir string
	bits      int   // register width in bits
	size      int64 // storage size in bytes
	reg       types.Type
}

var (
	c64Type  = types.NewVector(2, types.Float)
	c128Type = types.NewVector(2, types.Double)
)

var extKinds = map[elemKind]kindInfo{
	kI8:   {stablehlo.I8, "si8", "i8", 8, 1, types.I8},
	kI16:  {stablehlo.I16, "si16", "i16", 16, 2, types.I16},
	kU8:   {stablehlo.UI8, "ui8", "ui8", 8, 1, types.I8},
	kU16:  {stablehlo.UI16, "ui16", "ui16", 16, 2, types.I16},
	kU32:  {stablehlo.UI32, "ui32", "ui32", 32, 4, types.I32},
	kU64:  {stablehlo.UI64, "ui64", "ui64", 64, 8, types.I64},
	kF16:  {stablehlo.F16, "f16", "f16", 16, 2, types.I16},
	kBF16: {stablehlo.BF16, "bf16", "bf16", 16, 2, types.I16},
	kC64:  {stablehlo.Complex64, "c64", "complex<f32>", 64, 8, c64Type},
	kC128: {stablehlo.Complex128, "c128", "complex<f64>", 128, 16, c128Type},
}

// extElemOf maps the element types of extKinds.
func extElemOf(e stablehlo.ElementType) (elemKind, bool) {
	for k, x := range extKinds {
		if x.elem == e {
			return k, true
		}
	}
	return 0, false
}

func (k elemKind) isSigned() bool {
	return k == kI8 || k == kI16 || k == kI32 || k == kI64 || k == kI2 || k == kI4
}
func (k elemKind) isUnsigned() bool {
	return k == kU8 || k == kU16 || k == kU32 || k == kU64 || k == kU2 || k == kU4
}
func (k elemKind) isHalf() bool    { return k == kF16 || k == kBF16 || k.isMini() }
func (k elemKind) isComplex() bool { return k == kC64 || k == kC128 }

// part is the kind of a complex kind's parts (k itself for other kinds).
func (k elemKind) part() elemKind {
	switch k {
	case kC64:
		return kF32
	case kC128:
		return kF64
	}
	return k
}

// complexOf is the complex kind with parts of kind k (f32, f64), or 0.
func complexOf(k elemKind) elemKind {
	switch k {
	case kF32:
		return kC64
	case kF64:
		return kC128
	}
	return 0
}

// unaryResultKind is the result element kind of the elementwise unary op
// short on operands of kind k.
func unaryResultKind(short string, k elemKind) elemKind {
	switch short {
	case "is_finite":
		return kBool
	case "abs", "real", "imag":
		return k.part()
	}
	return k
}

// binaryResultKind is the result element kind of the elementwise binary
// op short on operands of kind k (0 when there is none).
func binaryResultKind(short string, k elemKind) elemKind {
	if short == "complex" {
		return complexOf(k)
	}
	return k
}

// elemOKExt decides elemOK for the kinds of this file and the ops real,
// imag and complex; handled is false for everything else.
func elemOKExt(name string, k elemKind) (ok, handled bool) {
	switch name {
	case "real", "imag":
		return k.isFloat() || k.isComplex(), true
	case "complex":
		return k == kF32 || k == kF64, true
	}
	if _, ext := extKinds[k]; !ext {
		return false, false
	}
	switch {
	case k.isComplex():
		switch name {
		case "add", "subtract", "multiply", "divide", "power", "negate", "sign", "abs",
			"exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "sqrt",
			"rsqrt", "cbrt", "tanh", "sine", "cosine", "tan", "atan2", "maximum", "minimum":
			return true, true
		}
		return false, true
	case k.isHalf():
		switch name {
		case "and", "or", "xor", "not", "shift_left", "shift_right_arithmetic", "shift_right_logical",
			"popcnt", "count_leading_zeros":
			return false, true
		}
		return true, true
	}
	// Integers. abs and sign take signed integers only (StableHLO, XLA).
	switch name {
	case "abs", "sign":
		return !k.isUnsigned(), true
	case "add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum",
		"and", "or", "xor", "not", "negate", "shift_left", "shift_right_arithmetic",
		"shift_right_logical", "popcnt", "count_leading_zeros":
		return true, true
	}
	return false, true
}

// scalarConstExt is scalarConst for the kinds of this file. For c128 the
// 64 bits are the real part's; the imaginary part is +0 (elemConst takes
// the full 16 bytes).
func scalarConstExt(k elemKind, bits uint64) (constant.Constant, bool) {
	if k.isMini() {
		return constant.NewInt(types.I8, int64(int8(bits))), true
	}
	if k.isSubByte() {
		return subConst(k, bits), true
	}
	switch k {
	case kI8, kU8:
		return constant.NewInt(types.I8, int64(int8(bits))), true
	case kI16, kU16, kF16, kBF16:
		return constant.NewInt(types.I16, int64(int16(bits))), true
	case kU32:
		return constant.NewInt(types.I32, int64(int32(bits))), true
	case kU64:
		return constant.NewInt(types.I64, int64(bits)), true
	case kC64:
		return complexConst(kC64, bits&math.MaxUint32, bits>>32), true
	case kC128:
		return complexConst(kC128, bits, 0), true
	}
	return nil, false
}

// complexConst is the complex constant whose parts have the bit patterns
// re and im: a bitcast of an integer vector, which keeps NaN payloads
// (llir prints every float NaN as the canonical one).
func complexConst(k elemKind, re, im uint64) constant.Constant {
	it, r, i := types.I64, int64(re), int64(im)
	if k == kC64 {
		it, r, i = types.I32, int64(int32(uint32(re))), int64(int32(uint32(im)))
	}
	v := constant.NewVector(types.NewVector(2, it), constant.NewInt(it, r), constant.NewInt(it, i))
	return constant.NewBitCast(v, k.reg())
}

// elemConst is the constant of kind k whose memory image is raw (one
// element, little-endian).
func elemConst(k elemKind, raw []byte) constant.Constant {
	if k == kC128 && len(raw) >= 16 {
		return complexConst(k, leBits(raw[:8]), leBits(raw[8:16]))
	}
	return scalarConst(k, leBits(raw[:min(len(raw), 8)]))
}

// The scalar.go entry points (unary, binary, compare, convert) call these
// first; handled is false where scalar.go's own code applies.

func (b *fb) unaryExt(name string, k elemKind, x value.Value) (v value.Value, handled bool, err error) {
	switch {
	case k.isSubByte():
		v, err = b.subUnary(name, k, x)
		return v, true, err
	case k.isHalf():
		v, err = b.halfUnary(name, k, x)
		return v, true, err
	case k.isComplex():
		v, err = b.complexUnary(name, k, x)
		return v, true, err
	case name == "real" && k.isFloat():
		return x, true, nil
	case name == "imag" && k.isFloat():
		return fconst(k, 0), true, nil
	}
	return nil, false, nil
}

func (b *fb) binaryExt(name string, k elemKind, x, y value.Value) (v value.Value, handled bool, err error) {
	switch {
	case name == "complex":
		if complexOf(k) == 0 {
			return nil, true, fmt.Errorf("complex is not defined on %s", k.mlir())
		}
		return b.mkComplex(complexOf(k), x, y), true, nil
	case k.isSubByte():
		v, err = b.subBinary(name, k, x, y)
		return v, true, err
	case k.isHalf():
		v, err = b.halfBinary(name, k, x, y)
		return v, true, err
	case k.isComplex():
		v, err = b.complexBinary(name, k, x, y)
		return v, true, err
	case k.isUnsigned():
		return b.unsignedBinary(name, k, x, y)
	}
	return nil, false, nil
}

// unsignedBinary: the ops whose unsigned meaning differs from the signed
// one. x/0 is all ones and x%0 is x, as for signed integers (and XLA).
func (b *fb) unsignedBinary(name string, k elemKind, x, y value.Value) (value.Value, bool, error) {
	c := b.cur
	zero, one := iconst(k, 0), iconst(k, 1)
	switch name {
	case "divide", "remainder":
		isZero := c.NewICmp(enum.IPredEQ, y, zero)
		safe := c.NewSelect(isZero, one, y)
		if name == "divide" {
			return c.NewSelect(isZero, iconst(k, -1), c.NewUDiv(x, safe)), true, nil
		}
		return c.NewSelect(isZero, x, c.NewURem(x, safe)), true, nil
	case "maximum":
		return c.NewSelect(c.NewICmp(enum.IPredUGT, x, y), x, y), true, nil
	case "minimum":
		return c.NewSelect(c.NewICmp(enum.IPredULT, x, y), x, y), true, nil
	case "power":
		return b.call(b.e.upow(k), x, y), true, nil
	}
	return nil, false, nil
}

func (b *fb) compareExt(dir, ct string, k elemKind, x, y value.Value) (value.Value, bool) {
	switch {
	case k.isSubByte():
		return b.compare(dir, ct, k.byteKind(), x, y), true
	case k.isHalf():
		return b.halfCompare(dir, ct, k, x, y), true
	case k.isComplex():
		return b.complexCompare(dir, k, x, y), true
	}
	return nil, false
}

// convertExt converts where a kind of this file is involved: unsigned
// integers zero-extend and convert with uitofp/fptoui.sat; f16/bf16 go
// through half.go; complex converts each part (real → complex gets a +0
// imaginary part; complex → real, integer or i1 takes the real part, as
// the spec says).
func (b *fb) convertExt(from, to elemKind, x value.Value) (value.Value, bool) {
	c := b.cur
	if v, ok := b.subConvert(from, to, x); ok {
		return v, true
	}
	switch {
	case from == to:
		return nil, false
	case from.isComplex() && to.isComplex():
		re, im := b.parts(from, x)
		return b.mkComplex(to, b.convert(from.part(), to.part(), re), b.convert(from.part(), to.part(), im)), true
	case from.isComplex():
		re, _ := b.parts(from, x)
		return b.convert(from.part(), to, re), true
	case to.isComplex():
		return b.mkComplex(to, b.convert(from, to.part(), x), fconst(to.part(), 0)), true
	case from.isHalf():
		return b.fromHalf(from, to, x), true
	case to.isHalf():
		return b.toHalf(from, to, x), true
	case from.isInt() && to.isInt():
		switch {
		case from.bits() == to.bits():
			return x, true
		case from.bits() > to.bits():
			return c.NewTrunc(x, to.reg()), true
		case from.isUnsigned():
			return c.NewZExt(x, to.reg()), true
		}
		return c.NewSExt(x, to.reg()), true
	case from.isUnsigned() && to.isFloat():
		return c.NewUIToFP(x, to.reg()), true
	case from.isFloat() && to.isUnsigned():
		f := b.e.decl(fmt.Sprintf("llvm.fptoui.sat.i%d.%s", to.bits(), fsuffix(from)), to.reg(), from.reg())
		return b.call(f, x), true
	}
	return nil, false
}

// convertOK accepts every pair of kinds: complex → real, integer or i1
// takes the real part, as the spec says and XLA does (the importer gives
// the reference evaluator stablehlo.real then convert).
func convertOK(from, to elemKind) error { return nil }

// dotWide is dot_general on f16, bf16, c64 and c128, summed as the
// reference evaluator sums: in double (complex128), each product exact
// (f16, bf16, c64 parts) or rounded as Go rounds it (c128: (ac-bd) +
// (ad+bc)i), over the contracting dimensions in increasing order, and
// rounded once into the result type. That makes the results bit-identical
// to ir.Eval. The row of a tile accumulates in a stack array of doubles
// (dotCols wide), which the inner loop over the columns streams through.
func (b *fb) dotWide(n *node, out, lhs, rhs value.Value) error {
	k := n.out[0].t.elem
	M, K, N := n.m, n.k, n.n
	cplx := k.isComplex()
	arr := types.NewArray(uint64(wideCols), types.Double)
	accRe := b.cur.NewAlloca(arr)
	accRe.Align = ir.Align(bufAlign)
	var accIm *ir.InstAlloca
	if cplx {
		accIm = b.cur.NewAlloca(arr)
		accIm.Align = ir.Align(bufAlign)
	}
	slot := func(acc *ir.InstAlloca, j value.Value) value.Value {
		g := b.cur.NewGetElementPtr(arr, acc, i64(0), j)
		g.InBounds = true
		return g
	}
	// wideOf reads element i of a buffer of kind k as double parts.
	wideOf := func(p, i value.Value) (re, im value.Value) {
		v := b.load(k, p, i)
		if cplx {
			return b.wide(k, v)
		}
		return b.cur.NewFPExt(b.halfToF32(k, v), types.Double), nil
	}
	b.loop(n.b, func(bi value.Value) {
		for n0 := int64(0); n0 < N; n0 += wideCols {
			width := min(wideCols, N-n0)
			b.loop(M, func(m value.Value) {
				b.loop(width, func(j value.Value) {
					b.cur.NewStore(d(0), slot(accRe, j))
					if cplx {
						b.cur.NewStore(d(0), slot(accIm, j))
					}
				})
				lrow := b.affine([]value.Value{bi, m}, []int64{M * K, K}, 0)
				b.loop(K, func(ki value.Value) {
					ar, ai := wideOf(lhs, b.affine([]value.Value{lrow, ki}, []int64{1, 1}, 0))
					rrow := b.affine([]value.Value{bi, ki}, []int64{K * N, N}, n0)
					b.loop(width, func(j value.Value) {
						xr, xi := wideOf(rhs, b.affine([]value.Value{rrow, j}, []int64{1, 1}, 0))
						pr := slot(accRe, j)
						if !cplx {
							b.cur.NewStore(b.fadd(b.cur.NewLoad(types.Double, pr), b.fmul(ar, xr)), pr)
							return
						}
						p := b.cmul([2]value.Value{ar, ai}, [2]value.Value{xr, xi})
						pi := slot(accIm, j)
						b.cur.NewStore(b.fadd(b.cur.NewLoad(types.Double, pr), p[0]), pr)
						b.cur.NewStore(b.fadd(b.cur.NewLoad(types.Double, pi), p[1]), pi)
					})
				})
				orow := b.affine([]value.Value{bi, m}, []int64{M * N, N}, n0)
				b.loop(width, func(j value.Value) {
					re := b.cur.NewLoad(types.Double, slot(accRe, j))
					var v value.Value
					if cplx {
						v = b.narrow(k, re, b.cur.NewLoad(types.Double, slot(accIm, j)))
					} else {
						v = b.f64ToHalf(k, re)
					}
					b.store(k, out, b.affine([]value.Value{orow, j}, []int64{1, 1}, 0), v)
				})
			})
		}
	})
	return nil
}

// wideCols is the width of dotWide's accumulator rows.
const wideCols = 512

// mismatchValues is the printf format of one element of kind k in a check
// failure message, and the arguments that print actual a and expected x.
func (b *fb) mismatchValues(k elemKind, a, x value.Value) (string, []value.Value) {
	f64 := func(k elemKind, v value.Value) value.Value { return b.toF64(k, v) }
	switch {
	case k.isComplex():
		vf := "%.9g"
		if k == kC128 {
			vf = "%.17g"
		}
		ar, ai := b.parts(k, a)
		xr, xi := b.parts(k, x)
		p := k.part()
		return "(" + vf + ", " + vf + ")", []value.Value{f64(p, ar), f64(p, ai), f64(p, xr), f64(p, xi)}
	case k.isFloat():
		vf := map[elemKind]string{kF16: "%.5g", kBF16: "%.4g", kF32: "%.9g", kF64: "%.17g"}[k]
		if vf == "" {
			vf = "%.4g" // the mini floats
		}
		return vf, []value.Value{f64(k, a), f64(k, x)}
	case k.isUnsigned():
		return "%llu", []value.Value{b.toI64(k, a), b.toI64(k, x)}
	}
	return "%lld", []value.Value{b.toI64(k, a), b.toI64(k, x)}
}

// elementOKExt is elementOK for f16, bf16 (values compared in f32, which
// holds them exactly; ULPs counted in the narrow format) and complex
// numbers (each part compared; for close, the larger ULP distance of the
// two parts must be in range).
func (b *fb) elementOKExt(c checkPlan, k elemKind, a, x value.Value) value.Value {
	cur := b.cur
	if k.isHalf() && c.mode != checkClose {
		return b.elementOK(c, kF32, b.halfToF32(k, a), b.halfToF32(k, x))
	}
	if k.isComplex() && c.mode != checkClose {
		ar, ai := b.parts(k, a)
		xr, xi := b.parts(k, x)
		return cur.NewAnd(b.elementOK(c, k.part(), ar, xr), b.elementOK(c, k.part(), ai, xi))
	}
	var dist value.Value
	if k.isComplex() {
		ar, ai := b.parts(k, a)
		xr, xi := b.parts(k, x)
		d1, d2 := b.ulpDist(k.part(), ar, xr), b.ulpDist(k.part(), ai, xi)
		dist = cur.NewSelect(cur.NewICmp(enum.IPredUGT, d1, d2), d1, d2)
	} else {
		dist = b.ulpDist(k, a, x)
	}
	if c.maxULP < 0 {
		return constant.False
	}
	var ok value.Value = cur.NewICmp(enum.IPredULE, dist, i64(c.maxULP))
	if c.minULP > 0 {
		ok = cur.NewAnd(ok, cur.NewICmp(enum.IPredUGE, dist, i64(c.minULP)))
	}
	return ok
}

// ulpDist is the ULP distance of float values of kind k (check.go's
// rule: the distance of the bit patterns of |a| and |x|, summed across
// zero when the signs differ; 0 for two NaNs or bitwise-equal non-finite
// values; any other pair with a non-finite value is MaxInt64).
func (b *fb) ulpDist(k elemKind, a, x value.Value) value.Value {
	cur := b.cur
	fa, fx := a, x // float values for the NaN and finiteness tests
	it := k.intOfSameWidth()
	ba, bx := a, x
	if k.isMini() {
		ba, bx = b.miniULPBits(k, a), b.miniULPBits(k, x)
	}
	if k.isHalf() {
		fa, fx = b.halfToF32(k, a), b.halfToF32(k, x)
	} else {
		ba, bx = cur.NewBitCast(a, it), cur.NewBitCast(x, it)
	}
	fk := k
	if k.isHalf() {
		fk = kF32
	}
	mask := constant.NewInt(it, int64(^uint64(0)>>(65-k.bits())))
	wide := func(v value.Value) value.Value {
		if k == kF64 {
			return v
		}
		return cur.NewZExt(v, types.I64)
	}
	ma, mx := wide(cur.NewAnd(ba, mask)), wide(cur.NewAnd(bx, mask))
	sameSign := cur.NewICmp(enum.IPredSGE, cur.NewXor(ba, bx), constant.NewInt(it, 0))
	dSame := cur.NewSelect(cur.NewICmp(enum.IPredUGE, ma, mx), cur.NewSub(ma, mx), cur.NewSub(mx, ma))
	var dist value.Value = cur.NewSelect(sameSign, dSame, cur.NewAdd(ma, mx))
	if k.isMini() {
		if sh := 8 - k.miniFormat().Bits; sh > 0 {
			dist = cur.NewLShr(dist, i64(int64(sh)))
		}
	}
	inf := floatConst(fk, math.Inf(1))
	finite := cur.NewAnd(
		cur.NewFCmp(enum.FPredONE, b.intrinsic1("fabs", fk, fa), inf),
		cur.NewFCmp(enum.FPredONE, b.intrinsic1("fabs", fk, fx), inf))
	bothNaN := cur.NewAnd(b.isNaN(fa), b.isNaN(fx))
	nonFinite := cur.NewSelect(cur.NewICmp(enum.IPredEQ, ba, bx), i64(0), i64(math.MaxInt64))
	return cur.NewSelect(bothNaN, i64(0), cur.NewSelect(finite, dist, nonFinite))
}
