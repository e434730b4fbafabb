package ir

import (
	"fmt"
	"math"
	"strings"
)

// Literal comparison helpers for tests across the project: exact equality,
// closeness in units in the last place (ULP) of the element type, and
// numpy-style absolute/relative tolerance.

// LiteralEqual reports whether a and b have the same type and bitwise equal
// elements, except that any NaN equals any NaN (whatever its sign and
// payload; per part for complex). +0 and -0 differ.
func LiteralEqual(a, b *Literal) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !a.Type.Equal(b.Type) || a.Len() != b.Len() {
		return false
	}
	d := a.Type.DType
	for i := range a.Len() {
		if !literalElemEqual(d, a.Elem(i), b.Elem(i)) {
			return false
		}
	}
	return true
}

func literalElemEqual(d DType, x, y any) bool {
	if d.IsComplex() {
		cx, cy := ToComplex128(d, x), ToComplex128(d, y)
		p := d.ComplexPart()
		return literalElemEqual(p, FromFloat64(p, real(cx)), FromFloat64(p, real(cy))) &&
			literalElemEqual(p, FromFloat64(p, imag(cx)), FromFloat64(p, imag(cy)))
	}
	if d.IsFloat() {
		fx, fy := ToFloat64(d, x), ToFloat64(d, y)
		if fx != fx || fy != fy {
			return fx != fx && fy != fy
		}
	}
	return ElemBits(d, x) == ElemBits(d, y)
}

// ULPDistance is the number of representable values of the float type d
// (the part type for complex) from x to y, both rounded to d first: 0 for
// equal values (+0 and -0 are equal), 1 for neighbours. Across zero it
// counts the values on both sides. A NaN gives 0 against a NaN and
// math.MaxUint64 otherwise; an infinity is at distance 0 only from itself
// and math.MaxUint64 from anything else.
func ULPDistance(d DType, x, y float64) uint64 {
	p := d.ComplexPart()
	x, y = roundToDType(p, x), roundToDType(p, y)
	switch {
	case x != x || y != y:
		if x != x && y != y {
			return 0
		}
		return math.MaxUint64
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		if x == y {
			return 0
		}
		return math.MaxUint64
	}
	kx, ky := ulpKey(p, x), ulpKey(p, y)
	if kx > ky {
		kx, ky = ky, kx
	}
	return uint64(ky - kx)
}

// ulpKey maps a finite value of the float type d to a signed integer that
// counts representable values from zero (both zeros map to 0).
func ulpKey(d DType, x float64) int64 {
	bits := ElemBits(d, FromFloat64(d, x))
	sign := uint64(1) << (d.Bits() - 1)
	mag := int64(bits &^ sign)
	if bits&sign != 0 {
		return -mag
	}
	return mag
}

const maxReportedMismatches = 8

type literalMismatches struct {
	t     Type
	n     int
	lines []string
}

func (m *literalMismatches) add(i int, format string, args ...any) {
	m.n++
	if len(m.lines) < maxReportedMismatches {
		m.lines = append(m.lines, fmt.Sprintf("  at %v: ", literalIndexOf(m.t.Shape, i))+fmt.Sprintf(format, args...))
	}
}

func (m *literalMismatches) err(what string, total int) error {
	if m.n == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d elements of %v differ (%s):\n", m.n, total, m.t, what)
	b.WriteString(strings.Join(m.lines, "\n"))
	if m.n > len(m.lines) {
		fmt.Fprintf(&b, "\n  ... and %d more", m.n-len(m.lines))
	}
	return fmt.Errorf("%s", b.String())
}

// indexOf is the multi-dimensional index of row-major position i.
func literalIndexOf(shape []int, i int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			idx[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return idx
}

func literalTypeErr(got, want *Literal) error {
	if got == nil || want == nil {
		return fmt.Errorf("nil literal (got %v, want %v)", got != nil, want != nil)
	}
	if !got.Type.Equal(want.Type) {
		return fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	return nil
}

// LiteralsClose checks that got and want have the same type and that every
// element of got is within ulp units in the last place of the element type
// from the one in want (per part for complex; see ULPDistance). Integers and
// i1 must be equal. NaN matches only NaN and an infinity only itself. The
// error lists the first literalMismatches with their indices.
func LiteralsClose(got, want *Literal, ulp int) error {
	if err := literalTypeErr(got, want); err != nil {
		return err
	}
	d := got.Type.DType
	m := &literalMismatches{t: got.Type}
	for i := range got.Len() {
		x, y := got.Elem(i), want.Elem(i)
		switch {
		case d.IsFloat():
			if dist := ULPDistance(d, ToFloat64(d, x), ToFloat64(d, y)); dist > uint64(ulp) {
				m.add(i, "got %s, want %s (%s ulp)", FormatElem(d, x), FormatElem(d, y), ulpWords(dist))
			}
		case d.IsComplex():
			cx, cy := ToComplex128(d, x), ToComplex128(d, y)
			dr := ULPDistance(d, real(cx), real(cy))
			di := ULPDistance(d, imag(cx), imag(cy))
			if dr > uint64(ulp) || di > uint64(ulp) {
				m.add(i, "got %s, want %s (%s, %s ulp)", FormatElem(d, x), FormatElem(d, y), ulpWords(dr), ulpWords(di))
			}
		default:
			if ElemBits(d, x) != ElemBits(d, y) {
				m.add(i, "got %s, want %s", FormatElem(d, x), FormatElem(d, y))
			}
		}
	}
	return m.err(fmt.Sprintf("tolerance %d ulp", ulp), got.Len())
}

func ulpWords(d uint64) string {
	if d == math.MaxUint64 {
		return "∞"
	}
	return fmt.Sprint(d)
}

// LiteralsAllClose checks, like numpy.allclose, that got and want have the
// same type and |got - want| <= atol + rtol*|want| for every element
// (complex: the modulus of the difference). NaN matches only NaN and an
// infinity only the same infinity; integers and i1 must be equal.
func LiteralsAllClose(got, want *Literal, atol, rtol float64) error {
	if err := literalTypeErr(got, want); err != nil {
		return err
	}
	d := got.Type.DType
	m := &literalMismatches{t: got.Type}
	for i := range got.Len() {
		x, y := got.Elem(i), want.Elem(i)
		switch {
		case d.IsFloat() || d.IsComplex():
			cx, cy := ToComplex128(d, x), ToComplex128(d, y)
			if !closeFloatParts(real(cx), real(cy), imag(cx), imag(cy), atol, rtol) {
				m.add(i, "got %s, want %s", FormatElem(d, x), FormatElem(d, y))
			}
		default:
			if ElemBits(d, x) != ElemBits(d, y) {
				m.add(i, "got %s, want %s", FormatElem(d, x), FormatElem(d, y))
			}
		}
	}
	return m.err(fmt.Sprintf("atol %g, rtol %g", atol, rtol), got.Len())
}

func closeFloatParts(xr, yr, xi, yi, atol, rtol float64) bool {
	// Specials (NaN, ±Inf) must match part by part; the finite parts are
	// compared together through the modulus of the difference.
	var d, w [2]float64
	for k, p := range [][2]float64{{xr, yr}, {xi, yi}} {
		x, y := p[0], p[1]
		switch {
		case x != x || y != y:
			if !(x != x && y != y) {
				return false
			}
		case math.IsInf(x, 0) || math.IsInf(y, 0):
			if x != y {
				return false
			}
		default:
			d[k], w[k] = x-y, y
		}
	}
	return math.Hypot(d[0], d[1]) <= atol+rtol*math.Hypot(w[0], w[1])
}
