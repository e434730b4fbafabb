package codegen

import (
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Correctly rounded rsqrt: x^(-1/2) rounded once to nearest even, IEEE
// 754's rSqrt, bit-identical to the reference evaluator (ir/eval_rsqrt.go)
// on every real float type. 1/sqrt(x) rounds twice and misses on about a
// quarter of the f32 and of the f64 inputs. All of it is straight-line
// code (selects, no branches, no calls but LLVM intrinsics that
// vectorize), so loops over rsqrt vectorize like any arithmetic.
//
// f16 and bf16: y = 1/sqrt(x) in f64, rounded once to the type (through
// round-to-odd to f32). y has a relative error below 2^-51.9 (two
// roundings of 2^-53); the result is the correctly rounded one unless the
// exact z = x^(-1/2) lies that close to a midpoint m of the type. For f16,
// m = M·2^e and x = X·2^f with integers M < 2^12, X < 2^11: m²·x - 1 =
// M²X·2^(2e+f) - 1 is a nonzero multiple of 2^(2e+f) ≈ 1/(M²X) > 2^-35,
// so z is at least ~2^-37 (relatively) from every midpoint, far more than
// y's error; bf16 (M < 2^9, X < 2^8) is further still. TestHalfExhaustive
// checks all 65536 inputs of each.
//
// f32: the f32 y = 1/sqrt(x) (two roundings, within 1.5 ulp of z), then
// an exact choice between y and its neighbour y' on z's side, in double:
// y² and the midpoint m = (y + y')/2 and m² are exact there (48, 25 and
// 50 bits), and fma(m², x, -1) rounds m²·x - 1 once, which keeps its
// sign, so the sides of z (of y: y²·x < 1 means z > y; of m) are exact.
// The one thing argued rather than computed, that the answer is y or y',
// TestRsqrtF32Exhaustive checks on every f32 of [1, 4): every step
// commutes with x → 4x, y → y/2 exactly (subnormal x included), so [1, 4)
// covers every f32.
//
// f64 needs an exact decision. Let y = RN(1/RN(sqrt(x))). Scaled so that
// x is in [1, 4) (every step below commutes with x → 4x, y → y/2, exactly),
// |1/RN(sqrt x) - z| ≤ 2^-53·z and y is within half an ulp of that, so
// |y - z| < 1.5 ulp and the correctly rounded value is y or its neighbour
// y' on z's side (near z = 1 and z = 1/2, where the ulp changes, a dense
// test around x = 1 and x = 4 checks the same). Which side: the sign of
// ρ = y²·x - 1 (z > y when ρ < 0), approximated as fma(y, c, fma(y, C, -1))
// with y·x = C + c exactly; that is within ~2^-103 of ρ, so a wrong sign
// means z is within ~2^-104 of y, far inside the midpoints, where either
// choice of y' leaves y. Then z is beyond the midpoint m = (y + y')/2 when
// sign(m²·x - 1) = -sign(y' - y), and the answer is y' there, else y.
//
// m²·x - 1 is computed exactly, as a nonoverlapping expansion (Shewchuk,
// "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", Discrete Comput. Geom. 18, 1997), and its sign is that of
// its largest nonzero component. With δ = (y' - y)/2 (a power of two) the
// identity m² = y·y' + δ² gives m²·x - 1 = y'·(C + c) - 1 + δ²·x:
//
//   - y·x = C + c by Two-Product (C = y·x, c = fma(y, x, -C));
//   - Scale-Expansion of [c, C] by y' (two Two-Products, a Two-Sum and a
//     Fast-Two-Sum) gives the nonoverlapping [h1, h2, h3, h4] = y'·y·x;
//   - h4 is within a few ulps of 1, so k = h4 - 1 is exact (Sterbenz) and
//     a multiple of h4's last bit, which lies above all of h3: [h1, h2,
//     h3, k] stays nonoverlapping and sums to y·y'·x - 1;
//   - δ²·x = (δ·x)·δ is exact (δ is a power of two); Grow-Expansion adds
//     it with four Two-Sums into [j1 ... j5], nonoverlapping, whose sum is
//     m²·x - 1 exactly.
//
// Nothing overflows or underflows for finite x > 0: the expansions'
// nonzero components lie between 2^-170 and 4, and C, c and δ·x between
// 2^-120·sqrt(x) and 2·sqrt(x), with sqrt(x) in [2^-537, 2^512). m²·x = 1
// has no solution (M²X would be a power of two with M odd and > 1), so
// the sign is never 0. Special operands (0, negative, inf, NaN) take
// 1/sqrt(x) itself: ±inf for ±0, NaN below zero, +0 for +inf.
//
// Cost: with AVX-512 the f64 loop body is about 70 vector instructions
// per 8 elements, some 65 more than 1/sqrt(x); the f32 one adds about 28
// per 16 elements, in double, to the f32 square root and division. Both
// are helper functions (inlined by LLVM), so the loop does not count as
// long for the interleave hint (loopmd.go): interleaved 4 times, the f64
// loop spilled registers and ran no faster. Measured with BenchmarkRsqrt
// on one thread of the AMD EPYC VM, 4 million values, medians of 8: f32
// 0.78 ns per element (1/sqrt(x): 0.28), f64 2.5 ns (1/sqrt(x): 0.91).

// rsqrt emits the correctly rounded x^(-1/2) of kind k (f32 or f64).
func (b *fb) rsqrt(k elemKind, x value.Value) value.Value {
	if k == kF64 {
		return b.rsqrtF64(x)
	}
	return b.rsqrtF32(x)
}

// rsqrtF32 emits the correctly rounded f32 x^(-1/2) (the argument above).
func (b *fb) rsqrtF32(x value.Value) value.Value {
	f := b.e.helper("stela.rsqrt.f32", types.Float, []types.Type{types.Float}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		x := a[0]
		d := func(v float64) value.Value { return fconst(kF64, v) }
		y := c.NewFDiv(fconst(kF32, 1), b.intrinsic1("sqrt", kF32, x))
		x64 := c.NewFPExt(x, types.Double)
		y64 := c.NewFPExt(y, types.Double)
		// z > y when y²·x < 1; y² is exact in double.
		up := c.NewFCmp(enum.FPredOLT, b.fma64(c.NewFMul(y64, y64), x64, d(-1)), d(0))
		y2 := b.rsqrtNeighbour(kF32, y, up)
		// The midpoint m and m² are exact in double; fma rounds m²·x - 1
		// once, which keeps its sign.
		m := c.NewFMul(c.NewFAdd(y64, c.NewFPExt(y2, types.Double)), d(0.5))
		s := b.fma64(c.NewFMul(m, m), x64, d(-1))
		return b.rsqrtChoose(kF32, x, y, y2, up, s)
	})
	return b.call(f, x)
}

