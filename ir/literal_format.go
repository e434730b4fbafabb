package ir

import (
	"math"
	"strconv"
	"strings"
)

// Printing literals for debugging and test failures, in numpy's manner:
// nested brackets, one innermost row per line, large tensors summarized
// with "..." keeping the first and last few items of each dimension.

// Literals with more elements than this are summarized, as numpy does.
const (
	formatThreshold = 1000
	formatEdgeItems = 3
)

// FormatElem prints one element of type d: true/false, decimal integers,
// floats in the shortest form that reads back to the same value of d
// (nan, inf, -inf for the specials), complex numbers as (re+imj).
func FormatElem(d DType, v any) string {
	switch {
	case d == Bool:
		return strconv.FormatBool(v.(bool))
	case d.IsSigned():
		return strconv.FormatInt(ToInt64(d, v), 10)
	case d.IsUnsigned():
		return strconv.FormatUint(ToUint64(d, v), 10)
	case d.IsFloat():
		return formatElemFloat(d, ToFloat64(d, v))
	case d.IsComplex():
		c := ToComplex128(d, v)
		p := d.ComplexPart()
		im := formatElemFloat(p, imag(c))
		if !strings.HasPrefix(im, "-") {
			im = "+" + im
		}
		return "(" + formatElemFloat(p, real(c)) + im + "j)"
	}
	return "?"
}

func formatElemFloat(d DType, x float64) string {
	switch {
	case x != x:
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	switch d {
	case F32:
		return strconv.FormatFloat(x, 'g', -1, 32)
	case F64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	// f16, bf16: the fewest digits that round back to the same value.
	for prec := 1; prec < 17; prec++ {
		s := strconv.FormatFloat(x, 'g', prec, 64)
		if y, err := strconv.ParseFloat(s, 64); err == nil && roundToDType(d, y) == x {
			return s
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// FormatLiteral prints l with its type first, e.g.
//
//	f32[2,3] [[1, 2, 3],
//	          [4, 5, 6]]
//
// A scalar prints as its value ("si32[] 7"); a literal of more than 1000
// elements keeps the first and last 3 items of each dimension.
func FormatLiteral(l *Literal) string {
	if l == nil {
		return "<nil literal>"
	}
	prefix := l.Type.String() + " "
	var b strings.Builder
	b.WriteString(prefix)
	summarize := l.Len() > formatThreshold
	formatLiteralDims(&b, l, 0, 0, len(prefix), summarize)
	return b.String()
}

func formatLiteralDims(b *strings.Builder, l *Literal, dim, offset, indent int, summarize bool) {
	shape := l.Type.Shape
	if dim == len(shape) {
		b.WriteString(FormatElem(l.Type.DType, l.Elem(offset)))
		return
	}
	stride := 1
	for _, n := range shape[dim+1:] {
		stride *= n
	}
	n := shape[dim]
	b.WriteByte('[')
	sep := ", "
	if dim < len(shape)-1 {
		// Between sub-arrays: a newline, one more per remaining dimension
		// beyond the next (numpy's blank lines between blocks).
		sep = "," + strings.Repeat("\n", len(shape)-dim-1) + strings.Repeat(" ", indent+dim+1)
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		if summarize && n > 2*formatEdgeItems && i == formatEdgeItems {
			b.WriteString("..." + sep)
			i = n - formatEdgeItems
		}
		formatLiteralDims(b, l, dim+1, offset+i*stride, indent, summarize)
	}
	b.WriteByte(']')
}
