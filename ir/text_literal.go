package ir

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/x448/float16"
)

// Dense literals in the .sir text form:
//
//	dense<[[1, 2], [3, 4]]> : si32[2,2]    nested brackets, one level per dimension
//	dense<0.0> : f32[8]                    splat: one element for all (when there are two or more and all are equal)
//	dense<7> : si64[]                      a scalar
//	dense<[(1.0, -2.0)]> : c64[1]          complex elements as (re, im)
//	dense<[true, false]> : i1[2]
//
// Every element round-trips bit for bit. Floats print as the shortest
// decimal that parses back to the same bits (strconv's 'g' with precision
// -1 for f32 and f64; for f16 and bf16 the shortest of up to 9 digits that
// survives the rounding to the narrow type), always with a '.' or an
// exponent so that they read as floats. inf, -inf and nan (the canonical
// quiet NaN) are words; any other NaN prints as its bit pattern in hex,
// 0x7FC00001, and a hex token in a float position is always a bit pattern.

// canonicalNaN is the quiet NaN with a zero payload and sign that "nan"
// stands for, per float type.
func canonicalNaN(d DType) uint64 {
	if f, ok := narrowFormats[d]; ok {
		return f.NaNCode()
	}
	switch d {
	case F16:
		return 0x7E00
	case BF16:
		return 0x7FC0
	case F32:
		return 0x7FC00000
	}
	return 0x7FF8000000000000
}

