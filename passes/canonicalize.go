package passes

import (
	"math"

	"github.com/stela-ml/stela/ir"
)

// Canonicalize applies local algebraic identities and shape simplifications.
// Every rule is exact: the result is bitwise the same for every input
// (NaN payloads aside, which the IR does not promise to keep). For floats
// that rules out some familiar identities; the table in canonRule says
// which hold and why.
var Canonicalize = &Pass{
	Name: "canonicalize",
	Doc:  "apply exact algebraic identities (x+-0, x*1, double negate/transpose, reshape chains, constant select, ...)",
	Run:  canonicalize,
}

// splatLimit bounds the constants canonicalize materializes from a
// broadcast of a scalar constant: a splat prints compactly, but evaluation
// and lowering may hold every element.
const splatLimit = 1 << 14

func canonicalize(m *ir.Module, cx *Context) error {
	forEachFunc(m, func(f *ir.Func) { canonFunc(f, cx) })
	return nil
}

func canonFunc(f *ir.Func, cx *Context) {
	rebuild(f, func(f *ir.Func, in *ir.Instr) []*ir.Value {
		v, rule := canonRule(f, in)
		if v == nil {
			return nil
		}
		cx.Remarkf(in, "%s", rule)
		return []*ir.Value{v}
	})
}

// arith reports an integer or real float type: the identities below do not
// hold for complex numbers (x*(1+0i) turns an infinite part into NaN via
// inf*0) and i1 has no arithmetic.
func arith(d ir.DType) bool { return d.IsInteger() || d.IsFloat() }

