package ir

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"
)

// f16Value decodes f16 bits from the IEEE definition, independently of the
// code under test: (-1)^s · 2^(e-15) · 1.m, or 2^-14 · 0.m for e = 0.
func ewF16Value(h uint16) float64 {
	s, e, m := h>>15, int(h>>10&0x1F), float64(h&0x3FF)
	var v float64
	switch e {
	case 0x1F:
		if m != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	case 0:
		v = m / 1024 * math.Pow(2, -14)
	default:
		v = (1 + m/1024) * math.Pow(2, float64(e-15))
	}
	if s == 1 {
		v = -v
	}
	return v
}

// bf16Value decodes bf16 bits: the top half of an f32.
func ewBF16Value(b uint16) float64 { return float64(math.Float32frombits(uint32(b) << 16)) }

// checkRoundingExhaustive checks, for every finite positive value a of a
// 16-bit float format and its successor b, that a and b convert to
// themselves, that the midpoint goes to the one with an even last
// mantissa bit, and that values just off the midpoint go to the nearer.
func ewCheckRounding(t *testing.T, name string, value func(uint16) float64, conv func(float64) uint16, maxBits uint16) {
	for h := uint16(0); h < maxBits; h++ {
		a, b := value(h), value(h+1)
		if math.IsInf(b, 1) {
			// Past the largest finite value, rounding continues as if
			// the exponent range were unbounded: 2^(emax+1) is next.
			b = a + (a - value(h-1))
		}
		if got := conv(a); got != h {
			t.Fatalf("%s: %v (%#04x) converts to %#04x", name, a, h, got)
		}
		if got := conv(-a); got != h|0x8000 {
			t.Fatalf("%s: %v converts to %#04x, want %#04x", name, -a, got, h|0x8000)
		}
		m := a + (b-a)/2 // exact in float64
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		if got := conv(m); got != even {
			t.Fatalf("%s: midpoint %v of %#04x and %#04x converts to %#04x, want %#04x", name, m, h, h+1, got, even)
		}
		if got := conv(math.Nextafter(m, 0)); got != h {
			t.Fatalf("%s: just below midpoint %v converts to %#04x, want %#04x", name, m, got, h)
		}
		if got := conv(math.Nextafter(m, math.Inf(1))); got != h+1 {
			t.Fatalf("%s: just above midpoint %v converts to %#04x, want %#04x", name, m, got, h+1)
		}
	}
}

func TestFloat16FromFloat64Exhaustive(t *testing.T) {
	conv := func(x float64) uint16 { return Float16FromFloat64(x).Bits() }
	// 0x7BFF is the largest finite value; its successor 0x7C00 is +Inf,
	// and the midpoint 65520 rounds to it (its mantissa is "even").
	ewCheckRounding(t, "f16", ewF16Value, conv, 0x7C00)
	for h := range 0x7C00 {
		if got := Float16ToFloat64(Float16(h)); got != ewF16Value(uint16(h)) {
			t.Fatalf("f16 %#04x widens to %v, want %v", h, got, ewF16Value(uint16(h)))
		}
	}
	for _, c := range []struct {
		x    float64
		want uint16
	}{
		{65520, 0x7C00}, {math.Nextafter(65520, 0), 0x7BFF}, {1e300, 0x7C00}, {-1e300, 0xFC00},
		{math.Inf(1), 0x7C00}, {math.Inf(-1), 0xFC00}, {math.Copysign(0, -1), 0x8000},
		{0x1p-25, 0}, {math.Nextafter(0x1p-25, 1), 1}, {-0x1p-26, 0x8000},
		// Rounded once: 1 + 2^-11 + 2^-40 is above the halfway point.
		{1 + 0x1p-11 + 0x1p-40, 0x3C01},
	} {
		if got := conv(c.x); got != c.want {
			t.Errorf("f16(%v) = %#04x, want %#04x", c.x, got, c.want)
		}
	}
	for _, x := range []float64{math.NaN(), -math.NaN(), math.Float64frombits(0x7FF0000000000001)} {
		if h := Float16FromFloat64(x); !h.IsNaN() || h.Signbit() != math.Signbit(x) {
			t.Errorf("f16(NaN %#x) = %#04x", math.Float64bits(x), h.Bits())
		}
	}
}

// TestFloat16FromFloat64AgainstX448 compares with an independent converter
// (x448/float16, verified on all f32 inputs by its author) on f32 values,
// for which one rounding from f32 or from f64 is the same.
func TestFloat16FromFloat64AgainstX448(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := r.Uint32()
		if b&3 == 0 {
			b &= 0x8FFFFFFF | 0x38000000 // bias toward f16's exponent range
		}
		f := math.Float32frombits(b)
		if f != f {
			continue
		}
		want := float16.Fromfloat32(f).Bits()
		if got := Float16FromFloat64(float64(f)).Bits(); got != want {
			t.Fatalf("f16(%v = %#08x) = %#04x, x448 says %#04x", f, b, got, want)
		}
	}
}

