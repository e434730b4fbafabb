package stablehlo

import (
	"math"
	"strconv"
	"strings"
)

// Type is a StableHLO/MLIR type: TensorType, ElementType (a scalar type
// such as i64 used by attributes), TokenType, TupleType, FunctionType or
// OpaqueType.
type Type interface {
	// String returns the type's MLIR text.
	String() string
	isType()
}

// Dynamic is the size of a dynamic dimension (`?`), as MLIR's
// ShapedType::kDynamic.
const Dynamic int64 = math.MinInt64

// TensorType is a ranked (or unranked) tensor type:
// tensor<2x?x3xf32>, tensor<f32>, tensor<*xf32>,
// tensor<?xf32, #stablehlo.bounds<4>>.
type TensorType struct {
	// Shape holds the dimension sizes; Dynamic marks `?`. Empty for a
	// rank-0 tensor.
	Shape []int64
	Elem  ElementType
	// Encoding is the optional encoding attribute (bounds, sparsity).
	Encoding Attr
	// Unranked marks tensor<*xT>; Shape is then ignored.
	Unranked bool
}

// Tensor returns a ranked tensor type with element type elem and the given
// dimensions.
func Tensor(elem ElementType, dims ...int64) TensorType {
	return TensorType{Shape: append([]int64{}, dims...), Elem: elem}
}

// Rank returns the number of dimensions.
func (t TensorType) Rank() int { return len(t.Shape) }

// NumElements returns the number of elements, or -1 if a dimension is
// dynamic or the tensor is unranked.
func (t TensorType) NumElements() int64 {
	if t.Unranked {
		return -1
	}
	n := int64(1)
	for _, d := range t.Shape {
		if d < 0 {
			return -1
		}
		if d != 0 && n > math.MaxInt64/d {
			return -1
		}
		n *= d
	}
	return n
}

// IsStatic reports whether the tensor is ranked and has no dynamic
// dimension.
func (t TensorType) IsStatic() bool { return t.NumElements() >= 0 }

func (TensorType) isType() {}

func (t TensorType) String() string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	if t.Unranked {
		sb.WriteString("*x")
	} else {
		for _, d := range t.Shape {
			if d == Dynamic || d < 0 {
				sb.WriteByte('?')
			} else {
				sb.WriteString(strconv.FormatInt(d, 10))
			}
			sb.WriteByte('x')
		}
	}
	sb.WriteString(string(t.Elem))
	if t.Encoding != nil {
		sb.WriteString(", ")
		sb.WriteString(t.Encoding.String())
	}
	sb.WriteByte('>')
	return sb.String()
}

// ElementType is a scalar type, written as MLIR writes it: "i1", "i32"
// (signless; StableHLO uses signless integers for signed), "ui8", "f32",
// "bf16", "complex<f32>", "f8E4M3FN", "index", or an opaque quantized type
// kept verbatim ("!quant.uniform<i8:f32, 1.0:-128>"). It is also a Type
// (the type of a scalar attribute such as `1 : i64`).
type ElementType string

// Element types.
const (
	I1         ElementType = "i1"
	I2         ElementType = "i2"
	I4         ElementType = "i4"
	I8         ElementType = "i8"
	I16        ElementType = "i16"
	I32        ElementType = "i32"
	I64        ElementType = "i64"
	UI2        ElementType = "ui2"
	UI4        ElementType = "ui4"
	UI8        ElementType = "ui8"
	UI16       ElementType = "ui16"
	UI32       ElementType = "ui32"
	UI64       ElementType = "ui64"
	F16        ElementType = "f16"
	BF16       ElementType = "bf16"
	F32        ElementType = "f32"
	F64        ElementType = "f64"
	Complex64  ElementType = "complex<f32>"
	Complex128 ElementType = "complex<f64>"
	Index      ElementType = "index"
)

func (ElementType) isType() {}

func (e ElementType) String() string { return string(e) }

