package passes

import (
	"fmt"

	"github.com/stela-ml/stela/ir"
)

// subst maps replaced values to their replacements. The ir package has no
// replace-all-uses: passes rebuild a Body in order, rewriting each
// instruction's operands through subst before looking at it, so that a
// rule always sees already-rewritten operands (one sweep reaches the fixed
// point for chains like transpose(transpose(transpose x))).
type subst map[*ir.Value]*ir.Value

func (s subst) get(v *ir.Value) *ir.Value {
	for {
		w, ok := s[v]
		if !ok {
			return v
		}
		v = w
	}
}

func (s subst) args(in *ir.Instr) {
	for i, a := range in.Args {
		in.Args[i] = s.get(a)
	}
}

func (s subst) results(f *ir.Func) {
	for i, r := range f.Results {
		f.Results[i] = s.get(r)
	}
}

// rebuild runs rule on each instruction of f in order, after rewriting its
// operands. rule returns the replacements of in's results (nil: keep in).
// New instructions a rule makes with f.Emit land in the rebuilt Body just
// before the point where in was, which is where they belong.
func rebuild(f *ir.Func, rule func(f *ir.Func, in *ir.Instr) []*ir.Value) {
	old := f.Body
	f.Body = make([]*ir.Instr, 0, len(old))
	s := subst{}
	for _, in := range old {
		s.args(in)
		if rs := rule(f, in); rs != nil {
			for i, r := range in.Results {
				s[r] = rs[i]
			}
			continue
		}
		f.Body = append(f.Body, in)
	}
	s.results(f)
}

// forRegions calls fn on every region of f's instructions, innermost first.
func forRegions(f *ir.Func, fn func(*ir.Func)) {
	for _, in := range f.Body {
		for _, r := range in.Regions {
			forRegions(r, fn)
			fn(r)
		}
	}
}

// forEachFunc calls fn on every function of m and every region in it,
// innermost regions first, each function after its regions.
func forEachFunc(m *ir.Module, fn func(*ir.Func)) {
	for _, f := range m.Funcs {
		forRegions(f, fn)
		fn(f)
	}
}

// emit1 is f.Emit1 for rewrites whose operands are known good: a failure
// is a bug in the pass, so it panics (the runner recovers and reports).
func emit1(f *ir.Func, loc ir.Loc, op ir.Op, args []*ir.Value, attr any) *ir.Value {
	v, err := f.Emit1(loc, op, args, attr)
	if err != nil {
		panic(fmt.Sprintf("emit %v: %v", op, err))
	}
	return v
}

// constOf returns v's value if a constant defines it.
func constOf(v *ir.Value) *ir.Literal {
	if v.Def == nil || v.Def.Op != ir.OpConstant {
		return nil
	}
	if a, ok := v.Def.Attr.(ir.ConstantAttr); ok {
		return a.Value
	}
	return nil
}

// splatBits returns the bit pattern shared by every element of a constant
// v of a real (non-complex) type, bitwise so that +0 and -0 differ.
func splatBits(v *ir.Value) (uint64, bool) {
	l := constOf(v)
	if l == nil || l.Type.DType.IsComplex() || l.Len() == 0 {
		return 0, false
	}
	d := l.Type.DType
	b := ir.ElemBits(d, l.Elem(0))
	for i := 1; i < l.Len(); i++ {
		if ir.ElemBits(d, l.Elem(i)) != b {
			return 0, false
		}
	}
	return b, true
}

// isSplatOf reports whether v is a constant whose every element has the
// bits of x converted to v's element type.
func isSplatOf(v *ir.Value, x float64) bool {
	b, ok := splatBits(v)
	d := v.Type.DType
	return ok && b == ir.ElemBits(d, ir.FromFloat64(d, x))
}

func splatLiteral(t ir.Type, src *ir.Literal) *ir.Literal {
	l := ir.Zeros(t)
	for i := 0; i < l.Len(); i++ {
		l.CopyElem(i, src, 0)
	}
	return l
}
