package tensor

import (
	"fmt"

	"github.com/stela-ml/stela/ir"
)

// Elementwise ops. Binary ops broadcast like numpy: shapes align at the
// trailing dimension and a dimension of size 1 (or a missing one) stretches
// to the other operand's; a scalar goes with anything. Element types must
// be equal: Stela does not promote silently, Convert says what you mean.
// Weak scalars (Go numbers, weak.go) take the other operand's type.

func unary(op ir.Op, x *Tensor) *Tensor {
	if x == nil {
		checkNotNil(op.String(), x)
	}
	if x.weakKind() != notWeak {
		return weakUnary(op, x)
	}
	return emit1(op, []*Tensor{x}, nil)
}

// weakUnary is an elementwise op on a weak tensor: computed on the host
// when its value is known, and weak when its result has a weak kind's type.
func weakUnary(op ir.Op, x *Tensor) *Tensor {
	if x.weakLit() != nil {
		return foldWeak(op, nil, []*ir.Literal{x.weakLit()})
	}
	r := emit1(op, []*Tensor{strong(x)}, nil)
	r.setWeak(weakKindOf(r.typ.DType), nil)
	return r
}

// Neg is -x.
func Neg(x *Tensor) *Tensor { return unary(ir.OpNegate, x) }

// Abs is |x|; on complex numbers the modulus, as a real type.
func Abs(x *Tensor) *Tensor { return unary(ir.OpAbs, x) }

// Sign is -1, 0 or 1 by the sign of x.
func Sign(x *Tensor) *Tensor { return unary(ir.OpSign, x) }

// Exp is e^x.
func Exp(x *Tensor) *Tensor { return unary(ir.OpExp, x) }

// Expm1 is e^x - 1, accurate near 0.
func Expm1(x *Tensor) *Tensor { return unary(ir.OpExpm1, x) }

// Log is the natural logarithm.
func Log(x *Tensor) *Tensor { return unary(ir.OpLog, x) }

// Log1p is log(1 + x), accurate near 0.
func Log1p(x *Tensor) *Tensor { return unary(ir.OpLog1p, x) }

// Sqrt is the square root.
func Sqrt(x *Tensor) *Tensor { return unary(ir.OpSqrt, x) }

// Rsqrt is x^(-1/2), rounded once (IEEE 754 rSqrt; 1/sqrt(x) for complex x).
func Rsqrt(x *Tensor) *Tensor { return unary(ir.OpRsqrt, x) }

// Tanh is the hyperbolic tangent.
func Tanh(x *Tensor) *Tensor { return unary(ir.OpTanh, x) }

// Sigmoid is the logistic function 1/(1+e^-x).
func Sigmoid(x *Tensor) *Tensor { return unary(ir.OpLogistic, x) }

// Sin is the sine.
func Sin(x *Tensor) *Tensor { return unary(ir.OpSine, x) }

// Cos is the cosine.
func Cos(x *Tensor) *Tensor { return unary(ir.OpCosine, x) }

// Floor rounds toward -inf.
func Floor(x *Tensor) *Tensor { return unary(ir.OpFloor, x) }

// Ceil rounds toward +inf.
func Ceil(x *Tensor) *Tensor { return unary(ir.OpCeil, x) }

// Round rounds to nearest, ties to even (numpy's round).
func Round(x *Tensor) *Tensor { return unary(ir.OpRoundNearestEven, x) }

// Not is logical not on i1 and bitwise not on integers.
func Not(x *Tensor) *Tensor { return unary(ir.OpNot, x) }

// IsFinite is true where x is neither infinite nor NaN.
func IsFinite(x *Tensor) *Tensor { return unary(ir.OpIsFinite, x) }

func binary(op ir.Op, x, y *Tensor) *Tensor {
	if x != nil && y != nil && (x.weakKind() != notWeak || y.weakKind() != notWeak) {
		return weakBinary(op, nil, x, y)
	}
	x, y = broadcastOpPair(op, x, y)
	return emit1(op, []*Tensor{x, y}, nil)
}

// weakBinary is a binary elementwise op with a weak operand: the weak
// operand takes the other's type, or, when both are weak, the op is
// computed on the host (or, their values unknown, on their common kind).
func weakBinary(op ir.Op, attr any, x, y *Tensor) *Tensor {
	name := op.String()
	ts := []*Tensor{x, y}
	k, lits := matchWeak(name, ts, nil, true)
	if lits != nil {
		return foldWeak(op, attr, lits)
	}
	x, y = broadcastPair(name, ts[0], ts[1])
	r := emit(nil, op, []*Tensor{x, y}, attr)[0]
	if k != notWeak && r.typ.DType == k.dtype() {
		r.setWeak(k, nil)
	}
	return r
}

