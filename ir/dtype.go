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
	numDTypes
)

type dtypeInfo struct {
	name string // .sir text name
	mlir string // StableHLO element type spelling
	bits int
}

var dtypeInfos = [numDTypes]dtypeInfo{
	InvalidDType: {"invalid", "invalid", 0},
	Bool:         {"i1", "i1", 1},
	S8:           {"si8", "i8", 8},
	S16:          {"si16", "i16", 16},
	S32:          {"si32", "i32", 32},
	S64:          {"si64", "i64", 64},
	U8:           {"ui8", "ui8", 8},
	U16:          {"ui16", "ui16", 16},
	U32:          {"ui32", "ui32", 32},
	U64:          {"ui64", "ui64", 64},
	F16:          {"f16", "f16", 16},
	BF16:         {"bf16", "bf16", 16},
	F32:          {"f32", "f32", 32},
	F64:          {"f64", "f64", 64},
	C64:          {"c64", "complex<f32>", 64},
	C128:         {"c128", "complex<f64>", 128},
}

// AllDTypes lists every valid element type.
var AllDTypes = []DType{Bool, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128}

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

// Size is the storage size of one element in bytes (i1 takes one byte).
func (d DType) Size() int {
	if d == Bool {
		return 1
	}
	return d.Bits() / 8
}

// ParseDType parses the .sir spelling of an element type.
func ParseDType(s string) (DType, bool) {
	for _, d := range AllDTypes {
		if dtypeInfos[d].name == s {
			return d, true
		}
	}
	return InvalidDType, false
}

// IsBool reports d == i1.
func (d DType) IsBool() bool { return d == Bool }

// IsSigned reports a signed integer type.
func (d DType) IsSigned() bool { return d >= S8 && d <= S64 }

// IsUnsigned reports an unsigned integer type.
func (d DType) IsUnsigned() bool { return d >= U8 && d <= U64 }

// IsInteger reports a signed or unsigned integer type (not i1).
func (d DType) IsInteger() bool { return d.IsSigned() || d.IsUnsigned() }

// IsFloat reports a real floating-point type.
func (d DType) IsFloat() bool { return d >= F16 && d <= F64 }

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
