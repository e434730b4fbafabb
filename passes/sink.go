package passes

import (
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Sink moves pure instructions whose results only a case op uses into
// the branches that use them, so that only the branch taken does their
// work (XLA's conditional code motion, in one direction). Tracing records
// an op where its operands live: an op in a Cond branch that reads only
// tensors from outside the branch is recorded before the case and would
// run whichever branch is taken; this pass puts it back. An instruction
// that two branches use is copied into both (it still runs at most once);
// one that anything else uses stays. Chains move whole, one instruction
// at a time from the last. Regions are processed too, innermost first.
// Collectives (and ops whose regions hold one) stay: the devices of an
// SPMD program may take different branches, and every device must reach
// the same collectives.
var Sink = &Pass{
	Name: "sink",
	Doc:  "move pure ops used only by a case op into the branches that use them",
	Run:  sink,
}

func sink(m *ir.Module, cx *Context) error {
	forEachFunc(m, func(f *ir.Func) { sinkFunc(f, cx) })
	return nil
}

// use is one operand slot that reads a value.
type use struct {
	in  *ir.Instr
	arg int
}

func sinkFunc(f *ir.Func, cx *Context) {
	for changed := true; changed; {
		changed = false
		uses := map[*ir.Value][]use{}
		for _, in := range f.Body {
			for i, a := range in.Args {
				uses[a] = append(uses[a], use{in, i})
			}
		}
		for _, r := range f.Results {
			uses[r] = append(uses[r], use{nil, -1})
		}
		for i := len(f.Body) - 1; i >= 0; i-- {
			d := f.Body[i]
			c := caseUser(d, uses)
			if c == nil {
				continue
			}
			sinkInto(f, d, c)
			cx.Remarkf(d, "moved into the branches of the case at %v", c.Loc.Primary())
			changed = true
			break
		}
	}
}

// caseUser returns the case op that is the only user of d's results, as
// branch operands, when d may move into its branches.
func caseUser(d *ir.Instr, uses map[*ir.Value][]use) *ir.Instr {
	if !d.IsPure() || len(d.Results) == 0 {
		return nil
	}
	// Devices may take different branches: a collective moved into them
	// would wait for devices that never reach it.
	if ir.ContainsCollective(d) {
		return nil
	}
	var c *ir.Instr
	for _, r := range d.Results {
		us := uses[r]
		if len(us) == 0 {
			return nil // dead or partly dead: DCE's business
		}
		for _, u := range us {
			if u.in == nil || u.in.Op != ir.OpCase || u.arg == 0 || (c != nil && u.in != c) {
				return nil
			}
			c = u.in
		}
	}
	return c
}

// sinkInto moves d into the branches of case c: d's operands become
// operands of c (new branch parameters, or the ones already there), each
// branch that reads one of d's results gets a copy of d, and the operands
// that carried d's results go.
func sinkInto(f *ir.Func, d, c *ir.Instr) {
	// The parameter positions (in every branch) of d's operands, adding
	// new operands of c where needed.
	argPos := make([]int, len(d.Args))
	for k, a := range d.Args {
		pos := slices.Index(c.Args[1:], a)
		if pos < 0 {
			c.Args = append(c.Args, a)
			for _, br := range c.Regions {
				br.AddParam(a.Type, a.Loc())
			}
			pos = len(c.Args) - 2
		}
		argPos[k] = pos
	}
	for _, br := range c.Regions {
		var copied []*ir.Value
		s := subst{}
		for i, a := range c.Args[1:] {
			r := slices.Index(d.Results, a)
			if r < 0 || !usedIn(br, br.Params[i]) {
				continue
			}
			if copied == nil {
				copied = cloneAtStart(br, d, argPos)
			}
			s[br.Params[i]] = copied[r]
		}
		for _, in := range br.Body {
			s.args(in)
		}
		s.results(br)
	}
	// Drop the operands (and parameters) that carried d's results.
	keep := []*ir.Value{c.Args[0]}
	var drop []int
	for i, a := range c.Args[1:] {
		if slices.Contains(d.Results, a) {
			drop = append(drop, i)
			continue
		}
		keep = append(keep, a)
	}
	c.Args = keep
	for _, br := range c.Regions {
		var ps []*ir.Value
		for i, p := range br.Params {
			if !slices.Contains(drop, i) {
				p.Index = len(ps)
				ps = append(ps, p)
			}
		}
		br.Params = ps
	}
	f.Body = slices.DeleteFunc(f.Body, func(in *ir.Instr) bool { return in == d })
}

// usedIn reports whether v is an operand or result in g.
func usedIn(g *ir.Func, v *ir.Value) bool {
	if slices.Contains(g.Results, v) {
		return true
	}
	for _, in := range g.Body {
		if slices.Contains(in.Args, v) {
			return true
		}
	}
	return false
}

// cloneAtStart emits a copy of d at the start of br, its operands the
// branch parameters at argPos, and returns the copy's results.
func cloneAtStart(br *ir.Func, d *ir.Instr, argPos []int) []*ir.Value {
	vmap := map[*ir.Value]*ir.Value{}
	for k, a := range d.Args {
		vmap[a] = br.Params[argPos[k]]
	}
	body := br.Body
	br.Body = nil
	rs := ir.CloneInstr(br, d, vmap)
	br.Body = append(br.Body, body...)
	return rs
}
