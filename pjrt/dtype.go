package pjrt

import (
	"fmt"

	"github.com/stela-ml/stela/ir"
)

// BufferType is a PJRT_Buffer_Type: an element type as PJRT numbers it
// (not XLA's PrimitiveType numbering, where BF16 is 16).
type BufferType int32

// The PJRT element types. Only those with an ir.DType can cross into Stela;
// the rest appear in buffers and executables of other producers.
const (
	BufferInvalid       BufferType = 0
	BufferPRED          BufferType = 1
	BufferS8            BufferType = 2
	BufferS16           BufferType = 3
	BufferS32           BufferType = 4
	BufferS64           BufferType = 5
	BufferU8            BufferType = 6
	BufferU16           BufferType = 7
	BufferU32           BufferType = 8
	BufferU64           BufferType = 9
	BufferF16           BufferType = 10
	BufferF32           BufferType = 11
	BufferF64           BufferType = 12
	BufferBF16          BufferType = 13
	BufferC64           BufferType = 14
	BufferC128          BufferType = 15
	BufferF8E5M2        BufferType = 16
	BufferF8E4M3FN      BufferType = 17
	BufferF8E4M3B11FNUZ BufferType = 18
	BufferF8E5M2FNUZ    BufferType = 19
	BufferF8E4M3FNUZ    BufferType = 20
	BufferS4            BufferType = 21
	BufferU4            BufferType = 22
	BufferTOKEN         BufferType = 23
	BufferS2            BufferType = 24
	BufferU2            BufferType = 25
	BufferF8E4M3        BufferType = 26
	BufferF8E3M4        BufferType = 27
	BufferF8E8M0FNU     BufferType = 28
	BufferF4E2M1FN      BufferType = 29
)

var bufferTypeNames = [...]string{
	"INVALID", "PRED", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64", "F16", "F32", "F64",
	"BF16", "C64", "C128", "F8E5M2", "F8E4M3FN", "F8E4M3B11FNUZ", "F8E5M2FNUZ", "F8E4M3FNUZ",
	"S4", "U4", "TOKEN", "S2", "U2", "F8E4M3", "F8E3M4", "F8E8M0FNU", "F4E2M1FN",
}

func (t BufferType) String() string {
	if t >= 0 && int(t) < len(bufferTypeNames) {
		return bufferTypeNames[t]
	}
	return fmt.Sprintf("BufferType(%d)", int32(t))
}

var dtypeToBuffer = map[ir.DType]BufferType{
	ir.Bool: BufferPRED,
	ir.S8:   BufferS8, ir.S16: BufferS16, ir.S32: BufferS32, ir.S64: BufferS64,
	ir.U8: BufferU8, ir.U16: BufferU16, ir.U32: BufferU32, ir.U64: BufferU64,
	ir.F16: BufferF16, ir.BF16: BufferBF16, ir.F32: BufferF32, ir.F64: BufferF64,
	ir.C64: BufferC64, ir.C128: BufferC128,
	// The narrow types, one element per byte (the value in the low bits,
	// as ml_dtypes stores them). The f6 types have no PJRT buffer type.
	ir.S2: BufferS2, ir.S4: BufferS4, ir.U2: BufferU2, ir.U4: BufferU4,
	ir.F8E4M3FN: BufferF8E4M3FN, ir.F8E5M2: BufferF8E5M2, ir.F8E4M3FNUZ: BufferF8E4M3FNUZ,
	ir.F8E5M2FNUZ: BufferF8E5M2FNUZ, ir.F8E4M3B11FNUZ: BufferF8E4M3B11FNUZ, ir.F8E4M3: BufferF8E4M3,
	ir.F8E3M4: BufferF8E3M4, ir.F8E8M0FNU: BufferF8E8M0FNU, ir.F4E2M1FN: BufferF4E2M1FN,
}

// BufferTypeOf maps a Stela element type to PJRT's. Every valid ir.DType
// has one; Bool is PRED, one byte per element.
func BufferTypeOf(d ir.DType) (BufferType, error) {
	if t, ok := dtypeToBuffer[d]; ok {
		return t, nil
	}
	return BufferInvalid, errorf("BufferTypeOf", CodeInvalidArgument, "element type %v has no PJRT buffer type", d)
}

// DType maps a PJRT element type to Stela's; ok is false for the types
// Stela does not have (F8 variants, sub-byte integers, TOKEN).
func (t BufferType) DType() (d ir.DType, ok bool) {
	for d, bt := range dtypeToBuffer {
		if bt == t {
			return d, true
		}
	}
	return ir.InvalidDType, false
}
