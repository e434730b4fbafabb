package codegen

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Complex numbers: c64 and c128 values are <2 x float> and <2 x double>
// vectors, real part in lane 0, which is also their memory layout. The
// reference evaluator computes every complex op in complex128 with Go's
// arithmetic and math/cmplx, then rounds each part once (c64); so do
// these kernels: c64 operands are widened to double, the op runs on
// doubles, the parts are rounded back.
//
//   - add, subtract, negate, real, imag, complex, compare, select,
//     maximum/minimum (lexicographic, a NaN part wins), clamp, convert:
//     exact, bit-identical;
//   - multiply ((ac-bd) + (ad+bc)i, no fused multiply-add) and divide
//     (Smith's algorithm with C99's recovery of infinities, as Go's
//     runtime.complex128div), abs (Go's hypot: max·sqrt(1+(min/max)²)),
//     sqrt and rsqrt (math/cmplx.Sqrt's scaled algorithm) and sign:
//     the same operations in the same order as Go, so bit-identical;
//   - exp, expm1, log, log1p, logistic, cbrt, sin, cos, tan, tanh, power
//     and atan2 follow math/cmplx's (or the evaluator's) formulas and
//     special cases, with glibc's exp, log, sin, cos, sinh, cosh, atan2,
//     pow, cbrt where Go uses its math package; they agree with the
//     evaluator within a few ULPs per part, measured in
//     types_ext_test.go. tan and tanh use the denominator
//     cos 2x + cosh 2y = 2(cos²x + sinh²y) (and its mirror), which has no
//     cancellation, where Go switches to a series near the poles; for
//     |Re z| > 20 (tanh; |Im z| for tan) they use the asymptotic form,
//     where Go's formula overflows to NaN beyond 355.

// parts splits a complex value into its parts (of kind k.part()).
func (b *fb) parts(k elemKind, z value.Value) (re, im value.Value) {
	c := b.cur
	return c.NewExtractElement(z, i32(0)), c.NewExtractElement(z, i32(1))
}

// mkComplex builds a complex value of kind k from parts of kind k.part().
func (b *fb) mkComplex(k elemKind, re, im value.Value) value.Value {
	c := b.cur
	v := c.NewInsertElement(constant.NewUndef(k.reg()), re, i32(0))
	return c.NewInsertElement(v, im, i32(1))
}

// wide returns the parts of z as doubles (exact for c64).
func (b *fb) wide(k elemKind, z value.Value) (re, im value.Value) {
	if k == kC64 {
		z = b.cur.NewFPExt(z, c128Type)
	}
	return b.parts(kC128, z)
}

// narrow builds a value of kind k from double parts, rounding each once.
func (b *fb) narrow(k elemKind, re, im value.Value) value.Value {
	z := b.mkComplex(kC128, re, im)
	if k == kC64 {
		return b.cur.NewFPTrunc(z, c64Type)
	}
	return z
}

// d is a double constant.
func d(v float64) constant.Constant { return fconst(kF64, v) }

// Double arithmetic shorthands for the formulas below.
func (b *fb) fadd(x, y value.Value) value.Value { return b.cur.NewFAdd(x, y) }
func (b *fb) fsub(x, y value.Value) value.Value { return b.cur.NewFSub(x, y) }
func (b *fb) fmul(x, y value.Value) value.Value { return b.cur.NewFMul(x, y) }
func (b *fb) fdiv(x, y value.Value) value.Value { return b.cur.NewFDiv(x, y) }
func (b *fb) fneg(x value.Value) value.Value    { return b.cur.NewFNeg(x) }
func (b *fb) fabs(x value.Value) value.Value    { return b.intrinsic1("fabs", kF64, x) }
func (b *fb) fsqrt(x value.Value) value.Value   { return b.intrinsic1("sqrt", kF64, x) }
func (b *fb) fcmp(p enum.FPred, x, y value.Value) value.Value {
	return b.cur.NewFCmp(p, x, y)
}
func (b *fb) sel(c, x, y value.Value) value.Value { return b.cur.NewSelect(c, x, y) }
func (b *fb) and(x, y value.Value) value.Value    { return b.cur.NewAnd(x, y) }
func (b *fb) or(x, y value.Value) value.Value     { return b.cur.NewOr(x, y) }
func (b *fb) not(x value.Value) value.Value       { return b.cur.NewXor(x, constant.True) }
func (b *fb) isInf(x value.Value) value.Value {
	return b.fcmp(enum.FPredOEQ, b.fabs(x), d(math.Inf(1)))
}
func (b *fb) isFinite(x value.Value) value.Value {
	return b.fcmp(enum.FPredOLT, b.fabs(x), d(math.Inf(1)))
}
func (b *fb) isZero(x value.Value) value.Value { return b.fcmp(enum.FPredOEQ, x, d(0)) }