func TestBFloat16FromFloat64Exhaustive(t *testing.T) {
	conv := func(x float64) uint16 { return uint16(BFloat16FromFloat64(x)) }
	ewCheckRounding(t, "bf16", ewBF16Value, conv, 0x7F80)
	for _, c := range []struct {
		x    float64
		want uint16
	}{
		{math.Inf(1), 0x7F80}, {3.4e38, 0x7F80}, {3.39e38, 0x7F7F}, {math.Copysign(0, -1), 0x8000},
		{1 + 0x1p-8 + 0x1p-40, 0x3F81}, {1 + 0x1p-8, 0x3F80}, {0x1p-134, 0}, {0x1p-133, 1},
	} {
		if got := conv(c.x); got != c.want {
			t.Errorf("bf16(%v) = %#04x, want %#04x", c.x, got, c.want)
		}
	}
	if b := BFloat16FromFloat64(math.NaN()); b&0x7F80 != 0x7F80 || b&0x7F == 0 {
		t.Errorf("bf16(NaN) = %#04x", uint16(b))
	}
}

// The f32 → bf16 rounding in literal.go is an independent implementation.
func TestBFloat16FromFloat64AgainstFloat32Path(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		f := math.Float32frombits(r.Uint32())
		if f != f {
			continue
		}
		if got, want := BFloat16FromFloat64(float64(f)), BFloat16FromFloat32(f); got != want {
			t.Fatalf("bf16(%v) = %#04x, f32 path says %#04x", f, uint16(got), uint16(want))
		}
	}
}

// RoundToFloatFormat for f32's format must agree with Go's float64 →
// float32 conversion (one IEEE rounding), subnormals included; for f16 and
// bf16 in their normal range with big.Float's rounding to the precision.
func TestRoundToFloatFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 30000 {
		// Exponents around f32's range, random mantissas.
		x := math.Ldexp(1+r.Float64(), r.IntN(300)-170)
		if r.IntN(2) == 0 {
			x = -x
		}
		if got, want := RoundToFloatFormat(x, 8, 23), float64(float32(x)); got != want {
			t.Fatalf("round %v to e8m23 = %v, want %v", x, got, want)
		}
		for _, f := range []struct{ e, m, lo, hi int }{{5, 10, -14, 15}, {8, 7, -126, 127}} {
			y := math.Ldexp(1+r.Float64(), f.lo+r.IntN(f.hi-f.lo+1))
			want, _ := new(big.Float).SetMode(big.ToNearestEven).SetPrec(uint(f.m + 1)).SetFloat64(y).Float64()
			if want > math.Ldexp(2-math.Ldexp(1, -f.m), f.hi) {
				want = math.Inf(1)
			}
			if got := RoundToFloatFormat(y, f.e, f.m); got != want {
				t.Fatalf("round %v to e%dm%d = %v, want %v", y, f.e, f.m, got, want)
			}
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1)} {
		if got := RoundToFloatFormat(x, 5, 10); math.Float64bits(got) != math.Float64bits(x) {
			t.Errorf("round %v = %v", x, got)
		}
	}
	if got := RoundToFloatFormat(math.NaN(), 5, 10); got == got {
		t.Errorf("round NaN = %v", got)
	}
}

// Integer → float rounds once, from the exact integer. Go's int64/uint64 →
// float32/float64 conversions do that too (one IEEE rounding), and
// big.Float does for f16 and bf16.
func TestIntToFloatRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		u := r.Uint64() >> r.IntN(64)
		s := int64(u)
		if r.IntN(2) == 0 {
			s = -s
		}
		if got, want := FromInt64(F32, s).(float32), float32(s); got != want {
			t.Fatalf("f32(%d) = %v, want %v", s, got, want)
		}
		if got, want := FromInt64(F64, s).(float64), float64(s); got != want {
			t.Fatalf("f64(%d) = %v, want %v", s, got, want)
		}
		if got, want := FromUint64(F32, u).(float32), float32(u); got != want {
			t.Fatalf("f32(%d) = %v, want %v", u, got, want)
		}
		if got, want := FromUint64(C128, u).(complex128), complex(float64(u), 0); got != want {
			t.Fatalf("c128(%d) = %v, want %v", u, got, want)
		}
		for _, d := range []DType{F16, BF16} {
			_, m := dtypeFloatFormat(d)
			want, _ := new(big.Float).SetMode(big.ToNearestEven).SetPrec(uint(m + 1)).SetInt64(s).Float64()
			if d == F16 && math.Abs(want) > 65504 {
				want = math.Copysign(math.Inf(1), want)
			}
			if got := ToFloat64(d, FromInt64(d, s)); got != want {
				t.Fatalf("%v(%d) = %v, want %v", d, s, got, want)
			}
		}
	}
}

