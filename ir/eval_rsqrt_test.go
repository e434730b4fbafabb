package ir

import (
	"cmp"
	"math"
	"math/big"
	mbits "math/bits"
	"math/rand"
	"testing"
)

// rsqrtCheck decides independently of eval_rsqrt.go whether r is x^(-1/2)
// rounded to nearest in the format of d, for a positive finite x of d: r
// must be a value of d, and the exact value z must lie strictly between
// the midpoints of r and its neighbours in d (there are no ties: see
// eval_rsqrt.go). The neighbours come from r's bit pattern; z > m exactly
// when m²·x < 1, decided on integers: m = M·2^e and x = X·2^f with
// integer M and X, so m²·x < 1 when M²·X < 2^-(2e+f).
type rsqrtCheck struct {
	a, b big.Int // scratch for products that do not fit in 128 bits
}

// rsqrtSplit returns v = n·2^e with n odd (v > 0 finite).
func rsqrtSplit(v float64) (n uint64, e int) {
	f, exp := math.Frexp(v)
	n = uint64(math.Ldexp(f, 53))
	e = exp - 53
	tz := mbits.TrailingZeros64(n)
	return n >> tz, e + tz
}

// cmpMid is the sign of ((a+b)/2)²·x - 1 for positive a, b, x.
func (k *rsqrtCheck) cmpMid(a, b, x float64) int {
	na, ea := rsqrtSplit(a)
	nb, eb := rsqrtSplit(b)
	e := min(ea, eb)
	m := na<<(ea-e) + nb<<(eb-e) // < 2^55: both have at most 53 bits, shifted by at most 1
	e--                          // the midpoint is m·2^e
	nx, ex := rsqrtSplit(x)
	shift := -(2*e + ex) // compare m²·nx with 2^shift
	if shift < 0 {
		return 1
	}
	if m < 1<<32 {
		hi, lo := mbits.Mul64(m*m, nx)
		var phi, plo uint64
		switch {
		case shift >= 128:
			return -1
		case shift >= 64:
			phi = 1 << (shift - 64)
		default:
			plo = 1 << shift
		}
		return cmp.Or(cmp.Compare(hi, phi), cmp.Compare(lo, plo))
	}
	k.a.SetUint64(m)
	k.a.Mul(&k.a, &k.a)
	k.b.SetUint64(nx)
	k.a.Mul(&k.a, &k.b)
	k.b.SetUint64(1)
	k.b.Lsh(&k.b, uint(shift))
	return k.a.Cmp(&k.b)
}

// ok reports whether r is the correctly rounded rsqrt of x in d.
func (k *rsqrtCheck) ok(d DType, x, r float64) bool {
	if !(r > 0) || math.IsInf(r, 0) || ToFloat64(d, FromFloat64(d, r)) != r {
		return false
	}
	bits := ElemBits(d, FromFloat64(d, r))
	up := ToFloat64(d, ElemFromBits(d, bits+1))
	down := ToFloat64(d, ElemFromBits(d, bits-1))
	return k.cmpMid(r, up, x) > 0 && k.cmpMid(down, r, x) < 0
}

// rsqrtEval is ir.Eval of rsqrt on xs as a vector of type d.
func rsqrtEval(t *testing.T, d DType, xs []float64) []float64 {
	t.Helper()
	out, err := ewEmitEval(t, OpRsqrt, nil, LiteralFromFloat64s(TensorOf(d, len(xs)), xs))
	if err != nil {
		t.Fatal(err)
	}
	return out.Float64s()
}

