package ir

import (
	"fmt"
	"math"
	mbits "math/bits"
)

// Conversions between element representations.
//
// Every element type has a "wide" Go representation that holds any of its
// values exactly: bool for i1, int64 for signed integers, uint64 for
// unsigned integers, float64 for f16/bf16/f32/f64 (each of them is a subset
// of binary64), complex128 for c64/c128. The To* functions read one element
// (as Literal.Elem returns it) into a wide value of some kind, the From*
// functions build an element of d from one, and ConvertElem implements the
// convert op's semantics between any two element types. All rounding to a
// float type is done once, from the exact value, to nearest with ties to
// even; this matters for f16 and bf16, where going through float32 first
// would round twice (e.g. float64 → float32 → f16).

// float formats: exponent and explicit mantissa bits.
func dtypeFloatFormat(d DType) (expBits, mantBits int) {
	switch d {
	case F16:
		return 5, 10
	case BF16:
		return 8, 7
	case F32, C64:
		return 8, 23
	case F64, C128:
		return 11, 52
	}
	if f, ok := narrowFormats[d]; ok {
		return f.Exp, f.Mant
	}
	panic(fmt.Sprintf("ir: %v is not a float type", d))
}

// RoundToFloatFormat rounds x to the nearest value of the binary floating
// point format with expBits exponent bits and mantBits explicit mantissa
// bits (IEEE-style: bias 2^(expBits-1)-1, subnormals, infinities), ties to
// even, and returns it as a float64. Values beyond the format's largest
// finite value become ±Inf, NaN stays NaN, and the sign of zero is kept.
// The format must fit in binary64 (expBits <= 11, mantBits <= 52).
func RoundToFloatFormat(x float64, expBits, mantBits int) float64 {
	if x != x || math.IsInf(x, 0) || x == 0 {
		return x
	}
	if expBits >= 11 && mantBits >= 52 {
		return x
	}
	emax := 1<<(expBits-1) - 1 // largest unbiased exponent
	emin := 1 - emax           // smallest normal exponent
	a := math.Abs(x)
	_, e := math.Frexp(a) // a = f * 2^e, f in [0.5, 1)
	e--                   // a in [2^e, 2^(e+1))
	// The result is a multiple of 2^q: the spacing of the format at a
	// (fixed at the subnormal spacing below the normal range).
	q := max(e, emin) - mantBits
	// a * 2^-q is exact (scaling by a power of two that stays in range),
	// and so is rounding it to an integer and scaling back.
	n := math.RoundToEven(math.Ldexp(a, -q))
	r := math.Ldexp(n, q)
	maxFinite := math.Ldexp(2-math.Ldexp(1, -mantBits), emax)
	if r > maxFinite {
		r = math.Inf(1)
	}
	return math.Copysign(r, x)
}

// roundToDType rounds x to the float type d (the part type for complex).
func roundToDType(d DType, x float64) float64 {
	switch d.ComplexPart() {
	case F32:
		return float64(float32(x)) // Go converts with one correct rounding
	case F64:
		return x
	}
	if f, ok := narrowFormats[d]; ok {
		return f.Decode(f.Encode(x))
	}
	e, m := dtypeFloatFormat(d)
	return RoundToFloatFormat(x, e, m)
}

// Float16FromFloat64 rounds x to f16 once (ties to even). NaN stays a
// quiet NaN with its sign.
func Float16FromFloat64(x float64) Float16 {
	b := math.Float64bits(x)
	sign := uint16(b>>48) & 0x8000
	if x != x {
		return Float16(sign | 0x7E00 | uint16(b>>42)&0x1FF)
	}
	r := math.Abs(RoundToFloatFormat(x, 5, 10))
	switch {
	case math.IsInf(r, 0):
		return Float16(sign | 0x7C00)
	case r == 0:
		return Float16(sign)
	case r < 0x1p-14: // subnormal: a multiple of 2^-24
		return Float16(sign | uint16(r*0x1p24))
	}
	rb := math.Float64bits(r)
	exp := uint16(int(rb>>52)-1023+15) << 10
	return Float16(sign | exp | uint16(rb>>42)&0x3FF)
}

// BFloat16FromFloat64 rounds x to bf16 once (ties to even). NaN stays a
// quiet NaN with its sign.
func BFloat16FromFloat64(x float64) BFloat16 {
	if x != x {
		b := math.Float64bits(x)
		return BFloat16(uint16(b>>48)&0x8000 | 0x7FC0 | uint16(b>>45)&0x3F)
	}
	// The rounded value is representable in bf16 and hence exactly in
	// f32, whose top 16 bits are then the bf16 encoding.
	r := float32(RoundToFloatFormat(x, 8, 7))
	return BFloat16(math.Float32bits(r) >> 16)
}

// Float16ToFloat64 widens exactly.
func Float16ToFloat64(h Float16) float64 { return float64(h.Float32()) }

// BFloat16ToFloat64 widens exactly.
func BFloat16ToFloat64(b BFloat16) float64 { return float64(b.Float32()) }

