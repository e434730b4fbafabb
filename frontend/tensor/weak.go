package tensor

import (
	"fmt"
	"math"
	"reflect"

	"github.com/stela-ml/stela/ir"
)

// Weak types: Go numbers in tensor code (the package doc, "Go numbers",
// has the rules). A weak tensor carries its kind and, when the value is
// known on the host (Scalar, and elementwise ops among such scalars, which
// are computed on the host), the value itself: converting it to the type
// it meets is then exact and checked, and makes a constant where the other
// operand is (a constant op in a trace, a buffer on its device eagerly).
// A weak tensor whose value is unknown (a weak argument of a jit-compiled
// function, a Where of weak operands) converts with a convert op, after
// the same kind checks. Only elementwise ops look at weakness; every other
// op sees the tensor's own type (si64, f64, c128).

// weakKind is the kind of a weak tensor's Go number.
type weakKind uint8

const (
	notWeak weakKind = iota
	weakInt
	weakFloat
	weakComplex
)

// dtype is the element type a weak tensor of the kind has on its own.
func (k weakKind) dtype() ir.DType {
	switch k {
	case weakInt:
		return ir.S64
	case weakFloat:
		return ir.F64
	case weakComplex:
		return ir.C128
	}
	return ir.InvalidDType
}

func (k weakKind) String() string {
	return [...]string{"", "integer", "float", "complex"}[k]
}

// weakKindOf is the weak kind whose type is dt, notWeak for others.
func weakKindOf(dt ir.DType) weakKind {
	switch dt {
	case ir.S64:
		return weakInt
	case ir.F64:
		return weakFloat
	case ir.C128:
		return weakComplex
	}
	return notWeak
}

// Number is what Scalar accepts: the Go type of an element type, or int.
type Number interface {
	ir.Elem | int
}

// Scalar makes a rank-0 concrete tensor, uncommitted, on the default
// device. From a Go int, float64 or complex128 — what untyped constants
// like 3, 0.5 and 1i become — it is weakly typed (si64, f64, c128 on its
// own): combined with a tensor in an elementwise op it takes that
// tensor's element type, so Add(x, Scalar(3.0)) adds 3 to an f32, bf16 or
// f64 x alike. From any other type it has that type's element type:
// Scalar(float32(3)) is an f32, Scalar(int32(2)) an si32. For an
// ordinary f64 or si64 scalar use Full(ir.F64, v) or Convert. The rules
// are in the package doc, "Go numbers".
func Scalar[T Number](v T) *Tensor {
	switch w := any(v).(type) {
	case int:
		return weakScalar(weakInt, ir.ScalarOf(int64(w)))
	case float64:
		return weakScalar(weakFloat, ir.ScalarOf(w))
	case complex128:
		return weakScalar(weakComplex, ir.ScalarOf(w))
	}
	dt := dtypeOfGo(reflect.TypeFor[T]())
	return put(nil, ir.MustLiteral(ir.Scalar(dt), []T{v}))
}

func dtypeOfGo(t reflect.Type) ir.DType {
	for _, d := range ir.AllDTypes {
		if ir.GoElemType(d) == t {
			return d
		}
	}
	panic("tensor: unreachable: no element type for " + t.String())
}

func weakScalar(k weakKind, l *ir.Literal) *Tensor {
	t := putOn(DefaultDevice(), l.Clone(), false)
	t.setWeak(k, l)
	return t
}

// anyWeak reports whether one of ts is weak.
func anyWeak(ts ...*Tensor) bool {
	for _, t := range ts {
		if t != nil && t.weakKind() != notWeak {
			return true
		}
	}
	return false
}

// matchWeak gives the weak tensors among ts the element type of the
// others, in place, for an elementwise op. When all of ts are weak it
// returns the widest kind among them; if moreover fold is set and all
// their values are known, it returns those values converted to that kind
// and leaves ts alone: the op can be computed on the host (foldWeak).
// Otherwise every weak operand is replaced by an ordinary tensor; ref
// (which may be nil) places the constants made for them when no operand
// is ordinary. Ordinary operands of two element types are left for the
// op's own type check.
func matchWeak(op string, ts []*Tensor, ref *Tensor, fold bool) (weakKind, []*ir.Literal) {
	var strong *Tensor
	k := notWeak
	for _, t := range ts {
		if t.weakKind() == notWeak {
			if strong == nil {
				strong = t
			}
			continue
		}
		k = max(k, t.weakKind())
	}
	if strong != nil {
		for i, t := range ts {
			if t.weakKind() != notWeak {
				ts[i] = weakTo(op, t, strong.typ.DType, strong)
			}
		}
		return notWeak, nil
	}
	dt := k.dtype()
	if fold {
		lits := make([]*ir.Literal, len(ts))
		for i, t := range ts {
			if t.weakLit() == nil {
				lits = nil
				break
			}
			l, err := weakLiteral(t.weakKind(), t.weakLit(), dt)
			if err != nil {
				panic(fail(op, "%v", err))
			}
			lits[i] = l
		}
		if lits != nil {
			return k, lits
		}
	}
	for i, t := range ts {
		ts[i] = weakTo(op, t, dt, ref)
	}
	return k, nil
}

// weakTo converts the weak tensor t to element type dt by the rules
// above, as an ordinary tensor made where ref is.
func weakTo(op string, t *Tensor, dt ir.DType, ref *Tensor) *Tensor {
	if t.weakLit() != nil {
		l, err := weakLiteral(t.weakKind(), t.weakLit(), dt)
		if err != nil {
			panic(fail(op, "%v", err))
		}
		if ref == nil {
			ref = t
		}
		return constantAt(ref, l)
	}
	if err := weakKindFits(t.weakKind(), formatWeak(t.weakKind(), nil), dt); err != nil {
		panic(fail(op, "%v", err))
	}
	if t.typ.DType == dt {
		return strong(t)
	}
	return emit(nil, ir.OpConvert, []*Tensor{t}, ir.ConvertAttr{To: dt})[0]
}