// floatFromBits widens a float bit pattern of type d to float64 (exact).
func floatFromBits(d DType, bits uint64) float64 {
	if f, ok := narrowFormats[d]; ok {
		return f.Decode(bits)
	}
	switch d {
	case F16:
		return float64(float16.Frombits(uint16(bits)).Float32())
	case BF16:
		return float64(BFloat16(bits).Float32())
	case F32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

func hexFloatBits(d DType, bits uint64) string {
	return fmt.Sprintf("0x%0*X", d.Bits()/4, bits)
}

// withPoint makes a decimal read as a float: "1" becomes "1.0".
func withPoint(s string) string {
	if strings.ContainsAny(s, ".eE") {
		return s
	}
	return s + ".0"
}

// formatFloatText prints a float element of type d (F16, BF16, F32 or F64)
// given by its bits.
func formatFloatText(d DType, bits uint64) string {
	v := floatFromBits(d, bits)
	switch {
	case math.IsNaN(v):
		if bits == canonicalNaN(d) {
			return "nan"
		}
		return hexFloatBits(d, bits)
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	try := func(s string) bool {
		b, err := parseFloatText(d, s)
		return err == nil && b == bits
	}
	if _, ok := narrowFormats[d]; ok {
		// Every value of a narrow float is a short binary fraction: its
		// shortest float64 decimal is exact.
		if s := withPoint(strconv.FormatFloat(v, 'g', -1, 64)); try(s) {
			return s
		}
		return hexFloatBits(d, bits)
	}
	switch d {
	case F64:
		if s := withPoint(strconv.FormatFloat(v, 'g', -1, 64)); try(s) {
			return s
		}
	case F32:
		if s := withPoint(strconv.FormatFloat(v, 'g', -1, 32)); try(s) {
			return s
		}
	default:
		// The shortest f32 decimal of the value may be longer than needed
		// for a 16-bit type: take the fewest digits that come back, and
		// lay them out as 'g' with precision -1 does (an exponent below
		// 1e-4 and from 1e+06 up).
		for p := 1; p <= 9; p++ {
			e := strconv.FormatFloat(v, 'e', p-1, 32)
			if !try(e) {
				continue
			}
			exp, _ := strconv.Atoi(e[strings.LastIndexByte(e, 'e')+1:])
			s := e
			if exp >= -4 && exp < 6 {
				s = strconv.FormatFloat(v, 'f', max(0, p-1-exp), 32)
			}
			if s = withPoint(s); try(s) {
				return s
			}
			return withPoint(e)
		}
	}
	return hexFloatBits(d, bits)
}

// isDecimal reports whether s is [+-]digits[.digits][(e|E)[+-]digits] (or
// with the digits before or after the point omitted, not both).
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDecDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDecDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := 0
		for i < len(s) && isDecDigit(s[i]) {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s)
}

func isHexToken(s string) bool { return strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") }

// parseFloatText reads one float element of type d: a decimal, inf, -inf,
// nan or a hex bit pattern.
func parseFloatText(d DType, s string) (uint64, error) {
	switch s {
	case "inf", "+inf":
		return roundFloatBits(d, math.Inf(1)), nil
	case "-inf":
		return roundFloatBits(d, math.Inf(-1)), nil
	case "nan":
		return canonicalNaN(d), nil
	}
	if isHexToken(s) {
		b, err := strconv.ParseUint(s[2:], 16, d.Bits())
		if err != nil {
			return 0, fmt.Errorf("bad %v bit pattern %s", d, s)
		}
		return b, nil
	}
	if !isDecimal(s) {
		return 0, fmt.Errorf("bad %v value %s", d, s)
	}
	size := 32
	if d == F64 || d.IsNarrowFloat() {
		size = 64
	}
	v, err := strconv.ParseFloat(s, size)
	if err != nil {
		return 0, fmt.Errorf("%v value %s is out of range", d, s)
	}
	b := roundFloatBits(d, v)
	if r := floatFromBits(d, b); math.IsInf(r, 0) || r != r {
		return 0, fmt.Errorf("%v value %s is out of range", d, s)
	}
	return b, nil
}

// roundFloatBits rounds v to type d (to nearest even) and returns the bits.
func roundFloatBits(d DType, v float64) uint64 {
	if f, ok := narrowFormats[d]; ok {
		return f.Encode(v)
	}
	switch d {
	case F16:
		return uint64(float16.Fromfloat32(float32(v)).Bits())
	case BF16:
		return uint64(BFloat16FromFloat32(float32(v)))
	case F32:
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

// literalOK reports whether l's data is a slice of its element type's Go
// type with one entry per element, so that printing can index it freely.
func literalOK(l *Literal) bool {
	if !l.Type.DType.valid() || !l.Type.IsStatic() || l.Data == nil {
		return false
	}
	rv := reflect.ValueOf(l.Data)
	return rv.Type() == reflect.SliceOf(GoElemType(l.Type.DType)) && rv.Len() == l.Type.NumElements()
}

// formatElem prints element i of a literal's data.
func formatElem(data any, i int) string {
	cplx := func(d DType, re, im uint64) string {
		return "(" + formatFloatText(d, re) + ", " + formatFloatText(d, im) + ")"
	}
	switch data := data.(type) {
	case []bool:
		return strconv.FormatBool(data[i])
	case []int8:
		return strconv.FormatInt(int64(data[i]), 10)
	case []int16:
		return strconv.FormatInt(int64(data[i]), 10)
	case []int32:
		return strconv.FormatInt(int64(data[i]), 10)
	case []int64:
		return strconv.FormatInt(data[i], 10)
	case []uint8:
		return strconv.FormatUint(uint64(data[i]), 10)
	case []uint16:
		return strconv.FormatUint(uint64(data[i]), 10)
	case []uint32:
		return strconv.FormatUint(uint64(data[i]), 10)
	case []uint64:
		return strconv.FormatUint(data[i], 10)
	case []Float16:
		return formatFloatText(F16, uint64(data[i].Bits()))
	case []BFloat16:
		return formatFloatText(BF16, uint64(data[i]))
	case []float32:
		return formatFloatText(F32, uint64(math.Float32bits(data[i])))
	case []float64:
		return formatFloatText(F64, math.Float64bits(data[i]))
	case []complex64:
		v := data[i]
		return cplx(F32, uint64(math.Float32bits(real(v))), uint64(math.Float32bits(imag(v))))
	case []complex128:
		v := data[i]
		return cplx(F64, math.Float64bits(real(v)), math.Float64bits(imag(v)))
	}
	if d := narrowDTypeOfData(data); d != InvalidDType {
		b := ElemBits(d, reflect.ValueOf(data).Index(i).Interface())
		switch {
		case d.IsNarrowFloat():
			return formatFloatText(d, b)
		case d.IsSigned():
			return strconv.FormatInt(int64(b<<(64-d.Bits()))>>(64-d.Bits()), 10)
		}
		return strconv.FormatUint(b, 10)
	}
	return "?"
}

// allSame reports whether every element has the key of the first.
func allSame[T any, K comparable](xs []T, key func(T) K) bool {
	for _, x := range xs {
		if key(x) != key(xs[0]) {
			return false
		}
	}
	return true
}

func same[T comparable](x T) T { return x }

// isSplat reports whether l has two or more elements, all with the same
// bits (so -0.0 differs from 0.0, and NaNs compare by payload).
func isSplat(l *Literal) bool {
	if l.Type.NumElements() < 2 {
		return false
	}
	switch data := l.Data.(type) {
	case []bool:
		return allSame(data, same)
	case []int8:
		return allSame(data, same)
	case []int16:
		return allSame(data, same)
	case []int32:
		return allSame(data, same)
	case []int64:
		return allSame(data, same)
	case []uint8:
		return allSame(data, same)
	case []uint16:
		return allSame(data, same)
	case []uint32:
		return allSame(data, same)
	case []uint64:
		return allSame(data, same)
	case []Float16:
		return allSame(data, same)
	case []BFloat16:
		return allSame(data, same)
	case []Int2:
		return allSame(data, same)
	case []Int4:
		return allSame(data, same)
	case []Uint2:
		return allSame(data, same)
	case []Uint4:
		return allSame(data, same)
	case []Float8E4M3FN:
		return allSame(data, same)
	case []Float8E5M2:
		return allSame(data, same)
	case []Float8E4M3FNUZ:
		return allSame(data, same)
	case []Float8E5M2FNUZ:
		return allSame(data, same)
	case []Float8E4M3B11FNUZ:
		return allSame(data, same)
	case []Float8E4M3:
		return allSame(data, same)
	case []Float8E3M4:
		return allSame(data, same)
	case []Float8E8M0FNU:
		return allSame(data, same)
	case []Float6E2M3FN:
		return allSame(data, same)
	case []Float6E3M2FN:
		return allSame(data, same)
	case []Float4E2M1FN:
		return allSame(data, same)
	case []float32:
		return allSame(data, math.Float32bits)
	case []float64:
		return allSame(data, math.Float64bits)
	case []complex64:
		return allSame(data, func(c complex64) [2]uint32 {
			return [2]uint32{math.Float32bits(real(c)), math.Float32bits(imag(c))}
		})
	case []complex128:
		return allSame(data, func(c complex128) [2]uint64 {
			return [2]uint64{math.Float64bits(real(c)), math.Float64bits(imag(c))}
		})
	}
	return false
}

// writeLiteral prints "dense<...> : type".
func writeLiteral(b *strings.Builder, l *Literal) {
	if !literalOK(l) {
		fmt.Fprintf(b, "<<malformed literal of type %v holding %T>>", l.Type, l.Data)
		return
	}
	b.WriteString("dense<")
	switch {
	case isSplat(l):
		b.WriteString(formatElem(l.Data, 0))
	case l.Type.NumElements() == 0 && l.Type.Rank() > 0:
		// Any literal without elements is "[]": spelling out f32[1000000,0]
		// as a million "[]" would be long and say nothing.
		b.WriteString("[]")
	default:
		writeNested(b, l.Type.Shape, Strides(l.Type.Shape), l.Data, 0, 0)
	}
	b.WriteString("> : ")
	b.WriteString(l.Type.String())
}

func writeNested(b *strings.Builder, shape, strides []int, data any, dim, off int) {
	if dim == len(shape) {
		b.WriteString(formatElem(data, off))
		return
	}
	b.WriteByte('[')
	for i := 0; i < shape[dim]; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		writeNested(b, shape, strides, data, dim+1, off+i*strides[dim])
	}
	b.WriteByte(']')
}

// denseNode is a parsed dense<...> body before its type is known: a list,
// a (re, im) pair, or one element token.
type denseNode struct {
	tok    token // the element, or the opening bracket or parenthesis
	list   []denseNode
	isList bool
	pair   *[2]token
}

// maxLiteralBytes bounds the memory a parsed literal may take (a splat
// expands to its full size), so that a short text cannot ask for
// gigabytes. The fuzz test lowers it.
var maxLiteralBytes = 1 << 28

// literalElemCount is t.NumElements, checked for overflow and against
// maxLiteralBytes.
func literalElemCount(t Type) (int, bool) {
	limit := maxLiteralBytes / max(1, t.DType.Size())
	n := 1
	for _, d := range t.Shape {
		if d < 0 {
			return 0, false
		}
		if d != 0 && n > limit/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// buildLiteral makes the literal of type t from a parsed body; at is where
// the body starts, for errors.
func (p *parser) buildLiteral(t Type, body denseNode, at token) *Literal {
	if !t.IsStatic() {
		p.failf(at, "literal type %v is not static", t)
	}
	n, ok := literalElemCount(t)
	if !ok {
		p.failf(at, "literal type %v has too many elements", t)
	}
	if !body.isList {
		l := Zeros(t)
		if n == 0 {
			return l
		}
		p.setElem(l, 0, body)
		v := l.Elem(0)
		for i := 1; i < n; i++ {
			l.SetElem(i, v)
		}
		return l
	}
	if t.Rank() == 0 {
		p.failf(body.tok, "scalar literal of type %v takes one element, not a list", t)
	}
	if n == 0 && len(body.list) == 0 {
		return Zeros(t) // "[]" stands for any literal without elements
	}
	// Check the nesting before allocating, so that a short text cannot
	// ask for a large literal.
	var leaves []denseNode
	var walk func(nd denseNode, dim int)
	walk = func(nd denseNode, dim int) {
		if dim == t.Rank() {
			if nd.isList {
				p.failf(nd.tok, "literal has more than %d nested levels for type %v", t.Rank(), t)
			}
			leaves = append(leaves, nd)
			return
		}
		if !nd.isList {
			p.failf(nd.tok, "expected a list of %d elements for dimension %d of %v", t.Shape[dim], dim, t)
		}
		if len(nd.list) != t.Shape[dim] {
			p.failf(nd.tok, "list has %d elements, want %d for dimension %d of %v", len(nd.list), t.Shape[dim], dim, t)
		}
		for _, c := range nd.list {
			walk(c, dim+1)
		}
	}
	walk(body, 0)
	l := Zeros(t)
	for i, nd := range leaves {
		p.setElem(l, i, nd)
	}
	return l
}

// setElem parses one element node into element i of l.
func (p *parser) setElem(l *Literal, i int, nd denseNode) {
	d := l.Type.DType
	if d.IsComplex() {
		if nd.pair == nil {
			p.failf(nd.tok, "expected a (re, im) pair for %v", d)
		}
		part := d.ComplexPart()
		re, err := parseFloatText(part, nd.pair[0].text)
		if err != nil {
			p.failf(nd.pair[0], "%v", err)
		}
		im, err := parseFloatText(part, nd.pair[1].text)
		if err != nil {
			p.failf(nd.pair[1], "%v", err)
		}
		if d == C64 {
			l.Data.([]complex64)[i] = complex(math.Float32frombits(uint32(re)), math.Float32frombits(uint32(im)))
		} else {
			l.Data.([]complex128)[i] = complex(math.Float64frombits(re), math.Float64frombits(im))
		}
		return
	}
	if nd.pair != nil {
		p.failf(nd.tok, "a (re, im) pair is not a %v element", d)
	}
	s := nd.tok.text
	switch {
	case d == Bool:
		switch s {
		case "true":
			l.Data.([]bool)[i] = true
		case "false":
		default:
			p.failf(nd.tok, "bad i1 value %s: want true or false", nd.tok.describe())
		}
	case d.IsSigned():
		v, err := strconv.ParseInt(s, 10, d.Bits())
		if err != nil || nd.tok.kind != tNumber {
			p.failf(nd.tok, "bad %v value %s", d, nd.tok.describe())
		}
		l.SetElem(i, FromInt64(d, v))
	case d.IsUnsigned():
		v, err := strconv.ParseUint(s, 10, d.Bits())
		if err != nil || nd.tok.kind != tNumber {
			p.failf(nd.tok, "bad %v value %s", d, nd.tok.describe())
		}
		l.SetElem(i, FromUint64(d, v))
	default:
		b, err := parseFloatText(d, s)
		if err != nil {
			p.failf(nd.tok, "%v", err)
		}
		l.SetElem(i, ElemFromBits(d, b))
	}
}

// denseBody parses the part between dense< and >.
func (p *parser) denseBody(depth int) denseNode {
	t := p.next()
	switch {
	case t.is(tPunct, "["):
		if depth > maxNesting {
			p.failf(t, "literal nested too deeply")
		}
		nd := denseNode{tok: t, isList: true}
		if p.accept(tPunct, "]") {
			return nd
		}
		for {
			nd.list = append(nd.list, p.denseBody(depth+1))
			if p.accept(tPunct, "]") {
				return nd
			}
			p.expect(tPunct, ",")
		}
	case t.is(tPunct, "("):
		re := p.elemToken()
		p.expect(tPunct, ",")
		im := p.elemToken()
		p.expect(tPunct, ")")
		return denseNode{tok: t, pair: &[2]token{re, im}}
	case t.kind == tNumber || t.kind == tIdent:
		return denseNode{tok: t}
	}
	p.failf(t, "expected a literal element or '[', found %s", t.describe())
	panic("unreachable")
}

func (p *parser) elemToken() token {
	t := p.next()
	if t.kind != tNumber && t.kind != tIdent {
		p.failf(t, "expected a number, found %s", t.describe())
	}
	return t
}
