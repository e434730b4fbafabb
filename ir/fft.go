package ir

import (
	"fmt"
	"math"
	"slices"
)

// FFTType is fft's kind, as StableHLO spells it.
type FFTType uint8

// FFT kinds: the forward and inverse complex transforms, the forward
// transform of a real operand (keeping the N/2+1 non-negative frequencies
// of the last dimension) and its inverse.
const (
	FFTForward     FFTType = iota // FFT
	FFTInverse                    // IFFT
	FFTReal                       // RFFT
	FFTInverseReal                // IRFFT
)

var fftTypeNames = []string{"FFT", "IFFT", "RFFT", "IRFFT"}

func (t FFTType) String() string {
	if int(t) < len(fftTypeNames) {
		return fftTypeNames[t]
	}
	return "?"
}

// EnumNames lists the spellings, for the text parser.
func (FFTType) EnumNames() []string { return fftTypeNames }

// FFTAttr: the kind and the lengths of the transformed dimensions, which
// are the operand's last len(Length) dimensions (1 to 3 of them).
type FFTAttr struct {
	Type   FFTType `sir:"fft_type"`
	Length []int   `sir:"fft_length"`
}

// inferFFT is StableHLO's fft type rule: FFT and IFFT keep a complex type
// and shape; RFFT takes f32/f64 and gives its complex type with N/2+1 in
// the last dimension; IRFFT takes that and gives the part type with N.
func inferFFT(args []Type, attr any, _ []*Func) ([]Type, error) {
	x, a := args[0], attr.(FFTAttr)
	L := len(a.Length)
	if L < 1 || L > 3 {
		return nil, fmt.Errorf("fft_length %v: want 1 to 3 lengths", a.Length)
	}
	if x.Rank() < L {
		return nil, fmt.Errorf("operand %s has fewer than %d dimensions (fft_length %v)", x, L, a.Length)
	}
	for _, n := range a.Length {
		if n < 1 {
			return nil, fmt.Errorf("fft_length %v: lengths must be positive", a.Length)
		}
	}
	r := x.Rank()
	shape := slices.Clone(x.Shape)
	nLast := a.Length[L-1]
	checkDims := func(k int) error { // the first k transformed dims must equal their lengths
		for i := range k {
			if x.Shape[r-L+i] != a.Length[i] {
				return fmt.Errorf("operand %s does not end in fft_length %v", x, a.Length)
			}
		}
		return nil
	}
	switch a.Type {
	case FFTForward, FFTInverse:
		if !x.DType.IsComplex() {
			return nil, fmt.Errorf("%s takes a complex operand, not %s", a.Type, x)
		}
		if err := checkDims(L); err != nil {
			return nil, err
		}
		return []Type{x}, nil
	case FFTReal:
		if x.DType != F32 && x.DType != F64 {
			return nil, fmt.Errorf("RFFT takes f32 or f64, not %s", x)
		}
		if err := checkDims(L); err != nil {
			return nil, err
		}
		shape[r-1] = nLast/2 + 1
		return []Type{{DType: ComplexOf(x.DType), Shape: shape}}, nil
	case FFTInverseReal:
		if !x.DType.IsComplex() {
			return nil, fmt.Errorf("IRFFT takes a complex operand, not %s", x)
		}
		if err := checkDims(L - 1); err != nil {
			return nil, err
		}
		if x.Shape[r-1] != nLast/2+1 {
			return nil, fmt.Errorf("operand %s: IRFFT of length %d takes %d frequencies in the last dimension", x, nLast, nLast/2+1)
		}
		shape[r-1] = nLast
		return []Type{{DType: x.DType.ComplexPart(), Shape: shape}}, nil
	}
	return nil, fmt.Errorf("fft_type %d: want FFT, IFFT, RFFT or IRFFT", a.Type)
}

// evalFFT is the reference: a direct DFT per transformed dimension in
// complex128 (twiddles e^(±2πi·(kn mod N)/N) computed in float64), rounded
// once to the result type. The inverse kinds divide by the product of the
// lengths. IRFFT transforms the leading dimensions first, then takes the
// last one from its N/2+1 frequencies to N reals, the missing frequencies
// being the conjugates of the given ones (so the imaginary parts of
// frequency 0 and, for even N, N/2 do not contribute).
func evalFFT(in *Instr, args []*Literal) ([]*Literal, error) {
	a, err := sxAttr[FFTAttr](in)
	if err != nil {
		return nil, err
	}
	x := args[0]
	rt := in.Results[0].Type
	var data []complex128
	if x.Type.DType.IsComplex() {
		data = x.Complex128s()
	} else {
		data = mapSlice(x.Float64s(), func(f float64) complex128 { return complex(f, 0) })
	}
	shape := slices.Clone(x.Type.Shape)
	r, L := len(shape), len(a.Length)
	sign := -1.0
	if a.Type == FFTInverse || a.Type == FFTInverseReal {
		sign = 1
	}
	for i := range L {
		d := r - L + i
		n := a.Length[i]
		m := n // output length along d
		if i == L-1 && a.Type == FFTReal {
			m = n/2 + 1
		}
		c2r := i == L-1 && a.Type == FFTInverseReal
		data, shape = dftAlong(data, shape, d, n, m, sign, c2r)
	}
	if a.Type == FFTInverse || a.Type == FFTInverseReal {
		s := 1.0
		for _, n := range a.Length {
			s *= float64(n)
		}
		for i := range data {
			data[i] /= complex(s, 0)
		}
	}
	if rt.DType.IsComplex() {
		return []*Literal{LiteralFromComplex128s(rt, data)}, nil
	}
	return []*Literal{LiteralFromFloat64s(rt, mapSlice(data, func(c complex128) float64 { return real(c) }))}, nil
}