// libm calls on doubles.
func (b *fb) mexp(x value.Value) value.Value { return b.intrinsic1("exp", kF64, x) }
func (b *fb) mlog(x value.Value) value.Value { return b.intrinsic1("log", kF64, x) }
func (b *fb) msin(x value.Value) value.Value { return b.intrinsic1("sin", kF64, x) }
func (b *fb) mcos(x value.Value) value.Value { return b.intrinsic1("cos", kF64, x) }
func (b *fb) matan2(y, x value.Value) value.Value {
	return b.call(pure(b.e.decl("atan2", types.Double, types.Double, types.Double)), y, x)
}
func (b *fb) mpow(x, y value.Value) value.Value {
	return b.call(b.e.decl("llvm.pow.f64", types.Double, types.Double, types.Double), x, y)
}

// sel2 selects between two complex results given as part pairs.
func (b *fb) sel2(c value.Value, x, y [2]value.Value) [2]value.Value {
	return [2]value.Value{b.sel(c, x[0], y[0]), b.sel(c, x[1], y[1])}
}

// cfn calls (creating on first use) the internal function stela.c.<name>
// over <2 x double> operands, whose body computes on their parts.
func (b *fb) cfn(name string, body func(b *fb, xs [][2]value.Value) [2]value.Value, args ...value.Value) value.Value {
	ps := make([]types.Type, len(args))
	for i := range ps {
		ps[i] = c128Type
	}
	f := b.e.helperFn("stela.c."+name, false, c128Type, ps, func(b *fb, a []value.Value) value.Value {
		xs := make([][2]value.Value, len(a))
		for i, v := range a {
			xs[i][0], xs[i][1] = b.parts(kC128, v)
		}
		r := body(b, xs)
		return b.mkComplex(kC128, r[0], r[1])
	})
	return b.call(f, args...)
}

// complexUnary emits a unary op on complex kind k.
func (b *fb) complexUnary(name string, k elemKind, z value.Value) (value.Value, error) {
	c := b.cur
	switch name {
	case "negate":
		return c.NewFNeg(z), nil
	case "real":
		re, _ := b.parts(k, z)
		return re, nil
	case "imag":
		_, im := b.parts(k, z)
		return im, nil
	case "abs":
		re, im := b.wide(k, z)
		h := b.hypot(re, im)
		if k == kC64 {
			return c.NewFPTrunc(h, types.Float), nil
		}
		return h, nil
	}
	body, ok := complexUnaryBodies[name]
	if !ok {
		return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
	}
	w := z
	if k == kC64 {
		w = c.NewFPExt(z, c128Type)
	}
	r := b.cfn(name, func(b *fb, xs [][2]value.Value) [2]value.Value { return body(b, xs[0]) }, w)
	if k == kC64 {
		return b.cur.NewFPTrunc(r, c64Type), nil
	}
	return r, nil
}

var complexUnaryBodies map[string]func(b *fb, x [2]value.Value) [2]value.Value