// rsqrtViaF64 is 1/sqrt(x) in double, for results rounded on to a
// narrower type (the argument above).
func (b *fb) rsqrtViaF64(x value.Value) value.Value {
	return b.cur.NewFDiv(fconst(kF64, 1), b.intrinsic1("sqrt", kF64, x))
}

// rsqrtF64 emits the correctly rounded f64 x^(-1/2) (the argument above).
func (b *fb) rsqrtF64(x value.Value) value.Value {
	f := b.e.helper("stela.rsqrt.f64", types.Double, []types.Type{types.Double}, func(b *fb, a []value.Value) value.Value {
		c := b.cur
		x := a[0]
		d := func(v float64) value.Value { return fconst(kF64, v) }
		fma := b.fma64
		twoSum := func(p, q value.Value) (s, e value.Value) {
			s = c.NewFAdd(p, q)
			bv := c.NewFSub(s, p)
			av := c.NewFSub(s, bv)
			return s, c.NewFAdd(c.NewFSub(p, av), c.NewFSub(q, bv))
		}
		y := b.rsqrtViaF64(x)
		// y·x = C + cl exactly.
		C := c.NewFMul(y, x)
		cl := fma(y, x, c.NewFNeg(C))
		// The side of y that z is on.
		rho := fma(y, cl, fma(y, C, d(-1)))
		up := c.NewFCmp(enum.FPredOLT, rho, d(0))
		y2 := b.rsqrtNeighbour(kF64, y, up)
		half := c.NewFMul(c.NewFSub(y2, y), d(0.5)) // δ
		// Scale-Expansion of [cl, C] by y2.
		E := c.NewFMul(y2, cl)
		h1 := fma(y2, cl, c.NewFNeg(E))
		D := c.NewFMul(y2, C)
		Dl := fma(y2, C, c.NewFNeg(D))
		q, h2 := twoSum(E, Dl)
		h4 := c.NewFAdd(D, q)
		h3 := c.NewFSub(q, c.NewFSub(h4, D))
		k := c.NewFSub(h4, d(1))
		// Grow-Expansion by δ²·x.
		g := c.NewFMul(c.NewFMul(half, x), half)
		q, j1 := twoSum(g, h1)
		q, j2 := twoSum(q, h2)
		q, j3 := twoSum(q, h3)
		j5, j4 := twoSum(q, k)
		top := j1
		for _, j := range []value.Value{j2, j3, j4, j5} {
			top = c.NewSelect(c.NewFCmp(enum.FPredUNE, j, d(0)), j, top)
		}
		return b.rsqrtChoose(kF64, x, y, y2, up, top)
	})
	return b.call(f, x)
}

// fma64 is the double p·q + r rounded once: llvm.fma, not fmath.fma's
// llvm.fmuladd, which LLVM may split into a multiply and an add; the
// exact signs above rely on the single rounding.
func (b *fb) fma64(p, q, r value.Value) value.Value {
	return b.call(b.e.decl("llvm.fma.f64", types.Double, types.Double, types.Double, types.Double), p, q, r)
}

// rsqrtNeighbour is y's neighbour y' in its type (f32 or f64) on z's
// side: the next value up when up is true, else the next one down. For a
// positive finite x, y is positive and finite, so its bits step by one;
// for other x rsqrtChoose keeps y.
func (b *fb) rsqrtNeighbour(k elemKind, y, up value.Value) value.Value {
	c := b.cur
	it := k.intOfSameWidth()
	return c.NewBitCast(c.NewAdd(c.NewBitCast(y, it), c.NewSelect(up, constant.NewInt(it, 1), constant.NewInt(it, -1))), k.reg())
}

// rsqrtChoose is the result of kind k for x: y2 (rsqrtNeighbour's y')
// where z lies beyond the midpoint m of y and y2, that is where s, a
// double with the sign of m²·x - 1, has the sign opposite to y2 - y's
// (up: y2 > y); else y. Special operands (x not positive and finite)
// take 1/sqrt(x), y, itself.
func (b *fb) rsqrtChoose(k elemKind, x, y, y2, up, s value.Value) value.Value {
	c := b.cur
	zero := fconst(kF64, 0)
	beyond := c.NewSelect(up, c.NewFCmp(enum.FPredOLT, s, zero), c.NewFCmp(enum.FPredOGT, s, zero))
	r := c.NewSelect(beyond, y2, y)
	finite := c.NewAnd(c.NewFCmp(enum.FPredOGT, x, fconst(k, 0)), c.NewFCmp(enum.FPredOLT, x, fconst(k, math.Inf(1))))
	return c.NewSelect(finite, r, y)
}