// dftAlong transforms dimension d of data (shape) to length m: out[k] =
// Σ_{t<n} in[t]·e^(sign·2πi·kt/n). With c2r the input holds n/2+1
// frequencies, the rest are their conjugates, and the outputs are real.
func dftAlong(data []complex128, shape []int, d, n, m int, sign float64, c2r bool) ([]complex128, []int) {
	inLen := shape[d]
	outer, inner := 1, 1
	for _, s := range shape[:d] {
		outer *= s
	}
	for _, s := range shape[d+1:] {
		inner *= s
	}
	tw := make([]complex128, n) // e^(sign·2πi·j/n)
	for j := range tw {
		s, c := math.Sincos(sign * 2 * math.Pi * float64(j) / float64(n))
		tw[j] = complex(c, s)
	}
	out := make([]complex128, outer*m*inner)
	vec := make([]complex128, n)
	for o := range outer {
		for in := range inner {
			for t := range n {
				switch {
				case !c2r:
					vec[t] = data[(o*inLen+t)*inner+in]
				case t < inLen:
					vec[t] = data[(o*inLen+t)*inner+in]
				default:
					c := data[(o*inLen+n-t)*inner+in]
					vec[t] = complex(real(c), -imag(c))
				}
			}
			for k := range m {
				var acc complex128
				for t := range n {
					acc += vec[t] * tw[(k*t)%n]
				}
				if c2r {
					acc = complex(real(acc), 0)
				}
				out[(o*m+k)*inner+in] = acc
			}
		}
	}
	shape = slices.Clone(shape)
	shape[d] = m
	return out, shape
}

// vjpFFT transposes the (real-)linear map, as JAX's rules do: FFT and
// IFFT are symmetric matrices, so their transposes are themselves; RFFT's
// is the real part of the FFT of the cotangent zero-padded to N in the
// last dimension (the transpose of "FFT of the real operand, keep N/2+1");
// IRFFT's is the conjugate of the RFFT of the cotangent, scaled by
// 1/prod(lengths) and by 2 at the frequencies that stand for a conjugate
// pair (all but 0 and, for even N, N/2).
func vjpFFT(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	at := a.Attr().(FFTAttr)
	g := ct[0]
	switch at.Type {
	case FFTForward, FFTInverse:
		return one1(a.Emit1(OpFFT, []*Value{g}, at))
	case FFTReal:
		x := a.Arg(0)
		r := x.Type.Rank()
		n := at.Length[len(at.Length)-1]
		high := make([]int, r)
		high[r-1] = n - g.Type.Shape[r-1]
		p := a.Pad(g, a.Const(g.Type.DType, 0), make([]int, r), high, make([]int, r))
		f := a.Emit1(OpFFT, []*Value{p}, FFTAttr{Type: FFTForward, Length: at.Length})
		return one1(a.Unary(OpReal, f))
	case FFTInverseReal:
		x := a.Arg(0)
		r := x.Type.Rank()
		n := at.Length[len(at.Length)-1]
		f := a.Emit1(OpFFT, []*Value{g}, FFTAttr{Type: FFTReal, Length: at.Length})
		scale := 1.0
		for _, l := range at.Length {
			scale /= float64(l)
		}
		k := n/2 + 1
		mask := make([]complex128, k)
		for i := range mask {
			mask[i] = complex(2*scale, 0)
		}
		mask[0] = complex(scale, 0)
		if n%2 == 0 {
			mask[k-1] = complex(scale, 0)
		}
		mt := Type{DType: f.Type.DType, Shape: []int{k}}
		m := a.BroadcastInDim(a.Literal(LiteralFromComplex128s(mt, mask)), f.Type.Shape, []int{r - 1})
		out := a.Mul(f, m)
		conj := a.Emit1(OpComplex, []*Value{a.Unary(OpReal, out), a.Neg(a.Unary(OpImag, out))}, nil)
		return one1(conj)
	}
	a.Fail("fft_type %v has no derivative rule", at.Type)
	return nil
}
