package ir

import (
	"fmt"
	"reflect"

	"github.com/stela-ml/stela/internal/minifloat"
)

// The narrow element types: the sub-byte integers si2, si4, ui2, ui4 and
// the 8-, 6- and 4-bit floats of StableHLO (f8E4M3FN, f8E5M2, ...,
// f4E2M1FN). A Literal holds one element per byte, in a Go type of its
// own per element type (so that a type switch on Literal.Data tells them
// apart): the integers as their value (Int4(-3)), the floats as their bit
// pattern in the low bits of a byte (Float8E4M3FN(0x38) is 1.0).
//
// The floats widen to float64 exactly and round from it once, to nearest
// with ties to even, with each format's own rules for what does not fit,
// as ml_dtypes (and LLVM's APFloat) define them:
//
//   - f8E5M2, f8E4M3, f8E3M4 are IEEE-like: ±Inf at the all-ones exponent
//     with a zero mantissa, NaNs above it; overflow gives ±Inf;
//   - f8E4M3FN ("finite, NaN"): no Inf, NaN only at S.1111.111; overflow
//     and ±Inf give NaN;
//   - f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ ("unsigned zero"): one NaN, at
//     0x80 (the bit pattern of -0), no Inf, no -0 (a negative value that
//     rounds to zero gives +0); overflow and ±Inf give NaN; the exponent
//     bias is one more than IEEE's (11 for B11);
//   - f8E8M0FNU is an exponent only: 2^(e-127), no sign, no zero, NaN at
//     0xFF; a value rounds by its significand (1.5·2^e and up go to
//     2^(e+1)); zero, negative values and NaN give NaN, values below 2^-127
//     give 2^-127, overflow gives NaN;
//   - f6E2M3FN, f6E3M2FN, f4E2M1FN have neither Inf nor NaN: overflow and
//     ±Inf saturate to ±max; NaN gives +0 (ml_dtypes gives a zero of the
//     opposite sign; a NaN has no meaning in these types).
//
// Converting a float to a narrow integer truncates toward zero and
// saturates (NaN → 0), as for the wide integers; integers wrap modulo
// 2^bits.

// Go representations of the narrow types.
type (
	Int2              int8
	Int4              int8
	Uint2             uint8
	Uint4             uint8
	Float8E4M3FN      uint8
	Float8E5M2        uint8
	Float8E4M3FNUZ    uint8
	Float8E5M2FNUZ    uint8
	Float8E4M3B11FNUZ uint8
	Float8E4M3        uint8
	Float8E3M4        uint8
	Float8E8M0FNU     uint8
	Float6E2M3FN      uint8
	Float6E3M2FN      uint8
	Float4E2M1FN      uint8
)

func init() {
	for d, t := range map[DType]reflect.Type{
		S2: reflect.TypeFor[Int2](), S4: reflect.TypeFor[Int4](), U2: reflect.TypeFor[Uint2](),
		U4: reflect.TypeFor[Uint4](), F8E4M3FN: reflect.TypeFor[Float8E4M3FN](),
		F8E5M2: reflect.TypeFor[Float8E5M2](), F8E4M3FNUZ: reflect.TypeFor[Float8E4M3FNUZ](),
		F8E5M2FNUZ: reflect.TypeFor[Float8E5M2FNUZ](), F8E4M3B11FNUZ: reflect.TypeFor[Float8E4M3B11FNUZ](),
		F8E4M3: reflect.TypeFor[Float8E4M3](), F8E3M4: reflect.TypeFor[Float8E3M4](),
		F8E8M0FNU: reflect.TypeFor[Float8E8M0FNU](), F6E2M3FN: reflect.TypeFor[Float6E2M3FN](),
		F6E3M2FN: reflect.TypeFor[Float6E3M2FN](), F4E2M1FN: reflect.TypeFor[Float4E2M1FN](),
	} {
		goElemTypes[d] = t
	}
}

// NarrowFloatFormat describes a narrow float type (package minifloat).
type NarrowFloatFormat = minifloat.Format

