package ir

import "fmt"

// Eval runs f on concrete arguments with the reference evaluator: plain Go,
// one op at a time, written to be obviously correct rather than fast. It is
// the oracle that every backend is tested against. Where a rule has a
// faster path (large dot_general and convolution, reductions whose body is
// elementwise), the path computes the same results bit for bit as the
// rule's straightforward loop, and tests compare the two.
//
// Eval runs one device: a program with collectives runs as on a grid of
// one replica and one partition (replica_id and partition_id are 0, and a
// collective's process group is that one device), and a collective whose
// groups name other devices is an error. EvalSPMD runs a grid of devices.
func Eval(f *Func, args ...*Literal) ([]*Literal, error) {
	return evalOn(nil, f, args)
}

// evalOn runs f on one device: dev, a device of an EvalSPMD run, or nil
// for Eval's single device. Ops that need the device (collectives, and the
// ops whose regions may hold them) have an evalDev rule.
func evalOn(dev *spmdDevice, f *Func, args []*Literal) ([]*Literal, error) {
	if len(args) != len(f.Params) {
		return nil, fmt.Errorf("eval @%s: %d arguments, want %d", f.Name, len(args), len(f.Params))
	}
	env := make(map[*Value]*Literal, len(f.Params)+len(f.Body))
	for i, p := range f.Params {
		if args[i] == nil {
			return nil, fmt.Errorf("eval @%s: argument #%d is nil", f.Name, i)
		}
		if !args[i].Type.Equal(p.Type) {
			return nil, fmt.Errorf("eval @%s: argument #%d has type %v, want %v", f.Name, i, args[i].Type, p.Type)
		}
		env[p] = args[i]
	}
	for _, in := range f.Body {
		ins := make([]*Literal, len(in.Args))
		for i, a := range in.Args {
			l, ok := env[a]
			if !ok {
				return nil, Errorf(in.Loc, in.Op.String(), "operand %s is not defined before use", a)
			}
			ins[i] = l
		}
		info := in.Op.Info()
		if info == nil || info.Eval == nil {
			return nil, Errorf(in.Loc, in.Op.String(), "no evaluation rule")
		}
		if err := dev.aborted(); err != nil {
			return nil, err
		}
		var outs []*Literal
		var err error
		if info.evalDev != nil {
			outs, err = info.evalDev(dev, in, ins)
		} else {
			outs, err = info.Eval(in, ins)
		}
		if err != nil {
			if _, ok := err.(*Error); ok {
				return nil, err
			}
			return nil, Errorf(in.Loc, in.Op.String(), "%w", err)
		}
		if len(outs) != len(in.Results) {
			return nil, Errorf(in.Loc, in.Op.String(), "internal error: evaluator returned %d results, want %d", len(outs), len(in.Results))
		}
		for i, r := range in.Results {
			env[r] = outs[i]
		}
	}
	res := make([]*Literal, len(f.Results))
	for i, r := range f.Results {
		l, ok := env[r]
		if !ok {
			return nil, fmt.Errorf("eval @%s: result #%d (%s) is not defined", f.Name, i, r)
		}
		res[i] = l
	}
	return res, nil
}
