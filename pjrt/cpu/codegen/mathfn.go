package codegen

import (
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"
)

// Inline approximations of exp, expm1, log, log1p, tanh, logistic and erf.
//
// LLVM's llvm.exp/llvm.log intrinsics and libm's functions are calls that
// the loop vectorizer cannot widen, so a loop applying them runs one
// element at a time. The functions here are straight-line IR (no calls,
// no branches: special cases are selects) that the vectorizer turns into
// AVX2/AVX-512 code like any other arithmetic. They follow the classic
// recipes:
//
//   - exp: n = round(x/ln 2), r = x - n·ln 2 with ln 2 split into a short
//     exact head and a tail (Cody and Waite), a polynomial for e^r, then
//     a scale by 2^n done as two power-of-two multiplications so that
//     results near overflow and subnormal results come out right. f32
//     uses Cephes' expf polynomial; f64 is FreeBSD's e_exp.c (Go's
//     math.Exp): a rational form in r².
//   - log: x = m·2^e with m in [√½, √2) read off the bits (subnormals
//     scaled up first), then a polynomial in f = m-1. f32 is Cephes'
//     logf, f64 FreeBSD's e_log.c (Go's math.Log).
//   - expm1 (f32): exp's reduction, then 2^n·(e^r - 1) + (2^n - 1),
//     exact in both terms for the n where it matters; log1p (f32):
//     log(u) + (x - (u-1))/u for u = 1+x, the correction recovering what
//     rounding 1+x lost.
//   - tanh: Cephes' odd polynomial (f32) or rational (f64, Go's
//     math.Tanh) below 0.625, 1 - 2/(e^{2|x|}+1) above.
//   - logistic: 1/(1+e^-x) for x >= 0, e^x/(1+e^x) below, on the exp
//     above (as the libm version did); for f32 on expNeg32, the same
//     recipe for e^-|x| in fewer instructions.
//   - erf (f32): x·P(x²) below 1, 1 - e^{-x²}·S(|x|) from 1 to 4 (erf
//     is 1 in f32 beyond 3.92): polynomials fitted for this code
//     (relative error of P 2^-29.6, absolute error of e^{-x²}·S 2^-28.6).
//
// f64 expm1, log1p and erf stay libm calls.
//
// Measured against the reference evaluator (ir.Eval, Go's math in f64
// rounded to the type; Go's math.Erf for erf): the largest ULP distance
// over every 257th f32 bit pattern (16.7 million values, all binades,
// subnormals, both signs), and over a million f64 values spread over
// every binade (mathfn_test.go checks these bounds on a sparser sweep):
//
//	          exp  expm1  log  log1p  tanh  logistic  erf
//	f32 ULP    1     2     1     1     1       2       1
//	f64 ULP    2     -     1     -     2       2       -
//
// f32 results are within 1 ULP of the correctly rounded value except
// 4 expm1 results in 16.7 million (x just above ln 2/2, where
// 2·(e^r-1)+1 cancels a bit) and 959 logistic ones (the division of
// two rounded values; 974 before f32 logistic had its own exp,
// expNeg32). For f64 the reference is itself not correctly
// rounded (Go's amd64 exp is SLEEF's, within 1 ULP), so 2 ULP apart
// means both are close. Special values are exact: exp(-inf) = 0,
// exp(+inf) = +inf, log(0) = -inf, log(x<0) = NaN, tanh(±inf) = ±1,
// erf(±inf) = ±1, NaN in gives NaN out, and ±0 keeps its sign where the
// function is odd. Where Go's math is wrong (math.Log of f64
// subnormals, math.Exp overflowing at ln(MaxFloat64)) the test compares
// with the right value instead.

// mathULP is the table above: the largest ULP distance from ir.Eval the
// tests accept, per function and float kind.
var mathULP = map[elemKind]map[string]int{
	kF32: {"exponential": 1, "exponential_minus_one": 2, "log": 1, "log_plus_one": 1, "tanh": 1, "logistic": 2, "erf": 1},
	kF64: {"exponential": 2, "log": 1, "tanh": 2, "logistic": 2},
}

