package pjrt

import (
	"testing"

	"github.com/stela-ml/stela/ir"
)

func TestBufferTypeOf(t *testing.T) {
	want := map[ir.DType]BufferType{
		ir.Bool: BufferPRED, ir.S8: BufferS8, ir.S16: BufferS16, ir.S32: BufferS32, ir.S64: BufferS64,
		ir.U8: BufferU8, ir.U16: BufferU16, ir.U32: BufferU32, ir.U64: BufferU64,
		ir.F16: BufferF16, ir.BF16: BufferBF16, ir.F32: BufferF32, ir.F64: BufferF64,
		ir.C64: BufferC64, ir.C128: BufferC128,
	}
	for _, d := range ir.AllDTypes {
		bt, err := BufferTypeOf(d)
		if err != nil || bt != want[d] {
			t.Errorf("BufferTypeOf(%v) = %v, %v; want %v", d, bt, err, want[d])
		}
		if back, ok := bt.DType(); !ok || back != d {
			t.Errorf("%v.DType() = %v, %v; want %v", bt, back, ok, d)
		}
	}
	if _, err := BufferTypeOf(ir.InvalidDType); err == nil {
		t.Error("BufferTypeOf(InvalidDType) succeeded")
	}
	for d, bt := range map[ir.DType]BufferType{ir.S4: BufferS4, ir.U2: BufferU2, ir.F8E5M2: BufferF8E5M2, ir.F4E2M1FN: BufferF4E2M1FN} {
		if got, err := BufferTypeOf(d); err != nil || got != bt {
			t.Errorf("BufferTypeOf(%v) = %v, %v; want %v", d, got, err, bt)
		}
		if back, ok := bt.DType(); !ok || back != d {
			t.Errorf("%v.DType() = %v, %v; want %v", bt, back, ok, d)
		}
	}
	if _, err := BufferTypeOf(ir.F6E2M3FN); err == nil {
		t.Error("BufferTypeOf(f6E2M3FN) succeeded: PJRT has no f6 buffer type")
	}
	for _, bt := range []BufferType{BufferInvalid, BufferTOKEN, 99} {
		if d, ok := bt.DType(); ok {
			t.Errorf("%v.DType() = %v, want none", bt, d)
		}
	}
	// The numbering is PJRT's, not XLA's PrimitiveType.
	if BufferBF16 != 13 || BufferC64 != 14 || BufferC128 != 15 || BufferF4E2M1FN.String() != "F4E2M1FN" {
		t.Error("BufferType numbering")
	}
}
