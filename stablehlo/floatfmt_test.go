package stablehlo

import (
	"math"
	"math/rand"
	"testing"
)

func TestFormatFloatLikeMLIR(t *testing.T) {
	f32 := func(v float32) uint64 { return uint64(math.Float32bits(v)) }
	tests := []struct {
		sem  *floatSem
		bits uint64
		want string
	}{
		{semF32, f32(1), "1.000000e+00"},
		{semF32, f32(-2.5), "-2.500000e+00"},
		{semF32, f32(0.1), "1.000000e-01"},
		{semF32, f32(float32(math.Pi)), "3.14159274"},
		{semF32, f32(float32(math.Sqrt(0.5))), "0.707106769"},
		{semF32, f32(float32(2 * math.Pi)), "6.28318548"},
		{semF32, f32(math.MaxFloat32), "3.40282347E+38"},
		{semF32, f32(-math.MaxFloat32), "-3.40282347E+38"},
		{semF32, f32(1.17549435e-38), "1.17549435E-38"},
		{semF32, f32(1e-6), "9.99999997E-7"},
		{semF32, f32(16777216), "0x4B800000"},
		{semF32, 0, "0.000000e+00"},
		{semF32, 0x80000000, "-0.000000e+00"},
		{semF32, 0x7F800000, "0x7F800000"},
		{semF32, 0xFF800000, "0xFF800000"},
		{semF32, 0x7FC00000, "0x7FC00000"},
		{semF32, 1, "1.401300e-45"},
		{semF64, math.Float64bits(0.1), "1.000000e-01"},
		{semF64, math.Float64bits(1.0 / 3), "0.33333333333333331"},
		{semF64, math.Float64bits(math.MaxFloat64), "1.7976931348623157E+308"},
		{semF64, math.Float64bits(1e10), "1.000000e+10"},
		{semF64, 0x7FF8000000000000, "0x7FF8000000000000"},
		{semF16, 0x3C00, "1.000000e+00"},
		{semF16, 0x7BFF, "6.550400e+04"},
		{semF16, 0x7C00, "0x7C00"},
		{semF16, 0x0001, "5.960460e-08"},
		{semBF16, 0x3F80, "1.000000e+00"},
		{semBF16, 0xFF80, "0xFF80"},
		{semBF16, 0x3DCD, "1.000980e-01"},
	}
	for _, tt := range tests {
		if got := formatFloat(tt.bits, tt.sem); got != tt.want {
			t.Errorf("formatFloat(%#x, %s) = %q, want %q", tt.bits, tt.sem.name, got, tt.want)
		}
	}
}

// TestFormatFloatRoundTrips checks that printed floats read back
// bit-exactly: a sweep of f16 and bf16 patterns (all of them without
// -short), random f32 and f64 ones.
func TestFormatFloatRoundTrips(t *testing.T) {
	p := &parser{}
	check := func(sem *floatSem, b uint64) {
		s := formatFloat(b, sem)
		got := p.floatBits(s, sem, 0)
		if got != b {
			t.Fatalf("%s %#x prints as %q, which reads back as %#x", sem.name, b, s, got)
		}
	}
	step, n := uint64(3), 6000
	if testing.Short() {
		step, n = 13, 2000
	}
	for b := uint64(0); b < 1<<16; b += step {
		check(semF16, b)
		check(semBF16, b)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < n; i++ {
		check(semF32, uint64(r.Uint32()))
		check(semF64, r.Uint64())
		// Values with short decimal forms exercise the %.6e path.
		v := float64(r.Intn(2000000)-1000000) / math.Pow(10, float64(r.Intn(12)))
		check(semF32, uint64(math.Float32bits(float32(v))))
		check(semF64, math.Float64bits(v))
	}
}

func TestFromFloat64Rounding(t *testing.T) {
	tests := []struct {
		sem  *floatSem
		v    float64
		want uint64
	}{
		{semBF16, 1.0, 0x3F80},
		{semBF16, 1.00390625, 0x3F80}, // tie: to even
		{semBF16, 1.01171875, 0x3F82}, // tie: to even (up)
		{semBF16, 1.0039062500001, 0x3F81},
		{semF16, 65520, 0x7C00}, // rounds to inf
		{semF16, 65519.99, 0x7BFF},
		{semF16, 2.98023223876953125e-08, 0x0000}, // half the smallest subnormal: to even
		{semF16, math.Nextafter(2.98023223876953125e-08, 1), 0x0001},
		{semF16, math.Copysign(0, -1), 0x8000},
		{semF32, math.Inf(-1), 0xFF800000},
		{semF16, math.NaN(), 0x7E00},
	}
	for _, tt := range tests {
		if got := tt.sem.fromFloat64(tt.v); got != tt.want {
			t.Errorf("%s.fromFloat64(%v) = %#x, want %#x", tt.sem.name, tt.v, got, tt.want)
		}
	}
	// NaN payloads survive a trip through float64.
	for _, b := range []uint64{0x7C01, 0xFE00, 0x7D55} {
		if got := semF16.fromFloat64(semF16.toFloat64(b)); got != b {
			t.Errorf("f16 NaN %#x became %#x", b, got)
		}
	}
	if got := semF32.fromFloat64(semF32.toFloat64(0x7F800001)); got != 0x7F800001 {
		t.Errorf("f32 signaling NaN became %#x", got)
	}
}

func BenchmarkFormatFloat32(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	vals := make([]uint64, 1024)
	for i := range vals {
		vals[i] = uint64(math.Float32bits(float32(r.NormFloat64())))
	}
	for i := 0; i < b.N; i++ {
		formatFloat(vals[i%len(vals)], semF32)
	}
}
