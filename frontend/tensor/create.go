package tensor

import (
	"fmt"
	"math"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
)

// FromSlice makes a concrete tensor on the default device from a copy of
// data. Without a shape it is one-dimensional; with one, the dimensions'
// product must equal len(data).
func FromSlice[T ir.Elem](data []T, shape ...int) *Tensor {
	if shape == nil {
		shape = []int{len(data)}
	}
	if err := checkShape(shape); err != nil {
		panic(fail("fromslice", "%v", err))
	}
	t := ir.TensorOf(ir.DTypeOf[T](), append([]int{}, shape...)...)
	if t.NumElements() != len(data) {
		panic(fail("fromslice", "%d elements for shape %v, want %d", len(data), shape, t.NumElements()))
	}
	return put(nil, &ir.Literal{Type: t, Data: append([]T{}, data...)})
}

// FromLiteral makes a concrete tensor on the default device from a copy of l.
func FromLiteral(l *ir.Literal) *Tensor {
	if l == nil {
		panic(fail("fromliteral", "nil literal"))
	}
	if _, err := ir.NewLiteral(l.Type, l.Data); err != nil {
		panic(fail("fromliteral", "%v", err))
	}
	return put(nil, l.Clone())
}

// Zeros makes a concrete tensor of zeros (false for i1).
func Zeros(dt ir.DType, shape ...int) *Tensor { return Full(dt, 0, shape...) }

// Ones makes a concrete tensor of ones (true for i1).
func Ones(dt ir.DType, shape ...int) *Tensor { return Full(dt, 1, shape...) }

// Full makes a concrete tensor with every element v, converted to dt as
// Convert would.
func Full(dt ir.DType, v float64, shape ...int) *Tensor {
	if err := checkShape(shape); err != nil {
		panic(fail("full", "%v", err))
	}
	l, err := fullLiteral(ir.TensorOf(dt, append([]int{}, shape...)...), v)
	if err != nil {
		panic(fail("full", "%v", err))
	}
	return put(nil, l)
}

// Iota makes a tensor whose values count 0, 1, 2, ... along dim and
// repeat along the other dimensions. It is an op: inside a traced function
// it records an iota instruction rather than making a concrete tensor.
func Iota(dt ir.DType, shape []int, dim int) *Tensor { return IotaLike(nil, dt, shape, dim) }

// Arange is the one-dimensional Iota: 0, 1, ..., n-1.
func Arange(dt ir.DType, n int) *Tensor { return IotaLike(nil, dt, []int{n}, 0) }

// The *Like constructors make tensors where x is: constants in x's trace
// when x is traced (emitted as constant ops, not captured as parameters),
// else on x's device, or the default device when x is nil.
// Op code uses them for the constants it needs (0.5 in GELU, the count in
// Mean), and user code can too.

// ScalarLike makes a rank-0 tensor of x's element type holding v.
func ScalarLike(x *Tensor, v float64) *Tensor {
	checkNotNil("scalarlike", x)
	l, err := fullLiteral(ir.Scalar(x.typ.DType), v)
	if err != nil {
		panic(fail("scalarlike", "%v", err))
	}
	return constantAt(x, l)
}

// FullLike makes a tensor of x's type with every element v.
func FullLike(x *Tensor, v float64) *Tensor {
	s := ScalarLike(x, v)
	if x.Rank() == 0 {
		return s
	}
	return broadcastInDim(s, x.typ.Shape, nil)
}

// ZerosLike makes a tensor of x's type filled with zeros.
func ZerosLike(x *Tensor) *Tensor { return FullLike(x, 0) }

// OnesLike makes a tensor of x's type filled with ones.
func OnesLike(x *Tensor) *Tensor { return FullLike(x, 1) }

// ConstantLike makes a tensor holding a copy of l, where x is.
func ConstantLike(x *Tensor, l *ir.Literal) *Tensor {
	if l == nil {
		panic(fail("constant", "nil literal"))
	}
	if _, err := ir.NewLiteral(l.Type, l.Data); err != nil {
		panic(fail("constant", "%v", err))
	}
	return constantAt(x, l.Clone())
}