// Add is x + y (or on i1).
func Add(x, y *Tensor) *Tensor { return binary(ir.OpAdd, x, y) }

// Sub is x - y.
func Sub(x, y *Tensor) *Tensor { return binary(ir.OpSubtract, x, y) }

// Mul is x * y (and on i1).
func Mul(x, y *Tensor) *Tensor { return binary(ir.OpMultiply, x, y) }

// Div is x / y; integer division truncates toward zero.
func Div(x, y *Tensor) *Tensor { return binary(ir.OpDivide, x, y) }

// Rem is the remainder x - y*trunc(x/y), with the sign of x.
func Rem(x, y *Tensor) *Tensor { return binary(ir.OpRemainder, x, y) }

// Pow is x^y.
func Pow(x, y *Tensor) *Tensor { return binary(ir.OpPower, x, y) }

// Maximum is the elementwise max; NaN if either is NaN.
func Maximum(x, y *Tensor) *Tensor { return binary(ir.OpMaximum, x, y) }

// Minimum is the elementwise min; NaN if either is NaN.
func Minimum(x, y *Tensor) *Tensor { return binary(ir.OpMinimum, x, y) }

// Atan2 is atan(x/y) using both signs for the quadrant.
func Atan2(x, y *Tensor) *Tensor { return binary(ir.OpAtan2, x, y) }

// And is logical and on i1, bitwise and on integers.
func And(x, y *Tensor) *Tensor { return binary(ir.OpAnd, x, y) }

// Or is logical or on i1, bitwise or on integers.
func Or(x, y *Tensor) *Tensor { return binary(ir.OpOr, x, y) }

// Xor is logical xor on i1, bitwise xor on integers.
func Xor(x, y *Tensor) *Tensor { return binary(ir.OpXor, x, y) }

func compare(dir ir.ComparisonDirection, x, y *Tensor) *Tensor {
	if anyWeak(x, y) && x != nil && y != nil {
		return weakBinary(ir.OpCompare, ir.CompareAttr{Direction: dir}, x, y)
	}
	x, y = broadcastPair("compare", x, y)
	return emit(nil, ir.OpCompare, []*Tensor{x, y}, ir.CompareAttr{Direction: dir})[0]
}

// Equal is x == y, as i1.
func Equal(x, y *Tensor) *Tensor { return compare(ir.CmpEQ, x, y) }

// NotEqual is x != y, as i1.
func NotEqual(x, y *Tensor) *Tensor { return compare(ir.CmpNE, x, y) }

// Less is x < y, as i1.
func Less(x, y *Tensor) *Tensor { return compare(ir.CmpLT, x, y) }

// LessEqual is x <= y, as i1.
func LessEqual(x, y *Tensor) *Tensor { return compare(ir.CmpLE, x, y) }

// Greater is x > y, as i1.
func Greater(x, y *Tensor) *Tensor { return compare(ir.CmpGT, x, y) }

// GreaterEqual is x >= y, as i1.
func GreaterEqual(x, y *Tensor) *Tensor { return compare(ir.CmpGE, x, y) }

// Where picks x where cond is true and y elsewhere. cond is i1; the three
// broadcast together. A weak x or y (a Go number) takes the other's type.
func Where(cond, x, y *Tensor) *Tensor {
	defer named(opWhere)
	checkNotNil(opWhere, cond, x, y)
	if cond.typ.DType != ir.Bool {
		panic(fail(opWhere, "condition is %v, want i1 elements", cond.typ))
	}
	k := notWeak
	if anyWeak(x, y) {
		ts := []*Tensor{x, y}
		k, _ = matchWeak(opWhere, ts, cond, false)
		x, y = ts[0], ts[1]
	}
	if x.typ.DType != y.typ.DType {
		panic(fail(opWhere, "operand types %v and %v differ: element types must match (no implicit promotion; use Convert)", x.typ, y.typ))
	}
	shape, err := broadcastShapes(cond.typ.Shape, x.typ.Shape)
	if err == nil {
		shape, err = broadcastShapes(shape, y.typ.Shape)
	}
	if err != nil {
		panic(fail(opWhere, "condition %v and operands %v and %v do not broadcast: %v", cond.typ, x.typ, y.typ, err))
	}
	args := []*Tensor{broadcastTo(cond, shape), broadcastTo(x, shape), broadcastTo(y, shape)}
	r := emit(nil, ir.OpSelect, args, nil)[0]
	r.setWeak(k, nil)
	return r
}

