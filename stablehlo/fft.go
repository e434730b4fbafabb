package stablehlo

import (
	"fmt"
	"math"
	"slices"
)

// MaxFFTLength is the longest fft_length dimension ExpandFFT takes: its
// DFT matrices are N×N constants (16 MiB for complex<f64> at 1024). (The
// CPU plugin calls its runtime's FFT instead, of any length; ExpandFFT is
// its benchmarks' baseline.)
const MaxFFTLength = 1024

// FFTInfo is what CheckFFT finds in a valid stablehlo.fft.
type FFTInfo struct {
	Kind    string     // FFT, IFFT, RFFT or IRFFT
	Lengths []int64    // fft_length: 1 to 3 lengths, of the trailing dimensions
	Operand TensorType // static
	Result  TensorType // static
}

// CheckFFT checks stablehlo.fft against the spec (one operand and result
// of static shape, the element types and shapes its fft_type requires,
// fft_length of 1 to 3 positive lengths) and returns what it found.
func CheckFFT(op *Op) (FFTInfo, error) {
	if op.Name != "stablehlo.fft" || len(op.Operands) != 1 || len(op.Results) != 1 {
		return FFTInfo{}, fmt.Errorf("want stablehlo.fft with one operand and one result")
	}
	kind, _ := op.Attr("fft_type").(EnumAttr)
	lens, ok := op.Attr("fft_length").(DenseArray)
	if !ok || len(lens.Ints) < 1 || len(lens.Ints) > 3 {
		return FFTInfo{}, fmt.Errorf("fft_length %v: want 1 to 3 lengths", op.Attr("fft_length"))
	}
	xt, ok1 := op.Operands[0].Type.(TensorType)
	rt, ok2 := op.Results[0].Type.(TensorType)
	if !ok1 || !ok2 || !xt.IsStatic() || !rt.IsStatic() {
		return FFTInfo{}, fmt.Errorf("operand and result must be tensors of static shape")
	}
	L := len(lens.Ints)
	rank := xt.Rank()
	if rank < L || rt.Rank() != rank {
		return FFTInfo{}, fmt.Errorf("operand %s and result %s do not fit %d fft lengths", xt, rt, L)
	}
	for _, n := range lens.Ints {
		if n < 1 {
			return FFTInfo{}, fmt.Errorf("fft length %d: want at least 1", n)
		}
	}
	dims := make([]int, L) // the transformed dimensions, in order
	for i := range dims {
		dims[i] = rank - L + i
	}
	last := rank - 1
	nLast := lens.Ints[L-1]
	// The element types and shapes the kind requires.
	want := slices.Clone(xt.Shape)
	switch kind.Value {
	case "FFT", "IFFT":
		if !xt.Elem.IsComplex() || rt.Elem != xt.Elem {
			return FFTInfo{}, fmt.Errorf("%s takes and gives one complex type, not %s -> %s", kind.Value, xt, rt)
		}
		for i, d := range dims {
			if xt.Shape[d] != lens.Ints[i] {
				return FFTInfo{}, fmt.Errorf("operand %s does not end in fft_length %v", xt, lens.Ints)
			}
		}
	case "RFFT":
		if xt.Elem != F32 && xt.Elem != F64 {
			return FFTInfo{}, fmt.Errorf("RFFT takes f32 or f64, not %s", xt.Elem)
		}
		cplx := complexOf(xt.Elem)
		for i, d := range dims {
			if xt.Shape[d] != lens.Ints[i] {
				return FFTInfo{}, fmt.Errorf("operand %s does not end in fft_length %v", xt, lens.Ints)
			}
		}
		want[last] = nLast/2 + 1
		if rt.Elem != cplx {
			return FFTInfo{}, fmt.Errorf("RFFT of %s gives %s, not %s", xt.Elem, cplx, rt.Elem)
		}
	case "IRFFT":
		if !xt.Elem.IsComplex() || rt.Elem != xt.Elem.ComplexPart() {
			return FFTInfo{}, fmt.Errorf("IRFFT takes complex and gives its part type, not %s -> %s", xt, rt)
		}
		for i, d := range dims[:L-1] {
			if xt.Shape[d] != lens.Ints[i] {
				return FFTInfo{}, fmt.Errorf("operand %s does not fit fft_length %v", xt, lens.Ints)
			}
		}
		if xt.Shape[last] != nLast/2+1 {
			return FFTInfo{}, fmt.Errorf("operand %s: IRFFT of length %d takes %d frequencies in the last dimension", xt, nLast, nLast/2+1)
		}
		want[last] = nLast
	default:
		return FFTInfo{}, fmt.Errorf("fft_type %v: want FFT, IFFT, RFFT or IRFFT", op.Attr("fft_type"))
	}
	if !slices.Equal(want, rt.Shape) {
		return FFTInfo{}, fmt.Errorf("result %s, want shape %v", rt, want)
	}
	return FFTInfo{Kind: kind.Value, Lengths: slices.Clone(lens.Ints), Operand: xt, Result: rt}, nil
}