func init() {
	complexUnaryBodies = map[string]func(b *fb, x [2]value.Value) [2]value.Value{
		"sign":                  (*fb).csign,
		"sqrt":                  (*fb).csqrt,
		"rsqrt":                 func(b *fb, x [2]value.Value) [2]value.Value { return b.cdiv(one, b.csqrt(x)) },
		"exponential":           (*fb).cexp,
		"exponential_minus_one": (*fb).cexpm1,
		"log":                   (*fb).clog,
		"log_plus_one":          (*fb).clog1p,
		"logistic":              (*fb).clogistic,
		"cbrt":                  (*fb).ccbrt,
		"sine":                  (*fb).csin,
		"cosine":                (*fb).ccos,
		"tan":                   (*fb).ctan,
		"tanh":                  (*fb).ctanh,
	}
}

// one is the complex 1 + 0i.
var one = [2]value.Value{d(1), d(0)}

// complexBinary emits a binary op on complex kind k.
func (b *fb) complexBinary(name string, k elemKind, x, y value.Value) (value.Value, error) {
	c := b.cur
	switch name {
	case "add":
		return c.NewFAdd(x, y), nil // one rounding per part: as in double, then rounded
	case "subtract":
		return c.NewFSub(x, y), nil
	case "maximum", "minimum":
		return b.cminmax(name == "maximum", k, x, y), nil
	}
	var body func(b *fb, p, q [2]value.Value) [2]value.Value
	switch name {
	case "multiply":
		body = (*fb).cmul
	case "divide":
		body = (*fb).cdiv
	case "power":
		body = (*fb).cpow
	case "atan2":
		body = (*fb).catan2
	default:
		return nil, fmt.Errorf("%s is not defined on %s", name, k.mlir())
	}
	wx, wy := x, y
	if k == kC64 {
		wx, wy = c.NewFPExt(x, c128Type), c.NewFPExt(y, c128Type)
	}
	r := b.cfn(name, func(b *fb, xs [][2]value.Value) [2]value.Value { return body(b, xs[0], xs[1]) }, wx, wy)
	if k == kC64 {
		return b.cur.NewFPTrunc(r, c64Type), nil
	}
	return r, nil
}

// cminmax: lexicographic order on (re, im); an operand with a NaN part is
// the result (the first one), as NaN is for floats.
func (b *fb) cminmax(isMax bool, k elemKind, x, y value.Value) value.Value {
	xr, xi := b.parts(k, x)
	yr, yi := b.parts(k, y)
	hasNaN := func(r, i value.Value) value.Value { return b.or(b.isNaN(r), b.isNaN(i)) }
	less := b.or(b.fcmp(enum.FPredOLT, xr, yr), b.and(b.fcmp(enum.FPredOEQ, xr, yr), b.fcmp(enum.FPredOLT, xi, yi)))
	if !isMax {
		less = b.not(less) // pick y when !(x < y)
	}
	r := b.sel(less, y, x)
	r = b.sel(hasNaN(yr, yi), y, r)
	return b.sel(hasNaN(xr, xi), x, r)
}

// complexCompare: EQ and NE compare both parts; the ordered directions
// are lexicographic; a NaN part makes the pair unordered.
func (b *fb) complexCompare(dir string, k elemKind, x, y value.Value) value.Value {
	xr, xi := b.parts(k, x)
	yr, yi := b.parts(k, y)
	eq := b.and(b.fcmp(enum.FPredOEQ, xr, yr), b.fcmp(enum.FPredOEQ, xi, yi))
	ordered := b.not(b.or(b.or(b.isNaN(xr), b.isNaN(xi)), b.or(b.isNaN(yr), b.isNaN(yi))))
	lex := func(strict, weak enum.FPred) value.Value {
		return b.and(ordered, b.or(b.fcmp(strict, xr, yr), b.and(b.fcmp(enum.FPredOEQ, xr, yr), b.fcmp(weak, xi, yi))))
	}
	switch dir {
	case "EQ":
		return eq
	case "NE":
		return b.not(eq)
	case "GT":
		return lex(enum.FPredOGT, enum.FPredOGT)
	case "GE":
		return lex(enum.FPredOGT, enum.FPredOGE)
	case "LT":
		return lex(enum.FPredOLT, enum.FPredOLT)
	}
	return lex(enum.FPredOLT, enum.FPredOLE) // LE
}

