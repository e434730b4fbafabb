package ir

import (
	binenc "encoding/binary"
	"fmt"
	"math"
	"reflect"
)

// Bulk element access and constructors. The accessors convert every element
// with the To* rules of literal_convert.go and return a new slice; the
// constructors take wide values and round or wrap them into the element
// type with the From* rules.

// Elem is the set of Go element types a Literal can hold.
type Elem interface {
	bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		Float16 | BFloat16 | float32 | float64 | complex64 | complex128 |
		Int2 | Int4 | Uint2 | Uint4 | Float8E4M3FN | Float8E5M2 | Float8E4M3FNUZ | Float8E5M2FNUZ |
		Float8E4M3B11FNUZ | Float8E4M3 | Float8E3M4 | Float8E8M0FNU | Float6E2M3FN | Float6E3M2FN | Float4E2M1FN
}

// DTypeOf is the element type whose Go representation is T.
func DTypeOf[T Elem]() DType {
	t := reflect.TypeFor[T]()
	for _, d := range EveryDType {
		if goElemTypes[d] == t {
			return d
		}
	}
	panic("ir: unreachable: no element type for " + t.String())
}

// NewLiteralFrom makes a literal of shape holding vals (not copied); the
// element type follows from T. Shape nil or empty is a scalar.
func NewLiteralFrom[T Elem](shape []int, vals []T) (*Literal, error) {
	if vals == nil {
		vals = []T{}
	}
	return NewLiteral(TensorOf(DTypeOf[T](), append([]int{}, shape...)...), vals)
}

// LiteralOf is NewLiteralFrom that panics on error, for tests and tables.
func LiteralOf[T Elem](shape []int, vals ...T) *Literal {
	l, err := NewLiteralFrom(shape, vals)
	if err != nil {
		panic(err)
	}
	return l
}

// ScalarOf makes a rank-0 literal holding v.
func ScalarOf[T Elem](v T) *Literal { return LiteralOf(nil, v) }

// ScalarLiteral makes a rank-0 literal of type d holding v, rounded or
// converted as FromFloat64 does (integers truncate and saturate, i1 is
// v != 0, complex gets imaginary part 0).
func ScalarLiteral(d DType, v float64) *Literal {
	l := Zeros(Scalar(d))
	l.SetElem(0, FromFloat64(d, v))
	return l
}

// FullLiteral makes a literal of type t with every element FromFloat64(v).
func FullLiteral(t Type, v float64) *Literal {
	l := Zeros(t)
	e := FromFloat64(t.DType, v)
	for i := range l.Len() {
		l.SetElem(i, e)
	}
	return l
}

func checkLiteralCount(t Type, n int) {
	if n != t.NumElements() {
		panic(fmt.Sprintf("ir: %d values for %v, want %d", n, t, t.NumElements()))
	}
}

// LiteralFromFloat64s makes a literal of type t from float64 values, each
// converted by FromFloat64. It panics if the count is wrong.
func LiteralFromFloat64s(t Type, vals []float64) *Literal {
	checkLiteralCount(t, len(vals))
	d := t.DType
	return &Literal{Type: t, Data: buildData(d, vals,
		func(x float64) int64 { return saturateIntTo(d, floatToInt64(x)) },
		func(x float64) uint64 { return saturateUintTo(d, floatToUint64(x)) },
		func(x float64) float64 { return x },
		func(x float64) complex128 { return complex(x, 0) },
		func(x float64) bool { return x != 0 })}
}

// LiteralFromInt64s makes a literal of type t from int64 values, each
// converted by FromInt64 (integers wrap). It panics if the count is wrong.
func LiteralFromInt64s(t Type, vals []int64) *Literal {
	checkLiteralCount(t, len(vals))
	d := t.DType
	return &Literal{Type: t, Data: buildData(d, vals,
		func(x int64) int64 { return x },
		func(x int64) uint64 { return uint64(x) },
		func(x int64) float64 { return roundInt64(d, x) },
		func(x int64) complex128 { return complex(roundInt64(d, x), 0) },
		func(x int64) bool { return x != 0 })}
}