// ExpandFFT returns stablehlo.fft as a block of other StableHLO ops (for
// the code generator and the importer, which plan or import them in its
// place): one argument, the fft's operand, and a stablehlo.return of its
// result. Each transformed dimension is a dot_general with a constant
// discrete Fourier transform matrix, computed in float64 and rounded once
// to the element type, followed by a transpose that puts the dimension
// back in place: a direct DFT, O(N²) per dimension, which is exact in the
// way a matrix product is (no FFT butterflies).
//
// The spec's semantics: FFT is the forward transform over the last
// len(fft_length) dimensions, IFFT the inverse (divided by the product of
// the lengths), RFFT the forward transform of a real operand keeping the
// N/2+1 non-negative frequencies of the last dimension, IRFFT its inverse
// (the last dimension's missing frequencies are the conjugates of the
// given ones; the imaginary parts of frequency 0 and, for even N, N/2 do
// not contribute).
func ExpandFFT(op *Op) (*Block, error) {
	info, err := CheckFFT(op)
	if err != nil {
		return nil, err
	}
	for _, n := range info.Lengths {
		if n > MaxFFTLength {
			return nil, &fftLengthError{n}
		}
	}
	xt, rt := info.Operand, info.Result
	kind := EnumAttr{Value: info.Kind}
	lens := DenseArray{Ints: info.Lengths}
	L := len(lens.Ints)
	rank := xt.Rank()
	dims := make([]int, L) // the transformed dimensions, in order
	for i := range dims {
		dims[i] = rank - L + i
	}
	last := rank - 1
	nLast := lens.Ints[L-1]
	cplx := xt.Elem
	if kind.Value == "RFFT" {
		cplx = complexOf(xt.Elem)
	}

	blk := &Block{}
	blk.Args = []*Value{{Type: xt, Block: blk}}
	b := NewBuilder(blk, "stablehlo.return")
	b.Loc = op.Loc
	cur := blk.Args[0]
	// apply contracts dimension d of cur with the first dimension of the
	// constant matrix m (in×out) and moves the new dimension back to d.
	apply := func(d int, m *DenseElements) {
		ct := cur.Type.(TensorType)
		mt := m.Type
		var shape []int64
		for i, s := range ct.Shape {
			if i != d {
				shape = append(shape, s)
			}
		}
		shape = append(shape, mt.Shape[1])
		elem := mt.Elem
		if ct.Elem.IsComplex() {
			elem = ct.Elem
		}
		dot := b.Op1("stablehlo.dot_general", []*Value{cur, b.Constant(m)}, TensorType{Shape: shape, Elem: elem},
			NA("dot_dimension_numbers", DotDims{LhsBatchingDims: []int64{}, RhsBatchingDims: []int64{}, LhsContractingDims: []int64{int64(d)}, RhsContractingDims: []int64{0}}))
		perm := make([]int64, 0, len(shape))
		out := make([]int64, 0, len(shape))
		for i := range len(shape) {
			switch {
			case i < d:
				perm = append(perm, int64(i))
			case i == d:
				perm = append(perm, int64(len(shape)-1))
			default:
				perm = append(perm, int64(i-1))
			}
			out = append(out, shape[perm[i]])
		}
		if d == len(shape)-1 {
			cur = dot
			return
		}
		cur = b.Op1("stablehlo.transpose", []*Value{dot}, TensorType{Shape: out, Elem: elem}, NA("permutation", I64Array(perm...)))
	}
	switch kind.Value {
	case "FFT", "IFFT":
		for i, d := range dims {
			m, e := dftMatrix(cplx, lens.Ints[i], lens.Ints[i], kind.Value == "IFFT")
			err = errors1(err, e)
			if e == nil {
				apply(d, m)
			}
		}
	case "RFFT":
		m, e := dftMatrix(cplx, nLast, nLast/2+1, false)
		err = errors1(err, e)
		if e == nil {
			apply(last, m)
		}
		for i, d := range dims[:L-1] {
			m, e := dftMatrix(cplx, lens.Ints[i], lens.Ints[i], false)
			err = errors1(err, e)
			if e == nil {
				apply(d, m)
			}
		}
	case "IRFFT":
		for i, d := range dims[:L-1] {
			m, e := dftMatrix(cplx, lens.Ints[i], lens.Ints[i], true)
			err = errors1(err, e)
			if e == nil {
				apply(d, m)
			}
		}
		// The last dimension: x[n] = Σ_k Re(X[k])·A[k,n] + Im(X[k])·B[k,n]
		// with A = w_k cos(2πkn/N)/N, B = -w_k sin(2πkn/N)/N, w_k = 1 for
		// k = 0 and k = N/2 (N even), else 2.
		part := cplx.ComplexPart()
		ct := cur.Type.(TensorType)
		pt := TensorType{Shape: ct.Shape, Elem: part}
		re := b.Op1("stablehlo.real", []*Value{cur}, pt)
		im := b.Op1("stablehlo.imag", []*Value{cur}, pt)
		a, e1 := irfftMatrix(part, nLast, false)
		bm, e2 := irfftMatrix(part, nLast, true)
		err = errors1(errors1(err, e1), e2)
		if err == nil {
			cur = re
			apply(last, a)
			ra := cur
			cur = im
			apply(last, bm)
			cur = b.Op1("stablehlo.add", []*Value{ra, cur}, rt)
		}
	}
	if err != nil {
		return nil, err
	}
	if !TypesEqual(cur.Type, rt) {
		return nil, fmt.Errorf("internal error: the expansion gives %s, want %s", cur.Type, rt)
	}
	b.Return(cur)
	return blk, nil
}

