package ir

import "fmt"

// Control flow and extension ops: while, case, custom_call, composite.
// Regions are isolated from above, so each is evaluated with Eval on
// exactly the values the op passes in. The rules of while, case and
// composite come in two forms: the op table's (Eval's single device) and
// one that runs the regions on a device of an EvalSPMD run (evalDev), so
// that collectives inside them meet those of the other devices.

// evalWhile runs cond on the state, and body while cond says true. There
// is no iteration cap: a loop may legitimately run long, and a cap would
// make the oracle disagree with the backends it checks.
func evalWhile(in *Instr, args []*Literal) ([]*Literal, error) { return evalWhileOn(nil, in, args) }

func evalWhileOn(dev *spmdDevice, in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	if err := sxArgs(args, 0); err != nil {
		return nil, err
	}
	if len(in.Regions) != 2 || in.Regions[0] == nil || in.Regions[1] == nil {
		return nil, fmt.Errorf("want two regions, cond and body")
	}
	cond, body := in.Regions[0], in.Regions[1]
	for k, a := range args {
		if err := sxCheckResult(in, k, a.Type); err != nil {
			return nil, err
		}
	}
	if len(in.Results) != len(args) {
		return nil, fmt.Errorf("%d results for %d operands", len(in.Results), len(args))
	}
	state := args
	for {
		c, err := dev.eval(cond, state...)
		if err != nil {
			return nil, err
		}
		if len(c) != 1 || !c[0].Type.Equal(Scalar(Bool)) {
			return nil, fmt.Errorf("cond region must return one i1 scalar")
		}
		if !c[0].Data.([]bool)[0] {
			return state, nil
		}
		next, err := dev.eval(body, state...)
		if err != nil {
			return nil, err
		}
		if len(next) != len(state) {
			return nil, fmt.Errorf("body region returns %d values, want %d", len(next), len(state))
		}
		for k, v := range next {
			if !v.Type.Equal(state[k].Type) {
				return nil, fmt.Errorf("body region result #%d has type %v, want %v", k, v.Type, state[k].Type)
			}
		}
		state = next
	}
}

// evalCase runs branch index on the remaining operands; an index out of
// range picks the last branch, as in StableHLO.
func evalCase(in *Instr, args []*Literal) ([]*Literal, error) { return evalCaseOn(nil, in, args) }

func evalCaseOn(dev *spmdDevice, in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	if len(in.Regions) == 0 {
		return nil, fmt.Errorf("want at least one branch")
	}
	idx, err := sxScalarIndex("index", args[0])
	if err != nil {
		return nil, err
	}
	if idx < 0 || idx >= len(in.Regions) {
		idx = len(in.Regions) - 1
	}
	branch := in.Regions[idx]
	if branch == nil {
		return nil, fmt.Errorf("branch %d is nil", idx)
	}
	res, err := dev.eval(branch, args[1:]...)
	if err != nil {
		return nil, err
	}
	if len(res) != len(in.Results) {
		return nil, fmt.Errorf("branch %d returns %d values, want %d", idx, len(res), len(in.Results))
	}
	for k, v := range res {
		if err := sxCheckResult(in, k, v.Type); err != nil {
			return nil, fmt.Errorf("branch %d: %v", idx, err)
		}
	}
	return res, nil
}

// evalCustomCall refuses every target: what a target computes is defined
// by a backend, and the reference evaluator knows none.
func evalCustomCall(in *Instr, args []*Literal) ([]*Literal, error) {
	a, err := sxAttr[CustomCallAttr](in)
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("target %q has no reference evaluation (the evaluator implements no custom_call targets)", a.Target)
}

// evalComposite evaluates the decomposition on the operands: a composite
// means what its decomposition computes.
func evalComposite(in *Instr, args []*Literal) ([]*Literal, error) {
	return evalCompositeOn(nil, in, args)
}

func evalCompositeOn(dev *spmdDevice, in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	if err := sxArgs(args, 0); err != nil {
		return nil, err
	}
	if len(in.Regions) != 1 || in.Regions[0] == nil {
		return nil, fmt.Errorf("want one decomposition region")
	}
	res, err := dev.eval(in.Regions[0], args...)
	if err != nil {
		return nil, err
	}
	if len(res) != len(in.Results) {
		return nil, fmt.Errorf("decomposition returns %d values, want %d", len(res), len(in.Results))
	}
	for k, v := range res {
		if err := sxCheckResult(in, k, v.Type); err != nil {
			return nil, err
		}
	}
	return res, nil
}
