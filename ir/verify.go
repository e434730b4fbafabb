package ir

import "fmt"

// Verify checks the invariants of a Func (see the package doc) and of the
// regions nested in it, and returns every problem it finds as an ErrorList
// of located *Error values in program order, or nil. A broken instruction
// does not stop the check of the others: the aim is one run that shows
// everything, like golang/tools' go/ssa sanity checker.
//
// It checks, for f and recursively for each region:
//   - parameters: non-nil, owned by the Func, indexed in order, with valid
//     element types and static shapes;
//   - each instruction: a known op, the Func back-pointer, operand count,
//     attribute type and region count (the op table's form), operands
//     defined earlier in the same Func (regions are isolated from above),
//     regions whose Parent is the instruction;
//   - the op's type rule accepts the operands, attribute and regions, and
//     gives exactly the recorded result types;
//   - no collective sits in the scalar region of a reduction, sort or
//     scatter (which runs per element, on no particular device);
//   - a manual_computation's mesh is its function's, and it is not in the
//     body of another;
//   - results: Def, Index and Func consistent with the instruction;
//   - value IDs unique within the Func, each value defined once;
//   - the Func's results non-nil, owned by it and defined in it.
func Verify(f *Func) error {
	v := &verifier{seen: map[*Func]bool{}}
	v.fn(f)
	return v.errs.Err()
}

// Verify checks every function of the module (see Verify) and that
// function names are non-empty and unique.
func (m *Module) Verify() error {
	v := &verifier{seen: map[*Func]bool{}}
	names := map[string]bool{}
	for i, f := range m.Funcs {
		if f == nil {
			v.errorf(UnknownLoc, "module", "function #%d is nil", i)
			continue
		}
		switch {
		case f.Name == "":
			v.errorf(UnknownLoc, "module", "function #%d has no name", i)
		case names[f.Name]:
			v.errorf(UnknownLoc, "module", "function @%s is defined twice", f.Name)
		}
		names[f.Name] = true
		v.fn(f)
	}
	return v.errs.Err()
}

type verifier struct {
	errs ErrorList
	seen map[*Func]bool
	// notes locate the region being checked: innermost instruction first.
	notes []Note
}

func (v *verifier) errorf(loc Loc, op, format string, args ...any) {
	e := Errorf(loc, op, format, args...)
	if len(v.notes) > 0 {
		e.Notes = append([]Note{}, v.notes...)
	}
	v.errs = append(v.errs, e)
}

func funcName(f *Func) string {
	if f == nil {
		return "<nil>"
	}
	return f.Name
}

// fnState is what the check of one Func knows so far.
type fnState struct {
	f       *Func
	where   string          // "func @name", the Op of errors about the Func itself
	defined map[*Value]bool // values defined so far
	ids     map[int]string  // value ID → what first used it
	ops     map[*Instr]bool // instructions seen so far
	// all holds every value the Func defines anywhere, to tell a use before
	// the definition from a use of a value whose instruction is not in the
	// body at all (removed by a pass that left a use behind).
	all map[*Value]bool
}

func (s *fnState) define(v *verifier, val *Value, loc Loc, op, what string) {
	if prev, dup := s.ids[val.ID]; dup {
		v.errorf(loc, op, "%s has ID %s, already used by %s", what, val, prev)
	} else {
		s.ids[val.ID] = what
	}
	s.defined[val] = true
}

func (v *verifier) fn(f *Func) {
	if f == nil {
		v.errorf(UnknownLoc, "", "function is nil")
		return
	}
	s := &fnState{f: f, where: "func @" + f.Name, defined: map[*Value]bool{}, ids: map[int]string{}, ops: map[*Instr]bool{}, all: map[*Value]bool{}}
	if v.seen[f] {
		v.errorf(UnknownLoc, s.where, "function is reached twice (a region shared by two instructions, or nested in itself)")
		return
	}
	v.seen[f] = true
	for _, in := range f.Body {
		if in != nil {
			for _, r := range in.Results {
				s.all[r] = true
			}
		}
	}
	for i, p := range f.Params {
		if p == nil {
			v.errorf(UnknownLoc, s.where, "parameter #%d is nil", i)
			continue
		}
		loc := p.Loc()
		switch {
		case p.Def != nil:
			v.errorf(loc, s.where, "parameter #%d (%s) has a defining instruction (%v)", i, p, p.Def.Op)
		case p.Func != f:
			v.errorf(loc, s.where, "parameter #%d (%s) belongs to function @%s", i, p, funcName(p.Func))
		case p.Index != i:
			v.errorf(loc, s.where, "parameter #%d (%s) has index %d", i, p, p.Index)
		}
		if s.defined[p] {
			v.errorf(loc, s.where, "parameter #%d (%s) is listed twice", i, p)
		}
		if err := checkStaticType(p.Type); err != nil {
			v.errorf(loc, s.where, "parameter #%d (%s): %v", i, p, err)
		}
		s.define(v, p, loc, s.where, fmt.Sprintf("parameter #%d", i))
	}
	for i, in := range f.Body {
		if in == nil {
			v.errorf(UnknownLoc, s.where, "instruction #%d is nil", i)
			continue
		}
		v.instr(s, in)
	}
	v.shardings(s, f)
	for i, r := range f.Results {
		switch {
		case r == nil:
			v.errorf(UnknownLoc, s.where, "result #%d is nil", i)
		case r.Func != f:
			v.errorf(r.Loc(), s.where, "result #%d (%s) belongs to function @%s", i, r, funcName(r.Func))
		case !s.defined[r]:
			v.errorf(r.Loc(), s.where, "result #%d (%s) is not defined in the function", i, r)
		}
	}
}

