package codegen

import (
	"math"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// chlo.zeta and chlo.polygamma, in double (f32 and the half types round
// the double result once).

// zetaA are the Euler–Maclaurin denominators (2k)!/B_2k of Cephes's zeta.c,
// the algorithm scipy.special.zeta uses.
var zetaA = [12]float64{12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
	7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
	1.8152105401943546773e17, -7.1661652561756670113e18}

// zetaShifts is how far below 0 a q may lie and still be shifted into
// [0, 1) term by term (ζ(x, q) = q^-x + ζ(x, q+1)); below, the sum starts
// at a negative q and loses accuracy.
const zetaShifts = 16

// hurwitzZeta is the Hurwitz zeta function ζ(x, q) = Σ_{n≥0} (q+n)^-x
// by Cephes's method (scipy.special.zeta's): the first ten terms, then
// the Euler–Maclaurin tail with twelve Bernoulli terms, each stage
// stopping (as a flag, the code being straight-line) once a term falls
// below the double epsilon of the sum. ζ is +∞ at x = 1 and at the
// poles q = 0, -1, -2, ... (as Cephes), NaN for x < 1 and for a q <= 0
// with a non-integer x; a q < 0 is first shifted up by up to 16 terms.
func (b *fb) hurwitzZeta(x, q value.Value) value.Value {
	c := b.cur
	f := func(v float64) constant.Constant { return constant.NewFloat(types.Double, v) }
	pow := func(a, e value.Value) value.Value {
		return b.call(b.e.decl("llvm.pow.f64", types.Double, types.Double, types.Double), a, e)
	}
	abs := func(v value.Value) value.Value { return b.intrinsic1("fabs", kF64, v) }
	negx := c.NewFNeg(x)
	eps := f(0x1p-53)
	var acc value.Value = f(0)
	qq := q
	for range zetaShifts {
		neg := c.NewFCmp(enum.FPredOLT, qq, f(0))
		acc = c.NewSelect(neg, c.NewFAdd(acc, pow(qq, negx)), acc)
		qq = c.NewSelect(neg, c.NewFAdd(qq, f(1)), qq)
	}
	s := value.Value(pow(qq, negx))
	a := qq
	var term value.Value
	var done value.Value = constant.False
	for range 9 {
		a = c.NewFAdd(a, f(1))
		term = pow(a, negx)
		s = c.NewSelect(done, s, c.NewFAdd(s, term))
		done = c.NewOr(done, c.NewFCmp(enum.FPredOLT, abs(c.NewFDiv(term, s)), eps))
	}
	w := a
	tail := c.NewFSub(c.NewFAdd(s, c.NewFDiv(c.NewFMul(term, w), c.NewFSub(x, f(1)))), c.NewFMul(f(0.5), term))
	s = c.NewSelect(done, s, tail)
	var av value.Value = f(1)
	k := 0.0
	for i := range zetaA {
		av = c.NewFMul(av, c.NewFAdd(x, f(k)))
		term = c.NewFDiv(term, w)
		t := c.NewFDiv(c.NewFMul(av, term), f(zetaA[i]))
		s = c.NewSelect(done, s, c.NewFAdd(s, t))
		done = c.NewOr(done, c.NewFCmp(enum.FPredOLT, abs(c.NewFDiv(t, s)), eps))
		k++
		av = c.NewFMul(av, c.NewFAdd(x, f(k)))
		term = c.NewFDiv(term, w)
		k++
	}
	s = c.NewFAdd(acc, s)
	// Domain: x < 1 is NaN, x = 1 is +∞; q <= 0 needs an integer x and
	// is +∞ at the integers.
	qle0 := c.NewFCmp(enum.FPredOLE, q, f(0))
	qInt := c.NewFCmp(enum.FPredOEQ, q, b.intrinsic1("floor", kF64, q))
	xNonInt := c.NewFCmp(enum.FPredONE, x, b.intrinsic1("floor", kF64, x))
	nan, inf := f(math.NaN()), f(math.Inf(1))
	s = c.NewSelect(c.NewAnd(qle0, xNonInt), nan, s)
	s = c.NewSelect(c.NewAnd(qle0, qInt), inf, s)
	s = c.NewSelect(c.NewFCmp(enum.FPredOLT, x, f(1)), nan, s)
	return c.NewSelect(c.NewFCmp(enum.FPredOEQ, x, f(1)), inf, s)
}

// polygamma is ψ⁽ⁿ⁾(x): digamma for n = 0, (-1)^(n+1)·n!·ζ(n+1, x) for
// the other non-negative integers n (n! by tgamma), NaN for any other n
// (scipy.special.polygamma's and XLA's definition).
func (b *fb) polygamma(n, x value.Value) value.Value {
	c := b.cur
	f := func(v float64) constant.Constant { return constant.NewFloat(types.Double, v) }
	n1 := c.NewFAdd(n, f(1))
	z := b.hurwitzZeta(n1, x)
	fact := b.libm("tgamma", kF64, n1)
	// (-1)^(n+1): +1 for odd n, -1 for even n.
	half := c.NewFMul(n, f(0.5))
	odd := c.NewFCmp(enum.FPredONE, half, b.intrinsic1("floor", kF64, half))
	sign := c.NewSelect(odd, f(1), f(-1))
	r := value.Value(c.NewFMul(sign, c.NewFMul(fact, z)))
	r = c.NewSelect(c.NewFCmp(enum.FPredOEQ, n, f(0)), b.digamma(x), r)
	bad := c.NewOr(c.NewFCmp(enum.FPredUNE, n, b.intrinsic1("floor", kF64, n)), c.NewFCmp(enum.FPredOLT, n, f(0)))
	return c.NewSelect(bad, f(math.NaN()), r)
}
