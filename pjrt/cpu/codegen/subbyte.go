package codegen

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// The sub-byte integers i2, i4 (signed) and ui2, ui4: one element per
// byte. In memory the value is the byte's low n bits, the upper bits zero
// (-3 as i4 is 0x0D), as numpy's ml_dtypes and XLA's host literals store
// them and PJRT host buffers of S2/S4/U2/U4 come; loads accept any upper
// bits. In registers (i8) a signed value is sign-extended (0xFD), an
// unsigned one zero-extended, and every op leaves its result in that
// normal form, so an i4 op is the i8 op with the result wrapped modulo
// 2^n (subNorm); the
// ops that look at bits above the value (shift_right_logical, popcnt,
// count_leading_zeros) and the float conversions, which saturate to the
// narrow range, are special-cased.
const (
	kI2 elemKind = iota + 60
	kI4
	kU2
	kU4
)

func init() {
	for k, x := range map[elemKind]struct {
		e         stablehlo.ElementType
		sir, mlir string
	}{
		kI2: {stablehlo.I2, "si2", "i2"}, kI4: {stablehlo.I4, "si4", "i4"},
		kU2: {stablehlo.UI2, "ui2", "ui2"}, kU4: {stablehlo.UI4, "ui4", "ui4"},
	} {
		extKinds[k] = kindInfo{x.e, x.sir, x.mlir, 8, 1, types.I8}
	}
}

func (k elemKind) isSubByte() bool { return k >= kI2 && k <= kU4 }

// subBits is the width of a sub-byte integer kind's values.
func (k elemKind) subBits() int64 {
	if k == kI2 || k == kU2 {
		return 2
	}
	return 4
}

// byteKind is the 8-bit kind a sub-byte kind computes in.
func (k elemKind) byteKind() elemKind {
	if k.isUnsigned() {
		return kU8
	}
	return kI8
}

// valueBits is the width of the values of kind k: what bitcast_convert
// must keep (i4 and f4E2M1FN are 4 bits, though each takes a byte).
func (k elemKind) valueBits() int {
	switch {
	case k.isSubByte():
		return int(k.subBits())
	case k.isMini():
		return k.miniFormat().Bits
	case k == kBool:
		return 1
	}
	return k.bits()
}

// subNorm puts an i8 register value into kind k's normal form: the low n
// bits, sign-extended (i2, i4) or zero-extended (ui2, ui4).
func (b *fb) subNorm(k elemKind, v value.Value) value.Value {
	c := b.cur
	if k.isUnsigned() {
		return c.NewAnd(v, c8(1<<k.subBits()-1))
	}
	s := c8(8 - k.subBits())
	return c.NewAShr(c.NewShl(v, s), s)
}

// subLow is the value's low n bits, zero-extended.
func (b *fb) subLow(k elemKind, v value.Value) value.Value {
	return b.cur.NewAnd(v, c8(1<<k.subBits()-1))
}

func (b *fb) subUnary(name string, k elemKind, x value.Value) (value.Value, error) {
	bk := k.byteKind()
	switch name {
	case "popcnt":
		return b.unary(name, kU8, b.subLow(k, x))
	case "count_leading_zeros":
		r, err := b.unary(name, kU8, b.subLow(k, x))
		if err != nil {
			return nil, err
		}
		return b.cur.NewSub(r, c8(8-k.subBits())), nil
	}
	r, err := b.unary(name, bk, x)
	if err != nil {
		return nil, err
	}
	if unaryResultKind(name, k) == kBool {
		return r, nil
	}
	return b.subNorm(k, r), nil
}

func (b *fb) subBinary(name string, k elemKind, x, y value.Value) (value.Value, error) {
	bk := k.byteKind()
	switch name {
	case "shift_right_logical":
		x = b.subLow(k, x)
	case "shift_right_arithmetic":
		// The sign is bit n-1, also for ui2 and ui4.
		s := c8(8 - k.subBits())
		x, bk = b.cur.NewAShr(b.cur.NewShl(x, s), s), kI8
	}
	r, err := b.binary(name, bk, x, y)
	if err != nil {
		return nil, err
	}
	return b.subNorm(k, r), nil
}

// subConvert converts from or to a sub-byte kind; handled is false when
// neither is one.
func (b *fb) subConvert(from, to elemKind, x value.Value) (value.Value, bool) {
	c := b.cur
	switch {
	case from == to:
		return nil, false
	case from.isSubByte():
		// The i8 value is the value (normal form).
		return b.convert(from.byteKind(), to, x), true
	case !to.isSubByte():
		return nil, false
	case from.isFloat():
		// Truncate toward zero and saturate to the narrow range, NaN → 0.
		v := b.convert(from, to.byteKind(), x)
		lo, hi := int64(-1)<<(to.subBits()-1), int64(1)<<(to.subBits()-1)-1
		if to.isUnsigned() {
			lo, hi = 0, 1<<to.subBits()-1
			big := c.NewICmp(enumULT(), c8(hi), v)
			return c.NewSelect(big, c8(hi), v), true
		}
		v = c.NewSelect(c.NewICmp(enumSLT(), v, c8(lo)), c8(lo), v)
		return c.NewSelect(c.NewICmp(enumSLT(), c8(hi), v), c8(hi), v), true
	}
	// Integers and i1 wrap.
	return b.subNorm(to, b.convert(from, to.byteKind(), x)), true
}

// subConst is the normal-form constant of a sub-byte kind with memory
// image bits.
func subConst(k elemKind, bits uint64) constant.Constant {
	n := uint(k.subBits())
	v := int64(bits & (1<<n - 1))
	if !k.isUnsigned() {
		v = v << (64 - n) >> (64 - n)
	}
	return constant.NewInt(types.I8, v)
}

func enumULT() enum.IPred { return enum.IPredULT }
func enumSLT() enum.IPred { return enum.IPredSLT }

// narrowChloRefused: the chlo math functions (mulhi) are not implemented
// on the sub-byte integers; the chlo.broadcast_* ops (the plain ops) and
// top_k are. The mini floats compute them as f16 and bf16 do: widened to
// f32, rounded once with the format's rules (chloScalar).
func narrowChloRefused(k elemKind) bool { return k.isSubByte() }