// rsqrtWant checks Eval's rsqrt on xs against rsqrtCheck and the special
// values of rSqrt.
func rsqrtWant(t *testing.T, d DType, xs []float64) {
	t.Helper()
	got := rsqrtEval(t, d, xs)
	var k rsqrtCheck
	bad := 0
	for i, x := range xs {
		r := got[i]
		var ok bool
		switch {
		case x != x || x < 0:
			ok = r != r
		case x == 0:
			ok = r == math.Copysign(math.Inf(1), x)
		case math.IsInf(x, 1):
			ok = r == 0 && !math.Signbit(r)
		default:
			ok = k.ok(d, x, r)
		}
		if !ok {
			if bad++; bad <= 10 {
				t.Errorf("%v: rsqrt(%v) = %v, not the correctly rounded value", d, x, r)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%v: %d wrong results in all", d, bad)
	}
}

// TestRsqrtHalfExhaustive: every f16 and bf16 bit pattern (both signs,
// zeros, subnormals, infinities, NaNs).
func TestRsqrtHalfExhaustive(t *testing.T) {
	for _, d := range []DType{F16, BF16} {
		xs := make([]float64, 1<<16)
		for b := range xs {
			xs[b] = ToFloat64(d, ElemFromBits(d, uint64(b)))
		}
		rsqrtWant(t, d, xs)
	}
}

// TestRsqrtF32: every f32 in [1, 4), which decides every positive f32.
// For x and 4x both f32, x^(-1/2) and (4x)^(-1/2) differ by the factor 2
// exactly, and both results are normal f32 (every rsqrt of a positive f32
// lies in [2^-64, 2^74.5]), so their correctly rounded values differ by
// that factor too; every positive f32, subnormals included, is 4^k times a
// value of [1, 4) (an exponent shift, exact in f32). The evaluator
// computes each binade with the same float64 operations scaled by a power
// of two, which are exact, so [1, 4) decides it everywhere; a sample of
// subnormals, large values and the scaling identity itself are checked too.
func TestRsqrtF32(t *testing.T) {
	if testing.Short() {
		t.Skip("16.7 million values")
	}
	lo, hi := math.Float32bits(1), math.Float32bits(4)
	const chunk = 1 << 20
	xs := make([]float64, 0, chunk)
	for b := lo; b < hi; b++ {
		xs = append(xs, float64(math.Float32frombits(b)))
		if len(xs) == chunk || b == hi-1 {
			rsqrtWant(t, F32, xs)
			xs = xs[:0]
		}
	}

	// Subnormals, the largest values and a spread over every binade.
	rng := rand.New(rand.NewSource(1))
	var sample []float64
	for b := uint32(1); b < 1<<23; b += 1 + uint32(rng.Intn(4000)) {
		sample = append(sample, float64(math.Float32frombits(b)))
	}
	for b := math.Float32bits(math.MaxFloat32) - 4096; b <= math.Float32bits(math.MaxFloat32); b++ {
		sample = append(sample, float64(math.Float32frombits(b)))
	}
	for range 50000 {
		sample = append(sample, float64(math.Float32frombits(rng.Uint32()&0x7fffffff)))
	}
	rsqrtWant(t, F32, sample)

	// The scaling identity: rsqrt(x·4^k) = rsqrt(x)·2^-k.
	base := make([]float64, 4096)
	for i := range base {
		base[i] = float64(math.Float32frombits(lo + uint32(rng.Intn(int(hi-lo)))))
	}
	want := rsqrtEval(t, F32, base)
	for k := -74; k <= 63; k += 7 {
		var scaled, from []float64
		for i, x := range base {
			// Only where x·4^k is an f32: subnormals have fewer bits.
			if s := math.Ldexp(x, 2*k); float64(float32(s)) == s {
				scaled = append(scaled, s)
				from = append(from, want[i])
			}
		}
		for i, r := range rsqrtEval(t, F32, scaled) {
			if w := math.Ldexp(from[i], -k); r != w {
				t.Fatalf("rsqrt(%v) = %v, want rsqrt(%v·4^%d) = %v", scaled[i], r, math.Ldexp(scaled[i], -2*k), k, w)
			}
		}
	}
}

// rsqrtF64Known are f64 values whose correctly rounded rsqrt (computed
// with Python's decimal module at 80 digits) 1/sqrt(x) misses by an ulp;
// the test checks them with rsqrtCheck as well.
var rsqrtF64Known = [][2]float64{
	{1.5, 0.816496580927726},
	{3, 0.5773502691896257},
	{0.001, 31.622776601683793},
	{math.MaxFloat64, 7.458340731200207e-155},
	{2.052010957144814, 0.6980879833514332},
	{5.549210814960015, 0.42450654251160813},
	{8.843970557019003e-144, 3.362608883363064e+71},
}

// TestRsqrtF64: random values over every binade (subnormals included),
// values next to powers of 4 (where x^(-1/2) is next to a power of two and
// lands within 2^-104 of a midpoint: 4·(1 - 2^-52) has x^(-1/2) =
// 1/2 + 2^-54 + 3·2^-107 + ..., just above the midpoint 1/2 + 2^-54), and
// known values.
func TestRsqrtF64(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var xs []float64
	for range 100000 {
		x := math.Float64frombits(rng.Uint64() &^ (1 << 63))
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			xs = append(xs, x)
		}
	}
	for range 20000 {
		xs = append(xs, math.Float64frombits(rng.Uint64()&(1<<52-1))) // subnormals
		xs = append(xs, 1+3*rng.Float64())
	}
	for _, p := range []float64{1, 4, 0x1p-1074 * 0x1p52, math.Ldexp(1, 1022)} {
		b := math.Float64bits(p)
		for j := uint64(1); j <= 2000; j++ {
			xs = append(xs, math.Float64frombits(b-j), math.Float64frombits(b+j))
		}
		xs = append(xs, p)
	}
	for _, c := range rsqrtF64Known {
		xs = append(xs, c[0])
	}
	rsqrtWant(t, F64, xs)

	for _, c := range rsqrtF64Known {
		if r := rsqrtEval(t, F64, []float64{c[0]})[0]; r != c[1] {
			t.Errorf("rsqrt(%v) = %v, want %v", c[0], r, c[1])
		}
	}
	var naive int
	for _, c := range rsqrtF64Known {
		if 1/math.Sqrt(c[0]) != c[1] {
			naive++
		}
	}
	if naive != len(rsqrtF64Known) {
		t.Errorf("1/sqrt(x) is right on %d of the known values: they test nothing there", len(rsqrtF64Known)-naive)
	}
}

// TestRsqrtSpecial: rSqrt's special values on every float type.
func TestRsqrtSpecial(t *testing.T) {
	in := []float64{0, math.Copysign(0, -1), -1, math.Inf(-1), math.Inf(1), math.NaN(), 4, 0.25}
	for _, d := range []DType{F16, BF16, F32, F64} {
		got := rsqrtEval(t, d, in)
		want := []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.NaN(), 0, math.NaN(), 0.5, 2}
		for i := range in {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Errorf("%v: rsqrt(%v) = %v, want %v", d, in[i], got[i], want[i])
			}
		}
	}
}