// Clamp is min(max(x, lo), hi). lo and hi are scalars or broadcast to x's
// shape.
func Clamp(x, lo, hi *Tensor) *Tensor {
	checkNotNil("clamp", x, lo, hi)
	k := notWeak
	if anyWeak(x, lo, hi) {
		ts := []*Tensor{lo, x, hi}
		var lits []*ir.Literal
		k, lits = matchWeak("clamp", ts, nil, true)
		if lits != nil {
			return foldWeak(ir.OpClamp, nil, lits)
		}
		lo, x, hi = ts[0], ts[1], ts[2]
	}
	fit := func(b *Tensor, what string) *Tensor {
		if b.typ.DType != x.typ.DType {
			panic(fail("clamp", "%s is %v but the operand is %v: element types must match (use Convert)", what, b.typ, x.typ))
		}
		if b.Rank() == 0 {
			return b
		}
		s, err := broadcastShapes(b.typ.Shape, x.typ.Shape)
		if err != nil || !ir.ShapeEqual(s, x.typ.Shape) {
			panic(fail("clamp", "%s %v does not broadcast to the operand's type %v", what, b.typ, x.typ))
		}
		return broadcastTo(b, x.typ.Shape)
	}
	lo, hi = fit(lo, "lower bound"), fit(hi, "upper bound")
	// StableHLO's operand order: clamp(min, operand, max).
	r := emit(nil, ir.OpClamp, []*Tensor{lo, x, hi}, nil)[0]
	r.setWeak(k, nil)
	return r
}

// Convert converts the elements to dt: floats round to nearest even, float
// to integer truncates toward zero and saturates. A weak scalar (a Go
// number) becomes an ordinary tensor of dt, converted the same way.
func Convert(x *Tensor, dt ir.DType) *Tensor {
	checkNotNil("convert", x)
	if x.weakKind() != notWeak {
		return convertWeak(x, dt)
	}
	if x.typ.DType == dt {
		return x
	}
	return emit(nil, ir.OpConvert, []*Tensor{x}, ir.ConvertAttr{To: dt})[0]
}

// AsType is Convert under numpy's name.
func AsType(x *Tensor, dt ir.DType) *Tensor { return Convert(x, dt) }

// BitcastConvert reinterprets the bits of x as elements of dt. When the
// widths differ the last dimension grows or shrinks, as in StableHLO.
func BitcastConvert(x *Tensor, dt ir.DType) *Tensor {
	checkNotNil("bitcast_convert", x)
	return emit(nil, ir.OpBitcastConvert, []*Tensor{x}, ir.BitcastConvertAttr{To: dt})[0]
}

// broadcastPair checks that x and y may be combined elementwise and
// broadcasts both to their common shape.
// broadcastOpPair is broadcastPair for op, whose name it spells only when
// the operands do not fit (eager dispatch would pay for it on every op).
func broadcastOpPair(op ir.Op, x, y *Tensor) (*Tensor, *Tensor) {
	if x != nil && y != nil && x.typ.Equal(y.typ) {
		return x, y
	}
	return broadcastPair(op.String(), x, y)
}

func broadcastPair(op string, x, y *Tensor) (*Tensor, *Tensor) {
	checkNotNil(op, x, y)
	if x.typ.DType != y.typ.DType {
		panic(fail(op, "operand types %v and %v differ: element types must match (no implicit promotion; use Convert)", x.typ, y.typ))
	}
	shape, err := broadcastShapes(x.typ.Shape, y.typ.Shape)
	if err != nil {
		panic(fail(op, "operand types %v and %v differ: shapes do not broadcast (%v)", x.typ, y.typ, err))
	}
	return broadcastTo(x, shape), broadcastTo(y, shape)
}

// broadcastShapes is numpy's rule: align at the right; equal sizes stay,
// a size 1 stretches.
func broadcastShapes(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 1; i <= n; i++ {
		da, db := 1, 1
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		switch {
		case da == db || db == 1:
			out[n-i] = da
		case da == 1:
			out[n-i] = db
		default:
			return nil, fmt.Errorf("dimension %d from the end is %d in one and %d in the other", i, da, db)
		}
	}
	return out, nil
}
