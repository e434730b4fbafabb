package pjrt

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// TestHostArrayCheckOverflow: sizes and strides whose products overflow
// an int are refused by HostArray.check, before any plugin reads the data
// (issue 20: ByteStrides {1<<62, 4} over 64 bytes passed and segfaulted
// the process in the plugin).
func TestHostArrayCheckOverflow(t *testing.T) {
	data := make([]byte, 64)
	for _, tc := range []struct {
		name string
		a    HostArray
		want string
	}{
		{"huge stride", HostArray{DType: ir.F32, Dims: []int{4, 4}, Data: data, ByteStrides: []int{1 << 62, 4}}, "overflow"},
		{"huge stride times dim", HostArray{DType: ir.F32, Dims: []int{5, 4}, Data: data, ByteStrides: []int{1 << 61, 4}}, "overflow"},
		{"huge negative stride", HostArray{DType: ir.F32, Dims: []int{4, 4}, Data: data, ByteStrides: []int{-1 << 62, 4}, Offset: 16}, "overflow"},
		{"min stride", HostArray{DType: ir.F32, Dims: []int{2, 4}, Data: data, ByteStrides: []int{math.MinInt, 4}}, "addresses bytes"},
		{"strides sum", HostArray{DType: ir.U8, Dims: []int{2, 2, 2}, Data: data, ByteStrides: []int{math.MaxInt / 2, math.MaxInt / 2, math.MaxInt / 2}}, "overflow"},
		{"dims product", HostArray{DType: ir.F32, Dims: []int{1 << 32, 1 << 32}, Data: data}, "overflow"},
		{"bytes product", HostArray{DType: ir.F64, Dims: []int{1 << 61}, Data: data}, "overflow"},
		{"huge offset", HostArray{DType: ir.F32, Dims: []int{4}, Data: data, Offset: math.MaxInt - 2}, "overflow"},
		{"negative offset", HostArray{DType: ir.F32, Dims: []int{4}, Data: data, Offset: -4}, "offset"},
	} {
		_, _, err := tc.a.check("test")
		if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: check = %v, want an InvalidArgument error mentioning %q", tc.name, err, tc.want)
		}
	}
	// The edges that fit still pass: zero strides (broadcast), a stride
	// that overflows only along an empty dimension.
	for _, a := range []HostArray{
		{DType: ir.F32, Dims: []int{1 << 40, 4}, Data: data, ByteStrides: []int{0, 4}},
		{DType: ir.F32, Dims: []int{1, 4}, Data: data, ByteStrides: []int{1 << 62, 4}},
		{DType: ir.F32, Dims: []int{0, 1 << 62}, Data: nil},
	} {
		if _, _, err := a.check("test"); err != nil {
			t.Errorf("%v %v strides %v: %v", a.DType, a.Dims, a.ByteStrides, err)
		}
	}
}