// ToFloat64 reads an element of type d as a float64: exactly for floats
// and i1 (0 or 1); integers round to nearest even when wider than 53 bits;
// complex numbers give their real part.
func ToFloat64(d DType, v any) float64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int8:
		return float64(x)
	case int16:
		return float64(x)
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case uint8:
		return float64(x)
	case uint16:
		return float64(x)
	case uint32:
		return float64(x)
	case uint64:
		return float64(x)
	case Float16:
		return Float16ToFloat64(x)
	case BFloat16:
		return BFloat16ToFloat64(x)
	case float32:
		return float64(x)
	case float64:
		return x
	case complex64:
		return float64(real(x))
	case complex128:
		return real(x)
	}
	if d.IsNarrow() {
		return narrowToFloat64(d, v)
	}
	panic(fmt.Sprintf("ir: ToFloat64: %T is not an element value", v))
}

// ToComplex128 reads an element as a complex128: exactly for complex and
// float types, with a zero imaginary part for non-complex ones.
func ToComplex128(d DType, v any) complex128 {
	switch x := v.(type) {
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	return complex(ToFloat64(d, v), 0)
}

// ToInt64 reads an element as an int64: i1 is 0 or 1, signed integers are
// exact, unsigned ones are reinterpreted modulo 2^64 (ui64 values above
// MaxInt64 become negative), floats truncate toward zero and saturate with
// NaN → 0 (the convert op's rule), complex numbers use their real part.
func ToInt64(d DType, v any) int64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return int64(x)
	}
	if d.IsNarrow() && !d.IsNarrowFloat() {
		return int64(ToFloat64(d, v)) // exact
	}
	return floatToInt64(ToFloat64(d, v))
}

// ToUint64 reads an element as a uint64: i1 is 0 or 1, unsigned integers
// are exact, signed ones are reinterpreted modulo 2^64 (two's complement),
// floats truncate toward zero and saturate to [0, MaxUint64] with NaN → 0,
// complex numbers use their real part.
func ToUint64(d DType, v any) uint64 {
	switch x := v.(type) {
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	case bool, int8, int16, int32, int64:
		return uint64(ToInt64(d, v))
	}
	if d.IsNarrow() && !d.IsNarrowFloat() {
		return uint64(ToInt64(d, v))
	}
	return floatToUint64(ToFloat64(d, v))
}

// ToBool reads an element as a bool: x != 0 (NaN is true; a complex number
// is true unless both parts are zero).
func ToBool(d DType, v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case complex64:
		return x != 0
	case complex128:
		return x != 0
	case Float16, BFloat16, float32, float64:
		return ToFloat64(d, v) != 0
	}
	if d.IsNarrow() {
		return ToFloat64(d, v) != 0
	}
	return ToUint64(d, v) != 0
}

// floatToInt64 truncates toward zero and saturates; NaN → 0, as XLA does.
func floatToInt64(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 0x1p63:
		return math.MaxInt64
	case x <= -0x1p63:
		return math.MinInt64
	}
	return int64(x) // Go truncates toward zero; in range here
}

// floatToUint64 truncates toward zero and saturates to [0, MaxUint64];
// NaN → 0.
func floatToUint64(x float64) uint64 {
	switch {
	case x != x || x <= -1:
		return 0
	case x >= 0x1p64:
		return math.MaxUint64
	case x < 1:
		return 0
	}
	return uint64(x)
}

// FromFloat64 makes an element of type d from x: floats round once to
// nearest even; integers truncate toward zero and saturate, NaN → 0; i1 is
// x != 0; complex gets x as real part and +0 imaginary part.
func FromFloat64(d DType, x float64) any {
	if d.IsNarrow() {
		return narrowFromFloat64(d, x)
	}
	switch d {
	case Bool:
		return x != 0
	case F16:
		return Float16FromFloat64(x)
	case BF16:
		return BFloat16FromFloat64(x)
	case F32:
		return float32(x)
	case F64:
		return x
	case C64:
		return complex64(complex(float32(x), 0))
	case C128:
		return complex(x, 0)
	}
	if d.IsSigned() {
		return FromInt64(d, saturateIntTo(d, floatToInt64(x)))
	}
	if d.IsUnsigned() {
		return FromUint64(d, saturateUintTo(d, floatToUint64(x)))
	}
	panic(fmt.Sprintf("ir: FromFloat64: invalid element type %v", d))
}

func saturateIntTo(d DType, x int64) int64 {
	n := d.Bits()
	lo, hi := int64(-1)<<(n-1), int64(1)<<(n-1)-1
	if n == 64 {
		return x
	}
	return min(max(x, lo), hi)
}

func saturateUintTo(d DType, x uint64) uint64 {
	n := d.Bits()
	if n == 64 {
		return x
	}
	return min(x, uint64(1)<<n-1)
}

