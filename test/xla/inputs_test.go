package xla

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/stela-ml/stela/ir"
)

// seed fixes every random input; each case draws from its own stream, keyed
// by its name, so adding a case does not change the others' inputs.
const seed = 20240601

func rng(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// floatFormat is (exponent bits, mantissa bits) of a float type.
func floatFormat(d ir.DType) (int, int) {
	switch d {
	case ir.F16:
		return 5, 10
	case ir.BF16:
		return 8, 7
	case ir.F32:
		return 8, 23
	}
	return 11, 52
}

// maxFinite and minSubnormal of a float type, as float64.
func maxFinite(d ir.DType) float64 {
	e, m := floatFormat(d)
	bias := 1<<(e-1) - 1
	return (2 - math.Ldexp(1, -m)) * math.Ldexp(1, bias)
}

func minNormal(d ir.DType) float64 {
	e, _ := floatFormat(d)
	return math.Ldexp(1, 2-1<<(e-1))
}

func minSubnormal(d ir.DType) float64 {
	_, m := floatFormat(d)
	return minNormal(d) * math.Ldexp(1, -m)
}

// floatSpecials are the values of a real float type every elementwise test
// includes: NaN, infinities, signed zeros, extremes, subnormals, ties.
func floatSpecials(d ir.DType) []float64 {
	return []float64{
		math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		1, -1, 0.5, -0.5, 1.5, -2.5, 2, 3, 0.1, -7.25, math.Pi, -math.E, 100, -1000,
		maxFinite(d), -maxFinite(d), minNormal(d), minSubnormal(d), -minSubnormal(d),
		1e-3, 40, -40,
	}
}

// pairSpecials is the shorter list whose cross product binary ops see.
func pairSpecials(d ir.DType) []float64 {
	return []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		1, -1, 0.5, -2.5, 3, maxFinite(d), minSubnormal(d)}
}

// randFloat draws from a mixture: small values, values of any binade the
// type has a few of, and arbitrary finite bit patterns.
func randFloat(r *rand.Rand, d ir.DType) float64 {
	switch r.IntN(4) {
	case 0, 1:
		return r.Float64()*20 - 10
	case 2:
		x := math.Ldexp(1+r.Float64(), r.IntN(41)-20)
		if r.IntN(2) == 0 {
			x = -x
		}
		return x
	}
	for {
		b := r.Uint64()
		x := ir.ToFloat64(d, ir.ElemFromBits(d, b))
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return x
		}
	}
}

// intSpecials are the edge values of an integer type (and shift counts
// around its width), as wrapped int64 values.
func intSpecials(d ir.DType) []int64 {
	bits := int64(d.Bits())
	var lo, hi int64
	if d.IsSigned() {
		lo, hi = -1<<(bits-1), 1<<(bits-1)-1
	} else if bits < 64 {
		lo, hi = 0, 1<<bits-1
	} else {
		lo, hi = 0, -1 // ui64 max as wrapped bits
	}
	return []int64{0, 1, -1, 2, -2, 7, -7, lo, hi, lo + 1, hi - 1, bits - 1, bits, bits + 1}
}

func pairIntSpecials(d ir.DType) []int64 {
	s := intSpecials(d)
	return []int64{s[0], s[1], s[2], s[3], s[5], s[7], s[8], s[11], s[12]}
}

func randInt(r *rand.Rand, d ir.DType) int64 {
	if r.IntN(2) == 0 {
		return int64(r.IntN(41) - 20)
	}
	return int64(r.Uint64()) // wrapped to the type by FromInt64
}

// vec is an elementwise operand: specials first, then random values, n in
// all.
func vec(r *rand.Rand, d ir.DType, n int) *ir.Literal {
	t := ir.TensorOf(d, n)
	switch {
	case d.IsBool():
		v := make([]bool, n)
		for i := range v {
			v[i] = i%2 == 1 || i >= 2 && r.IntN(2) == 0
		}
		return ir.LiteralFromBools(t, v)
	case d.IsInteger():
		v := make([]int64, n)
		sp := intSpecials(d)
		for i := range v {
			if i < len(sp) {
				v[i] = sp[i]
			} else {
				v[i] = randInt(r, d)
			}
		}
		return ir.LiteralFromInt64s(t, v)
	case d.IsFloat():
		v := make([]float64, n)
		sp := floatSpecials(d)
		for i := range v {
			if i < len(sp) {
				v[i] = sp[i]
			} else {
				v[i] = randFloat(r, d)
			}
		}
		return ir.LiteralFromFloat64s(t, v)
	}
	part := d.ComplexPart()
	sp := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -3, math.Inf(1), math.Inf(-1), math.NaN(), 1e-3, 200}
	v := make([]complex128, n)
	for i := range v {
		if i < len(sp)*len(sp) {
			v[i] = complex(sp[i/len(sp)], sp[i%len(sp)])
		} else {
			v[i] = complex(randFloat(r, part), randFloat(r, part))
		}
	}
	return ir.LiteralFromComplex128s(t, v)
}

