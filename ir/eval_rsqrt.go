package ir

import (
	"math"
	"math/big"
)

// Correctly rounded reciprocal square root.
//
// rsqrt is IEEE 754's rSqrt: x^(-1/2) rounded once, to nearest with ties
// to even, in the operand's format. 1/sqrt(x) is not that: it rounds
// twice (the square root, then the quotient) and misses the correctly
// rounded value on about a quarter of the f64 inputs. As the oracle of
// every rsqrt in Stela, the evaluator decides each result exactly:
//
//  1. A candidate c: 1/sqrt(x) in float64, rounded to the format. Its
//     relative error before that rounding is below 2^-51 (two roundings
//     of 2^-53 each), so c is within an ulp or two of the answer.
//  2. For f16, bf16 and f32 a fast path: the exact z = x^(-1/2) lies in
//     [lo, hi] = [y·(1-2^-50), y·(1+2^-50)] (each rounded in float64: the
//     rounding moves them by at most 2^-53 relatively, less than the
//     2^-50 - 2^-51 margin), and rounding is monotonic, so if lo and hi
//     round to the same value of the format, so does z. Only a midpoint
//     of the format inside [lo, hi] (width 2^-49 relatively, against an
//     ulp of at least 2^-24) sends an input on: about one f32 in 2^25.
//  3. Otherwise (and always for f64), the exact test: for a positive m,
//     z > m exactly when m²·x < 1. The result is c exactly when z lies
//     between the midpoints m⁻ (between c and its predecessor) and m⁺
//     (between c and its successor); otherwise c moves one step towards
//     z and the test repeats. m has at most p+1 significant bits for a
//     format of precision p, x has p, so m²·x has at most 3p+2 ≤ 161 and
//     big.Float computes it exactly at precision 192. The value cannot
//     equal 1 (m's odd significand M ≥ 3 would need M²·X = 2^k for x's
//     integer significand X), so there are no ties; the code still breaks
//     one to even.
//
// Special values follow rSqrt: +0 → +inf, -0 → -inf, x < 0 → NaN,
// +inf → +0, NaN → NaN. Every positive finite operand of f16, bf16, f32
// and f64 has its result in the normal range of the same format (f16:
// [2^-8, 2^12]; bf16 and f32: within [2^-64, 2^74.5]; f64: [2^-512,
// 2^537]), so neighbours and midpoints below are those of normal numbers.

// rsqrtPrec is the big.Float precision of the exact test: m²·x has at most
// 3·53+2 = 161 significant bits.
const rsqrtPrec = 192

// rsqrtRounded returns x^(-1/2) rounded to nearest even in the float
// format of d (f16, bf16, f32 or f64), as a float64; x must be a value of
// that format.
func rsqrtRounded(d DType, x float64) float64 {
	switch {
	case x != x:
		return x
	case x == 0:
		return math.Copysign(math.Inf(1), x)
	case x < 0:
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	}
	y := 1 / math.Sqrt(x)
	if d != F64 {
		lo, hi := y-y*0x1p-50, y+y*0x1p-50
		if r := roundToDType(d, lo); r == roundToDType(d, hi) {
			return r
		}
	}
	c := roundToDType(d, y)
	_, mant := dtypeFloatFormat(d)
	bx := new(big.Float).SetPrec(rsqrtPrec).SetFloat64(x)
	// cmp is the sign of m²·x - 1 for the midpoint m = (a+b)/2.
	cmp := func(a, b float64) int {
		m := new(big.Float).SetPrec(rsqrtPrec).SetFloat64(a)
		m.Add(m, new(big.Float).SetFloat64(b))
		m.SetMantExp(m, -1)
		m.Mul(m, m)
		m.Mul(m, bx)
		return m.Cmp(big.NewFloat(1))
	}
	for {
		up, down := rsqrtNeighbours(c, mant)
		switch s := cmp(c, up); {
		case s < 0: // z > m⁺
			c = up
			continue
		case s == 0:
			return evenOf(c, up, mant)
		}
		switch s := cmp(down, c); {
		case s > 0: // z < m⁻
			c = down
			continue
		case s == 0:
			return evenOf(down, c, mant)
		}
		return c
	}
}

// rsqrtNeighbours returns the successor and predecessor of the positive
// normal value c in a format with mant explicit mantissa bits (exact in
// float64, whose precision is at least the format's).
func rsqrtNeighbours(c float64, mant int) (up, down float64) {
	_, e := math.Frexp(c) // c in [2^(e-1), 2^e)
	ulp := math.Ldexp(1, e-1-mant)
	down = c - ulp
	if c == math.Ldexp(1, e-1) {
		down = c - ulp/2 // the binade below is twice as dense
	}
	return c + ulp, down
}

// evenOf returns whichever of the adjacent values a < b has an even last
// mantissa bit in a format with mant explicit mantissa bits.
func evenOf(a, b float64, mant int) float64 {
	_, e := math.Frexp(a)
	if int64(math.Ldexp(a, mant+1-e))%2 == 0 {
		return a
	}
	return b
}
