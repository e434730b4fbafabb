package ir

import (
	"fmt"
	"math"
	"reflect"

	"github.com/x448/float16"
)

// Float16 is an IEEE 754 half-precision value, stored as its bits.
type Float16 = float16.Float16

// BFloat16 is a brain float (the top 16 bits of an f32), stored as its bits.
type BFloat16 uint16

// BFloat16FromFloat32 rounds to nearest even; NaN stays a quiet NaN.
func BFloat16FromFloat32(f float32) BFloat16 {
	b := math.Float32bits(f)
	if f != f {
		return BFloat16(b>>16 | 0x40)
	}
	b += 0x7FFF + (b>>16)&1
	return BFloat16(b >> 16)
}

// Float32 widens exactly.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// Literal is a concrete tensor in host memory: the evaluator's values and
// the payload of constants. Data is a Go slice of the element type's Go
// representation, in row-major order:
//
//	i1 []bool   si8..si64 []int8..[]int64   ui8..ui64 []uint8..[]uint64
//	f16 []Float16   bf16 []BFloat16   f32 []float32   f64 []float64
//	c64 []complex64   c128 []complex128
type Literal struct {
	Type Type
	Data any
}

var goElemTypes = map[DType]reflect.Type{
	Bool: reflect.TypeFor[bool](), S8: reflect.TypeFor[int8](), S16: reflect.TypeFor[int16](),
	S32: reflect.TypeFor[int32](), S64: reflect.TypeFor[int64](), U8: reflect.TypeFor[uint8](),
	U16: reflect.TypeFor[uint16](), U32: reflect.TypeFor[uint32](), U64: reflect.TypeFor[uint64](),
	F16: reflect.TypeFor[Float16](), BF16: reflect.TypeFor[BFloat16](), F32: reflect.TypeFor[float32](),
	F64: reflect.TypeFor[float64](), C64: reflect.TypeFor[complex64](), C128: reflect.TypeFor[complex128](),
}

// GoElemType is the Go type that holds one element of d in a Literal.
func GoElemType(d DType) reflect.Type { return goElemTypes[d] }

// NewLiteral checks that data is a slice of t's Go element type with
// t.NumElements() elements and wraps it (no copy).
func NewLiteral(t Type, data any) (*Literal, error) {
	et, ok := goElemTypes[t.DType]
	if !ok {
		return nil, fmt.Errorf("literal: invalid element type %v", t.DType)
	}
	if !t.IsStatic() {
		return nil, fmt.Errorf("literal: type %v is not static", t)
	}
	rv := reflect.ValueOf(data)
	if rv.Kind() != reflect.Slice || rv.Type().Elem() != et {
		return nil, fmt.Errorf("literal: data is %T, want []%v for %v", data, et, t)
	}
	if rv.Len() != t.NumElements() {
		return nil, fmt.Errorf("literal: %d elements for %v, want %d", rv.Len(), t, t.NumElements())
	}
	return &Literal{Type: t, Data: data}, nil
}

// MustLiteral is NewLiteral that panics on error, for tests and tables.
func MustLiteral(t Type, data any) *Literal {
	l, err := NewLiteral(t, data)
	if err != nil {
		panic(err)
	}
	return l
}

// Zeros is a literal of t filled with zeros (false for i1).
func Zeros(t Type) *Literal {
	return &Literal{Type: t, Data: reflect.MakeSlice(reflect.SliceOf(goElemTypes[t.DType]), t.NumElements(), t.NumElements()).Interface()}
}

// Len is the number of elements.
func (l *Literal) Len() int { return reflect.ValueOf(l.Data).Len() }

// Elem returns element i as its Go value (bool, int8, ..., Float16,
// BFloat16, float32, float64, complex64, complex128).
func (l *Literal) Elem(i int) any { return reflect.ValueOf(l.Data).Index(i).Interface() }

// SetElem stores v (of the literal's Go element type) at i.
func (l *Literal) SetElem(i int, v any) { reflect.ValueOf(l.Data).Index(i).Set(reflect.ValueOf(v)) }

// CopyElem copies element j of src (of the same element type) to element i of l.
func (l *Literal) CopyElem(i int, src *Literal, j int) {
	reflect.ValueOf(l.Data).Index(i).Set(reflect.ValueOf(src.Data).Index(j))
}

// Clone returns a deep copy.
func (l *Literal) Clone() *Literal {
	rv := reflect.ValueOf(l.Data)
	c := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
	reflect.Copy(c, rv)
	return &Literal{Type: Type{DType: l.Type.DType, Shape: append([]int{}, l.Type.Shape...)}, Data: c.Interface()}
}

// IsSplat reports whether l has two or more elements, all with the same
// bits.
func (l *Literal) IsSplat() bool { return isSplat(l) }

// Splat returns a literal of type t whose every element is element i of
// l (same element type).
func Splat(t Type, l *Literal, i int) *Literal {
	out := Zeros(t)
	n := out.Len()
	if n == 0 {
		return out
	}
	out.CopyElem(0, l, i)
	dst := reflect.ValueOf(out.Data)
	for filled := 1; filled < n; filled *= 2 {
		reflect.Copy(dst.Slice(filled, n), dst.Slice(0, min(filled, n-filled)))
	}
	return out
}