// pair makes two elementwise operands: the cross product of specials, then
// random pairs, n in all (at least the cross product).
func pair(r *rand.Rand, d ir.DType, n int) (*ir.Literal, *ir.Literal) {
	switch {
	case d.IsBool():
		x, y := make([]bool, n), make([]bool, n)
		for i := range x {
			x[i], y[i] = i&1 != 0, i&2 != 0
			if i >= 4 {
				x[i], y[i] = r.IntN(2) == 0, r.IntN(2) == 0
			}
		}
		t := ir.TensorOf(d, n)
		return ir.LiteralFromBools(t, x), ir.LiteralFromBools(t, y)
	case d.IsInteger():
		sp := pairIntSpecials(d)
		n = max(n, len(sp)*len(sp))
		x, y := make([]int64, n), make([]int64, n)
		for i := range x {
			if i < len(sp)*len(sp) {
				x[i], y[i] = sp[i/len(sp)], sp[i%len(sp)]
			} else {
				x[i], y[i] = randInt(r, d), randInt(r, d)
			}
		}
		t := ir.TensorOf(d, n)
		return ir.LiteralFromInt64s(t, x), ir.LiteralFromInt64s(t, y)
	case d.IsFloat():
		sp := pairSpecials(d)
		n = max(n, len(sp)*len(sp))
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			if i < len(sp)*len(sp) {
				x[i], y[i] = sp[i/len(sp)], sp[i%len(sp)]
			} else {
				x[i], y[i] = randFloat(r, d), randFloat(r, d)
			}
		}
		t := ir.TensorOf(d, n)
		return ir.LiteralFromFloat64s(t, x), ir.LiteralFromFloat64s(t, y)
	}
	part := d.ComplexPart()
	sp := []complex128{0, 1, complex(0, -1), complex(-2.5, 0.5), complex(math.Inf(1), 0), complex(math.NaN(), 1),
		complex(1e-3, 300), complex(math.Copysign(0, -1), 2)}
	n = max(n, len(sp)*len(sp))
	x, y := make([]complex128, n), make([]complex128, n)
	for i := range x {
		if i < len(sp)*len(sp) {
			x[i], y[i] = sp[i/len(sp)], sp[i%len(sp)]
		} else {
			x[i] = complex(randFloat(r, part), randFloat(r, part))
			y[i] = complex(randFloat(r, part), randFloat(r, part))
		}
	}
	t := ir.TensorOf(d, n)
	return ir.LiteralFromComplex128s(t, x), ir.LiteralFromComplex128s(t, y)
}

// randLit is a tensor of type t with random values: small integers and
// floats in [-4, 4) when small is set (for sums, products and indices),
// otherwise the mixture of vec without the specials.
func randLit(r *rand.Rand, t ir.Type, small bool) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	switch {
	case d.IsBool():
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 0
		}
		return ir.LiteralFromBools(t, v)
	case d.IsInteger():
		v := make([]int64, n)
		for i := range v {
			if small {
				v[i] = int64(r.IntN(9) - 4)
			} else {
				v[i] = randInt(r, d)
			}
		}
		return ir.LiteralFromInt64s(t, v)
	}
	part := d.ComplexPart()
	f := func() float64 {
		if small {
			return r.Float64()*8 - 4
		}
		return randFloat(r, part)
	}
	if d.IsComplex() {
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(f(), f())
		}
		return ir.LiteralFromComplex128s(t, v)
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = f()
	}
	return ir.LiteralFromFloat64s(t, v)
}

// withNaNs returns l with a few elements replaced by NaNs of different
// payloads and signs (floats and complex only): data movement must carry
// them bit for bit.
func withNaNs(l *ir.Literal) *ir.Literal {
	d := l.Type.DType
	if !d.IsFloat() && !d.IsComplex() || l.Len() < 3 {
		return l
	}
	part := d.ComplexPart()
	nbits := part.Bits()
	_, mant := floatFormat(part)
	exp := (uint64(1)<<(nbits-1-mant) - 1) << mant
	nans := []uint64{exp | 1<<(mant-1) | 1, 1<<(nbits-1) | exp | 1<<(mant-1), exp | 1<<(mant-1) | 5}
	out := l.Clone()
	for k, b := range nans {
		i := (k*7 + 1) % l.Len()
		v := ir.ElemFromBits(part, b)
		if d.IsComplex() {
			if d == ir.C64 {
				out.SetElem(i, complex(math.Float32frombits(uint32(b)), float32(1)))
			} else {
				out.SetElem(i, complex(math.Float64frombits(b), 1))
			}
			continue
		}
		out.SetElem(i, v)
	}
	return out
}

func iotaLit(t ir.Type) *ir.Literal {
	v := make([]int64, t.NumElements())
	for i := range v {
		v[i] = int64(i)
	}
	return ir.LiteralFromInt64s(t, v)
}

func ints(d ir.DType, shape []int, v ...int64) *ir.Literal {
	return ir.LiteralFromInt64s(ir.TensorOf(d, shape...), v)
}