// IotaLike is Iota made where x is (x may be nil).
func IotaLike(x *Tensor, dt ir.DType, shape []int, dim int) *Tensor {
	if err := checkShape(shape); err != nil {
		panic(fail("iota", "%v", err))
	}
	if dim < 0 {
		dim += len(shape)
	}
	return emit(x, ir.OpIota, nil, ir.IotaAttr{Type: ir.TensorOf(dt, append([]int{}, shape...)...), Dim: dim})[0]
}

// constantAt makes l a constant where x is; l is owned by the result.
func constantAt(x *Tensor, l *ir.Literal) *Tensor {
	if x != nil && x.sym != nil {
		return emit(x, ir.OpConstant, nil, ir.ConstantAttr{Value: l})[0]
	}
	if x != nil && x.buf != nil && eagerMode.Load() == int32(EagerFused) {
		// In fused eager mode a small constant (an op's 0.5, say) is part
		// of the window's program, as it is of a traced one, rather
		// than an input put on the device at each call.
		if t := fusedConstant(x, l); t != nil {
			return t
		}
	}
	return put(x, l)
}

// put stores l where x is (its device and commitment), or uncommitted on
// the default device when x is nil.
func put(x *Tensor, l *ir.Literal) *Tensor {
	if x != nil && x.buf != nil {
		return putOn(x.buf.Device(), l, x.Committed())
	}
	return putOn(DefaultDevice(), l, false)
}

func putOn(dev Device, l *ir.Literal, committed bool) *Tensor {
	b, err := dev.Put(l)
	if err != nil {
		panic(fail("put", "%v", err))
	}
	return FromResult(b, committed)
}

func checkShape(shape []int) error {
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("negative dimension in shape %v", shape)
		}
	}
	return nil
}

// checkAlloc is an error for a host array of t past the allocation limit
// (env.MaxAllocBytesVar), before anything is allocated: a fatal
// out-of-memory would kill the process.
func checkAlloc(t ir.Type) error {
	n, ok := t.ByteSize()
	return env.CheckAlloc(t.String(), n, ok)
}

func checkNotNil(op string, ts ...*Tensor) {
	for i, t := range ts {
		if t == nil {
			panic(fail(op, "operand #%d is nil", i))
		}
	}
}

// fullLiteral makes a literal of t with every element v, converted to the
// element type as Convert would: integers truncate toward zero and
// saturate, i1 is v != 0.
func fullLiteral(t ir.Type, v float64) (*ir.Literal, error) {
	if ir.GoElemType(t.DType) == nil {
		return nil, fmt.Errorf("invalid element type %v", t.DType)
	}
	if err := checkAlloc(t); err != nil {
		return nil, err
	}
	return ir.FullLiteral(t, v), nil
}

// extremeLiteral is the scalar that no element of dt is below (lowest) or
// above (highest): ∓inf for floats, the type's limits for integers. It is
// the identity of max (lowest) and min (highest) reductions.
func extremeLiteral(dt ir.DType, highest bool) (*ir.Literal, error) {
	t := ir.Scalar(dt)
	var data any
	switch dt {
	case ir.Bool:
		data = []bool{highest}
	case ir.S8:
		data = []int8{pick(highest, int8(math.MaxInt8), math.MinInt8)}
	case ir.S16:
		data = []int16{pick(highest, int16(math.MaxInt16), math.MinInt16)}
	case ir.S32:
		data = []int32{pick(highest, int32(math.MaxInt32), math.MinInt32)}
	case ir.S64:
		data = []int64{pick(highest, int64(math.MaxInt64), math.MinInt64)}
	case ir.U8:
		data = []uint8{pick(highest, uint8(math.MaxUint8), 0)}
	case ir.U16:
		data = []uint16{pick(highest, uint16(math.MaxUint16), 0)}
	case ir.U32:
		data = []uint32{pick(highest, uint32(math.MaxUint32), 0)}
	case ir.U64:
		data = []uint64{pick(highest, uint64(math.MaxUint64), 0)}
	case ir.F16, ir.BF16, ir.F32, ir.F64:
		return fullLiteral(t, math.Inf(pick(highest, 1, -1)))
	default:
		return nil, fmt.Errorf("element type %v has no order", dt)
	}
	return ir.NewLiteral(t, data)
}

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}
