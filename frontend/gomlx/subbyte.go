package gomlx

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
)

// GoMLX's sub-byte integer types (Int1/2/4, Uint1/2/4) have no Stela
// element type. Inside a graph they are supported the way GoMLX uses
// them, to unpack and pack quantized weights: Bitcast of bytes (or wider
// integers) to a sub-byte type unpacks each byte, low bits first, into
// one si8 (sign-extended) or ui8 value per element, which the Function
// tags with the sub-byte type (its Shape reports it); such a value may
// go only to ConvertDType (which converts the unpacked values) or to
// Bitcast back to a byte-or-wider type (which packs them). Parameters,
// constants and results of sub-byte types are refused.

func isSubByte(dt dtypes.DType) bool {
	switch dt {
	case dtypes.Int1, dtypes.Int2, dtypes.Int4, dtypes.Uint1, dtypes.Uint2, dtypes.Uint4:
		return true
	}
	return false
}

// subByteOf is the sub-byte type a value is tagged with (InvalidDType
// for ordinary values).
func (fn *Function) subByteOf(v *ir.Value) dtypes.DType {
	if fn.subByte == nil {
		return dtypes.InvalidDType
	}
	return fn.subByte[v]
}

// unpack bitcasts x (an integer type of 8 bits or more) to the sub-byte
// type dt: GoMLX's shape rule adds a trailing axis of srcBits/dtBits.
func unpack(b *ir.Builder, x *ir.Value, dt dtypes.DType) (*ir.Value, error) {
	if !x.Type.DType.IsInteger() {
		return nil, errors.Errorf("Bitcast to %s takes an integer operand, got %s", dt, x.Type)
	}
	bits := dt.Bits()
	per := 8 / bits
	v := x
	shape := slices.Clone(x.Type.Shape)
	if w := x.Type.DType.Bits(); w > 8 {
		v = b.Emit1(ir.OpBitcastConvert, []*ir.Value{v}, ir.BitcastConvertAttr{To: ir.U8}) // [..., w/8], little-endian
	} else if x.Type.DType != ir.U8 {
		v = b.Emit1(ir.OpBitcastConvert, []*ir.Value{v}, ir.BitcastConvertAttr{To: ir.U8})
	}
	r := v.Type.Rank()
	out := append(slices.Clone(v.Type.Shape), per)
	dims := make([]int, r)
	for i := range dims {
		dims[i] = i
	}
	wide := b.Emit1(ir.OpBroadcastInDim, []*ir.Value{v}, ir.BroadcastInDimAttr{Shape: out, Dims: dims})
	shifts := b.Mul(b.Emit1(ir.OpIota, nil, ir.IotaAttr{Type: ir.TensorOf(ir.U8, out...), Dim: r}), b.Full(ir.TensorOf(ir.U8, out...), float64(bits)))
	u := b.Emit1(ir.OpShiftRightLogical, []*ir.Value{wide, shifts}, nil)
	u = b.Emit1(ir.OpAnd, []*ir.Value{u, b.Full(u.Type, float64(int(1)<<bits-1))}, nil)
	if !dt.IsUnsigned() {
		s := b.Emit1(ir.OpBitcastConvert, []*ir.Value{u}, ir.BitcastConvertAttr{To: ir.S8})
		k := b.Full(s.Type, float64(8-bits))
		u = b.Emit1(ir.OpShiftRightArithmetic, []*ir.Value{b.Emit1(ir.OpShiftLeft, []*ir.Value{s, k}, nil), k}, nil)
	}
	if x.Type.DType.Bits() > 8 {
		// [..., w/8, per] → [..., w/bits]
		u = b.Reshape(u, append(shape, x.Type.DType.Bits()/bits)...)
	}
	return u, nil
}

// pack bitcasts v (unpacked values of the sub-byte type src, trailing
// axis of to.Bits/src.Bits) to the integer type to.
func pack(b *ir.Builder, v *ir.Value, src dtypes.DType, to ir.DType) (*ir.Value, error) {
	bits := src.Bits()
	if !to.IsInteger() || to.Bits() < 8 {
		return nil, errors.Errorf("Bitcast from %s packs into integer types of 8 bits or more, not %s", src, to)
	}
	n := v.Type.Rank()
	if n == 0 || v.Type.Shape[n-1] != to.Bits()/bits {
		return nil, errors.Errorf("Bitcast from %s to %s: the last axis must be %d, got shape %v", src, to, to.Bits()/bits, v.Type.Shape)
	}
	per := 8 / bits
	lead := slices.Clone(v.Type.Shape[:n-1])
	bytes := to.Bits() / 8
	u := b.Emit1(ir.OpBitcastConvert, []*ir.Value{b.Convert(v, ir.S8)}, ir.BitcastConvertAttr{To: ir.U8})
	shape := append(slices.Clone(lead), bytes, per)
	u = b.Reshape(u, shape...)
	u = b.Emit1(ir.OpAnd, []*ir.Value{u, b.Full(u.Type, float64(int(1)<<bits-1))}, nil)
	shifts := b.Mul(b.Emit1(ir.OpIota, nil, ir.IotaAttr{Type: u.Type, Dim: len(shape) - 1}), b.Full(u.Type, float64(bits)))
	u = b.Emit1(ir.OpShiftLeft, []*ir.Value{u, shifts}, nil)
	u = b.Reduce(u, b.Const(ir.U8, 0), ir.OpOr, len(shape)-1) // [..., bytes]
	if to == ir.U8 {
		return b.Reshape(u, lead...), nil
	}
	if bytes == 1 {
		return b.Emit1(ir.OpBitcastConvert, []*ir.Value{b.Reshape(u, lead...)}, ir.BitcastConvertAttr{To: to}), nil
	}
	return b.Emit1(ir.OpBitcastConvert, []*ir.Value{u}, ir.BitcastConvertAttr{To: to}), nil
}

// subByteShape is the GoMLX shape of a tagged value.
func subByteShape(v *ir.Value, dt dtypes.DType) shapes.Shape {
	return shapes.Make(dt, v.Type.Shape...)
}

var _ = compute.ErrNotImplemented
