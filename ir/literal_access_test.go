package ir

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestDTypeOf(t *testing.T) {
	checks := map[DType]DType{
		Bool: DTypeOf[bool](), S8: DTypeOf[int8](), S16: DTypeOf[int16](), S32: DTypeOf[int32](),
		S64: DTypeOf[int64](), U8: DTypeOf[uint8](), U16: DTypeOf[uint16](), U32: DTypeOf[uint32](),
		U64: DTypeOf[uint64](), F16: DTypeOf[Float16](), BF16: DTypeOf[BFloat16](), F32: DTypeOf[float32](),
		F64: DTypeOf[float64](), C64: DTypeOf[complex64](), C128: DTypeOf[complex128](),
	}
	for _, d := range AllDTypes {
		if got, ok := checks[d]; !ok || got != d {
			t.Errorf("DTypeOf for %v = %v", d, got)
		}
	}
}

func TestConstructors(t *testing.T) {
	l, err := NewLiteralFrom([]int{2, 3}, []int16{1, 2, 3, 4, 5, 6})
	if err != nil || !l.Type.Equal(TensorOf(S16, 2, 3)) || l.Elem(5).(int16) != 6 {
		t.Errorf("NewLiteralFrom: %v %v", l, err)
	}
	if _, err := NewLiteralFrom([]int{2}, []int16{1}); err == nil {
		t.Error("NewLiteralFrom with a wrong count: no error")
	}
	if l, err := NewLiteralFrom[float32](nil, nil); err == nil {
		t.Errorf("NewLiteralFrom(nil, nil) = %v, want an error (a scalar has one element)", l)
	}
	if l, err := NewLiteralFrom([]int{0}, []float32(nil)); err != nil || l.Len() != 0 {
		t.Errorf("zero elements: %v %v", l, err)
	}
	if s := ScalarOf(BFloat16(0x3F80)); !s.Type.Equal(Scalar(BF16)) || s.Elem(0).(BFloat16) != 0x3F80 {
		t.Errorf("ScalarOf(bf16) = %v", s)
	}
	if s := LiteralOf([]int{2}, complex64(1), 2i); s.Elem(1).(complex64) != 2i {
		t.Errorf("LiteralOf = %v", s)
	}
	for _, c := range []struct {
		d    DType
		v    float64
		want any
	}{
		{F16, 0.1, Float16(0x2E66)}, {BF16, 1, BFloat16(0x3F80)}, {S8, -3.7, int8(-3)}, {U8, 300, uint8(255)},
		{Bool, 2, true}, {C64, 1.5, complex64(1.5)}, {F64, math.Pi, math.Pi},
	} {
		s := ScalarLiteral(c.d, c.v)
		if !s.Type.Equal(Scalar(c.d)) || s.Elem(0) != c.want {
			t.Errorf("ScalarLiteral(%v, %v) = %v (%T), want %v", c.d, c.v, s.Elem(0), s.Elem(0), c.want)
		}
	}
	f := FullLiteral(TensorOf(F16, 2, 2), 1.5)
	for i := range 4 {
		if f.Elem(i).(Float16) != 0x3E00 {
			t.Errorf("FullLiteral[%d] = %#04x", i, f.Elem(i))
		}
	}
	if l := LiteralFromInt64s(TensorOf(S8, 2), []int64{200, -1}); l.Elem(0).(int8) != -56 || l.Elem(1).(int8) != -1 {
		t.Errorf("LiteralFromInt64s wraps: %v", l.Data)
	}
	if l := LiteralFromUint64s(TensorOf(F32, 1), []uint64{1<<24 + 1}); l.Elem(0).(float32) != 1<<24 {
		t.Errorf("LiteralFromUint64s rounds: %v", l.Data)
	}
	if l := LiteralFromComplex128s(TensorOf(C64, 1), []complex128{1 + 1e300i}); l.Elem(0).(complex64) != complex(1, float32(math.Inf(1))) {
		t.Errorf("LiteralFromComplex128s: %v", l.Data)
	}
	if l := LiteralFromBools(TensorOf(F64, 2), []bool{true, false}); l.Elem(0).(float64) != 1 || l.Elem(1).(float64) != 0 {
		t.Errorf("LiteralFromBools: %v", l.Data)
	}
	if l := LiteralFromFloat64s(TensorOf(U16, 3), []float64{-1, 65535.9, math.NaN()}); l.Elem(0).(uint16) != 0 || l.Elem(1).(uint16) != 65535 || l.Elem(2).(uint16) != 0 {
		t.Errorf("LiteralFromFloat64s: %v", l.Data)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "want 4") {
			t.Errorf("wrong count: panic %v", p)
		}
	}()
	LiteralFromFloat64s(TensorOf(F32, 2, 2), []float64{1})
}

