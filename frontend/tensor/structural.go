package tensor

import (
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Data movement: broadcasting, reshaping, slicing, joining. Axes may be
// negative, counting from the end, as in numpy.

// normAxis resolves a possibly negative axis of a rank-r tensor.
func normAxis(op string, axis, rank int) int {
	a := axis
	if a < 0 {
		a += rank
	}
	if a < 0 || a >= rank {
		panic(fail(op, "axis %d is out of range for rank %d", axis, rank))
	}
	return a
}

// normAxes resolves axes and rejects duplicates.
func normAxes(op string, axes []int, rank int) []int {
	out := make([]int, len(axes))
	for i, a := range axes {
		out[i] = normAxis(op, a, rank)
		if slices.Contains(out[:i], out[i]) {
			panic(fail(op, "axis %d appears twice in %v", axes[i], axes))
		}
	}
	return out
}

func iotaInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// BroadcastTo broadcasts x to shape by numpy's rules: x's dimensions align
// with the trailing ones of shape and each is 1 or equal.
func BroadcastTo(x *Tensor, shape ...int) *Tensor {
	checkNotNil("broadcast_in_dim", x)
	return broadcastTo(x, shape)
}

func broadcastTo(x *Tensor, shape []int) *Tensor {
	if ir.ShapeEqual(x.typ.Shape, shape) {
		return x
	}
	r, n := x.Rank(), len(shape)
	if r > n {
		panic(fail("broadcast_in_dim", "cannot broadcast %v to a shape of lower rank %v", x.typ, shape))
	}
	for i, d := range x.typ.Shape {
		if d != 1 && d != shape[n-r+i] {
			panic(fail("broadcast_in_dim", "cannot broadcast %v to shape %v: dimension %d is %d, want 1 or %d", x.typ, shape, i, d, shape[n-r+i]))
		}
	}
	return broadcastInDim(x, shape, nil)
}

// BroadcastInDim is StableHLO's broadcast_in_dim: operand dimension i
// becomes result dimension dims[i] of shape; the others are new.
func BroadcastInDim(x *Tensor, shape, dims []int) *Tensor {
	checkNotNil("broadcast_in_dim", x)
	if dims == nil {
		dims = []int{}
	}
	return broadcastInDim(x, shape, dims)
}

// broadcastInDim emits broadcast_in_dim; nil dims align x's dimensions with
// the trailing ones of shape.
func broadcastInDim(x *Tensor, shape, dims []int) *Tensor {
	if dims == nil {
		dims = make([]int, x.Rank())
		for i := range dims {
			dims[i] = len(shape) - x.Rank() + i
		}
	}
	attr := ir.BroadcastInDimAttr{Shape: slices.Clone(shape), Dims: slices.Clone(dims)}
	return emit(nil, ir.OpBroadcastInDim, []*Tensor{x}, attr)[0]
}

// Reshape gives x a new shape with the same number of elements, in
// row-major order. One dimension may be -1: it is inferred.
func Reshape(x *Tensor, shape ...int) *Tensor {
	checkNotNil("reshape", x)
	shape = slices.Clone(shape)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d == -1:
			panic(fail("reshape", "more than one -1 in shape %v", shape))
		case d < 0:
			panic(fail("reshape", "negative dimension in shape %v", shape))
		default:
			known *= d
		}
	}
	n := x.NumElements()
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			panic(fail("reshape", "cannot reshape %v (%d elements) to %v", x.typ, n, shape))
		}
		shape[infer] = n / known
	} else if known != n {
		panic(fail("reshape", "cannot reshape %v (%d elements) to %v (%d elements)", x.typ, n, shape, known))
	}
	if ir.ShapeEqual(shape, x.typ.Shape) {
		return x
	}
	return emit(nil, ir.OpReshape, []*Tensor{x}, ir.ReshapeAttr{Shape: shape})[0]
}

// Transpose permutes the dimensions: result dimension i is x's dimension
// perm[i]. Without perm it reverses them, as numpy does.
func Transpose(x *Tensor, perm ...int) *Tensor {
	checkNotNil("transpose", x)
	if len(perm) == 0 {
		perm = make([]int, x.Rank())
		for i := range perm {
			perm[i] = x.Rank() - 1 - i
		}
	}
	if len(perm) != x.Rank() {
		panic(fail("transpose", "permutation %v has %d entries for %v", perm, len(perm), x.typ))
	}
	p := normAxes("transpose", perm, x.Rank())
	if slices.Equal(p, iotaInts(len(p))) {
		return x
	}
	return emit(nil, ir.OpTranspose, []*Tensor{x}, ir.TransposeAttr{Perm: p})[0]
}

// ExpandDims inserts a dimension of size 1 at axis (which may be Rank()).
func ExpandDims(x *Tensor, axis int) *Tensor {
	defer named(opExpandDims)
	checkNotNil(opExpandDims, x)
	a := normAxis(opExpandDims, axis, x.Rank()+1)
	shape := slices.Insert(x.Shape(), a, 1)
	return Reshape(x, shape...)
}

