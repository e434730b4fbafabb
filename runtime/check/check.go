// Package check runs StableHLO programs that carry their own expectations
// (`check.expect_eq`, `stablehlo.custom_call @check.expect_close`, ...) and
// judges them, as `stela check` does; ../shared/docs/check-contract.md is
// the contract.
//
// In: MLIR text and a Runner that compiles and runs a module on a device.
// Out: a Report (every expectation held, or which failed), a *Rejected
// error (malformed or unsupported input: exit status 2) or a
// *CompilerError (the device's compiler failed on its own account: exit
// status 3).
//
// How: the expectations are not compiled. Prepare removes every check op
// from the entry function and makes the values it checks extra results of
// the function, so that the program any PJRT plugin runs (ours, XLA's CUDA
// plugin, libtpu) is plain StableHLO; the comparisons then run on the host,
// in one place, with the contract's exact semantics.
package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// Rejected is returned for a program that cannot be judged: malformed,
// unsupported, or rejected by the device's compiler. `stela check` exits 2.
type Rejected struct{ Reason string }

func (r *Rejected) Error() string { return r.Reason }

// CompilerError is returned when the device's compiler fails on its own
// account (PJRT code INTERNAL: for the Stela CPU plugin a bug of the code
// generator, with a reproducer file the message names, or a crash of its
// compile worker or tools): the program is neither judged nor refused.
// `stela check` exits 3.
type CompilerError struct{ Msg string }

func (e *CompilerError) Error() string { return e.Msg }

func rejectf(format string, args ...any) error {
	return &Rejected{Reason: fmt.Sprintf(format, args...)}
}

// Kind is the comparison an expectation makes.
type Kind int

// Kinds.
const (
	Exact    Kind = iota // element equality
	AlmostEq             // |a-b| <= tolerance
	Close                // ULP distance in [min, max]
)

// Expectation is one check op, rewritten: it compares result Actual of the
// prepared program with result Expected, or with Const.
type Expectation struct {
	Op       string // the check op as written: "check.expect_close", "custom_call @check.eq"
	Kind     Kind
	Actual   int         // index of the checked value among the program's results
	Expected int         // index of the expected value, or -1 when Const is set
	Const    *ir.Literal // the expected constant of the *_const forms
	Tol      float64
	MinULP   int64
	MaxULP   int64
	// Line is the check op's line in the source Prepare read (1-based; 0
	// when unknown).
	Line int
}

// Prepared is one entry function ready to run: the module text to compile
// (the entry is @main) and the expectations over its results.
type Prepared struct {
	Entry        string // the entry function's name in the source
	MLIR         []byte
	NumOriginal  int // results the entry had before the rewrite
	Expectations []Expectation
}