func (v *verifier) instr(s *fnState, in *Instr) {
	f := s.f
	op := in.Op.String()
	if s.ops[in] {
		v.errorf(in.Loc, op, "instruction appears twice in @%s", f.Name)
		return
	}
	s.ops[in] = true
	if in.Func != f {
		v.errorf(in.Loc, op, "instruction's Func is @%s, but it is in the body of @%s", funcName(in.Func), f.Name)
	}
	info := in.Op.Info()
	formOK := info != nil
	if info == nil {
		v.errorf(in.Loc, op, "unknown op")
	} else if err := info.checkForm(in); err != nil {
		v.errorf(in.Loc, op, "%v", err)
		formOK = false
	}
	argTypes := make([]Type, len(in.Args))
	for i, a := range in.Args {
		switch {
		case a == nil:
			v.errorf(in.Loc, op, "operand #%d is nil", i)
			formOK = false
			continue
		case a.Func != f:
			v.errorf(in.Loc, op, "operand #%d (%s) belongs to function @%s, not @%s (regions are isolated from above: pass values in as parameters)", i, a, funcName(a.Func), f.Name)
		case !s.defined[a] && s.all[a]:
			v.errorf(in.Loc, op, "operand #%d (%s) is used before it is defined", i, a)
		case !s.defined[a] && !a.IsParam():
			v.errorf(in.Loc, op, "operand #%d (%s) is not defined: its instruction is not in the body of @%s", i, a, f.Name)
		case !s.defined[a]:
			v.errorf(in.Loc, op, "operand #%d (%s) is not a parameter of @%s", i, a, f.Name)
		}
		argTypes[i] = a.Type
	}
	for i, r := range in.Regions {
		if r == nil {
			continue // checkForm has said so
		}
		if r.Parent != in {
			v.errorf(in.Loc, op, "region #%d (@%s) has a Parent other than this instruction", i, r.Name)
		}
		v.notes = append([]Note{{Loc: in.Loc, Msg: fmt.Sprintf("in region #%d of %s", i, op)}}, v.notes...)
		v.fn(r)
		v.notes = v.notes[1:]
	}
	if c := scalarRegionCollective(in); c != nil {
		v.errorf(c.Loc, c.Op.String(), "%s", errScalarRegionCollective(in))
	}
	if in.Op == OpManualComputation {
		v.manual(s, in)
	}
	if formOK {
		types, err := info.Infer(argTypes, in.Attr, in.Regions)
		switch {
		case err != nil:
			v.errorf(in.Loc, op, "%v", err)
		case len(types) != len(in.Results):
			v.errorf(in.Loc, op, "has %d results, want %d %s", len(in.Results), len(types), typeListString(types))
		default:
			for i, r := range in.Results {
				if r != nil && !r.Type.Equal(types[i]) {
					v.errorf(in.Loc, op, "result #%d (%s) has type %v, want %v", i, r, r.Type, types[i])
				}
			}
		}
	}
	for i, r := range in.Results {
		if r == nil {
			v.errorf(in.Loc, op, "result #%d is nil", i)
			continue
		}
		switch {
		case r.Def != in:
			v.errorf(in.Loc, op, "result #%d (%s) has a different defining instruction", i, r)
		case r.Index != i:
			v.errorf(in.Loc, op, "result #%d (%s) has index %d", i, r, r.Index)
		case r.Func != f:
			v.errorf(in.Loc, op, "result #%d (%s) belongs to function @%s, not @%s", i, r, funcName(r.Func), f.Name)
		}
		if s.defined[r] {
			v.errorf(in.Loc, op, "result #%d (%s) is defined twice", i, r)
		}
		s.define(v, r, in.Loc, op, fmt.Sprintf("result #%d of %s", i, op))
	}
}