// intWidth returns the width of an integer type and whether it is
// unsigned; ok is false for non-integer types. "index" is 64 bits.
func (e ElementType) intWidth() (bits int, unsigned, ok bool) {
	s := string(e)
	if s == "index" {
		return 64, false, true
	}
	switch {
	case strings.HasPrefix(s, "ui"):
		s, unsigned = s[2:], true
	case strings.HasPrefix(s, "si"):
		s = s[2:]
	case strings.HasPrefix(s, "i"):
		s = s[1:]
	default:
		return 0, false, false
	}
	if s == "" || s[0] == '0' || len(s) > 2 {
		return 0, false, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 64 {
		return 0, false, false
	}
	return n, unsigned, true
}

// IsInteger reports whether e is an integer type (including i1 and
// index).
func (e ElementType) IsInteger() bool { _, _, ok := e.intWidth(); return ok }

// IsBool reports whether e is i1.
func (e ElementType) IsBool() bool { return e == I1 }

// IsUnsigned reports whether e is an unsigned integer type (uiN).
func (e ElementType) IsUnsigned() bool { _, u, ok := e.intWidth(); return ok && u }

// IsFloat reports whether e is a floating-point type (including the f8,
// f6 and f4 variants).
func (e ElementType) IsFloat() bool {
	s := string(e)
	return isElementTypeName(s) && (s == "bf16" || s == "tf32" || s[0] == 'f')
}

// IsComplex reports whether e is complex<f32> or complex<f64>.
func (e ElementType) IsComplex() bool { return strings.HasPrefix(string(e), "complex<") }

// IsQuantized reports whether e is a quantized (`!quant.*`) type.
func (e ElementType) IsQuantized() bool { return strings.HasPrefix(string(e), "!quant.") }

// ComplexPart returns the element type of the parts of a complex type
// ("f32" for complex<f32>), or "" if e is not complex.
func (e ElementType) ComplexPart() ElementType {
	if !e.IsComplex() {
		return ""
	}
	return ElementType(strings.TrimSuffix(strings.TrimPrefix(string(e), "complex<"), ">"))
}

// Bits returns the width of the type in bits (complex: both parts), or 0
// if unknown (opaque types).
func (e ElementType) Bits() int {
	if n, _, ok := e.intWidth(); ok {
		return n
	}
	switch e {
	case F16, BF16:
		return 16
	case F32:
		return 32
	case F64:
		return 64
	case Complex64:
		return 64
	case Complex128:
		return 128
	case "tf32":
		return 19
	}
	s := string(e)
	if strings.HasPrefix(s, "f8") {
		return 8
	}
	if strings.HasPrefix(s, "f6") {
		return 6
	}
	if strings.HasPrefix(s, "f4") {
		return 4
	}
	return 0
}

// TokenType is !stablehlo.token.
type TokenType struct{}

func (TokenType) isType()        {}
func (TokenType) String() string { return "!stablehlo.token" }

// TupleType is tuple<T1, T2, ...>.
type TupleType struct {
	Elems []Type
}

func (TupleType) isType() {}

func (t TupleType) String() string {
	var sb strings.Builder
	sb.WriteString("tuple<")
	for i, e := range t.Elems {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(typeString(e))
	}
	sb.WriteByte('>')
	return sb.String()
}

// FunctionType is (T1, T2) -> (R1, R2).
type FunctionType struct {
	Inputs, Results []Type
}

func (FunctionType) isType() {}

func (t FunctionType) String() string {
	var sb strings.Builder
	writeFunctionType(&sb, t.Inputs, t.Results)
	return sb.String()
}

// writeFunctionType writes `(a, b) -> r` / `(a) -> (r1, r2)` / `() -> ()`
// as MLIR does: the results are parenthesized unless there is exactly one
// that is not itself a function type.
func writeFunctionType(sb *strings.Builder, ins, outs []Type) {
	sb.WriteByte('(')
	for i, t := range ins {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(typeString(t))
	}
	sb.WriteString(") -> ")
	writeResultTypes(sb, outs)
}

func writeResultTypes(sb *strings.Builder, outs []Type) {
	if len(outs) == 1 {
		if _, isFn := outs[0].(FunctionType); !isFn {
			sb.WriteString(typeString(outs[0]))
			return
		}
	}
	sb.WriteByte('(')
	for i, t := range outs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(typeString(t))
	}
	sb.WriteByte(')')
}

// OpaqueType is a type the model does not interpret, kept verbatim
// (`!quant.uniform<i8:f32, 0.5:-128>`, `!dialect.name<...>`) so that a
// consumer can reject it with a clear message.
type OpaqueType struct {
	Text string
}

func (OpaqueType) isType()          {}
func (t OpaqueType) String() string { return t.Text }

// typeString is t.String() that tolerates nil.
func typeString(t Type) string {
	if t == nil {
		return "<<NULL TYPE>>"
	}
	return t.String()
}

// TypesEqual reports whether two types are the same.
func TypesEqual(a, b Type) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case TensorType:
		y, ok := b.(TensorType)
		if !ok || x.Elem != y.Elem || x.Unranked != y.Unranked || len(x.Shape) != len(y.Shape) {
			return false
		}
		if !x.Unranked {
			for i := range x.Shape {
				if x.Shape[i] != y.Shape[i] && !(x.Shape[i] < 0 && y.Shape[i] < 0) {
					return false
				}
			}
		}
		if (x.Encoding == nil) != (y.Encoding == nil) {
			return false
		}
		return x.Encoding == nil || x.Encoding.String() == y.Encoding.String()
	case ElementType:
		y, ok := b.(ElementType)
		return ok && x == y
	case TokenType:
		_, ok := b.(TokenType)
		return ok
	}
	return a.String() == b.String()
}
