package gomlx

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
)

// RNGBitGenerator is XLA's PHILOX rng_bit_generator (xla/hlo/builder/lib/
// prng.cc, as XLA's RngBitGeneratorExpander and Stela's CPU plugin
// compute it, bit for bit) written out in integer IR ops, which is how
// XLA itself expands the op: the state is [key, counter_lo, counter_hi];
// block i is Philox-4x32-10 of the 128-bit counter + i under the key;
// each block's four 32-bit words are four outputs of 32 bits or fewer
// (the low bits kept) or two of 64 bits (lo | hi<<32); the counter
// advances by the number of blocks. (GoMLX's Go backend uses another
// generator, PCG, so its bits differ from this and from XLA's.)
func (fn *Function) RNGBitGenerator(state compute.Value, shape shapes.Shape) (compute.Value, compute.Value, error) {
	outs, err := fn.build("RNGBitGenerator", []compute.Value{state}, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		s := a[0]
		if !s.Type.Equal(ir.TensorOf(ir.U64, 3)) {
			return nil, errors.Errorf("state is %s, want %s", fn.shapeOf(s), compute.RNGStateShape)
		}
		t, err := irType(shape)
		if err != nil {
			return nil, err
		}
		if t.DType == ir.Bool || t.DType.IsComplex() {
			return nil, errors.Errorf("random bits of %s are not supported", shape.DType)
		}
		bits := t.DType.Bits()
		num := t.NumElements()
		per := 4
		if bits == 64 {
			per = 2
		}
		blocks := (num + per - 1) / per
		word := func(i int) *ir.Value {
			return b.Reshape(b.Slice(s, []int{i}, []int{i + 1}, []int{1}))
		}
		key, lo, hi := word(0), word(1), word(2)
		u64 := func(v uint64) *ir.Value { return b.Literal(ir.MustLiteral(ir.Scalar(ir.U64), []uint64{v})) }
		add128 := func(v *ir.Value) (*ir.Value, *ir.Value) {
			l0, h0 := lo, hi
			if v.Type.Rank() > 0 {
				l0, h0 = broadcastTo(b, lo, v.Type.Shape), broadcastTo(b, hi, v.Type.Shape)
			}
			l := b.Add(l0, v)
			carry := b.Convert(b.Compare(ir.CmpLT, l, l0), ir.U64)
			return l, b.Add(h0, carry)
		}
		newLo, newHi := add128(u64(uint64(blocks)))
		newState := b.Emit1(ir.OpConcatenate, []*ir.Value{b.Reshape(key, 1), b.Reshape(newLo, 1), b.Reshape(newHi, 1)}, ir.ConcatenateAttr{Dim: 0})
		if num == 0 {
			return []*ir.Value{newState, b.Zeros(t)}, nil
		}
		l, h := add128(b.Emit1(ir.OpIota, nil, ir.IotaAttr{Type: ir.TensorOf(ir.U64, blocks), Dim: 0}))
		bt := ir.TensorOf(ir.U32, blocks)
		lo32 := func(v *ir.Value) *ir.Value { return b.Convert(v, ir.U32) }
		shr32 := func(v *ir.Value) *ir.Value {
			return b.Emit1(ir.OpShiftRightLogical, []*ir.Value{v, broadcastTo(b, u64(32), v.Type.Shape)}, nil)
		}
		hi32 := func(v *ir.Value) *ir.Value { return lo32(shr32(v)) }
		x := [4]*ir.Value{lo32(l), hi32(l), lo32(h), hi32(h)}
		k0, k1 := broadcastTo(b, lo32(key), bt.Shape), broadcastTo(b, hi32(key), bt.Shape)
		u32c := func(v uint32) *ir.Value {
			return broadcastTo(b, b.Literal(ir.MustLiteral(ir.Scalar(ir.U32), []uint32{v})), bt.Shape)
		}
		mul64 := func(v *ir.Value, m uint64) *ir.Value {
			return b.Mul(b.Convert(v, ir.U64), broadcastTo(b, u64(m), bt.Shape))
		}
		xor := func(p, q *ir.Value) *ir.Value { return b.Emit1(ir.OpXor, []*ir.Value{p, q}, nil) }
		for round := range 10 {
			p0 := mul64(x[0], 0xD2511F53)
			p1 := mul64(x[2], 0xCD9E8D57)
			x = [4]*ir.Value{xor(xor(hi32(p1), x[1]), k0), lo32(p1), xor(xor(hi32(p0), x[3]), k1), lo32(p0)}
			if round < 9 {
				k0 = b.Add(k0, u32c(0x9E3779B9))
				k1 = b.Add(k1, u32c(0xBB67AE85))
			}
		}
		col := func(v *ir.Value) *ir.Value { return b.Reshape(v, blocks, 1) }
		var words *ir.Value
		if per == 2 {
			join := func(lw, hw *ir.Value) *ir.Value {
				return b.Emit1(ir.OpOr, []*ir.Value{b.Convert(lw, ir.U64), b.Emit1(ir.OpShiftLeft, []*ir.Value{b.Convert(hw, ir.U64), broadcastTo(b, u64(32), bt.Shape)}, nil)}, nil)
			}
			words = b.Emit1(ir.OpConcatenate, []*ir.Value{col(join(x[0], x[1])), col(join(x[2], x[3]))}, ir.ConcatenateAttr{Dim: 1})
		} else {
			words = b.Emit1(ir.OpConcatenate, []*ir.Value{col(x[0]), col(x[1]), col(x[2]), col(x[3])}, ir.ConcatenateAttr{Dim: 1})
		}
		flat := b.Reshape(words, blocks*per)
		if blocks*per != num {
			flat = b.Slice(flat, []int{0}, []int{num}, []int{1})
		}
		var ut ir.DType
		switch bits {
		case 8:
			ut = ir.U8
		case 16:
			ut = ir.U16
		case 32:
			ut = ir.U32
		default:
			ut = ir.U64
		}
		if flat.Type.DType != ut {
			flat = b.Convert(flat, ut) // keeps the low bits
		}
		if ut != t.DType {
			flat = b.Emit1(ir.OpBitcastConvert, []*ir.Value{flat}, ir.BitcastConvertAttr{To: t.DType})
		}
		return []*ir.Value{newState, b.Reshape(flat, t.Shape...)}, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return outs[0], outs[1], nil
}