// LiteralFromUint64s makes a literal of type t from uint64 values, each
// converted by FromUint64. It panics if the count is wrong.
func LiteralFromUint64s(t Type, vals []uint64) *Literal {
	checkLiteralCount(t, len(vals))
	d := t.DType
	return &Literal{Type: t, Data: buildData(d, vals,
		func(x uint64) int64 { return int64(x) },
		func(x uint64) uint64 { return x },
		func(x uint64) float64 { return roundIntMagnitude(d, x) },
		func(x uint64) complex128 { return complex(roundIntMagnitude(d, x), 0) },
		func(x uint64) bool { return x != 0 })}
}

// LiteralFromComplex128s makes a literal of type t from complex values,
// each converted by FromComplex128. It panics if the count is wrong.
func LiteralFromComplex128s(t Type, vals []complex128) *Literal {
	checkLiteralCount(t, len(vals))
	d := t.DType
	return &Literal{Type: t, Data: buildData(d, vals,
		func(x complex128) int64 { return saturateIntTo(d, floatToInt64(real(x))) },
		func(x complex128) uint64 { return saturateUintTo(d, floatToUint64(real(x))) },
		func(x complex128) float64 { return real(x) },
		func(x complex128) complex128 { return x },
		func(x complex128) bool { return real(x) != 0 })}
}

