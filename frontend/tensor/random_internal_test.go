package tensor

import (
	"math"
	"math/big"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// onDevices runs fn once per device (the reference evaluator and the CPU
// plugin), failing the test with the located error fn panics with.
func onDevices(t *testing.T, fn func(t *testing.T, dev string)) {
	for _, dev := range []string{"host", "cpu"} {
		t.Run(dev, func(t *testing.T) {
			if err := Catch(func() { fn(t, dev) }); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Threefry-2x32 with 20 rounds against the known-answer vectors of
// Random123 (kat_vectors: threefry2x32_20), the reference implementation of
// Salmon et al.: counter, key, result.
func TestThreefryKnownAnswers(t *testing.T) {
	kats := []struct{ ctr, key, want [2]uint32 }{
		{[2]uint32{0, 0}, [2]uint32{0, 0}, [2]uint32{0x6b200159, 0x99ba4efe}},
		{[2]uint32{0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [2]uint32{0x1cb996fc, 0xbb002be7}},
		{[2]uint32{0x243f6a88, 0x85a308d3}, [2]uint32{0x13198a2e, 0x03707344}, [2]uint32{0xc4923a9c, 0x483df7a0}},
	}
	onDevices(t, func(t *testing.T, dev string) {
		for _, k := range kats {
			key := FromSlice(k.key[:]).To(dev)
			k1, k2 := keyWords("test", key)
			y0, y1 := threefry2x32(k1, k2, FromSlice(k.ctr[:1]).To(dev), FromSlice(k.ctr[1:]).To(dev))
			got := [2]uint32{y0.Literal().Data.([]uint32)[0], y1.Literal().Data.([]uint32)[0]}
			if got != k.want {
				t.Errorf("threefry2x32(key %#x, counter %#x) = %#x, want %#x", k.key, k.ctr, got, k.want)
			}
		}
	})
}

// fusedMulAdd rounds a·b + c once, as a fused multiply-add does, on
// inputs chosen to break a multiply-then-add (products whose low half
// decides the rounding, sums that land near ties, cancellation) and on
// random ones; the reference is the exact value (math/big) rounded.
func TestFusedMulAddRoundsOnce(t *testing.T) {
	type abc struct{ a, b, c float64 }
	var cases []abc
	// Ties of the product: a·b exactly halfway between two floats of the
	// type, where the addend's sign decides.
	for _, e := range []int{0, -5, 7} {
		for _, s := range []float64{1, -1} {
			cases = append(cases,
				abc{1 + math.Ldexp(1, -12), 1 + math.Ldexp(1, -12), s * math.Ldexp(1, e-60)},
				abc{1 + math.Ldexp(1, -27), 1 + math.Ldexp(1, -27), s * math.Ldexp(1, e-100)},
				abc{1 + math.Ldexp(1, -26), 1 - math.Ldexp(1, -26), -1},
				abc{0.1, 10, -1},
				abc{3, 1.0 / 3, -1},
				// f64: c + RN(a·b) is a tie that the product's low
				// part, lost in a plain sum of the low parts, breaks
				// the other way (the case rounding to odd exists for).
				abc{1 + math.Ldexp(1, -30), s * math.Ldexp(1-math.Ldexp(1, -30), e-53), s * math.Ldexp(1+math.Ldexp(1, -52), e)},
			)
		}
	}
	// Pseudo-random operands of mixed magnitudes (a fixed LCG).
	s := uint64(12345)
	next := func() float64 {
		s = s*6364136223846793005 + 1442695040888963407
		return float64(s>>11) / (1 << 53)
	}
	for range 200 {
		a := next() * 2
		b := math.Ldexp(next()-0.5, int(next()*20)-10)
		c := math.Ldexp(next()-0.5, int(next()*40)-20)
		cases = append(cases, abc{a, b, c}, abc{a, b, -a * b * (1 + math.Ldexp(next(), -20))})
	}
	for _, dt := range []ir.DType{ir.F16, ir.F32, ir.F64} {
		n := len(cases)
		as, bs, cs := make([]float64, n), make([]float64, n), make([]float64, n)
		want := make([]float64, n)
		for i, x := range cases {
			as[i], bs[i], cs[i] = roundTo(dt, x.a), roundTo(dt, x.b), roundTo(dt, x.c)
			exact := new(big.Float).SetPrec(2000).SetFloat64(as[i])
			exact.Mul(exact, new(big.Float).SetFloat64(bs[i]))
			exact.Add(exact, new(big.Float).SetFloat64(cs[i]))
			want[i] = roundBig(dt, exact)
		}
		onDevices(t, func(t *testing.T, dev string) {
			lit := func(v []float64) *Tensor {
				return FromLiteral(ir.LiteralFromFloat64s(ir.TensorOf(dt, n), v)).To(dev)
			}
			got := fusedMulAdd(lit(as), lit(bs), lit(cs)).Literal().Float64s()
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Errorf("%v: fma(%v, %v, %v) = %v, want %v", dt, as[i], bs[i], cs[i], got[i], want[i])
				}
			}
		})
	}
}

// roundBig rounds an exact value to dt, to nearest even. f16 goes through
// f64, exactly here: the exact sums of f16 products span under 53 bits.
func roundBig(dt ir.DType, x *big.Float) float64 {
	switch dt {
	case ir.F32:
		f, _ := x.Float32()
		return float64(f)
	case ir.F64:
		f, _ := x.Float64()
		return f
	}
	f, acc := x.Float64()
	if acc != big.Exact {
		panic("roundBig: inexact f16 sum")
	}
	return roundTo(dt, f)
}
