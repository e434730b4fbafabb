package ir

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fftRadix2 is an independent reference: the recursive radix-2
// Cooley-Tukey transform of v (length a power of two), sign -1 forward,
// +1 inverse (unscaled).
func fftRadix2(v []complex128, sign float64) []complex128 {
	n := len(v)
	if n == 1 {
		return []complex128{v[0]}
	}
	even, odd := make([]complex128, n/2), make([]complex128, n/2)
	for i := range n / 2 {
		even[i], odd[i] = v[2*i], v[2*i+1]
	}
	e, o := fftRadix2(even, sign), fftRadix2(odd, sign)
	out := make([]complex128, n)
	for k := range n / 2 {
		w := cmplx.Exp(complex(0, sign*2*math.Pi*float64(k)/float64(n))) * o[k]
		out[k], out[k+n/2] = e[k]+w, e[k]-w
	}
	return out
}

// refFFTAlong applies fftRadix2 along dimension d of a row-major array.
func refFFTAlong(data []complex128, shape []int, d int, sign float64) []complex128 {
	outer, inner, n := 1, 1, shape[d]
	for _, s := range shape[:d] {
		outer *= s
	}
	for _, s := range shape[d+1:] {
		inner *= s
	}
	out := slices.Clone(data)
	v := make([]complex128, n)
	for o := range outer {
		for in := range inner {
			for t := range n {
				v[t] = data[(o*n+t)*inner+in]
			}
			for k, x := range fftRadix2(v, sign) {
				out[(o*n+k)*inner+in] = x
			}
		}
	}
	return out
}

func evalFFTOp(t *testing.T, x *Literal, a FFTAttr) *Literal {
	t.Helper()
	f := NewFunc("fft", x.Type)
	rs, err := f.Emit(Loc{}, OpFFT, f.Params, a)
	if err != nil {
		t.Fatal(err)
	}
	f.Return(rs...)
	out, err := Eval(f, x)
	if err != nil {
		t.Fatal(err)
	}
	return out[0]
}

func randComplex(r *rand.Rand, n int) []complex128 {
	v := make([]complex128, n)
	for i := range v {
		v[i] = complex(r.NormFloat64(), r.NormFloat64())
	}
	return v
}

// fftClose: the reference and got agree within tol relative to the
// largest magnitude of want (FFT errors are normwise).
func fftClose(t *testing.T, what string, got, want []complex128, tol float64) {
	t.Helper()
	norm := 0.0
	for _, w := range want {
		norm = math.Max(norm, cmplx.Abs(w))
	}
	for i := range want {
		if cmplx.Abs(got[i]-want[i]) > tol*norm {
			t.Fatalf("%s: element %d: got %v, want %v", what, i, got[i], want[i])
		}
	}
}

func tolOf(d DType) float64 {
	if d == C64 || d == F32 {
		return 1e-6
	}
	return 1e-13
}

// TestEvalFFTAgainstRadix2: FFT and IFFT over 1 to 3 trailing dimensions
// on c64 and c128, RFFT on f32 and f64 and IRFFT on c64 and c128, against
// the radix-2 reference; IRFFT also on Hermitian-inconsistent input
// (imaginary parts at frequencies 0 and N/2, which must not contribute).
func TestEvalFFTAgainstRadix2(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shape := []int{3, 4, 2, 8}
	n := 3 * 4 * 2 * 8
	for _, L := range []int{1, 2, 3} {
		lens := shape[len(shape)-L:]
		for _, cd := range []DType{C64, C128} {
			x := randComplex(r, n)
			xl := LiteralFromComplex128s(TensorOf(cd, shape...), x)
			x = xl.Complex128s() // rounded to the type
			for _, kind := range []FFTType{FFTForward, FFTInverse} {
				sign, scale := -1.0, 1.0
				if kind == FFTInverse {
					sign = 1
					for _, l := range lens {
						scale /= float64(l)
					}
				}
				want := x
				for d := len(shape) - L; d < len(shape); d++ {
					want = refFFTAlong(want, shape, d, sign)
				}
				for i := range want {
					want[i] *= complex(scale, 0)
				}
				got := evalFFTOp(t, xl, FFTAttr{Type: kind, Length: lens})
				if !got.Type.Equal(xl.Type) {
					t.Fatalf("%v %v: result type %v", kind, cd, got.Type)
				}
				fftClose(t, kind.String()+"/"+cd.String(), got.Complex128s(), want, tolOf(cd))
			}
			// RFFT on the part type: the reference's first N/2+1 frequencies.
			rd := cd.ComplexPart()
			re := make([]float64, n)
			for i := range re {
				re[i] = r.NormFloat64()
			}
			rl := LiteralFromFloat64s(TensorOf(rd, shape...), re)
			full := mapSlice(rl.Float64s(), func(f float64) complex128 { return complex(f, 0) })
			for d := len(shape) - L; d < len(shape); d++ {
				full = refFFTAlong(full, shape, d, -1)
			}
			half := shape[len(shape)-1]/2 + 1
			var want []complex128
			for i := range n / shape[len(shape)-1] {
				want = append(want, full[i*shape[len(shape)-1]:][:half]...)
			}
			got := evalFFTOp(t, rl, FFTAttr{Type: FFTReal, Length: lens})
			hs := slices.Clone(shape)
			hs[len(hs)-1] = half
			if !got.Type.Equal(TensorOf(cd, hs...)) {
				t.Fatalf("RFFT %v: result type %v", rd, got.Type)
			}
			fftClose(t, "RFFT/"+rd.String(), got.Complex128s(), want, tolOf(rd))
			// IRFFT of the half spectrum with junk imaginary parts at 0 and
			// N/2 gives back the real input.
			junk := slices.Clone(got.Complex128s())
			for i := 0; i < len(junk); i += half {
				junk[i] += complex(0, 3)
				junk[i+half-1] += complex(0, -2)
			}
			back := evalFFTOp(t, LiteralFromComplex128s(got.Type, junk), FFTAttr{Type: FFTInverseReal, Length: lens})
			if !back.Type.Equal(rl.Type) {
				t.Fatalf("IRFFT %v: result type %v", cd, back.Type)
			}
			fftClose(t, "IRFFT/"+cd.String(), mapSlice(back.Float64s(), func(f float64) complex128 { return complex(f, 0) }),
				mapSlice(rl.Float64s(), func(f float64) complex128 { return complex(f, 0) }), 10*tolOf(rd))
		}
	}
}

