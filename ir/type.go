package ir

import (
	"fmt"
	"math"
	mbits "math/bits"
	"strconv"
	"strings"
)

// DynamicDim marks a dimension whose size is known only at run time. Static
// shapes are all Stela supports today: Verify rejects dynamic dimensions, and
// the text form spells them "?" so that the place for them is clear.
const DynamicDim = -1

// Type is a tensor type: an element type and a shape. A scalar has an empty
// shape. Types are values; compare them with Equal.
type Type struct {
	DType DType
	Shape []int
}

// TensorOf builds a Type.
func TensorOf(d DType, dims ...int) Type {
	if dims == nil {
		dims = []int{}
	}
	return Type{DType: d, Shape: dims}
}

// Scalar is the rank-0 type of d.
func Scalar(d DType) Type { return Type{DType: d, Shape: []int{}} }

// Rank is the number of dimensions.
func (t Type) Rank() int { return len(t.Shape) }

// NumElements is the product of the dimensions (1 for a scalar).
func (t Type) NumElements() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// IsStatic reports whether every dimension is known.
func (t Type) IsStatic() bool {
	for _, d := range t.Shape {
		if d < 0 {
			return false
		}
	}
	return true
}

// Equal reports whether t and u have the same element type and shape.
func (t Type) Equal(u Type) bool { return t.DType == u.DType && ShapeEqual(t.Shape, u.Shape) }

// WithDType returns t with its element type replaced.
func (t Type) WithDType(d DType) Type { return Type{DType: d, Shape: t.Shape} }

// WithShape returns t with its shape replaced.
func (t Type) WithShape(dims []int) Type { return Type{DType: t.DType, Shape: dims} }

// String prints the .sir form: f32[2,3], si32[] for a scalar, f32[?,3] for a
// dynamic dimension.
func (t Type) String() string {
	var b strings.Builder
	b.WriteString(t.DType.String())
	b.WriteByte('[')
	for i, d := range t.Shape {
		if i > 0 {
			b.WriteByte(',')
		}
		if d < 0 {
			b.WriteByte('?')
		} else {
			b.WriteString(strconv.Itoa(d))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// MLIR prints the StableHLO form: tensor<2x3xf32>, tensor<f32>.
func (t Type) MLIR() string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range t.Shape {
		if d < 0 {
			b.WriteByte('?')
		} else {
			b.WriteString(strconv.Itoa(d))
		}
		b.WriteByte('x')
	}
	b.WriteString(t.DType.MLIR())
	b.WriteByte('>')
	return b.String()
}

// ParseType parses the .sir form of a type.
func ParseType(s string) (Type, error) {
	i := strings.IndexByte(s, '[')
	if i < 0 || !strings.HasSuffix(s, "]") {
		return Type{}, fmt.Errorf("bad type %q: want dtype[dims]", s)
	}
	d, ok := ParseDType(s[:i])
	if !ok {
		return Type{}, fmt.Errorf("bad type %q: unknown element type %q", s, s[:i])
	}
	body := s[i+1 : len(s)-1]
	dims := []int{}
	if body != "" {
		for _, f := range strings.Split(body, ",") {
			f = strings.TrimSpace(f)
			if f == "?" {
				dims = append(dims, DynamicDim)
				continue
			}
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 {
				return Type{}, fmt.Errorf("bad type %q: bad dimension %q", s, f)
			}
			dims = append(dims, n)
		}
	}
	return Type{DType: d, Shape: dims}, nil
}

// ShapeEqual reports whether two shapes are equal.
func ShapeEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Strides returns the row-major element strides of a shape.
func Strides(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}

// ByteSize is the size in bytes of a dense array of t (static shape), and
// false when it overflows an int64 (a shape such as 10⁷×10⁷×10⁷ of f64).
func (t Type) ByteSize() (int64, bool) {
	n := int64(t.DType.Size())
	for _, d := range t.Shape {
		if d < 0 {
			return 0, false
		}
		if d == 0 {
			return 0, true
		}
	}
	for _, d := range t.Shape {
		hi, lo := mbits.Mul64(uint64(n), uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		n = int64(lo)
	}
	return n, true
}