// --- formulas on double parts (Go's, operation for operation)

func (b *fb) cmul(p, q [2]value.Value) [2]value.Value {
	return [2]value.Value{
		b.fsub(b.fmul(p[0], q[0]), b.fmul(p[1], q[1])),
		b.fadd(b.fmul(p[0], q[1]), b.fmul(p[1], q[0])),
	}
}

func (b *fb) cadd(p, q [2]value.Value) [2]value.Value {
	return [2]value.Value{b.fadd(p[0], q[0]), b.fadd(p[1], q[1])}
}

// cdiv is Go's runtime.complex128div.
func (b *fb) cdiv(n, m [2]value.Value) [2]value.Value {
	a, bb, c, dd := n[0], n[1], m[0], m[1]
	big := b.fcmp(enum.FPredOGE, b.fabs(c), b.fabs(dd))
	r1 := b.fdiv(dd, c)
	den1 := b.fadd(c, b.fmul(r1, dd))
	e1 := b.fdiv(b.fadd(a, b.fmul(bb, r1)), den1)
	f1 := b.fdiv(b.fsub(bb, b.fmul(a, r1)), den1)
	r2 := b.fdiv(c, dd)
	den2 := b.fadd(dd, b.fmul(r2, c))
	e2 := b.fdiv(b.fadd(b.fmul(a, r2), bb), den2)
	f2 := b.fdiv(b.fsub(b.fmul(bb, r2), a), den2)
	res := b.sel2(big, [2]value.Value{e1, f1}, [2]value.Value{e2, f2})

	// C99 G.5.1 recovery when both parts are NaN.
	inf := d(math.Inf(1))
	inf2one := func(x value.Value) value.Value { return b.copysign(kF64, b.sel(b.isInf(x), d(1), d(0)), x) }
	mzero := b.and(b.isZero(c), b.isZero(dd))
	case1 := b.and(mzero, b.or(b.not(b.isNaN(a)), b.not(b.isNaN(bb))))
	ic := b.copysign(kF64, inf, c)
	r1v := [2]value.Value{b.fmul(ic, a), b.fmul(ic, bb)}
	case2 := b.and(b.or(b.isInf(a), b.isInf(bb)), b.and(b.isFinite(c), b.isFinite(dd)))
	a2, b2 := inf2one(a), inf2one(bb)
	r2v := [2]value.Value{
		b.fmul(inf, b.fadd(b.fmul(a2, c), b.fmul(b2, dd))),
		b.fmul(inf, b.fsub(b.fmul(b2, c), b.fmul(a2, dd))),
	}
	case3 := b.and(b.or(b.isInf(c), b.isInf(dd)), b.and(b.isFinite(a), b.isFinite(bb)))
	c3, d3 := inf2one(c), inf2one(dd)
	r3v := [2]value.Value{
		b.fmul(d(0), b.fadd(b.fmul(a, c3), b.fmul(bb, d3))),
		b.fmul(d(0), b.fsub(b.fmul(bb, c3), b.fmul(a, d3))),
	}
	fix := b.sel2(case1, r1v, b.sel2(case2, r2v, b.sel2(case3, r3v, res)))
	bothNaN := b.and(b.isNaN(res[0]), b.isNaN(res[1]))
	return b.sel2(bothNaN, fix, res)
}

// hypot is Go's math.Hypot on amd64 (hypot_amd64.s).
func (b *fb) hypot(p, q value.Value) value.Value {
	p, q = b.fabs(p), b.fabs(q)
	inf := d(math.Inf(1))
	anyInf := b.or(b.fcmp(enum.FPredOEQ, p, inf), b.fcmp(enum.FPredOEQ, q, inf))
	anyNaN := b.or(b.isNaN(p), b.isNaN(q))
	bothZero := b.and(b.isZero(p), b.isZero(q))
	mx := b.sel(b.fcmp(enum.FPredOGT, q, p), q, p)
	mn := b.sel(b.fcmp(enum.FPredOGT, q, p), p, q)
	r := b.fdiv(mn, mx)
	h := b.fmul(mx, b.fsqrt(b.fadd(b.fmul(r, r), d(1))))
	return b.sel(anyInf, inf, b.sel(anyNaN, d(math.NaN()), b.sel(bothZero, d(0), h)))
}