// mathFn emits the inline approximation of the float function name on
// x, or reports false when there is none for (name, k) and the caller
// should use libm.
func (b *fb) mathFn(name string, k elemKind, x value.Value) (value.Value, bool) {
	if k != kF32 && k != kF64 {
		return nil, false
	}
	if _, ok := mathULP[k][name]; !ok {
		return nil, false
	}
	m := fmath{b: b, k: k}
	switch name {
	case "exponential":
		return m.exp(x), true
	case "exponential_minus_one":
		return m.expm1(x), true
	case "log":
		return m.log(x), true
	case "log_plus_one":
		return m.log1p(x), true
	case "tanh":
		return m.tanh(x), true
	case "logistic":
		return m.logistic(x), true
	case "erf":
		return m.erf(x), true
	}
	return nil, false
}

// fmath emits float arithmetic of one kind into the current block.
type fmath struct {
	b *fb
	k elemKind
}

func (m fmath) c(v float64) value.Value { return fconst(m.k, v) }
func (m fmath) ic(v int64) value.Value  { return constant.NewInt(m.k.intOfSameWidth(), v) }

func (m fmath) add(x, y value.Value) value.Value { return m.b.cur.NewFAdd(x, y) }
func (m fmath) sub(x, y value.Value) value.Value { return m.b.cur.NewFSub(x, y) }
func (m fmath) mul(x, y value.Value) value.Value { return m.b.cur.NewFMul(x, y) }
func (m fmath) div(x, y value.Value) value.Value { return m.b.cur.NewFDiv(x, y) }

func (m fmath) sel(cond, x, y value.Value) value.Value { return m.b.cur.NewSelect(cond, x, y) }

func (m fmath) cmp(p enum.FPred, x, y value.Value) value.Value { return m.b.cur.NewFCmp(p, x, y) }

func (m fmath) abs(x value.Value) value.Value { return m.b.intrinsic1("fabs", m.k, x) }

// horner evaluates the polynomial with coefficients cs (highest degree
// first) at x, each step an llvm.fmuladd: one fused multiply-add where
// the target has FMA (one rounding instead of two, and half the
// instructions of the vectorized loops these polynomials sit in; GELU's
// tanh was compute-bound), a multiply and an add elsewhere. Only these
// internal polynomials contract: the program's own multiplies and adds
// stay separately rounded, as the reference evaluator rounds them.
func (m fmath) horner(x value.Value, cs ...float64) value.Value {
	acc := m.c(cs[0])
	for _, c := range cs[1:] {
		acc = m.fma(acc, x, m.c(c))
	}
	return acc
}

// fma is x*y+z as llvm.fmuladd (fused where the target has FMA).
func (m fmath) fma(x, y, z value.Value) value.Value {
	r := m.k.reg()
	return m.b.call(m.b.e.decl("llvm.fmuladd."+fsuffix(m.k), r, r, r, r), x, y, z)
}

// Layout of the float kind: mantissa bits and exponent bias.
func (m fmath) mantBits() int64 {
	if m.k == kF32 {
		return 23
	}
	return 52
}

func (m fmath) bias() int64 {
	if m.k == kF32 {
		return 127
	}
	return 1023
}

// pow2 returns 2^n for an integer n (of the same width) in the normal
// exponent range.
func (m fmath) pow2(n value.Value) value.Value {
	c := m.b.cur
	e := c.NewShl(c.NewAdd(n, m.ic(m.bias())), m.ic(m.mantBits()))
	return c.NewBitCast(e, m.k.reg())
}

// scale returns y·2^n for |n| up to twice the exponent range, as two
// multiplications by normal powers of two: y·2^128 for y < 1 stays
// finite, and a subnormal result is rounded once, by the last product.
func (m fmath) scale(y, n value.Value) value.Value {
	c := m.b.cur
	n1 := c.NewAShr(n, m.ic(1))
	n2 := c.NewSub(n, n1)
	return m.mul(m.mul(y, m.pow2(n1)), m.pow2(n2))
}