var narrowFormats = map[DType]NarrowFloatFormat{}

func init() {
	for _, d := range NarrowDTypes {
		if f, ok := minifloat.Formats[d.MLIR()]; ok {
			narrowFormats[d] = f
		}
	}
}

// NarrowFormat returns the format of a narrow float type.
func NarrowFormat(d DType) (NarrowFloatFormat, bool) {
	f, ok := narrowFormats[d]
	return f, ok
}

// narrowFloatBits reads element i of a narrow float slice as its bits.
func narrowBitsOf(v any) (uint64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Uint8:
		return rv.Uint(), true
	case reflect.Int8:
		return uint64(uint8(rv.Int())), true
	}
	return 0, false
}

// narrowFromBits makes the element of narrow type d with bit pattern b
// (integers: the low bits, sign-extended for si2/si4).
func narrowFromBits(d DType, b uint64) any {
	rv := reflect.New(goElemTypes[d]).Elem()
	n := d.Bits()
	b &= 1<<n - 1
	if d.IsSigned() {
		rv.SetInt(int64(b<<(64-n)) >> (64 - n))
	} else {
		rv.SetUint(b)
	}
	return rv.Interface()
}

// narrowElemBits is ElemBits for the narrow types: the low Bits() bits.
func narrowElemBits(d DType, v any) uint64 {
	b, ok := narrowBitsOf(v)
	if !ok {
		panic(fmt.Sprintf("ir: %T is not a narrow element", v))
	}
	return b & (1<<d.Bits() - 1)
}

// narrowToFloat64 widens a narrow element of d exactly.
func narrowToFloat64(d DType, v any) float64 {
	if f, ok := narrowFormats[d]; ok {
		return f.Decode(narrowElemBits(d, v))
	}
	rv := reflect.ValueOf(v)
	if d.IsSigned() {
		return float64(rv.Int())
	}
	return float64(rv.Uint())
}

// narrowFromFloat64 is FromFloat64 for the narrow types.
func narrowFromFloat64(d DType, x float64) any {
	if f, ok := narrowFormats[d]; ok {
		return narrowFromBits(d, f.Encode(x))
	}
	if d.IsSigned() {
		return narrowFromBits(d, uint64(min(max(floatToInt64(x), -1<<(d.Bits()-1)), 1<<(d.Bits()-1)-1)))
	}
	return narrowFromBits(d, min(floatToUint64(x), 1<<d.Bits()-1))
}

// narrowSlice makes a []T of narrow type d from n bit patterns.
func narrowSlice(d DType, n int, bits func(i int) uint64) any {
	s := reflect.MakeSlice(reflect.SliceOf(goElemTypes[d]), n, n)
	for i := range n {
		s.Index(i).Set(reflect.ValueOf(narrowFromBits(d, bits(i))))
	}
	return s.Interface()
}

// narrowDataBits reads the bit patterns of a narrow literal's data.
func narrowDataBits(data any) ([]uint64, bool) {
	rv := reflect.ValueOf(data)
	if rv.Kind() != reflect.Slice {
		return nil, false
	}
	switch rv.Type().Elem().Kind() {
	case reflect.Uint8, reflect.Int8:
	default:
		return nil, false
	}
	if t := rv.Type().Elem(); t == reflect.TypeFor[uint8]() || t == reflect.TypeFor[int8]() {
		return nil, false
	}
	out := make([]uint64, rv.Len())
	for i := range out {
		out[i], _ = narrowBitsOf(rv.Index(i).Interface())
	}
	return out, true
}

// narrowDTypeOfData is the narrow element type whose Go slice data is.
func narrowDTypeOfData(data any) DType {
	t := reflect.TypeOf(data)
	if t == nil || t.Kind() != reflect.Slice {
		return InvalidDType
	}
	for _, d := range NarrowDTypes {
		if goElemTypes[d] == t.Elem() {
			return d
		}
	}
	return InvalidDType
}