// FromComplex128 makes an element of type d from x: complex types round
// each part once; other types take the real part as FromFloat64 does.
func FromComplex128(d DType, x complex128) any {
	switch d {
	case C64:
		return complex64(complex(float32(real(x)), float32(imag(x))))
	case C128:
		return x
	}
	return FromFloat64(d, real(x))
}

// FromInt64 makes an element of type d from x: integers wrap modulo 2^bits
// (two's complement), floats round once to nearest even (exactly, even for
// |x| > 2^53, where float64(x) would round first), i1 is x != 0.
func FromInt64(d DType, x int64) any {
	if d.IsNarrow() && !d.IsNarrowFloat() {
		return narrowFromBits(d, uint64(x))
	}
	switch d {
	case Bool:
		return x != 0
	case S8:
		return int8(x)
	case S16:
		return int16(x)
	case S32:
		return int32(x)
	case S64:
		return x
	case U8:
		return uint8(x)
	case U16:
		return uint16(x)
	case U32:
		return uint32(x)
	case U64:
		return uint64(x)
	}
	if d.IsFloat() || d.IsComplex() {
		return FromFloat64(d, roundInt64(d, x))
	}
	panic(fmt.Sprintf("ir: FromInt64: invalid element type %v", d))
}

// FromUint64 makes an element of type d from x: integers wrap modulo
// 2^bits, floats round once to nearest even, i1 is x != 0.
func FromUint64(d DType, x uint64) any {
	if d.IsFloat() || d.IsComplex() {
		return FromFloat64(d, roundIntMagnitude(d, x))
	}
	if d == Bool {
		return x != 0
	}
	return FromInt64(d, int64(x))
}

// roundInt64 is x rounded to the precision of the float type d (see
// roundIntMagnitude), exactly as a float64.
func roundInt64(d DType, x int64) float64 {
	if x < 0 {
		// -x as uint64 is |x|, also for MinInt64 (2^63).
		return -roundIntMagnitude(d, -uint64(x))
	}
	return roundIntMagnitude(d, uint64(x))
}

// roundIntMagnitude rounds m to the precision (significand bits) of the
// float type d, ties to even, and returns the result, which float64 holds
// exactly. The exponent range of every float type covers 2^64 except f16,
// whose overflow FromFloat64 then turns into Inf correctly (the rounded
// value is what IEEE compares against the largest finite value).
func roundIntMagnitude(d DType, m uint64) float64 {
	_, mant := dtypeFloatFormat(d)
	p := mant + 1
	n := mbits.Len64(m)
	if n <= p {
		return float64(m)
	}
	shift := uint(n - p)
	q := m >> shift
	rem := m & (1<<shift - 1)
	half := uint64(1) << (shift - 1)
	if rem > half || rem == half && q&1 == 1 {
		q++
	}
	return math.Ldexp(float64(q), int(shift))
}

// FromBool makes an element of type d from b: 1 or 0.
func FromBool(d DType, b bool) any {
	if d == Bool {
		return b
	}
	if b {
		return FromInt64(d, 1)
	}
	return FromInt64(d, 0)
}

// ConvertElem converts one element from type from to type to with the
// convert op's semantics: i1 → x is 0 or 1; x → i1 is x != 0; integer →
// integer wraps modulo 2^bits; integer → float rounds to nearest even;
// float → float rounds once to nearest even; float → integer truncates
// toward zero and saturates, NaN → 0 (as XLA does); real → complex has a
// zero imaginary part; complex → complex converts each part; complex →
// real takes the real part.
func ConvertElem(v any, from, to DType) any {
	switch {
	case from == Bool:
		return FromBool(to, v.(bool))
	case to == Bool:
		return ToBool(from, v)
	case from.IsSigned():
		return FromInt64(to, ToInt64(from, v))
	case from.IsUnsigned():
		return FromUint64(to, ToUint64(from, v))
	case from.IsFloat():
		return FromFloat64(to, ToFloat64(from, v))
	case from.IsComplex():
		return FromComplex128(to, ToComplex128(from, v))
	}
	panic(fmt.Sprintf("ir: ConvertElem: invalid element type %v", from))
}

// ConvertLiteral converts every element of l to type to (ConvertElem); the
// shape is kept. It goes through the bulk accessors and constructors, which
// apply the same rules as ConvertElem without boxing each element.
func ConvertLiteral(l *Literal, to DType) *Literal {
	t := Type{DType: to, Shape: append([]int{}, l.Type.Shape...)}
	from := l.Type.DType
	switch {
	case from == Bool || to == Bool:
		return LiteralFromBools(t, l.Bools())
	case from.IsSigned():
		return LiteralFromInt64s(t, l.Int64s())
	case from.IsUnsigned():
		return LiteralFromUint64s(t, l.Uint64s())
	case from.IsFloat():
		return LiteralFromFloat64s(t, l.Float64s())
	case from.IsComplex():
		return LiteralFromComplex128s(t, l.Complex128s())
	}
	panic(fmt.Sprintf("ir: ConvertLiteral: invalid element type %v", from))
}