// clampNaNLow clamps x to [lo, hi]; NaN becomes lo (the callers select
// NaN back at the end, and computing on NaN would make fptosi poison).
func (m fmath) clampNaNLow(x value.Value, lo, hi float64) value.Value {
	x = m.sel(m.cmp(enum.FPredOGT, x, m.c(hi)), m.c(hi), x)
	return m.sel(m.cmp(enum.FPredULT, x, m.c(lo)), m.c(lo), x)
}

// reduceExp splits x (clamped, not NaN) into n and r with
// x = n·ln 2 + r, |r| <= ln 2 / 2 (a little more at rounding ties): nf
// is n as a float, n as an integer, r for f32; for f64 r = hi - lo is
// returned as its two parts.
func (m fmath) reduceExp(xc value.Value) (nf, n, hi, lo value.Value) {
	nf = m.b.intrinsic1("roundeven", m.k, m.mul(xc, m.c(math.Log2E)))
	n = m.b.cur.NewFPToSI(nf, m.k.intOfSameWidth())
	if m.k == kF32 {
		// Cephes: ln 2 = C1 - C2, C1 with 9 significant bits, so nf·C1
		// is exact for |n| < 2^15.
		r := m.sub(xc, m.mul(nf, m.c(0.693359375)))
		r = m.sub(r, m.mul(nf, m.c(-2.12194440e-4)))
		return nf, n, r, nil
	}
	const ln2Hi, ln2Lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	hi = m.sub(xc, m.mul(nf, m.c(ln2Hi)))
	lo = m.mul(nf, m.c(ln2Lo))
	return nf, n, hi, lo
}

