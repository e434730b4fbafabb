package safetensors

import (
	"unsafe"

	"github.com/stela-ml/stela/ir"
)

// dtype is one of the format's element types.
type dtype struct {
	name string // as the header spells it
	size int    // bytes per element
	// order is the type's place in the reference implementation's dtype
	// list, which is by increasing alignment: writers put the data of
	// later types first, so every tensor's data starts aligned to its
	// element size (the data region starts 8-aligned).
	order int
	elem  ir.DType // InvalidDType for types Stela has no element type for
}

// dtypes are the element types a header may name: Stela's, and the 8-bit
// floats, which Open accepts (so that a file holding some is readable) but
// Literal cannot convert.
var dtypes = []dtype{
	{"BOOL", 1, 0, ir.Bool},
	{"U8", 1, 1, ir.U8},
	{"I8", 1, 2, ir.S8},
	{"F8_E5M2", 1, 3, ir.InvalidDType},
	{"F8_E4M3", 1, 4, ir.InvalidDType},
	{"I16", 2, 5, ir.S16},
	{"U16", 2, 6, ir.U16},
	{"F16", 2, 7, ir.F16},
	{"BF16", 2, 8, ir.BF16},
	{"I32", 4, 9, ir.S32},
	{"U32", 4, 10, ir.U32},
	{"F32", 4, 11, ir.F32},
	{"F64", 8, 12, ir.F64},
	{"I64", 8, 13, ir.S64},
	{"U64", 8, 14, ir.U64},
	{"F8_E8M0", 1, 15, ir.InvalidDType},
}

// dtypeNamed finds a header's dtype by name.
func dtypeNamed(name string) (dtype, bool) {
	for _, d := range dtypes {
		if d.name == name {
			return d, true
		}
	}
	return dtype{}, false
}

// dtypeOf finds the file dtype of a Stela element type.
func dtypeOf(e ir.DType) (dtype, bool) {
	for _, d := range dtypes {
		if d.elem == e && e != ir.InvalidDType {
			return d, true
		}
	}
	return dtype{}, false
}

// DTypeName returns the header's name for a Stela element type ("F32",
// "BF16", "I64", "BOOL"), or "" for one the format lacks (c64, c128).
func DTypeName(e ir.DType) string {
	d, _ := dtypeOf(e)
	return d.name
}

// littleEndian is whether this machine stores numbers as the format does,
// so that element data copies as bytes.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// decode builds a literal of type t from its little-endian image b, whose
// length the caller has checked.
func decode(t ir.Type, b []byte) (*ir.Literal, error) {
	if !littleEndian {
		return ir.LiteralFromBytes(t, b)
	}
	n := t.NumElements()
	var data any
	switch t.DType {
	case ir.Bool:
		s := make([]bool, n)
		for i := range s {
			s[i] = b[i] != 0 // a Go bool must be 0 or 1
		}
		data = s
	case ir.S8:
		data = copyAs[int8](b, n)
	case ir.S16:
		data = copyAs[int16](b, n)
	case ir.S32:
		data = copyAs[int32](b, n)
	case ir.S64:
		data = copyAs[int64](b, n)
	case ir.U8:
		data = copyAs[uint8](b, n)
	case ir.U16:
		data = copyAs[uint16](b, n)
	case ir.U32:
		data = copyAs[uint32](b, n)
	case ir.U64:
		data = copyAs[uint64](b, n)
	case ir.F16:
		data = copyAs[ir.Float16](b, n)
	case ir.BF16:
		data = copyAs[ir.BFloat16](b, n)
	case ir.F32:
		data = copyAs[float32](b, n)
	case ir.F64:
		data = copyAs[float64](b, n)
	default:
		return ir.LiteralFromBytes(t, b)
	}
	return &ir.Literal{Type: t, Data: data}, nil
}

// copyAs copies b into a new slice of n elements of E, on a little-endian
// machine: one memmove.
func copyAs[E any](b []byte, n int) []E {
	s := make([]E, n)
	copy(bytesOf(s), b)
	return s
}

// bytesOf views a slice's elements as bytes (its memory image on this
// machine).
func bytesOf[E any](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	var e E
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(e)))
}

// encode returns a literal's little-endian image: on a little-endian
// machine a view of its data, not a copy.
func encode(l *ir.Literal) []byte {
	if !littleEndian {
		return l.Bytes()
	}
	switch s := l.Data.(type) {
	case []bool: // Go stores a bool as the byte 0 or 1, as the format does
		return bytesOf(s)
	case []int8:
		return bytesOf(s)
	case []int16:
		return bytesOf(s)
	case []int32:
		return bytesOf(s)
	case []int64:
		return bytesOf(s)
	case []uint8:
		return s
	case []uint16:
		return bytesOf(s)
	case []uint32:
		return bytesOf(s)
	case []uint64:
		return bytesOf(s)
	case []ir.Float16:
		return bytesOf(s)
	case []ir.BFloat16:
		return bytesOf(s)
	case []float32:
		return bytesOf(s)
	case []float64:
		return bytesOf(s)
	}
	return l.Bytes()
}
