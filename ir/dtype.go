package ir

import "fmt"

// DType is an element type. The set is StableHLO's: booleans, signed and
// unsigned integers, IEEE and brain floats, and complex numbers.
type DType uint8

// Element types, in the order the text form and docs list them.
const (
	InvalidDType DType = iota
	Bool               // i1
	S8                 // si8
	S16                // si16
	S32                // si32
	S64                // si64
	U8                 // ui8
	U16                // ui16
	U32                // ui32
	U64                // ui64
	F16                // f16, IEEE half
	BF16               // bf16, brain float
	F32                // f32
	F64                // f64
	C64                // complex64: two f32
	C128               // complex128: two f64
	// The narrow types (narrow.go): sub-byte integers and the f8, f6 and
	// f4 floats, each stored one element per byte.
	S2            // si2
	S4            // si4
	U2            // ui2
	U4            // ui4
	F8E4M3FN      // f8E4M3FN
	F8E5M2        // f8E5M2
	F8E4M3FNUZ    // f8E4M3FNUZ
	F8E5M2FNUZ    // f8E5M2FNUZ
	F8E4M3B11FNUZ // f8E4M3B11FNUZ
	F8E4M3        // f8E4M3
	F8E3M4        // f8E3M4
	F8E8M0FNU     // f8E8M0FNU
	F6E2M3FN      // f6E2M3FN
	F6E3M2FN      // f6E3M2FN
	F4E2M1FN      // f4E2M1FN
	numDTypes
)

type dtypeInfo struct {
	name string // .sir text name
	mlir string // StableHLO element type spelling
	bits int
}

var dtypeInfos = [numDTypes]dtypeInfo{
	InvalidDType:  {"invalid", "invalid", 0},
	Bool:          {"i1", "i1", 1},
	S8:            {"si8", "i8", 8},
	S16:           {"si16", "i16", 16},
	S32:           {"si32", "i32", 32},
	S64:           {"si64", "i64", 64},
	U8:            {"ui8", "ui8", 8},
	U16:           {"ui16", "ui16", 16},
	U32:           {"ui32", "ui32", 32},
	U64:           {"ui64", "ui64", 64},
	F16:           {"f16", "f16", 16},
	BF16:          {"bf16", "bf16", 16},
	F32:           {"f32", "f32", 32},
	F64:           {"f64", "f64", 64},
	C64:           {"c64", "complex<f32>", 64},
	C128:          {"c128", "complex<f64>", 128},
	S2:            {"si2", "i2", 2},
	S4:            {"si4", "i4", 4},
	U2:            {"ui2", "ui2", 2},
	U4:            {"ui4", "ui4", 4},
	F8E4M3FN:      {"f8E4M3FN", "f8E4M3FN", 8},
	F8E5M2:        {"f8E5M2", "f8E5M2", 8},
	F8E4M3FNUZ:    {"f8E4M3FNUZ", "f8E4M3FNUZ", 8},
	F8E5M2FNUZ:    {"f8E5M2FNUZ", "f8E5M2FNUZ", 8},
	F8E4M3B11FNUZ: {"f8E4M3B11FNUZ", "f8E4M3B11FNUZ", 8},
	F8E4M3:        {"f8E4M3", "f8E4M3", 8},
	F8E3M4:        {"f8E3M4", "f8E3M4", 8},
	F8E8M0FNU:     {"f8E8M0FNU", "f8E8M0FNU", 8},
	F6E2M3FN:      {"f6E2M3FN", "f6E2M3FN", 6},
	F6E3M2FN:      {"f6E3M2FN", "f6E3M2FN", 6},
	F4E2M1FN:      {"f4E2M1FN", "f4E2M1FN", 4},
}

// AllDTypes lists the element types every part of Stela handles (the
// frontend, lowering, the evaluator and the CPU plugin). NarrowDTypes
// lists the rest.
var AllDTypes = []DType{Bool, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128}

// NarrowDTypes are the sub-byte integers and the 8-, 6- and 4-bit floats
// (narrow.go): StableHLO programs that use them import, evaluate and
// compile, but the Go frontend does not make them.
var NarrowDTypes = []DType{S2, S4, U2, U4, F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ,
	F8E4M3, F8E3M4, F8E8M0FNU, F6E2M3FN, F6E3M2FN, F4E2M1FN}

// EveryDType is AllDTypes followed by NarrowDTypes.
var EveryDType = append(append([]DType{}, AllDTypes...), NarrowDTypes...)

func (d DType) valid() bool { return d > InvalidDType && d < numDTypes }

// String returns the .sir spelling: i1, si32, ui8, f32, bf16, c64, ...
func (d DType) String() string {
	if int(d) < len(dtypeInfos) {
		return dtypeInfos[d].name
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// MLIR returns the StableHLO spelling of the element type (signless iN for
// signed integers, complex<f32> for c64).
func (d DType) MLIR() string {
	if d.valid() {
		return dtypeInfos[d].mlir
	}
	return d.String()
}

// Bits is the width of one element in bits (1 for i1).
func (d DType) Bits() int {
	if d.valid() {
		return dtypeInfos[d].bits
	}
	return 0
}

// Size is the storage size of one element in bytes (i1 and the narrow
// types take one byte).
func (d DType) Size() int {
	if d == Bool || d.IsNarrow() {
		return 1
	}
	return d.Bits() / 8
}

// ParseDType parses the .sir spelling of an element type.
func ParseDType(s string) (DType, bool) {
	for _, d := range EveryDType {
		if dtypeInfos[d].name == s {
			return d, true
		}
	}
	return InvalidDType, false
}

// IsBool reports d == i1.
func (d DType) IsBool() bool { return d == Bool }

// IsSigned reports a signed integer type.
func (d DType) IsSigned() bool { return d >= S8 && d <= S64 || d == S2 || d == S4 }

// IsUnsigned reports an unsigned integer type.
func (d DType) IsUnsigned() bool { return d >= U8 && d <= U64 || d == U2 || d == U4 }

// IsInteger reports a signed or unsigned integer type (not i1).
func (d DType) IsInteger() bool { return d.IsSigned() || d.IsUnsigned() }

// IsFloat reports a real floating-point type.
func (d DType) IsFloat() bool { return d >= F16 && d <= F64 || d.IsNarrowFloat() }

// IsNarrow reports one of NarrowDTypes.
func (d DType) IsNarrow() bool { return d >= S2 && d <= F4E2M1FN }

// IsNarrowFloat reports an f8, f6 or f4 type.
func (d DType) IsNarrowFloat() bool { return d >= F8E4M3FN && d <= F4E2M1FN }

// IsComplex reports a complex type.
func (d DType) IsComplex() bool { return d == C64 || d == C128 }

// ComplexPart is the element type of the real and imaginary parts of a
// complex type, and d itself for any other type.
func (d DType) ComplexPart() DType {
	switch d {
	case C64:
		return F32
	case C128:
		return F64
	}
	return d
}

// ComplexOf is the complex type whose parts are d (f32 → c64, f64 → c128),
// or InvalidDType.
func ComplexOf(d DType) DType {
	switch d {
	case F32:
		return C64
	case F64:
		return C128
	}
	return InvalidDType
}