// LiteralFromBools makes a literal of type t from bools (0 or 1 for
// numbers). It panics if the count is wrong.
func LiteralFromBools(t Type, vals []bool) *Literal {
	checkLiteralCount(t, len(vals))
	return &Literal{Type: t, Data: buildData(t.DType, vals,
		func(x bool) int64 { return int64(b2u(x)) },
		b2u,
		func(x bool) float64 { return float64(b2u(x)) },
		func(x bool) complex128 { return complex(float64(b2u(x)), 0) },
		func(x bool) bool { return x })}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// mapSlice applies f to every element of s.
func mapSlice[S, T any](s []S, f func(S) T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// buildData makes the data slice of element type d from wide values W,
// given how a W becomes each wide kind: toInt for signed targets and toUint
// for unsigned ones (Go's conversion then wraps to the width), toFloat for
// float targets (the value is rounded to d once, by the conversion below,
// so toFloat must give the exact value or one already rounded to d),
// toComplex for complex targets (each part rounded once), toBool for i1.
// It works on typed slices, without boxing each element in an interface:
// the evaluator moves whole tensors through here.
func buildData[W any](d DType, vals []W, toInt func(W) int64, toUint func(W) uint64,
	toFloat func(W) float64, toComplex func(W) complex128, toBool func(W) bool) any {
	if f, ok := narrowFormats[d]; ok {
		return narrowSlice(d, len(vals), func(i int) uint64 { return f.Encode(toFloat(vals[i])) })
	}
	if d.IsNarrow() {
		if d.IsSigned() {
			return narrowSlice(d, len(vals), func(i int) uint64 { return uint64(toInt(vals[i])) })
		}
		return narrowSlice(d, len(vals), func(i int) uint64 { return toUint(vals[i]) })
	}
	switch d {
	case Bool:
		return mapSlice(vals, toBool)
	case S8:
		return mapSlice(vals, func(w W) int8 { return int8(toInt(w)) })
	case S16:
		return mapSlice(vals, func(w W) int16 { return int16(toInt(w)) })
	case S32:
		return mapSlice(vals, func(w W) int32 { return int32(toInt(w)) })
	case S64:
		return mapSlice(vals, toInt)
	case U8:
		return mapSlice(vals, func(w W) uint8 { return uint8(toUint(w)) })
	case U16:
		return mapSlice(vals, func(w W) uint16 { return uint16(toUint(w)) })
	case U32:
		return mapSlice(vals, func(w W) uint32 { return uint32(toUint(w)) })
	case U64:
		return mapSlice(vals, toUint)
	case F16:
		return mapSlice(vals, func(w W) Float16 { return Float16FromFloat64(toFloat(w)) })
	case BF16:
		return mapSlice(vals, func(w W) BFloat16 { return BFloat16FromFloat64(toFloat(w)) })
	case F32:
		return mapSlice(vals, func(w W) float32 { return float32(toFloat(w)) })
	case F64:
		return mapSlice(vals, toFloat)
	case C64:
		return mapSlice(vals, func(w W) complex64 { return complex64(toComplex(w)) })
	case C128:
		return mapSlice(vals, toComplex)
	}
	panic(fmt.Sprintf("ir: invalid element type %v", d))
}

// wideData reads l's elements as wide values W, given how each wide kind
// becomes a W; like buildData it works on typed slices.
func wideData[W any](l *Literal, fromInt func(int64) W, fromUint func(uint64) W,
	fromFloat func(float64) W, fromComplex func(complex128) W, fromBool func(bool) W) []W {
	switch s := l.Data.(type) {
	case []bool:
		return mapSlice(s, fromBool)
	case []int8:
		return mapSlice(s, func(v int8) W { return fromInt(int64(v)) })
	case []int16:
		return mapSlice(s, func(v int16) W { return fromInt(int64(v)) })
	case []int32:
		return mapSlice(s, func(v int32) W { return fromInt(int64(v)) })
	case []int64:
		return mapSlice(s, fromInt)
	case []uint8:
		return mapSlice(s, func(v uint8) W { return fromUint(uint64(v)) })
	case []uint16:
		return mapSlice(s, func(v uint16) W { return fromUint(uint64(v)) })
	case []uint32:
		return mapSlice(s, func(v uint32) W { return fromUint(uint64(v)) })
	case []uint64:
		return mapSlice(s, fromUint)
	case []Float16:
		return mapSlice(s, func(v Float16) W { return fromFloat(Float16ToFloat64(v)) })
	case []BFloat16:
		return mapSlice(s, func(v BFloat16) W { return fromFloat(BFloat16ToFloat64(v)) })
	case []float32:
		return mapSlice(s, func(v float32) W { return fromFloat(float64(v)) })
	case []float64:
		return mapSlice(s, fromFloat)
	case []complex64:
		return mapSlice(s, func(v complex64) W { return fromComplex(complex128(v)) })
	case []complex128:
		return mapSlice(s, fromComplex)
	}
	if d := narrowDTypeOfData(l.Data); d != InvalidDType {
		bits, _ := narrowDataBits(l.Data)
		return mapSlice(bits, func(b uint64) W {
			switch {
			case d.IsNarrowFloat():
				return fromFloat(narrowFormats[d].Decode(b))
			case d.IsSigned():
				return fromInt(int64(b<<(64-d.Bits())) >> (64 - d.Bits()))
			}
			return fromUint(b & (1<<d.Bits() - 1))
		})
	}
	panic(fmt.Sprintf("ir: literal data is %T, not a slice of an element type", l.Data))
}

// Float64s returns the elements converted by ToFloat64.
func (l *Literal) Float64s() []float64 {
	return wideData(l,
		func(x int64) float64 { return float64(x) },
		func(x uint64) float64 { return float64(x) },
		func(x float64) float64 { return x },
		func(x complex128) float64 { return real(x) },
		func(x bool) float64 { return float64(b2u(x)) })
}

// Int64s returns the elements converted by ToInt64.
func (l *Literal) Int64s() []int64 {
	return wideData(l,
		func(x int64) int64 { return x },
		func(x uint64) int64 { return int64(x) },
		floatToInt64,
		func(x complex128) int64 { return floatToInt64(real(x)) },
		func(x bool) int64 { return int64(b2u(x)) })
}

// Uint64s returns the elements converted by ToUint64.
func (l *Literal) Uint64s() []uint64 {
	return wideData(l,
		func(x int64) uint64 { return uint64(x) },
		func(x uint64) uint64 { return x },
		floatToUint64,
		func(x complex128) uint64 { return floatToUint64(real(x)) },
		b2u)
}

// Complex128s returns the elements converted by ToComplex128.
func (l *Literal) Complex128s() []complex128 {
	return wideData(l,
		func(x int64) complex128 { return complex(float64(x), 0) },
		func(x uint64) complex128 { return complex(float64(x), 0) },
		func(x float64) complex128 { return complex(x, 0) },
		func(x complex128) complex128 { return x },
		func(x bool) complex128 { return complex(float64(b2u(x)), 0) })
}

// Bools returns the elements converted by ToBool.
func (l *Literal) Bools() []bool {
	return wideData(l,
		func(x int64) bool { return x != 0 },
		func(x uint64) bool { return x != 0 },
		func(x float64) bool { return x != 0 },
		func(x complex128) bool { return x != 0 },
		func(x bool) bool { return x })
}

// ElemBits returns the bit pattern of one element of type d, zero-extended
// to 64 bits: two's complement for integers, the IEEE encoding for floats,
// 0 or 1 for i1, and for c64 the real part's bits in the low half and the
// imaginary part's in the high half (the little-endian memory order). c128
// does not fit and panics; use Literal.Bytes.
func ElemBits(d DType, v any) uint64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int8:
		return uint64(uint8(x))
	case int16:
		return uint64(uint16(x))
	case int32:
		return uint64(uint32(x))
	case int64:
		return uint64(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	case Float16:
		return uint64(x.Bits())
	case BFloat16:
		return uint64(x)
	case float32:
		return uint64(math.Float32bits(x))
	case float64:
		return math.Float64bits(x)
	case complex64:
		return uint64(math.Float32bits(real(x))) | uint64(math.Float32bits(imag(x)))<<32
	}
	if d.IsNarrow() {
		return narrowElemBits(d, v)
	}
	panic(fmt.Sprintf("ir: ElemBits: %T has no 64-bit pattern", v))
}

// ElemFromBits is the inverse of ElemBits: the element of type d whose bit
// pattern is the low d.Bits() bits of b (i1: b&1 != 0). c128 panics.
func ElemFromBits(d DType, b uint64) any {
	if d.IsNarrow() {
		return narrowFromBits(d, b)
	}
	switch d {
	case Bool:
		return b&1 != 0
	case F16:
		return Float16(uint16(b))
	case BF16:
		return BFloat16(uint16(b))
	case F32:
		return math.Float32frombits(uint32(b))
	case F64:
		return math.Float64frombits(b)
	case C64:
		return complex(math.Float32frombits(uint32(b)), math.Float32frombits(uint32(b>>32)))
	case C128:
		panic("ir: ElemFromBits: c128 has no 64-bit pattern")
	}
	return FromUint64(d, b) // integers: wrap to the width
}

// Bytes returns the elements' little-endian memory image: d.Size() bytes
// per element in row-major order (i1 is one byte, 0 or 1; complex is the
// real part then the imaginary part).
func (l *Literal) Bytes() []byte {
	d := l.Type.DType
	n := l.Len()
	sz := d.Size()
	out := make([]byte, n*sz)
	for i := range n {
		p := out[i*sz : (i+1)*sz]
		if d == C128 {
			c := l.Elem(i).(complex128)
			binenc.LittleEndian.PutUint64(p, math.Float64bits(real(c)))
			binenc.LittleEndian.PutUint64(p[8:], math.Float64bits(imag(c)))
			continue
		}
		b := ElemBits(d, l.Elem(i)) // si2, si4: the low bits, as ml_dtypes stores them
		for k := range sz {
			p[k] = byte(b >> (8 * k))
		}
	}
	return out
}

// LiteralFromBytes builds a literal of type t from its little-endian memory
// image (the inverse of Bytes). For i1 any non-zero byte is true.
func LiteralFromBytes(t Type, b []byte) (*Literal, error) {
	if !t.DType.valid() || !t.IsStatic() {
		return nil, fmt.Errorf("literal: invalid type %v", t)
	}
	sz := t.DType.Size()
	if len(b) != t.NumElements()*sz {
		return nil, fmt.Errorf("literal: %d bytes for %v, want %d", len(b), t, t.NumElements()*sz)
	}
	l := Zeros(t)
	for i := range t.NumElements() {
		p := b[i*sz : (i+1)*sz]
		if t.DType == C128 {
			re := math.Float64frombits(binenc.LittleEndian.Uint64(p))
			im := math.Float64frombits(binenc.LittleEndian.Uint64(p[8:]))
			l.SetElem(i, complex(re, im))
			continue
		}
		var u uint64
		for k := range sz {
			u |= uint64(p[k]) << (8 * k)
		}
		if t.DType == Bool {
			u = min(u, 1)
		}
		l.SetElem(i, ElemFromBits(t.DType, u))
	}
	return l, nil
}
