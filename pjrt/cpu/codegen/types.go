package codegen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir/types"
	"github.com/stela-ml/stela/stablehlo"
)

// elemKind is an element type the code generator supports.
type elemKind int

const (
	kBool elemKind = iota + 1 // i1, stored as one byte 0/1
	kI32                      // StableHLO's signless i32, signed (si32)
	kI64                      // si64
	kF32
	kF64
)

// elemOf maps a StableHLO element type to a supported kind.
func elemOf(e stablehlo.ElementType) (elemKind, bool) {
	switch e {
	case stablehlo.I1:
		return kBool, true
	case stablehlo.I32:
		return kI32, true
	case stablehlo.I64:
		return kI64, true
	case stablehlo.F32:
		return kF32, true
	case stablehlo.F64:
		return kF64, true
	}
	return extElemOf(e)
}

// isFloat: a real float kind (f16 and bf16 included); isInt: an integer
// kind, signed or unsigned (i1 excluded).
func (k elemKind) isFloat() bool { return k == kF32 || k == kF64 || k.isHalf() }
func (k elemKind) isInt() bool   { return k.isSigned() || k.isUnsigned() }

// bits is the width of the register type (1 for i1).
func (k elemKind) bits() int {
	if x, ok := extKinds[k]; ok {
		return x.bits
	}
	switch k {
	case kBool:
		return 1
	case kI32, kF32:
		return 32
	}
	return 64
}

// size is the storage size in bytes.
func (k elemKind) size() int64 {
	if x, ok := extKinds[k]; ok {
		return x.size
	}
	switch k {
	case kBool:
		return 1
	case kI32, kF32:
		return 4
	}
	return 8
}

// reg is the LLVM type of a value in registers.
func (k elemKind) reg() types.Type {
	if x, ok := extKinds[k]; ok {
		return x.reg
	}
	switch k {
	case kBool:
		return types.I1
	case kI32:
		return types.I32
	case kI64:
		return types.I64
	case kF32:
		return types.Float
	}
	return types.Double
}

// mem is the LLVM type of an element in memory.
func (k elemKind) mem() types.Type {
	if k == kBool {
		return types.I8
	}
	return k.reg()
}

// intOfSameWidth is the integer type whose bits hold a float of kind k.
func (k elemKind) intOfSameWidth() *types.IntType {
	if k.isMini() {
		return types.I8
	}
	if k.isHalf() {
		return types.I16
	}
	if k.bits() == 32 {
		return types.I32
	}
	return types.I64
}

// sir is Stela's .sir spelling, used in the signature string.
func (k elemKind) sir() string {
	if x, ok := extKinds[k]; ok {
		return x.sir
	}
	switch k {
	case kBool:
		return "i1"
	case kI32:
		return "si32"
	case kI64:
		return "si64"
	case kF32:
		return "f32"
	}
	return "f64"
}

// mlir is the StableHLO spelling, for messages.
func (k elemKind) mlir() string {
	if x, ok := extKinds[k]; ok {
		return x.mlir
	}
	switch k {
	case kBool:
		return "i1"
	case kI32:
		return "i32"
	case kI64:
		return "i64"
	case kF32:
		return "f32"
	}
	return "f64"
}

// ttype is a static tensor type of a supported element kind.
type ttype struct {
	elem  elemKind
	shape []int64
}

func (t ttype) rank() int { return len(t.shape) }

func (t ttype) numElems() int64 {
	n := int64(1)
	for _, d := range t.shape {
		n *= d
	}
	return n
}

func (t ttype) bytes() int64 { return t.numElems() * t.elem.size() }

func (t ttype) String() string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range t.shape {
		sb.WriteString(strconv.FormatInt(d, 10))
		sb.WriteByte('x')
	}
	sb.WriteString(t.elem.mlir())
	sb.WriteByte('>')
	return sb.String()
}

func (t ttype) equal(u ttype) bool { return t.elem == u.elem && slices.Equal(t.shape, u.shape) }

// strides returns row-major strides in elements.
func strides(shape []int64) []int64 {
	s := make([]int64, len(shape))
	acc := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= shape[i]
	}
	return s
}

// maxElems bounds the size of one tensor (elements), so that index
// arithmetic in i64 and buffer offsets cannot overflow.
const maxElems = int64(1) << 40

// tensorType converts a StableHLO type, rejecting what the code generator
// does not support (an *UnsupportedError) or what is malformed.
func tensorType(t stablehlo.Type) (ttype, error) {
	tt, ok := t.(stablehlo.TensorType)
	if !ok {
		return ttype{}, unsupportedf("type %s", t)
	}
	if tt.Unranked || !tt.IsStatic() {
		return ttype{}, unsupportedf("dynamic shape %s", tt)
	}
	if tt.Encoding != nil {
		return ttype{}, unsupportedf("tensor encoding in %s", tt)
	}
	k, ok := elemOf(tt.Elem)
	if !ok {
		return ttype{}, unsupportedf("element type %s", tt.Elem)
	}
	n := int64(1)
	for _, d := range tt.Shape {
		if d < 0 {
			return ttype{}, fmt.Errorf("invalid dimension %d in %s", d, tt)
		}
		if d > 0 && n > maxElems/d {
			return ttype{}, unsupportedf("tensor of more than 2^40 elements %s", tt)
		}
		n *= d
	}
	return ttype{elem: k, shape: append([]int64(nil), tt.Shape...)}, nil
}