// Prepare parses a check file and rewrites each entry function: @main if
// present, else the only function, else every function without arguments.
func Prepare(src []byte) ([]*Prepared, error) {
	m, err := stablehlo.Parse(src)
	if err != nil {
		return nil, rejectf("malformed: %v", err)
	}
	var entries []string
	switch {
	case m.Func("main") != nil:
		entries = []string{"main"}
	case len(m.Funcs) == 1:
		entries = []string{m.Funcs[0].Name}
	default:
		for _, f := range m.Funcs {
			if len(f.Args) == 0 && f.Body != nil {
				entries = append(entries, f.Name)
			}
		}
	}
	if len(entries) == 0 {
		return nil, rejectf("malformed: no entry function (want @main, a single function, or functions without arguments)")
	}
	var out []*Prepared
	for _, name := range entries {
		// Each entry gets a fresh parse: the rewrite mutates the module.
		m, err := stablehlo.Parse(src)
		if err != nil {
			return nil, rejectf("malformed: %v", err)
		}
		p, err := prepareEntry(m, name, entries)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func prepareEntry(m *stablehlo.Module, name string, entries []string) (*Prepared, error) {
	// The other entries run on their own; drop those nothing calls, so
	// their check ops do not reach the compiler.
	called := calledFuncs(m)
	var funcs []*stablehlo.Func
	for _, g := range m.Funcs {
		if g.Name != name && slices.Contains(entries, g.Name) && !called[g.Name] {
			continue
		}
		funcs = append(funcs, g)
	}
	m.Funcs = funcs
	f := m.Func(name)
	if f.Body == nil {
		return nil, rejectf("malformed: entry @%s has no body", name)
	}
	if len(f.Args) != 0 {
		return nil, rejectf("unsupported: entry @%s takes %d arguments; check files run entries without inputs", name, len(f.Args))
	}
	for _, g := range m.Funcs {
		if g != f && hasCheckOps(g.Body) {
			return nil, rejectf("unsupported: check op inside @%s, which is not the entry; put expectations in the entry function", g.Name)
		}
	}
	blk := f.Entry()
	var ret *stablehlo.Op
	if n := len(blk.Ops); n > 0 && (blk.Ops[n-1].Name == "func.return" || blk.Ops[n-1].Name == "return") {
		ret = blk.Ops[n-1]
	} else {
		return nil, rejectf("malformed: entry @%s does not end in return", name)
	}
	// The rewrite below replaces the declared result types with those of
	// the values returned: check that they agreed first, as the compiler
	// does for any program (stela run rejects such an entry).
	for i, v := range ret.Operands {
		if i < len(f.ResultTypes) && !stablehlo.TypesEqual(v.Type, f.ResultTypes[i]) {
			return nil, rejectf("malformed: @%s: result #%d has type %v, the function declares %v", name, i, v.Type, f.ResultTypes[i])
		}
	}
	if len(ret.Operands) != len(f.ResultTypes) {
		return nil, rejectf("malformed: @%s: returns %d values, the function declares %d results", name, len(ret.Operands), len(f.ResultTypes))
	}
	p := &Prepared{Entry: name, NumOriginal: len(ret.Operands)}
	results := append([]*stablehlo.Value(nil), ret.Operands...)
	addResult := func(v *stablehlo.Value) int {
		results = append(results, v)
		return len(results) - 1
	}
	var kept []*stablehlo.Op
	for _, op := range blk.Ops[:len(blk.Ops)-1] {
		if len(op.Regions) > 0 {
			for _, r := range op.Regions {
				if hasCheckOps(r) {
					return nil, rejectf("unsupported: check op inside the region of %s in @%s", op.Name, name)
				}
			}
		}
		e, isCheck, err := expectation(op)
		if err != nil {
			return nil, err
		}
		if !isCheck {
			kept = append(kept, op)
			continue
		}
		e.Line = op.Line
		e.Actual = addResult(op.Operands[0])
		if e.Const == nil {
			e.Expected = addResult(op.Operands[1])
		} else {
			e.Expected = -1
		}
		if strings.HasSuffix(e.Op, "@check.eq") {
			// check.eq(expected, actual): operand order is reversed.
			e.Actual, e.Expected = e.Expected, e.Actual
		}
		p.Expectations = append(p.Expectations, e)
		// A check op with a result (check.eq → i1) is replaced by true:
		// its failure is reported by the host comparison anyway.
		for _, r := range op.Results {
			tt, ok := r.Type.(stablehlo.TensorType)
			if !ok || tt.Elem != stablehlo.I1 {
				return nil, rejectf("unsupported: %s with a result of type %v", e.Op, r.Type)
			}
			t := stablehlo.NewBuilder(&stablehlo.Block{}, "func.return")
			c := t.Constant(stablehlo.MustDense(stablehlo.DenseFromBools(tt, fill(int(tt.NumElements()), true))))
			kept = append(kept, c.Def)
			replaceUses(blk, r, c)
			for i, v := range results {
				if v == r {
					results[i] = c
				}
			}
		}
	}
	ret.Operands = results
	kept = append(kept, ret)
	blk.Ops = kept
	f.ResultTypes = nil
	for _, v := range results {
		f.ResultTypes = append(f.ResultTypes, v.Type)
	}
	f.ResultAttrs = nil
	// The entry becomes @main, public; a different @main cannot exist here
	// (it would have been the entry).
	f.Name = "main"
	f.Visibility = "public"
	for _, g := range m.Funcs {
		if g != f && g.Visibility == "public" {
			g.Visibility = "private"
		}
	}
	p.MLIR = stablehlo.Format(m, stablehlo.PrintOptions{})
	return p, nil
}

// calledFuncs lists the functions that func.call or a symbol attribute
// (composite decompositions) names anywhere in the module.
func calledFuncs(m *stablehlo.Module) map[string]bool {
	called := map[string]bool{}
	var walk func(r *stablehlo.Region)
	walk = func(r *stablehlo.Region) {
		if r == nil {
			return
		}
		for _, b := range r.Blocks {
			for _, op := range b.Ops {
				for _, a := range op.Attrs {
					if s, ok := a.Value.(stablehlo.SymbolRefAttr); ok {
						called[s.Name] = true
					}
				}
				for _, rr := range op.Regions {
					walk(rr)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		walk(f.Body)
	}
	return called
}

func fill(n int, v bool) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = v
	}
	return b
}

func replaceUses(blk *stablehlo.Block, old, new *stablehlo.Value) {
	var walk func(ops []*stablehlo.Op)
	walk = func(ops []*stablehlo.Op) {
		for _, op := range ops {
			for i, v := range op.Operands {
				if v == old {
					op.Operands[i] = new
				}
			}
			for _, r := range op.Regions {
				for _, b := range r.Blocks {
					walk(b.Ops)
				}
			}
		}
	}
	walk(blk.Ops)
}

func hasCheckOps(r *stablehlo.Region) bool {
	if r == nil {
		return false
	}
	for _, b := range r.Blocks {
		for _, op := range b.Ops {
			if isCheckOp(op) {
				return true
			}
			for _, rr := range op.Regions {
				if hasCheckOps(rr) {
					return true
				}
			}
		}
	}
	return false
}

func isCheckOp(op *stablehlo.Op) bool {
	if strings.HasPrefix(op.Name, "check.") {
		return true
	}
	return op.Name == "stablehlo.custom_call" && strings.HasPrefix(customTarget(op), "check.")
}

func customTarget(op *stablehlo.Op) string {
	switch a := op.Attr("call_target_name").(type) {
	case stablehlo.StringAttr:
		return string(a)
	case stablehlo.SymbolRefAttr:
		return a.Name
	}
	return ""
}

// expectation reads a check op; isCheck is false for any other op.
func expectation(op *stablehlo.Op) (e Expectation, isCheck bool, err error) {
	name := op.Name
	if name == "stablehlo.custom_call" {
		t := customTarget(op)
		if !strings.HasPrefix(t, "check.") {
			return e, false, nil
		}
		e.Op = "custom_call @" + t
		if len(op.Operands) != 2 {
			return e, true, rejectf("malformed: %s takes 2 operands, has %d", e.Op, len(op.Operands))
		}
		switch t {
		case "check.expect_eq":
			e.Kind = Exact
		case "check.expect_almost_eq":
			e.Kind, e.Tol = AlmostEq, 1e-3
		case "check.expect_close":
			e.Kind, e.MinULP, e.MaxULP = Close, 0, 3
		case "check.eq":
			e.Kind, e.Tol = AlmostEq, 1e-4 // integers: exact, see compare
		default:
			return e, true, rejectf("unsupported: custom_call @%s", t)
		}
		return e, true, nil
	}
	if !strings.HasPrefix(name, "check.") {
		return e, false, nil
	}
	e.Op = name
	base, isConst := strings.CutSuffix(name, "_const")
	switch base {
	case "check.expect_eq", "check.expect_almost_eq", "check.expect_close":
	default:
		return e, true, rejectf("unsupported: %s", name)
	}
	want := 2
	if isConst {
		want = 1
	}
	if len(op.Operands) != want {
		return e, true, rejectf("malformed: %s takes %d operand(s), has %d", name, want, len(op.Operands))
	}
	switch base {
	case "check.expect_eq":
		e.Kind = Exact
	case "check.expect_almost_eq":
		e.Kind, e.Tol = AlmostEq, 1e-4
		if a, ok := op.Attr("tolerance").(stablehlo.FloatAttr); ok {
			e.Tol = a.Value
		}
	case "check.expect_close":
		e.Kind, e.MinULP, e.MaxULP = Close, 0, 0
		a, ok := op.Attr("max_ulp_difference").(stablehlo.IntAttr)
		if !ok {
			return e, true, rejectf("malformed: %s without max_ulp_difference", name)
		}
		e.MaxULP = a.Value
		if a, ok := op.Attr("min_ulp_difference").(stablehlo.IntAttr); ok {
			e.MinULP = a.Value
		}
	default:
		return e, true, rejectf("unsupported: %s", name)
	}
	if isConst {
		d, ok := op.Attr("value").(*stablehlo.DenseElements)
		if !ok {
			return e, true, rejectf("malformed: %s without a dense value", name)
		}
		l, err := DenseToLiteral(d)
		if err != nil {
			return e, true, err
		}
		e.Const = l
	}
	return e, true, nil
}

// DType maps a StableHLO element type to Stela's, through ir's own
// spelling table (DType.MLIR): signless integers are read as signed.
func DType(e stablehlo.ElementType) (ir.DType, error) {
	for _, d := range ir.EveryDType {
		if d.MLIR() == string(e) {
			return d, nil
		}
	}
	return ir.InvalidDType, rejectf("unsupported: element type %s", e)
}

// TensorType maps a StableHLO tensor type to Stela's.
func TensorType(t stablehlo.Type) (ir.Type, error) {
	tt, ok := t.(stablehlo.TensorType)
	if !ok || tt.Unranked || !tt.IsStatic() {
		return ir.Type{}, rejectf("unsupported: type %v", t)
	}
	d, err := DType(tt.Elem)
	if err != nil {
		return ir.Type{}, err
	}
	dims := make([]int, len(tt.Shape))
	for i, n := range tt.Shape {
		dims[i] = int(n)
	}
	return ir.TensorOf(d, dims...), nil
}

// DenseToLiteral converts a dense attribute (splats expanded) to a literal.
func DenseToLiteral(d *stablehlo.DenseElements) (*ir.Literal, error) {
	t, err := TensorType(d.Type)
	if err != nil {
		return nil, err
	}
	raw := d.Bytes()
	if d.IsSplat() && len(raw) == t.DType.Size() && t.NumElements() > 1 {
		one := raw
		raw = make([]byte, 0, len(one)*t.NumElements())
		for i := 0; i < t.NumElements(); i++ {
			raw = append(raw, one...)
		}
	}
	l, err := ir.LiteralFromBytes(t, raw)
	if err != nil {
		return nil, rejectf("malformed: dense literal: %v", err)
	}
	return l, nil
}

var errNoRunner = errors.New("check: no runner")