// fftLengthError is an fft_length past MaxFFTLength.
type fftLengthError struct{ n int64 }

func (e *fftLengthError) Error() string {
	return fmt.Sprintf("fft length %d: at most %d (the transform is a product with an N×N DFT matrix)", e.n, MaxFFTLength)
}

// IsFFTLengthError reports whether err is ExpandFFT's error for a length
// past MaxFFTLength (a limit of the implementation, not an invalid op).
func IsFFTLengthError(err error) bool {
	_, ok := err.(*fftLengthError)
	return ok
}

func errors1(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func complexOf(e ElementType) ElementType {
	if e == F64 {
		return Complex128
	}
	return Complex64
}

// twiddle is e^(sign·2πi·k·n/N), the angle reduced to k·n mod N first.
func twiddle(k, n, N int64, sign float64) complex128 {
	j := (k * n) % N
	s, c := math.Sincos(2 * math.Pi * float64(j) / float64(N))
	return complex(c, sign*s)
}

// dftMatrix is the in×out matrix of the forward (e^-2πikn/N) or inverse
// (e^+2πikn/N / N) transform of length in = N, keeping the first out
// frequencies.
func dftMatrix(e ElementType, n, out int64, inverse bool) (*DenseElements, error) {
	v := make([]complex128, 0, n*out)
	sign, scale := -1.0, 1.0
	if inverse {
		sign, scale = 1, 1/float64(n)
	}
	for k := range n {
		for j := range out {
			w := twiddle(k, j, n, sign)
			v = append(v, complex(real(w)*scale, imag(w)*scale))
		}
	}
	return DenseFromComplex128s(TensorType{Shape: []int64{n, out}, Elem: e}, v)
}

// irfftMatrix is the (N/2+1)×N real matrix A (imag false) or B (true) of
// the last dimension of IRFFT.
func irfftMatrix(e ElementType, n int64, im bool) (*DenseElements, error) {
	h := n/2 + 1
	v := make([]float64, 0, h*n)
	for k := range h {
		w := 2.0
		if k == 0 || (n%2 == 0 && k == n/2) {
			w = 1
		}
		if im && w == 1 {
			// The imaginary parts of frequency 0 and N/2 do not count.
			w = 0
		}
		for j := range n {
			t := twiddle(k, j, n, 1)
			x := real(t)
			if im {
				x = -imag(t)
			}
			v = append(v, w*x/float64(n))
		}
	}
	return DenseFromFloat64s(TensorType{Shape: []int64{h, n}, Elem: e}, v)
}