// TestEvalFFTOddLengths: lengths that are not powers of two (no radix-2
// reference): a delta's transform is a twiddle row, and IRFFT inverts RFFT
// for odd N.
func TestEvalFFTOddLengths(t *testing.T) {
	const n = 7
	x := make([]complex128, n)
	x[2] = 1
	got := evalFFTOp(t, LiteralFromComplex128s(TensorOf(C128, n), x), FFTAttr{Type: FFTForward, Length: []int{n}}).Complex128s()
	for k := range n {
		want := cmplx.Exp(complex(0, -2*math.Pi*float64(2*k)/n))
		if cmplx.Abs(got[k]-want) > 1e-15 {
			t.Fatalf("FFT of a delta: element %d: got %v, want %v", k, got[k], want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	re := make([]float64, 5*n)
	for i := range re {
		re[i] = r.NormFloat64()
	}
	xl := LiteralFromFloat64s(TensorOf(F64, 5, n), re)
	h := evalFFTOp(t, xl, FFTAttr{Type: FFTReal, Length: []int{5, n}})
	back := evalFFTOp(t, h, FFTAttr{Type: FFTInverseReal, Length: []int{5, n}}).Float64s()
	for i := range re {
		if math.Abs(back[i]-re[i]) > 1e-14 {
			t.Fatalf("IRFFT(RFFT(x)) element %d: got %v, want %v", i, back[i], re[i])
		}
	}
}

// TestInferFFTErrors: the type rule's refusals name the problem.
func TestInferFFTErrors(t *testing.T) {
	for _, c := range []struct {
		x    Type
		a    FFTAttr
		want string
	}{
		{TensorOf(F32, 8), FFTAttr{Type: FFTForward, Length: []int{8}}, "FFT takes a complex operand"},
		{TensorOf(C64, 8), FFTAttr{Type: FFTReal, Length: []int{8}}, "RFFT takes f32 or f64"},
		{TensorOf(F32, 8), FFTAttr{Type: FFTInverseReal, Length: []int{8}}, "IRFFT takes a complex operand"},
		{TensorOf(C64, 4, 8), FFTAttr{Type: FFTForward, Length: []int{8, 8}}, "does not end in fft_length"},
		{TensorOf(C64, 8), FFTAttr{Type: FFTForward, Length: []int{2, 2, 2, 8}}, "want 1 to 3 lengths"},
		{TensorOf(C64, 8), FFTAttr{Type: FFTForward}, "want 1 to 3 lengths"},
		{TensorOf(C64, 8), FFTAttr{Type: FFTForward, Length: []int{1, 8}}, "fewer than 2 dimensions"},
		{TensorOf(C64, 4), FFTAttr{Type: FFTInverseReal, Length: []int{8}}, "IRFFT of length 8 takes 5 frequencies"},
		{TensorOf(C64, 0), FFTAttr{Type: FFTForward, Length: []int{0}}, "lengths must be positive"},
		{TensorOf(C64, 8), FFTAttr{Type: 9, Length: []int{8}}, "want FFT, IFFT, RFFT or IRFFT"},
	} {
		_, err := inferFFT([]Type{c.x}, c.a, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("fft %v on %v: error %v, want one saying %q", c.a, c.x, err, c.want)
		}
	}
}
