package ir

import (
	"fmt"
	"math"
	"reflect"
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

// NaNKind is how a narrow float format encodes what does not fit.
type NaNKind uint8

// NaN kinds.
const (
	NaNIEEE   NaNKind = iota // ±Inf at exponent all ones, mantissa 0; NaNs above
	NaNFN                    // no Inf; NaN = S.1...1.1...1
	NaNFNUZ                  // no Inf, no -0; one NaN at 0x80
	NaNE8M0                  // exponent only; NaN = 0xFF
	NaNFinite                // no Inf, no NaN: overflow saturates
)

// NarrowFloatFormat describes a narrow float type.
type NarrowFloatFormat struct {
	Bits, Exp, Mant int // total, exponent and explicit mantissa bits
	Bias            int
	Kind            NaNKind
}

var narrowFormats = map[DType]NarrowFloatFormat{
	F8E4M3FN:      {8, 4, 3, 7, NaNFN},
	F8E5M2:        {8, 5, 2, 15, NaNIEEE},
	F8E4M3FNUZ:    {8, 4, 3, 8, NaNFNUZ},
	F8E5M2FNUZ:    {8, 5, 2, 16, NaNFNUZ},
	F8E4M3B11FNUZ: {8, 4, 3, 11, NaNFNUZ},
	F8E4M3:        {8, 4, 3, 7, NaNIEEE},
	F8E3M4:        {8, 3, 4, 3, NaNIEEE},
	F8E8M0FNU:     {8, 8, 0, 127, NaNE8M0},
	F6E2M3FN:      {6, 2, 3, 1, NaNFinite},
	F6E3M2FN:      {6, 3, 2, 3, NaNFinite},
	F4E2M1FN:      {4, 2, 1, 1, NaNFinite},
}

// NarrowFormat returns the format of a narrow float type.
func NarrowFormat(d DType) (NarrowFloatFormat, bool) {
	f, ok := narrowFormats[d]
	return f, ok
}

func (f NarrowFloatFormat) signBit() uint64 {
	if f.Kind == NaNE8M0 {
		return 0
	}
	return 1 << (f.Bits - 1)
}

// MaxCode is the bit pattern of the largest finite value.
func (f NarrowFloatFormat) MaxCode() uint64 {
	switch f.Kind {
	case NaNIEEE:
		return (1<<f.Exp-1)<<f.Mant - 1
	case NaNFN:
		return 1<<(f.Bits-1) - 2
	case NaNE8M0:
		return 0xFE
	}
	return 1<<(f.Bits-1) - 1
}

// NaNCode is the bit pattern a NaN converts to (with sign bit clear; the
// IEEE and FN kinds keep the NaN's sign), or 0 for the finite-only types.
func (f NarrowFloatFormat) NaNCode() uint64 {
	switch f.Kind {
	case NaNIEEE:
		return (1<<f.Exp-1)<<f.Mant | 1<<(f.Mant-1)
	case NaNFN:
		return 1<<(f.Bits-1) - 1
	case NaNFNUZ:
		return 1 << (f.Bits - 1)
	case NaNE8M0:
		return 0xFF
	}
	return 0
}

// Decode widens a bit pattern (the low f.Bits bits of b) to float64,
// exactly.
func (f NarrowFloatFormat) Decode(b uint64) float64 {
	b &= 1<<f.Bits - 1
	if f.Kind == NaNE8M0 {
		if b == 0xFF {
			return math.NaN()
		}
		return math.Ldexp(1, int(b)-127)
	}
	neg := b&f.signBit() != 0
	mag := b &^ f.signBit()
	e := int(mag >> f.Mant)
	m := mag & (1<<f.Mant - 1)
	var v float64
	switch {
	case f.Kind == NaNFNUZ && b == f.NaNCode():
		return math.NaN()
	case f.Kind == NaNFN && mag == f.NaNCode():
		return math.Copysign(math.NaN(), sgn(neg))
	case f.Kind == NaNIEEE && e == 1<<f.Exp-1:
		if m == 0 {
			return math.Inf(int(sgn(neg)))
		}
		return math.Copysign(math.NaN(), sgn(neg))
	case e == 0:
		v = math.Ldexp(float64(m), 1-f.Bias-f.Mant)
	default:
		v = math.Ldexp(float64(m|1<<f.Mant), e-f.Bias-f.Mant)
	}
	return math.Copysign(v, sgn(neg))
}

func sgn(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

// Encode rounds x once to nearest even into the format and returns the
// bit pattern (see the rules at the top of this file).
func (f NarrowFloatFormat) Encode(x float64) uint64 {
	if f.Kind == NaNE8M0 {
		if x != x || x <= 0 || math.IsInf(x, 1) {
			return 0xFF
		}
		fr, e := math.Frexp(x) // x = fr·2^e, fr in [0.5, 1)
		e--
		if fr >= 0.75 {
			e++
		}
		switch {
		case e < -127:
			return 0
		case e > 127:
			return 0xFF
		}
		return uint64(e + 127)
	}
	var sign uint64
	if math.Signbit(x) {
		sign = f.signBit()
	}
	if x != x {
		switch f.Kind {
		case NaNIEEE, NaNFN:
			return sign | f.NaNCode()
		}
		return f.NaNCode()
	}
	code := f.MaxCode() + 1 // overflow, unless x rounds to a finite value
	if !math.IsInf(x, 0) {
		a := math.Abs(x)
		emin := 1 - f.Bias
		e := emin
		if a != 0 {
			_, e = math.Frexp(a)
			e = max(e-1, emin)
		}
		q := e - f.Mant
		n := math.RoundToEven(math.Ldexp(a, -q)) // at most 2^(Mant+1)
		c := uint64(n) + uint64(e-emin)<<f.Mant
		if c <= f.MaxCode() {
			code = c
		}
	}
	if code > f.MaxCode() {
		switch f.Kind {
		case NaNIEEE:
			code = (1<<f.Exp - 1) << f.Mant
		case NaNFN:
			code = f.NaNCode()
		case NaNFNUZ:
			return f.NaNCode()
		default:
			code = f.MaxCode()
		}
	}
	if code == 0 && f.Kind == NaNFNUZ {
		return 0
	}
	return sign | code
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