// expPoly32 is Cephes' expf polynomial: e^r - 1 = r + r²·p(r) on
// |r| <= ln 2 / 2 (relative error 4.2e-9 in theory).
func (m fmath) expm1Poly32(r value.Value) value.Value {
	p := m.horner(r, 1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
	return m.add(m.mul(p, m.mul(r, r)), r)
}

// exp64 is FreeBSD's expmulti: e^(hi-lo) for |hi-lo| <= ln 2 / 2.
func (m fmath) exp64(hi, lo value.Value) value.Value {
	r := m.sub(hi, lo)
	t := m.mul(r, r)
	p := m.horner(t, 4.13813679705723846039e-08, -1.65339022054652515390e-06, 6.61375632143793436117e-05,
		-2.77777777770155933842e-03, 1.66666666666666657415e-01)
	c := m.sub(r, m.mul(t, p))
	q := m.div(m.mul(r, c), m.sub(m.c(2), c))
	return m.sub(m.c(1), m.sub(m.sub(lo, q), hi))
}

func (m fmath) exp(x value.Value) value.Value {
	// Beyond these bounds the result is 0 or +inf anyway (e^-104 is below
	// half the smallest f32 subnormal, e^-746 the f64 one); within them
	// n stays where scale is exact.
	lo, hi := -104.0, 100.0
	if m.k == kF64 {
		lo, hi = -746, 710
	}
	return m.sel(m.b.isNaN(x), x, m.expCore(x, lo, hi, true))
}

// expCore is e^x for x clamped to [lo, hi] (an infinite bound: no
// clamp). With split the scale by 2^n takes two multiplications, which
// is right for every n up to twice the exponent range; without, n must
// stay in the normal range. Lanes where x is NaN come out poison (fptosi
// of NaN): callers select them away.
func (m fmath) expCore(x value.Value, lo, hi float64, split bool) value.Value {
	if !math.IsInf(hi, 1) {
		x = m.sel(m.cmp(enum.FPredOGT, x, m.c(hi)), m.c(hi), x)
	}
	if !math.IsInf(lo, -1) {
		x = m.sel(m.cmp(enum.FPredOLT, x, m.c(lo)), m.c(lo), x)
	}
	_, n, rh, rl := m.reduceExp(x)
	var y value.Value
	if m.k == kF32 {
		y = m.add(m.expm1Poly32(rh), m.c(1))
	} else {
		y = m.exp64(rh, rl)
	}
	if split {
		return m.scale(y, n)
	}
	return m.mul(y, m.pow2(n))
}

// expm1 (f32): e^x - 1 = 2^n·(e^r - 1) + (2^n - 1). For -25 <= n <= 24
// both 2^n·(e^r-1) and 2^n - 1 are exact, so the sum is rounded once;
// for n > 24 the -1 is below half an ULP and the result is e^x; for
// n < -25 (x < -17.3) it is -1.
func (m fmath) expm1(x value.Value) value.Value {
	c := m.b.cur
	xc := m.clampNaNLow(x, -18, 100)
	_, n, r, _ := m.reduceExp(xc)
	em1 := m.expm1Poly32(r)
	nt := c.NewSelect(c.NewICmp(enum.IPredSLT, n, m.ic(-25)), m.ic(-25), n)
	nt = c.NewSelect(c.NewICmp(enum.IPredSGT, nt, m.ic(24)), m.ic(24), nt)
	t := m.pow2(nt)
	small := m.add(m.mul(t, em1), m.sub(t, m.c(1)))
	big := m.scale(m.add(em1, m.c(1)), n)
	res := m.sel(c.NewICmp(enum.IPredSGT, n, m.ic(24)), big, small)
	// x itself for NaN and ±0 (the reduction loses the sign of -0).
	keep := m.cmp(enum.FPredUEQ, x, m.c(0))
	return m.sel(keep, x, res)
}

// frexp splits a positive finite x into mant in [0.5, 1) and an integer
// exponent e (same width) with x = mant·2^e; subnormals are scaled up
// first. Other inputs give garbage the callers select away.
func (m fmath) frexp(x value.Value) (mant, e value.Value) {
	c := m.b.cur
	it := m.k.intOfSameWidth()
	mb := m.mantBits()
	up := float64(int64(1) << (mb + 2))
	tiny := m.cmp(enum.FPredOLT, x, m.c(math.Ldexp(1, int(1-m.bias()))))
	xs := m.sel(tiny, m.mul(x, m.c(up)), x)
	adj := c.NewSelect(tiny, m.ic(-(mb + 2)), m.ic(0))
	bits := c.NewBitCast(xs, it)
	ex := c.NewAnd(c.NewLShr(bits, m.ic(mb)), m.ic(2*m.bias()+1))
	e = c.NewAdd(c.NewSub(ex, m.ic(m.bias()-1)), adj)
	mbits := c.NewOr(c.NewAnd(bits, m.ic(int64(1)<<mb-1)), m.ic((m.bias()-1)<<mb))
	return c.NewBitCast(mbits, m.k.reg()), e
}

func (m fmath) log(x value.Value) value.Value {
	c := m.b.cur
	mant, e := m.frexp(x)
	low := m.cmp(enum.FPredOLT, mant, m.c(math.Sqrt2/2))
	e = c.NewSelect(low, c.NewSub(e, m.ic(1)), e)
	mant = m.sel(low, m.add(mant, mant), mant)
	f := m.sub(mant, m.c(1))
	fe := c.NewSIToFP(e, m.k.reg())
	var res value.Value
	if m.k == kF32 {
		z := m.mul(f, f)
		p := m.horner(f, 7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
			1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)
		y := m.mul(m.mul(p, f), z)
		y = m.add(y, m.mul(fe, m.c(-2.12194440e-4)))
		y = m.add(y, m.mul(m.c(-0.5), z))
		res = m.add(m.add(f, y), m.mul(fe, m.c(0.693359375)))
	} else {
		const ln2Hi, ln2Lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
		s := m.div(f, m.add(m.c(2), f))
		s2 := m.mul(s, s)
		s4 := m.mul(s2, s2)
		t1 := m.mul(s2, m.horner(s4, 1.479819860511658591e-01, 1.818357216161805012e-01, 2.857142874366239149e-01, 6.666666666666735130e-01))
		t2 := m.mul(s4, m.horner(s4, 1.531383769920937332e-01, 2.222219843214978396e-01, 3.999999999940941908e-01))
		r := m.add(t1, t2)
		hfsq := m.mul(m.mul(m.c(0.5), f), f)
		inner := m.sub(m.sub(hfsq, m.add(m.mul(s, m.add(hfsq, r)), m.mul(fe, m.c(ln2Lo)))), f)
		res = m.sub(m.mul(fe, m.c(ln2Hi)), inner)
	}
	return m.logSpecial(x, res)
}

// logSpecial fixes log's result for x = 0, x < 0, +inf and NaN.
func (m fmath) logSpecial(x, res value.Value) value.Value {
	res = m.sel(m.cmp(enum.FPredOEQ, x, m.c(math.Inf(1))), x, res)
	res = m.sel(m.cmp(enum.FPredOEQ, x, m.c(0)), m.c(math.Inf(-1)), res)
	res = m.sel(m.cmp(enum.FPredOLT, x, m.c(0)), m.c(math.NaN()), res)
	return m.sel(m.b.isNaN(x), x, res)
}

// log1p (f32): log(u) + (x - (u-1))/u for u = 1+x. The correction is
// what rounding 1+x lost, relative to u; it is left out where u is 0,
// negative, infinite or NaN (log(u) is then the answer).
func (m fmath) log1p(x value.Value) value.Value {
	u := m.add(m.c(1), x)
	lu := m.log(u)
	corr := m.div(m.sub(x, m.sub(u, m.c(1))), u)
	ok := m.b.cur.NewAnd(m.cmp(enum.FPredOGT, u, m.c(0)), m.cmp(enum.FPredOLT, u, m.c(math.Inf(1))))
	res := m.add(lu, m.sel(ok, corr, m.c(0)))
	// ±0 (and NaN) stay themselves: log(1) + (-0) would be +0.
	return m.sel(m.cmp(enum.FPredUEQ, x, m.c(0)), x, res)
}

func (m fmath) tanh(x value.Value) value.Value {
	// On |x|, the sign copied at the end (which also keeps -0).
	z := m.abs(x)
	s := m.mul(z, z)
	var small value.Value
	if m.k == kF32 {
		p := m.horner(s, -5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1)
		small = m.add(m.mul(m.mul(p, s), z), z)
	} else {
		num := m.horner(s, -9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3)
		den := m.horner(s, 1, 1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3)
		small = m.add(z, m.div(m.mul(m.mul(z, s), num), den))
	}
	// 1 - 2/(e^{2|x|}+1) rounds to 1 once e^{2|x|} passes 2^25 (f32) or
	// 2^55 (f64): 2|x| is clamped below where 2^n would leave the normal
	// range.
	top := 20.0
	if m.k == kF64 {
		top = 40
	}
	e := m.expCore(m.add(z, z), math.Inf(-1), top, false)
	big := m.sub(m.c(1), m.div(m.c(2), m.add(e, m.c(1))))
	// NaN fails the ordered compare and takes the small path, which
	// keeps it NaN.
	return m.b.copysign(m.k, m.sel(m.cmp(enum.FPredOGE, z, m.c(0.625)), big, small), x)
}

// logistic is 1/(1+e^-x) for x >= 0, e^x/(1+e^x) below: e = e^-|x| <= 1,
// so neither form overflows to NaN.
func (m fmath) logistic(x value.Value) value.Value {
	var e value.Value
	if m.k == kF32 {
		e = m.expNeg32(m.b.cur.NewFNeg(m.abs(x)))
	} else {
		e = m.expCore(m.b.cur.NewFNeg(m.abs(x)), -746, math.Inf(1), true)
	}
	den := m.add(m.c(1), e)
	num := m.sel(m.cmp(enum.FPredOGE, x, m.c(0)), m.c(1), e)
	if m.k == kF32 {
		return m.div(num, den) // NaN: e, num and den are NaN
	}
	return m.sel(m.b.isNaN(x), x, m.div(num, den))
}

// expNeg32 is e^a for f32 a <= 0 (or NaN, which comes out NaN): exp's
// recipe with fewer instructions, for logistic, whose vectorized loop
// (W2's GELU: docs/performance.md) was compute-bound at about 48
// instructions per 16 elements (now 33). Knowing n <= 0 saves most:
//
//   - n = round(a·log2 e) by the shifter 1.5·2^23: t = a·log2 e + 1.5·2^23
//     (one fused multiply-add) is rounded to an integer, t - 1.5·2^23 is
//     n exactly and t's low bits are n, in place of a round and a
//     conversion;
//   - Cody and Waite's r = a - n·C1 - n·C2 as two fused multiply-adds,
//     and z = e^r - 1 = r + r²·p(r) with one;
//   - the scale by 2^n for n in [-150, 0]: w = 2^(n+25) is normal, and
//     e^r·w = z·w + w (one fused multiply-add) stays normal (e^r >= √½);
//     ·2^-25 then rounds a subnormal result once: an add, a shift and two
//     operations where scale needs eight for n of either sign.
//
// The fused operations round once where exp's rounded twice: the same
// ULP bounds hold (mathfn_test.go). NaN needs no select: the clamp's
// ordered compare leaves it alone and every float operation after it
// keeps it NaN, whatever the integer ones make of its bits.
func (m fmath) expNeg32(a value.Value) value.Value {
	c := m.b.cur
	const shifter = 0x1.8p23
	// e^-104 is below half the smallest subnormal: 0.
	a = m.sel(m.cmp(enum.FPredOLT, a, m.c(-104)), m.c(-104), a)
	t := m.fma(a, m.c(math.Log2E), m.c(shifter))
	nf := m.sub(t, m.c(shifter))
	r := m.fma(nf, m.c(-0.693359375), a)
	r = m.fma(nf, m.c(2.12194440e-4), r)
	p := m.horner(r, 1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
	z := m.fma(p, m.mul(r, r), r)
	// t's bits are those of 1.5·2^23 plus n; 2^(n+25) has the exponent
	// field n+25+127, in [2, 152]: the shift keeps t's low 9 bits.
	i32 := m.k.intOfSameWidth()
	k := c.NewAdd(c.NewBitCast(t, i32), constant.NewInt(i32, 152-int64(math.Float32bits(shifter))))
	w := c.NewBitCast(c.NewShl(k, m.ic(23)), m.k.reg())
	return m.mul(m.fma(z, w, w), m.c(0x1p-25))
}

// erf (f32); f64 calls libm.
func (m fmath) erf(x value.Value) value.Value {
	if m.k != kF32 {
		return m.b.libm1("erf", m.k, x)
	}
	a := m.abs(x)
	// x·P(x²) on [0, 1] (relative error 2^-29.6), as x + x·(P(x²)-1):
	// P(0) = 2/√π is not exact in f32, P(0)-1 nearly is, and the sum
	// rounds once.
	q := m.horner(m.mul(x, x), 7.85385799e-05, -0.000801019285, 0.00518832763, -0.0268538119,
		0.112835851, -0.376126258, 0.1283791670955126)
	small := m.add(x, m.mul(x, q))
	// 1 - e^{-x²}·S(|x|) on [1, 4], S(t) ≈ erfc(t)·e^{t²} in powers of
	// t-1: absolute error of e^{-x²}·S 2^-28.6. erf rounds to 1 beyond
	// 3.92, so |x| is clamped to 4 (NaN passes through the ordered
	// compare).
	ac := m.sel(m.cmp(enum.FPredOGT, a, m.c(4)), m.c(4), a)
	sp := m.horner(m.sub(ac, m.c(1)), 0.000106843374, -0.00105705693, 0.0049112864, -0.0151101553,
		0.0368749805, -0.0790533442, 0.154350555, -0.273211076, 0.42758357)
	// -x² is in [-16, -1] here: no clamp, 2^n stays normal.
	e := m.expCore(m.b.cur.NewFNeg(m.mul(ac, ac)), math.Inf(-1), math.Inf(1), false)
	big := m.b.copysign(m.k, m.sub(m.c(1), m.mul(e, sp)), x)
	// NaN takes the small path, which keeps it NaN.
	return m.sel(m.cmp(enum.FPredOGE, a, m.c(1)), big, small)
}
