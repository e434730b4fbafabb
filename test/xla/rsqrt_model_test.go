package xla

import (
	"math"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// XLA's CPU compiler computes rsqrt from the processor's approximate
// reciprocal square root, refined by Newton-Raphson steps (its LLVM IR,
// from --xla_dump_to: bf16 (in f32), f32 and c64 take rsqrtss and one step
// in f32; f64 and c128 take AVX-512's vrsqrt14pd and two steps in f64;
// complex rsqrt is rsqrt(max)·rsqrt(sqrt(1 + (min/max)²)) times
// e^(-i·arg/2); f16 alone is 1/sqrt(x) in half arithmetic, each step
// correctly rounded, natively or through f32). It is the only op whose code
// uses such an instruction, and the instruction's
// result is specified only to a relative error (1.5·2^-12 for rsqrtss,
// 2^-14 for vrsqrt14pd): Intel's and AMD's implementations return
// different estimates, so XLA's rsqrt differs between their processors.
// xlaRsqrt models XLA's code with a given estimate error, and
// TestRsqrtBoundCoversAnyCPU checks that ulpBounds holds for every
// estimate within those errors on this test's own rsqrt inputs.
//
// XLA's IR multiplies and adds with separate instructions, which LLVM does
// not contract, while Go may fuse x*y + z into one rounding (the spec
// allows it; the compiler does on arm64, and on amd64 with GOAMD64=v3).
// The models therefore round each product that feeds an add with an
// explicit conversion, which the spec says prevents the fusion.

const (
	rsqrtssErr  = 1.5 / (1 << 12) // Intel SDM: |relative error| ≤ 1.5·2^-12
	rsqrt14Err  = 1.0 / (1 << 14) // Intel SDM: relative error < 2^-14
	shrinkToFit = 1 - 1.0/(1<<20) // stay inside the bound after rounding the estimate
)

// xlaRsqrt32 is XLA's f32 rsqrt of a positive normal x whose hardware
// estimate is x^(-1/2)·(1+e).
func xlaRsqrt32(x float32, e float64) float32 {
	y := float32(1 / math.Sqrt(float64(x)) * (1 + e*shrinkToFit))
	a := x * y
	h := y * -0.5
	m := float32(a * y) // rounded before the add, as XLA's IR does (above)
	r := m + -1
	t := float32(h * r)
	return t + y
}

// xlaRsqrt64 is XLA's f64 rsqrt of a positive normal x whose hardware
// estimate is x^(-1/2)·(1+e).
func xlaRsqrt64(x, e float64) float64 {
	y := 1 / math.Sqrt(x) * (1 + e*shrinkToFit)
	for range 2 {
		a := x * y
		h := y * -0.5
		m := float64(a * y) // rounded, as in xlaRsqrt32
		r := m + -1
		t := float64(h * r)
		y = t + y
	}
	return y
}

// xlaRsqrtComplex is XLA's complex rsqrt of a finite nonzero z, with parts
// of type part, its two estimates off by e1 and e2.
func xlaRsqrtComplex(z complex128, part ir.DType, e1, e2 float64) complex128 {
	if part == ir.F32 {
		a, b := float32(real(z)), float32(imag(z))
		mx := float32(math.Max(math.Abs(float64(a)), math.Abs(float64(b))))
		mn := float32(math.Min(math.Abs(float64(a)), math.Abs(float64(b))))
		t := mn / mx
		s := float32(math.Sqrt(float64(float32(t*t) + 1)))
		m := xlaRsqrt32(mx, e1) * xlaRsqrt32(s, e2)
		th := float32(math.Atan2(float64(b), float64(a))) * -0.5
		c, sn := float32(math.Cos(float64(th))), float32(math.Sin(float64(th)))
		return complex(float64(m*c), float64(m*sn))
	}
	a, b := real(z), imag(z)
	mx, mn := math.Max(math.Abs(a), math.Abs(b)), math.Min(math.Abs(a), math.Abs(b))
	t := mn / mx
	m := xlaRsqrt64(mx, e1) * xlaRsqrt64(math.Sqrt(float64(t*t)+1), e2)
	th := math.Atan2(b, a) * -0.5
	return complex(m*math.Cos(th), m*math.Sin(th))
}

// TestRsqrtBoundCoversAnyCPU: on the rsqrt cases' inputs (specials aside:
// the instruction's special results are architectural, and subnormals
// fall under XLA's flush to zero), XLA's rsqrt with every estimate error
// at the specified limits, and a spread inside them, stays within
// ulpBound of ir.Eval's value.
func TestRsqrtBoundCoversAnyCPU(t *testing.T) {
	errs := func(limit float64) []float64 {
		var es []float64
		for k := -8; k <= 8; k++ {
			es = append(es, limit*float64(k)/8)
		}
		return es
	}
	cases := map[string]*tcase{}
	for _, c := range elementwiseCases() {
		cases[c.name] = c
	}
	for _, d := range []ir.DType{ir.F16, ir.BF16, ir.F32, ir.F64, ir.C64, ir.C128} {
		name := "rsqrt/" + d.String()
		c := cases[name]
		if c == nil {
			t.Fatalf("no case %s among elementwiseCases", name)
		}
		if err := c.prepare(); err != nil {
			t.Fatal(err)
		}
		in, want := c.in[0], c.want
		limit := rsqrtssErr
		if d.ComplexPart() == ir.F64 {
			limit = rsqrt14Err
		}
		bound := ulpBound(ir.OpRsqrt, d)
		var worst uint64
		for i := range in.Len() {
			w := want[0].Elem(i)
			if d.IsComplex() {
				z := ir.ToComplex128(d, in.Elem(i))
				part := d.ComplexPart()
				if z == 0 || !finiteC(z) || isSubnormal(part, real(z)) || isSubnormal(part, imag(z)) || !finiteC(ir.ToComplex128(d, w)) {
					continue
				}
				for _, e1 := range errs(limit) {
					for _, e2 := range errs(limit) {
						g := ir.FromComplex128(d, xlaRsqrtComplex(z, part, e1, e2))
						_, u := floatClose(c, d, w, g, bound, nil, 0, i)
						worst = max(worst, u)
					}
				}
				continue
			}
			x := ir.ToFloat64(d, in.Elem(i))
			if !(x > 0) || math.IsInf(x, 0) || isSubnormal(d, x) {
				continue
			}
			for _, e := range errs(limit) {
				var g float64
				switch d {
				case ir.F64:
					g = xlaRsqrt64(x, e)
				case ir.F16:
					s := ir.ToFloat64(d, ir.FromFloat64(d, math.Sqrt(x))) // no estimate: the same on every CPU
					g = 1 / s
				default:
					g = float64(xlaRsqrt32(float32(x), e)) // bf16: computed in f32
				}
				// ULPDistance rounds g to d, as XLA's last step does.
				worst = max(worst, ir.ULPDistance(d, ir.ToFloat64(d, w), g))
			}
		}
		t.Logf("%s: worst %d ulp over the estimates (bound %d)", name, worst, bound)
		if worst > uint64(bound) {
			t.Errorf("%s: XLA's rsqrt with a conforming estimate can be %d ulp from Stela's, beyond the bound %d", name, worst, bound)
		}
	}
}