// csign is the evaluator's complexSign: NaN if a part is NaN, 0 for 0,
// else z/|z|.
func (b *fb) csign(x [2]value.Value) [2]value.Value {
	nan := d(math.NaN())
	a := b.hypot(x[0], x[1])
	r := [2]value.Value{b.fdiv(x[0], a), b.fdiv(x[1], a)}
	r = b.sel2(b.and(b.isZero(x[0]), b.isZero(x[1])), [2]value.Value{d(0), d(0)}, r)
	return b.sel2(b.or(b.isNaN(x[0]), b.isNaN(x[1])), [2]value.Value{nan, nan}, r)
}

// csqrt is math/cmplx.Sqrt.
func (b *fb) csqrt(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	// imag(x) == 0
	s := b.fsqrt(b.fneg(re))
	zeroIm := b.sel2(b.isZero(re), [2]value.Value{d(0), im},
		b.sel2(b.fcmp(enum.FPredOLT, re, d(0)), [2]value.Value{d(0), b.copysign(kF64, s, im)},
			[2]value.Value{b.fsqrt(re), im}))
	// real(x) == 0
	rn := b.fsqrt(b.fmul(d(-0.5), im))
	rp := b.fsqrt(b.fmul(d(0.5), im))
	zeroRe := b.sel2(b.fcmp(enum.FPredOLT, im, d(0)), [2]value.Value{rn, b.fneg(rn)}, [2]value.Value{rp, rp})
	// general
	large := b.or(b.fcmp(enum.FPredOGT, b.fabs(re), d(4)), b.fcmp(enum.FPredOGT, b.fabs(im), d(4)))
	f := b.sel(large, d(0.25), d(0x1p54))
	scale := b.sel(large, d(2), d(0x1p-27))
	a, bb := b.fmul(re, f), b.fmul(im, f)
	r := b.hypot(a, bb)
	hb := b.fmul(d(0.5), bb)
	// a > 0
	t1 := b.fsqrt(b.fadd(b.fmul(d(0.5), r), b.fmul(d(0.5), a)))
	r1 := b.fmul(scale, b.fabs(b.fdiv(hb, t1)))
	t1 = b.fmul(t1, scale)
	// a <= 0
	r2 := b.fsqrt(b.fsub(b.fmul(d(0.5), r), b.fmul(d(0.5), a)))
	t2 := b.fmul(scale, b.fabs(b.fdiv(hb, r2)))
	r2 = b.fmul(r2, scale)
	pos := b.fcmp(enum.FPredOGT, a, d(0))
	t, rr := b.sel(pos, t1, t2), b.sel(pos, r1, r2)
	gen := b.sel2(b.fcmp(enum.FPredOLT, bb, d(0)), [2]value.Value{t, b.fneg(rr)}, [2]value.Value{t, rr})

	res := b.sel2(b.isZero(re), zeroRe, gen)
	res = b.sel2(b.isInf(im), [2]value.Value{d(math.Inf(1)), im}, res)
	return b.sel2(b.isZero(im), zeroIm, res)
}