func TestBulkAccessors(t *testing.T) {
	l := LiteralOf([]int{3}, Float16(0x3C00), Float16(0xC000), Float16(0x7C00))
	if got := l.Float64s(); got[0] != 1 || got[1] != -2 || !math.IsInf(got[2], 1) {
		t.Errorf("Float64s = %v", got)
	}
	if got := l.Int64s(); got[0] != 1 || got[1] != -2 || got[2] != math.MaxInt64 {
		t.Errorf("Int64s = %v", got)
	}
	if got := l.Uint64s(); got[0] != 1 || got[1] != 0 || got[2] != math.MaxUint64 {
		t.Errorf("Uint64s = %v", got)
	}
	if got := l.Complex128s(); got[1] != -2 {
		t.Errorf("Complex128s = %v", got)
	}
	if got := l.Bools(); !got[0] || !got[1] || !got[2] {
		t.Errorf("Bools = %v", got)
	}
	// The fast paths return copies.
	f := LiteralOf([]int{1}, 2.5)
	f.Float64s()[0] = 9
	i := LiteralOf([]int{1}, int64(3))
	i.Int64s()[0] = 9
	u := LiteralOf([]int{1}, uint64(3))
	u.Uint64s()[0] = 9
	if f.Elem(0).(float64) != 2.5 || i.Elem(0).(int64) != 3 || u.Elem(0).(uint64) != 3 {
		t.Error("accessors alias the literal's data")
	}
	if got := LiteralOf([]int{2}, int32(-7), 1<<30).Int64s(); got[0] != -7 || got[1] != 1<<30 {
		t.Errorf("Int64s(s32) = %v", got)
	}
	if got := LiteralOf([]int{2}, float32(0.1), -3).Float64s(); got[0] != float64(float32(0.1)) || got[1] != -3 {
		t.Errorf("Float64s(f32) = %v", got)
	}
}

func TestBytes(t *testing.T) {
	cases := []struct {
		l    *Literal
		want []byte
	}{
		{LiteralOf([]int{1}, float32(1)), []byte{0, 0, 0x80, 0x3F}},
		{LiteralOf([]int{2}, int16(-2), 0x0102), []byte{0xFE, 0xFF, 0x02, 0x01}},
		{LiteralOf([]int{2}, true, false), []byte{1, 0}},
		{LiteralOf([]int{1}, Float16(0x3C00)), []byte{0x00, 0x3C}},
		{LiteralOf([]int{1}, BFloat16(0x3F80)), []byte{0x80, 0x3F}},
		{LiteralOf([]int{1}, complex64(1+2i)), []byte{0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}},
		{LiteralOf([]int{1}, complex128(1+2i)), []byte{0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0x40}},
		{LiteralOf([]int{1}, uint64(0x0102030405060708)), []byte{8, 7, 6, 5, 4, 3, 2, 1}},
		{LiteralOf([]int{1}, int32(-1)), []byte{0xFF, 0xFF, 0xFF, 0xFF}},
		{ScalarOf(1.0), []byte{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}},
		{Zeros(TensorOf(S8, 0, 2)), []byte{}},
	}
	for _, c := range cases {
		got := c.l.Bytes()
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s: bytes % x, want % x", FormatLiteral(c.l), got, c.want)
		}
		back, err := LiteralFromBytes(c.l.Type, got)
		if err != nil || !LiteralEqual(back, c.l) {
			t.Errorf("%s: back %v, %v", FormatLiteral(c.l), back, err)
		}
	}
	// Round trip of special values of every type, bit for bit (NaN
	// payloads included: compare the bytes again).
	for _, d := range AllDTypes {
		l := ewSpecialValues(t, d)
		b := l.Bytes()
		back, err := LiteralFromBytes(l.Type, b)
		if err != nil || !bytes.Equal(back.Bytes(), b) {
			t.Errorf("%v: round trip % x → %v, %v", d, b, back, err)
		}
	}
	if _, err := LiteralFromBytes(TensorOf(F32, 2), make([]byte, 7)); err == nil {
		t.Error("LiteralFromBytes with 7 bytes for f32[2]: no error")
	}
	if l, err := LiteralFromBytes(TensorOf(Bool, 2), []byte{0, 7}); err != nil || !l.Elem(1).(bool) {
		t.Errorf("i1 from byte 7: %v %v", l, err)
	}
}

func TestElemBits(t *testing.T) {
	for _, c := range []struct {
		d    DType
		v    any
		want uint64
	}{
		{S8, int8(-1), 0xFF}, {S64, int64(-2), 0xFFFFFFFFFFFFFFFE}, {U16, uint16(0xABCD), 0xABCD},
		{F16, Float16(0x3C00), 0x3C00}, {BF16, BFloat16(0xFF80), 0xFF80}, {F32, float32(-2), 0xC0000000},
		{F64, 1.0, 0x3FF0000000000000}, {C64, complex64(1 + 2i), 0x40000000_3F800000}, {Bool, true, 1},
	} {
		if got := ElemBits(c.d, c.v); got != c.want {
			t.Errorf("ElemBits(%v %v) = %#x, want %#x", c.d, c.v, got, c.want)
		}
		if got := ElemFromBits(c.d, c.want); got != c.v {
			t.Errorf("ElemFromBits(%v, %#x) = %v, want %v", c.d, c.want, got, c.v)
		}
	}
	// Only the type's width counts.
	if got := ElemFromBits(S8, 0x1FF); got != int8(-1) {
		t.Errorf("ElemFromBits(s8, 0x1ff) = %v", got)
	}
}