func TestFloatToInt(t *testing.T) {
	cases := []struct {
		d    DType
		x    float64
		want int64 // for unsigned types, the value as int64 (all fit but u64 max)
	}{
		{S8, 127.9, 127}, {S8, 128, 127}, {S8, -128.9, -128}, {S8, -1e300, -128}, {S8, math.NaN(), 0},
		{S8, math.Inf(1), 127}, {S8, -0.9, 0}, {S8, math.Copysign(0, -1), 0},
		{S32, 2147483647.5, 2147483647}, {S32, -2147483648.7, -2147483648}, {S32, 3e9, 2147483647},
		{S64, 0x1p63, math.MaxInt64}, {S64, -0x1p63, math.MinInt64}, {S64, 0x1p62 + 0x1p10, 1<<62 + 1<<10},
		{U8, -0.5, 0}, {U8, -1, 0}, {U8, -1e9, 0}, {U8, 255.99, 255}, {U8, 256, 255}, {U8, math.NaN(), 0},
		{U32, 4294967295.5, 4294967295}, {U32, 1e10, 4294967295}, {U16, math.Inf(-1), 0},
	}
	for _, c := range cases {
		got := ToInt64(c.d, FromFloat64(c.d, c.x))
		if got != c.want {
			t.Errorf("%v(%v) = %d, want %d", c.d, c.x, got, c.want)
		}
	}
	if got := FromFloat64(U64, 0x1p64).(uint64); got != math.MaxUint64 {
		t.Errorf("u64(2^64) = %d", got)
	}
	if got := FromFloat64(U64, 0x1p63+0x1p11).(uint64); got != 1<<63+1<<11 {
		t.Errorf("u64(2^63+2^11) = %d", got)
	}
	if got := FromFloat64(Bool, math.NaN()).(bool); !got {
		t.Errorf("i1(NaN) = false, want true")
	}
}

func TestWideReads(t *testing.T) {
	if got := ToInt64(U64, uint64(math.MaxUint64)); got != -1 {
		t.Errorf("ToInt64(u64 max) = %d, want -1 (wraps)", got)
	}
	if got := ToUint64(S8, int8(-1)); got != math.MaxUint64 {
		t.Errorf("ToUint64(s8 -1) = %d, want 2^64-1", got)
	}
	if got := ToUint64(F32, float32(-3)); got != 0 {
		t.Errorf("ToUint64(f32 -3) = %d", got)
	}
	if got := ToFloat64(C64, complex64(2-3i)); got != 2 {
		t.Errorf("ToFloat64(c64) = %v, want the real part", got)
	}
	if got := ToComplex128(BF16, BFloat16(0x3F80)); got != 1 {
		t.Errorf("ToComplex128(bf16 1) = %v", got)
	}
	if got := ToFloat64(Bool, true); got != 1 {
		t.Errorf("ToFloat64(true) = %v", got)
	}
	for _, c := range []struct {
		d    DType
		v    any
		want bool
	}{
		{F32, float32(math.NaN()), true}, {F16, Float16(0x8000), false}, {C64, complex64(1i), true},
		{C128, complex128(0), false}, {S8, int8(-128), true}, {U64, uint64(0), false}, {Bool, true, true},
	} {
		if got := ToBool(c.d, c.v); got != c.want {
			t.Errorf("ToBool(%v %v) = %v", c.d, c.v, got)
		}
	}
	if got := FromInt64(U8, 300).(uint8); got != 44 {
		t.Errorf("FromInt64(u8, 300) = %d, want 44 (wraps)", got)
	}
	if got := FromUint64(S16, 0xFFFF).(int16); got != -1 {
		t.Errorf("FromUint64(s16, 0xFFFF) = %d", got)
	}
	if got := FromComplex128(F32, 2+5i).(float32); got != 2 {
		t.Errorf("FromComplex128(f32) = %v", got)
	}
	if got := FromBool(C64, true).(complex64); got != 1 {
		t.Errorf("FromBool(c64) = %v", got)
	}
}

func TestConvertLiteral(t *testing.T) {
	x := LiteralOf([]int{2, 2}, float32(1.5), -2.5, float32(math.NaN()), 300)
	got := ConvertLiteral(x, S8)
	want := LiteralOf([]int{2, 2}, int8(1), -2, 0, 127)
	if !LiteralEqual(got, want) {
		t.Errorf("got %s, want %s", FormatLiteral(got), FormatLiteral(want))
	}
	got.Type.Shape[0] = 9
	if x.Type.Shape[0] != 2 {
		t.Error("ConvertLiteral shares the shape slice")
	}
	if c := ConvertLiteral(LiteralOf([]int{1}, complex64(3-4i)), F64); c.Elem(0).(float64) != 3 {
		t.Errorf("c64 → f64 = %v, want the real part", c.Elem(0))
	}
}

// ConvertLiteral (bulk) and ConvertElem (one element) agree on every pair
// of types, on special values.
func TestConvertLiteralMatchesConvertElem(t *testing.T) {
	for _, from := range AllDTypes {
		x := ewSpecialValues(t, from)
		for _, to := range AllDTypes {
			got := ConvertLiteral(x, to)
			for i := range x.Len() {
				if want := ConvertElem(x.Elem(i), from, to); !literalElemEqual(to, got.Elem(i), want) {
					t.Errorf("%v → %v of %s: bulk %v, one element %v", from, to, FormatElem(from, x.Elem(i)), got.Elem(i), want)
				}
			}
		}
	}
}