// cexp is math/cmplx.Exp.
func (b *fb) cexp(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	r := b.mexp(re)
	gen := [2]value.Value{b.fmul(r, b.mcos(im)), b.fmul(r, b.msin(im))}
	// e^re overflows before e^re·cos im may: scale by halves.
	h := b.mexp(b.fmul(d(0.5), re))
	halves := [2]value.Value{b.fmul(b.fmul(h, b.mcos(im)), h), b.fmul(b.fmul(h, b.msin(im)), h)}
	gen = b.sel2(b.and(b.fcmp(enum.FPredOGT, re, d(709)), b.isFinite(re)), halves, gen)
	nan := d(math.NaN())
	// re = ±Inf
	infIm := b.or(b.isInf(im), b.isNaN(im))
	special := b.sel2(b.and(b.fcmp(enum.FPredOGT, re, d(0)), b.isZero(im)), x,
		b.sel2(b.fcmp(enum.FPredOLT, re, d(0)), [2]value.Value{d(0), b.copysign(kF64, d(0), im)},
			[2]value.Value{d(math.Inf(1)), nan}))
	useInf := b.and(b.isInf(re), b.or(b.and(b.fcmp(enum.FPredOGT, re, d(0)), b.isZero(im)), infIm))
	res := b.sel2(useInf, special, gen)
	// re = NaN, im = 0
	return b.sel2(b.and(b.isNaN(re), b.isZero(im)), [2]value.Value{nan, im}, res)
}

// cexpm1 is the evaluator's complexExpm1: (expm1(a) cos b - 2 sin²(b/2))
// + i e^a sin b, with expm1(a) for b = 0.
func (b *fb) cexpm1(x [2]value.Value) [2]value.Value {
	a, bb := x[0], x[1]
	s := b.msin(b.fdiv(bb, d(2)))
	em1 := b.libm1("expm1", kF64, a)
	re := b.fsub(b.fmul(em1, b.mcos(bb)), b.fmul(b.fmul(d(2), s), s))
	re = b.sel(b.isZero(bb), em1, re)
	return [2]value.Value{re, b.fmul(b.mexp(a), b.msin(bb))}
}

// clog is the evaluator's complexLog: log|z| + i arg z, log|z| as
// ½·log1p((x-1)(x+1) + y²) where |z| is near 1 and from |z/2| where |z|
// overflows.
func (b *fb) clog(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	h := b.hypot(re, im)
	lg := b.mlog(h)
	near1 := b.and(b.fcmp(enum.FPredOGE, h, d(0.5)), b.fcmp(enum.FPredOLE, h, d(2)))
	l1p := b.fmul(d(0.5), b.libm1("log1p", kF64, b.fadd(b.fmul(b.fsub(re, d(1)), b.fadd(re, d(1))), b.fmul(im, im))))
	over := b.and(b.isInf(h), b.and(b.isFinite(re), b.isFinite(im)))
	scaled := b.fadd(b.mlog(b.hypot(b.fmul(d(0.5), re), b.fmul(d(0.5), im))), d(math.Ln2))
	lg = b.sel(near1, l1p, b.sel(over, scaled, lg))
	return [2]value.Value{lg, b.matan2(im, re)}
}

// clog1p is the evaluator's complexLog1p.
func (b *fb) clog1p(x [2]value.Value) [2]value.Value {
	a, bb := x[0], x[1]
	im := b.matan2(bb, b.fadd(d(1), a))
	small := b.and(b.fcmp(enum.FPredOLT, b.fabs(a), d(1e150)), b.fcmp(enum.FPredOLT, b.fabs(bb), d(1e150)))
	reSmall := b.fdiv(b.libm1("log1p", kF64, b.fadd(b.fmul(a, b.fadd(d(2), a)), b.fmul(bb, bb))), d(2))
	reLarge := b.mlog(b.hypot(b.fadd(d(1), a), bb))
	return [2]value.Value{b.sel(small, reSmall, reLarge), im}
}

// clogistic is 1 / (1 + e^-z), with Go's complex arithmetic (1 + w adds
// the real 1 to w's real part and +0 to its imaginary part).
func (b *fb) clogistic(x [2]value.Value) [2]value.Value {
	w := b.cexp([2]value.Value{b.fneg(x[0]), b.fneg(x[1])})
	return b.cdiv(one, b.cadd(one, w))
}

