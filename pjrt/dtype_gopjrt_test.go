package pjrt_test

import (
	"testing"

	"github.com/gomlx/gopjrt/dtypes"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// TestBufferTypesMatchGopjrt checks the element type numbers and sizes
// against gopjrt's dtypes, which mirror PJRT_Buffer_Type independently of
// Stela (and keep gopjrt, whose header the ABI test reads, in go.mod).
func TestBufferTypesMatchGopjrt(t *testing.T) {
	for bt := pjrt.BufferInvalid; bt <= pjrt.BufferF4E2M1FN; bt++ {
		if got, ok := dtypes.MapOfNames[bt.String()]; !ok || int(got) != int(bt) {
			t.Errorf("%v = %d here, gopjrt has %v = %d", bt, bt, got, got)
		}
	}
	for _, d := range ir.AllDTypes {
		bt, err := pjrt.BufferTypeOf(d)
		if err != nil {
			t.Fatal(err)
		}
		if size := dtypes.DType(bt).Size(); size != d.Size() {
			t.Errorf("%v: %d bytes in ir, gopjrt says %v has %d", d, d.Size(), bt, size)
		}
	}
}
