package passes

import (
	"github.com/stela-ml/stela/ir"
)

// Fold replaces a pure instruction whose operands are all constants by the
// constants the reference evaluator computes for it. The evaluator defines
// the ops' semantics, so folding is exact by construction. Collectives (and
// ops whose regions hold one) are never folded: their values depend on the
// device and the grid, which the pass does not know.
var Fold = &Pass{
	Name: "fold",
	Doc:  "fold ops on constant operands into constants (through the reference evaluator)",
	Run:  fold,
}

// foldLimit bounds the elements of a folded result: a folded constant lives
// in the program text and in every compiled executable.
const foldLimit = 1024

func fold(m *ir.Module, cx *Context) error {
	forEachFunc(m, func(f *ir.Func) { foldFunc(f, cx) })
	return nil
}

func foldFunc(f *ir.Func, cx *Context) {
	rebuild(f, func(f *ir.Func, in *ir.Instr) []*ir.Value {
		lits := tryFold(in)
		if lits == nil {
			return nil
		}
		out := make([]*ir.Value, len(lits))
		for i, l := range lits {
			out[i] = emit1(f, in.Loc, ir.OpConstant, nil, ir.ConstantAttr{Value: l})
		}
		cx.Remarkf(in, "folded to a constant")
		return out
	})
}

// tryFold evaluates in if it can and should be folded, else returns nil.
func tryFold(in *ir.Instr) []*ir.Literal {
	switch in.Op {
	case ir.OpConstant, ir.OpCustomCall:
		return nil
	case ir.OpWhile:
		// A loop on constants may run for long or forever: leave it to run time.
		return nil
	}
	if !in.IsPure() || len(in.Args) == 0 {
		return nil
	}
	// A collective's value depends on the device and on the others'
	// values: the single device the evaluator runs here is not the grid
	// the program runs on. The same holds for an op whose regions hold
	// one (a case or composite on constant operands).
	if ir.ContainsCollective(in) {
		return nil
	}
	args := make([]*ir.Literal, len(in.Args))
	for i, a := range in.Args {
		if args[i] = constOf(a); args[i] == nil {
			return nil
		}
	}
	n := 0
	for _, r := range in.Results {
		n += r.Type.NumElements()
	}
	if n > foldLimit {
		return nil
	}
	info := in.Op.Info()
	if info == nil || info.Eval == nil {
		return nil
	}
	outs, err := info.Eval(in, args)
	if err != nil || len(outs) != len(in.Results) {
		// A run-time error (e.g. an out-of-range index) stays a run-time error.
		return nil
	}
	for i, o := range outs {
		if o == nil || !o.Type.Equal(in.Results[i].Type) {
			return nil
		}
	}
	return outs
}