// ccbrt is the evaluator's complexCbrt: |z|^(1/3) e^(i arg(z)/3), z for 0.
func (b *fb) ccbrt(x [2]value.Value) [2]value.Value {
	r := b.libm1("cbrt", kF64, b.hypot(x[0], x[1]))
	th := b.fdiv(b.matan2(x[1], x[0]), d(3))
	res := [2]value.Value{b.fmul(r, b.mcos(th)), b.fmul(r, b.msin(th))}
	return b.sel2(b.and(b.isZero(x[0]), b.isZero(x[1])), x, res)
}

// csin is math/cmplx.Sin with glibc's sinh and cosh.
func (b *fb) csin(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	nan := d(math.NaN())
	gen := [2]value.Value{
		b.fmul(b.msin(re), b.libm1("cosh", kF64, im)),
		b.fmul(b.mcos(re), b.libm1("sinh", kF64, im)),
	}
	infOrNaNRe := b.or(b.isInf(re), b.isNaN(re))
	res := b.sel2(b.and(b.isZero(re), b.isNaN(im)), x, gen)
	infIm := b.sel2(b.isZero(re), x, b.sel2(infOrNaNRe, [2]value.Value{nan, im}, gen))
	res = b.sel2(b.isInf(im), infIm, res)
	return b.sel2(b.and(b.isZero(im), infOrNaNRe), [2]value.Value{nan, im}, res)
}

// ccos is math/cmplx.Cos with glibc's sinh and cosh.
func (b *fb) ccos(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	nan, inf := d(math.NaN()), d(math.Inf(1))
	gen := [2]value.Value{
		b.fmul(b.mcos(re), b.libm1("cosh", kF64, im)),
		b.fmul(b.fneg(b.msin(re)), b.libm1("sinh", kF64, im)),
	}
	infOrNaNRe := b.or(b.isInf(re), b.isNaN(re))
	res := b.sel2(b.and(b.isZero(re), b.isNaN(im)), [2]value.Value{nan, d(0)}, gen)
	infIm := b.sel2(b.isZero(re), [2]value.Value{inf, b.fmul(b.fneg(re), b.copysign(kF64, d(0), im))},
		b.sel2(infOrNaNRe, [2]value.Value{inf, nan}, gen))
	res = b.sel2(b.isInf(im), infIm, res)
	return b.sel2(b.and(b.isZero(im), infOrNaNRe), [2]value.Value{nan, b.fmul(b.fneg(im), b.copysign(kF64, d(0), re))}, res)
}

// ctanh: tanh(x+iy) = (sinh 2x + i sin 2y) / (2(sinh²x + cos²y)), with
// math/cmplx.Tanh's special cases; the asymptotic ±1 + i·2 sin 2y·e^(-2|x|)
// for |x| > 20.
func (b *fb) ctanh(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	inf := d(math.Inf(1))
	sh, cy := b.libm1("sinh", kF64, re), b.mcos(im)
	den := b.fmul(d(2), b.fadd(b.fmul(sh, sh), b.fmul(cy, cy)))
	s2y := b.msin(b.fmul(d(2), im))
	gen := [2]value.Value{b.fdiv(b.libm1("sinh", kF64, b.fmul(d(2), re)), den), b.fdiv(s2y, den)}
	gen = b.sel2(b.isZero(den), [2]value.Value{inf, inf}, gen)
	big := [2]value.Value{b.copysign(kF64, d(1), re), b.fmul(b.fmul(d(2), s2y), b.mexp(b.fmul(d(-2), b.fabs(re))))}
	gen = b.sel2(b.fcmp(enum.FPredOGT, b.fabs(re), d(20)), big, gen)
	res := b.sel2(b.and(b.isZero(im), b.isNaN(re)), x, gen)
	infRe := b.sel2(b.or(b.isInf(im), b.isNaN(im)),
		[2]value.Value{b.copysign(kF64, d(1), re), b.copysign(kF64, d(0), im)},
		[2]value.Value{b.copysign(kF64, d(1), re), b.copysign(kF64, d(0), s2y)})
	return b.sel2(b.isInf(re), infRe, res)
}