// TestRsqrtHelpers: the neighbours across a binade boundary and the tie
// rule, which the exact test never needs (m²·x = 1 has no solution) but
// keeps.
func TestRsqrtHelpers(t *testing.T) {
	if up, down := rsqrtNeighbours(1, 23); up != 1+0x1p-23 || down != 1-0x1p-24 {
		t.Errorf("f32 neighbours of 1: %v, %v", up, down)
	}
	if up, down := rsqrtNeighbours(1.5, 52); up != 1.5+0x1p-52 || down != 1.5-0x1p-52 {
		t.Errorf("f64 neighbours of 1.5: %v, %v", up, down)
	}
	if e := evenOf(1, 1+0x1p-23, 23); e != 1 {
		t.Errorf("even of 1 and its f32 successor: %v", e)
	}
	if e := evenOf(1+0x1p-23, 1+0x1p-22, 23); e != 1+0x1p-22 {
		t.Errorf("even of 1+2^-23 and 1+2^-22: %v", e)
	}
	if e := evenOf(0.75-0x1p-11, 0.75, 10); e != 0.75 {
		t.Errorf("f16: even of 0.75-2^-11 and 0.75: %v", e)
	}
}

// BenchmarkRsqrtRounded: the evaluator's rsqrt kernel on 4096 values of
// [1, 1001) per type (f16, bf16 and f32 mostly take the fast path, f64
// always the exact test); ns/elem per value.
func BenchmarkRsqrtRounded(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	xs := make([]float64, 4096)
	for i := range xs {
		xs[i] = 1 + 1000*rng.Float64()
	}
	for _, d := range []DType{F16, BF16, F32, F64} {
		ds := make([]float64, len(xs))
		for i, x := range xs {
			ds[i] = roundToDType(d, x)
		}
		b.Run(d.String(), func(b *testing.B) {
			for b.Loop() {
				for _, x := range ds {
					rsqrtRounded(d, x)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ds)), "ns/elem")
		})
	}
}