// strong is t without its weak type.
func strong(t *Tensor) *Tensor {
	if t.weakKind() == notWeak {
		return t
	}
	return &Tensor{typ: t.typ, buf: t.buf, sym: t.sym, meta: commitment(t.Committed())}
}

// weakKindFits checks that a weak constant of kind k (spelled what) may
// take element type dt at all.
func weakKindFits(k weakKind, what string, dt ir.DType) error {
	switch {
	case dt == ir.Bool:
		return fmt.Errorf("%s meets an i1 operand: numbers are not booleans (use Scalar(true) or a comparison)", what)
	case k == weakFloat && dt.IsInteger():
		return fmt.Errorf("%s meets an %v operand: Stela does not promote integers to floats (write an integer constant, or Convert the operand)", what, dt)
	case k == weakComplex && !dt.IsComplex():
		return fmt.Errorf("%s meets an %v operand: Stela does not promote real numbers to complex ones (Convert the operand)", what, dt)
	}
	return nil
}

// formatWeak spells a weak constant for errors: "float constant 3.5".
func formatWeak(k weakKind, l *ir.Literal) string {
	if l == nil {
		return "weak " + k.String() + " tensor"
	}
	return fmt.Sprintf("%s constant %v", k, l.Elem(0))
}

// weakLiteral converts the value l of a weak constant of kind k to
// element type dt: exactly for integers, rounded for floats, with an
// error where the rules above forbid it.
func weakLiteral(k weakKind, l *ir.Literal, dt ir.DType) (*ir.Literal, error) {
	what := formatWeak(k, l)
	if err := weakKindFits(k, what, dt); err != nil {
		return nil, err
	}
	t := ir.Scalar(dt)
	switch k {
	case weakInt:
		n := l.Int64s()[0]
		if dt.IsInteger() {
			if !intFits(n, dt) {
				return nil, fmt.Errorf("%s overflows %v", what, dt)
			}
			return ir.LiteralFromInt64s(t, []int64{n}), nil
		}
		out := ir.LiteralFromInt64s(t, []int64{n})
		back := real(out.Complex128s()[0])
		if back < -(1<<63) || back >= 1<<63 || int64(back) != n {
			return nil, fmt.Errorf("%s is not exactly representable in %v", what, dt)
		}
		return out, nil
	case weakFloat:
		v := l.Float64s()[0]
		out := ir.LiteralFromFloat64s(t, []float64{v})
		if back := real(out.Complex128s()[0]); math.IsInf(back, 0) && !math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s overflows %v", what, dt)
		}
		return out, nil
	case weakComplex:
		c := l.Complex128s()[0]
		out := ir.LiteralFromComplex128s(t, []complex128{c})
		back := out.Complex128s()[0]
		if (math.IsInf(real(back), 0) && !math.IsInf(real(c), 0)) || (math.IsInf(imag(back), 0) && !math.IsInf(imag(c), 0)) {
			return nil, fmt.Errorf("%s overflows %v", what, dt)
		}
		return out, nil
	}
	return nil, fmt.Errorf("internal error: %v is not weak", l.Type)
}

// intFits reports whether n is a value of the integer type dt.
func intFits(n int64, dt ir.DType) bool {
	bits := uint(dt.Bits())
	if dt.IsUnsigned() {
		return n >= 0 && (bits >= 64 || uint64(n) < 1<<bits)
	}
	return bits >= 64 || (n >= -(1<<(bits-1)) && n < 1<<(bits-1))
}

// foldWeak computes an elementwise op of weak constants on the host, with
// the reference evaluator, and returns its result: weak when it has the
// type of a weak kind (a sum of floats), ordinary otherwise (a
// comparison's i1).
func foldWeak(op ir.Op, attr any, lits []*ir.Literal) *Tensor {
	loc := ir.CallerLoc()
	types := make([]ir.Type, len(lits))
	for i, l := range lits {
		types[i] = l.Type
	}
	f, err := oneOpFunc(loc, op, types, attr)
	if err != nil {
		panic(located(err, loc, op.String()))
	}
	rs, err := ir.Eval(f, lits...)
	if err != nil {
		panic(located(err, loc, op.String()))
	}
	r := rs[0]
	if k := weakKindOf(r.Type.DType); k != notWeak {
		return weakScalar(k, r)
	}
	return putOn(DefaultDevice(), r, false)
}

// convertWeak is Convert of a weak tensor: an ordinary tensor of dt,
// converted as Convert converts (it is explicit: no exactness rules).
func convertWeak(x *Tensor, dt ir.DType) *Tensor {
	if x.typ.DType == dt {
		return strong(x)
	}
	if x.weakLit() == nil {
		return emit(nil, ir.OpConvert, []*Tensor{strong(x)}, ir.ConvertAttr{To: dt})[0]
	}
	t := ir.Scalar(dt)
	var l *ir.Literal
	switch x.weakKind() {
	case weakInt:
		l = ir.LiteralFromInt64s(t, x.weakLit().Int64s())
	case weakFloat:
		l = ir.LiteralFromFloat64s(t, x.weakLit().Float64s())
	default:
		l = ir.LiteralFromComplex128s(t, x.weakLit().Complex128s())
	}
	return constantAt(x, l)
}