// ctan: tan(x+iy) = (sin 2x + i sinh 2y) / (2(cos²x + sinh²y)), with
// math/cmplx.Tan's special cases; ±i asymptotically for |y| > 20.
func (b *fb) ctan(x [2]value.Value) [2]value.Value {
	re, im := x[0], x[1]
	inf := d(math.Inf(1))
	cx, sh := b.mcos(re), b.libm1("sinh", kF64, im)
	den := b.fmul(d(2), b.fadd(b.fmul(cx, cx), b.fmul(sh, sh)))
	s2x := b.msin(b.fmul(d(2), re))
	gen := [2]value.Value{b.fdiv(s2x, den), b.fdiv(b.libm1("sinh", kF64, b.fmul(d(2), im)), den)}
	gen = b.sel2(b.isZero(den), [2]value.Value{inf, inf}, gen)
	big := [2]value.Value{b.fmul(b.fmul(d(2), s2x), b.mexp(b.fmul(d(-2), b.fabs(im)))), b.copysign(kF64, d(1), im)}
	gen = b.sel2(b.fcmp(enum.FPredOGT, b.fabs(im), d(20)), big, gen)
	res := b.sel2(b.and(b.isZero(re), b.isNaN(im)), x, gen)
	infIm := b.sel2(b.or(b.isInf(re), b.isNaN(re)),
		[2]value.Value{b.copysign(kF64, d(0), re), b.copysign(kF64, d(1), im)},
		[2]value.Value{b.copysign(kF64, d(0), s2x), b.copysign(kF64, d(1), im)})
	return b.sel2(b.isInf(im), infIm, res)
}

// cpow is math/cmplx.Pow.
func (b *fb) cpow(x, y [2]value.Value) [2]value.Value {
	inf, nan := d(math.Inf(1)), d(math.NaN())
	yr, yi := y[0], y[1]
	// x == 0
	yInf := b.or(b.isInf(yr), b.isInf(yi))
	yNaN := b.and(b.not(yInf), b.or(b.isNaN(yr), b.isNaN(yi)))
	zero := b.sel2(yNaN, [2]value.Value{nan, nan},
		b.sel2(b.isZero(yr), one,
			b.sel2(b.fcmp(enum.FPredOLT, yr, d(0)),
				b.sel2(b.isZero(yi), [2]value.Value{inf, d(0)}, [2]value.Value{inf, inf}),
				b.sel2(b.fcmp(enum.FPredOGT, yr, d(0)), [2]value.Value{d(0), d(0)}, [2]value.Value{nan, nan}))))
	mod := b.hypot(x[0], x[1])
	r := b.mpow(mod, yr)
	arg := b.matan2(x[1], x[0])
	th := b.fmul(yr, arg)
	hasIm := b.fcmp(enum.FPredUNE, yi, d(0))
	r = b.sel(hasIm, b.fmul(r, b.mexp(b.fmul(b.fneg(yi), arg))), r)
	th = b.sel(hasIm, b.fadd(th, b.fmul(yi, b.mlog(mod))), th)
	gen := [2]value.Value{b.fmul(r, b.mcos(th)), b.fmul(r, b.msin(th))}
	gen = b.sel2(b.isZero(mod), [2]value.Value{d(0), d(0)}, gen)
	return b.sel2(b.and(b.isZero(x[0]), b.isZero(x[1])), zero, gen)
}

// catan2 is the evaluator's complex atan2(y, x) = -i log((x + iy) /
// sqrt(x² + y²)), with Go's complex arithmetic.
func (b *fb) catan2(y, x [2]value.Value) [2]value.Value {
	iy := b.cmul([2]value.Value{d(0), d(1)}, y)
	num := b.cadd(x, iy)
	den := b.csqrt(b.cadd(b.cmul(x, x), b.cmul(y, y)))
	l := b.clog(b.cdiv(num, den))
	return b.cmul([2]value.Value{d(0), d(-1)}, l)
}