// Squeeze removes the given dimensions of size 1, or all of them.
func Squeeze(x *Tensor, axes ...int) *Tensor {
	defer named(opSqueeze)
	checkNotNil(opSqueeze, x)
	drop := normAxes(opSqueeze, axes, x.Rank())
	var shape []int
	for i, d := range x.typ.Shape {
		switch {
		case len(axes) == 0 && d == 1:
		case slices.Contains(drop, i):
			if d != 1 {
				panic(fail(opSqueeze, "cannot squeeze dimension %d of %v: size is %d, not 1", i, x.typ, d))
			}
		default:
			shape = append(shape, d)
		}
	}
	return Reshape(x, shape...)
}

// Slice takes x[start:limit:stride] per dimension, like numpy: negative
// start and limit count from the end, both are clamped to the dimension,
// a nil stride means ones, and dimensions past len(start) are taken whole.
// Strides must be positive.
func Slice(x *Tensor, start, limit, stride []int) *Tensor {
	checkNotNil("slice", x)
	r := x.Rank()
	if len(start) > r || len(limit) != len(start) || (stride != nil && len(stride) != len(start)) {
		panic(fail("slice", "start %v, limit %v and stride %v must have equal lengths, at most the rank of %v", start, limit, stride, x.typ))
	}
	a := ir.SliceAttr{Start: make([]int, r), Limit: make([]int, r), Stride: make([]int, r)}
	for i, d := range x.typ.Shape {
		lo, hi, st := 0, d, 1
		if i < len(start) {
			lo, hi = clampIndex(start[i], d), clampIndex(limit[i], d)
			if stride != nil {
				st = stride[i]
			}
		}
		if st <= 0 {
			panic(fail("slice", "stride %d of dimension %d is not positive (use Reverse)", st, i))
		}
		a.Start[i], a.Limit[i], a.Stride[i] = lo, max(lo, hi), st
	}
	return emit(nil, ir.OpSlice, []*Tensor{x}, a)[0]
}

func clampIndex(i, n int) int {
	if i < 0 {
		i += n
	}
	return min(max(i, 0), n)
}

// SliceAxis takes x[start:limit] along one axis, everything along the
// others.
func SliceAxis(x *Tensor, axis, start, limit int) *Tensor {
	defer named(opSliceAxis)
	checkNotNil(opSliceAxis, x)
	a := normAxis(opSliceAxis, axis, x.Rank())
	st, li := make([]int, x.Rank()), x.Shape()
	st[a], li[a] = clampIndex(start, li[a]), clampIndex(limit, li[a])
	return Slice(x, st, li, nil)
}

// DynamicSlice takes a slice of the given sizes at run-time start indices
// (integer scalars, one per dimension), clamped so the slice fits.
func DynamicSlice(x *Tensor, starts []*Tensor, sizes []int) *Tensor {
	checkNotNil("dynamic_slice", x)
	checkNotNil("dynamic_slice", starts...)
	args := append([]*Tensor{x}, starts...)
	return emit(nil, ir.OpDynamicSlice, args, ir.DynamicSliceAttr{Sizes: slices.Clone(sizes)})[0]
}

// DynamicUpdateSlice returns x with update written at run-time start
// indices (integer scalars, one per dimension), clamped so it fits.
func DynamicUpdateSlice(x, update *Tensor, starts []*Tensor) *Tensor {
	checkNotNil("dynamic_update_slice", x, update)
	checkNotNil("dynamic_update_slice", starts...)
	args := append([]*Tensor{x, update}, starts...)
	return emit(nil, ir.OpDynamicUpdateSlice, args, nil)[0]
}

// Concat joins tensors along axis; the other dimensions must agree.
func Concat(axis int, ts ...*Tensor) *Tensor {
	if len(ts) == 0 {
		panic(fail("concatenate", "no operands"))
	}
	checkNotNil("concatenate", ts...)
	a := normAxis("concatenate", axis, ts[0].Rank())
	if len(ts) == 1 {
		return ts[0]
	}
	return emit(nil, ir.OpConcatenate, slices.Clone(ts), ir.ConcatenateAttr{Dim: a})[0]
}

// Pad pads x with the scalar value: low and high elements at the edges of
// each dimension (negative values cut) and interior elements between
// neighbours; nil interior means none.
func Pad(x, value *Tensor, low, high, interior []int) *Tensor {
	checkNotNil("pad", x, value)
	if anyWeak(x, value) {
		ts := []*Tensor{x, value}
		matchWeak("pad", ts, nil, false)
		x, value = ts[0], ts[1]
	}
	if interior == nil {
		interior = make([]int, x.Rank())
	}
	if len(low) != x.Rank() || len(high) != x.Rank() || len(interior) != x.Rank() {
		panic(fail("pad", "low %v, high %v and interior %v need one entry per dimension of %v", low, high, interior, x.typ))
	}
	a := ir.PadAttr{Low: slices.Clone(low), High: slices.Clone(high), Interior: slices.Clone(interior)}
	return emit(nil, ir.OpPad, []*Tensor{x, value}, a)[0]
}

// Reverse reverses the order of elements along the given axes.
func Reverse(x *Tensor, axes ...int) *Tensor {
	checkNotNil("reverse", x)
	a := normAxes("reverse", axes, x.Rank())
	if len(a) == 0 {
		return x
	}
	return emit(nil, ir.OpReverse, []*Tensor{x}, ir.ReverseAttr{Dims: a})[0]
}