// canonRule returns the value that replaces in's single result and the
// rule's name, or nil. New instructions it emits take in's location.
func canonRule(f *ir.Func, in *ir.Instr) (*ir.Value, string) {
	if !in.IsPure() || len(in.Results) != 1 {
		return nil, ""
	}
	t := in.Result().Type
	d := t.DType
	negZero := math.Copysign(0, -1)
	switch in.Op {
	case ir.OpAdd:
		// Integers: x+0 = x. Floats: only -0 is the additive identity:
		// (-0) + (+0) = +0, but x + (-0) = x for every x, -0 and NaN included.
		zero := 0.0
		if d.IsFloat() {
			zero = negZero
		}
		if arith(d) {
			if isSplatOf(in.Args[1], zero) {
				return in.Args[0], "x + 0 → x"
			}
			if isSplatOf(in.Args[0], zero) {
				return in.Args[1], "0 + x → x"
			}
		}
	case ir.OpSubtract:
		// x - (+0) = x + (-0) = x, also for floats; x - (-0) is not (-0 - -0 = +0).
		if arith(d) && isSplatOf(in.Args[1], 0) {
			return in.Args[0], "x - 0 → x"
		}
	case ir.OpMultiply:
		// x*1 = x exactly in IEEE arithmetic (and for integers).
		if arith(d) {
			if isSplatOf(in.Args[1], 1) {
				return in.Args[0], "x * 1 → x"
			}
			if isSplatOf(in.Args[0], 1) {
				return in.Args[1], "1 * x → x"
			}
		}
	case ir.OpDivide:
		// x/1 = x exactly in IEEE arithmetic (and for integers).
		if arith(d) && isSplatOf(in.Args[1], 1) {
			return in.Args[0], "x / 1 → x"
		}
	case ir.OpNegate:
		// -(-x) = x: exact for floats (a sign flip) and for wrapping integers.
		if x := in.Args[0]; x.Def != nil && x.Def.Op == ir.OpNegate {
			return x.Def.Args[0], "-(-x) → x"
		}
	case ir.OpNot:
		// not(not x) = x: bitwise complement (and logical not on i1) is an involution.
		if x := in.Args[0]; x.Def != nil && x.Def.Op == ir.OpNot {
			return x.Def.Args[0], "not(not x) → x"
		}
	case ir.OpAbs:
		// abs(abs x) = abs x for real types; for complex the inner abs is
		// already real, so the outer one is the real case.
		if x := in.Args[0]; x.Def != nil && x.Def.Op == ir.OpAbs && x.Type.Equal(t) {
			return x, "abs(abs x) → abs x"
		}
	case ir.OpMaximum, ir.OpMinimum, ir.OpAnd, ir.OpOr:
		// max(x, x) = min(x, x) = x, also for -0 and NaN (the evaluator
		// returns one of its operands); x&x = x|x = x.
		if in.Args[0] == in.Args[1] {
			return in.Args[0], in.Op.String() + "(x, x) → x"
		}
	case ir.OpSlice:
		a := in.Attr.(ir.SliceAttr)
		if x := in.Args[0]; ir.ShapeEqual(x.Type.Shape, t.Shape) && allOnes(a.Stride) {
			return x, "slice of everything → x"
		}
	case ir.OpReverse:
		// Reversing the same dimensions twice is the identity.
		dims := in.Attr.(ir.ReverseAttr).Dims
		if x := in.Args[0]; x.Def != nil && x.Def.Op == ir.OpReverse && sameSet(x.Def.Attr.(ir.ReverseAttr).Dims, dims) {
			return x.Def.Args[0], "reverse of reverse → x"
		}
		if len(dims) == 0 {
			return in.Args[0], "reverse of no dimensions → x"
		}
	case ir.OpTranspose:
		perm := in.Attr.(ir.TransposeAttr).Perm
		x := in.Args[0]
		if isIdentityPerm(perm) {
			return x, "transpose with identity perm → x"
		}
		if x.Def != nil && x.Def.Op == ir.OpTranspose {
			inner := x.Def.Attr.(ir.TransposeAttr).Perm
			// Result dim i is x dim perm[i], which is x's operand dim inner[perm[i]].
			comp := make([]int, len(perm))
			for i, p := range perm {
				comp[i] = inner[p]
			}
			if isIdentityPerm(comp) {
				return x.Def.Args[0], "transpose of transpose → x"
			}
			return emit1(f, in.Loc, ir.OpTranspose, []*ir.Value{x.Def.Args[0]}, ir.TransposeAttr{Perm: comp}), "transpose of transpose → one transpose"
		}
	case ir.OpReshape:
		x := in.Args[0]
		if ir.ShapeEqual(x.Type.Shape, t.Shape) {
			return x, "reshape to the same shape → x"
		}
		if x.Def != nil && x.Def.Op == ir.OpReshape {
			y := x.Def.Args[0]
			if ir.ShapeEqual(y.Type.Shape, t.Shape) {
				return y, "reshape of reshape back → x"
			}
			return emit1(f, in.Loc, ir.OpReshape, []*ir.Value{y}, ir.ReshapeAttr{Shape: t.Shape}), "reshape of reshape → one reshape"
		}
	case ir.OpConvert:
		if x := in.Args[0]; x.Type.DType == d {
			return x, "convert to the same type → x"
		}
	case ir.OpBroadcastInDim:
		a := in.Attr.(ir.BroadcastInDimAttr)
		x := in.Args[0]
		if ir.ShapeEqual(x.Type.Shape, t.Shape) && isIdentityPerm(a.Dims) {
			return x, "broadcast to the same shape → x"
		}
		if l := constOf(x); l != nil && l.Len() > 0 && t.NumElements() <= splatLimit && !l.Type.DType.IsComplex() {
			if _, ok := splatBits(x); ok {
				c := emit1(f, in.Loc, ir.OpConstant, nil, ir.ConstantAttr{Value: splatLiteral(t, l)})
				return c, "broadcast of a splat constant → splat constant"
			}
		}
	case ir.OpSelect:
		if in.Args[1] == in.Args[2] {
			return in.Args[1], "select(p, x, x) → x"
		}
		if b, ok := splatBits(in.Args[0]); ok {
			if b != 0 {
				return in.Args[1], "select(true, x, y) → x"
			}
			return in.Args[2], "select(false, x, y) → y"
		}
	}
	return nil, ""
}

func isIdentityPerm(p []int) bool {
	for i, x := range p {
		if x != i {
			return false
		}
	}
	return true
}

func allOnes(xs []int) bool {
	for _, x := range xs {
		if x != 1 {
			return false
		}
	}
	return true
}

// sameSet reports whether a and b hold the same dimensions (each at most once).
func sameSet(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[int]bool{}
	for _, x := range a {
		in[x] = true
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return len(in) == len(a)
}
