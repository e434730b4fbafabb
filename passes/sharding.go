package passes

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// Sharding propagation (docs/sharding.md).
//
// PropagateSharding decides a sharding for every value of a function that
// has a mesh, starting from what the user asked for: the parameters'
// shardings (jit.InShardings), the results' (jit.OutShardings) and the
// sharding_constraint ops (sharding.Constrain). It sweeps the program
// forward and backward through each op's sharding rule (the op table's
// factors, ir/sharding_rules.go) until nothing changes:
//
//   - a value nobody decided yet takes what its neighbours' factors say;
//   - a decided value that is not the user's may be refined: a dimension
//     it keeps whole takes axes a neighbour splits it by, when they are
//     free in the value's sharding;
//   - the user's shardings (parameters, constraints, the results of a
//     manual computation: sharding.Map's out specs) never change; a
//     manual computation's operands start from its in specs when nothing
//     else decided them, and its body, the program of one device, has no
//     global shardings.
//
// Forward sweeps run first, so a value follows its operands before its
// users. Where an op's operands disagree about a factor (two different
// axis lists, or one axis on two factors), the operand first in order
// wins and the op gets a conflict: the partitioner will reshard the
// other, and the conflict is a remark naming both Go lines and the bytes
// that resharding moves per device. Values that nothing reaches are
// replicated.
//
// Every dimension's axes remember where they came from (a Step chain back
// to the user's annotation), which Explain prints.

// Origin is a user annotation that started a chain of decisions.
type Origin struct {
	What string // "parameter #0", "result #1", "sharding_constraint", "sharding.Map"
	Loc  ir.Loc // its Go line
}

func (o *Origin) String() string {
	if o == nil {
		return "no annotation"
	}
	if o.Loc.IsKnown() {
		return fmt.Sprintf("%s at %v", o.What, o.Loc.Primary())
	}
	return o.What
}

// Step is one decision: a value's dimension got its axes from a
// neighbour through an op (or from an annotation, when Via is nil).
type Step struct {
	Origin   *Origin
	From     *ir.Value // the neighbour (nil at the origin)
	Via      *ir.Instr // the op whose rule carried the axes (nil at the origin)
	Backward bool      // from a result to an operand
}

// Conflict is an op whose operands' shardings disagree with what its
// rule needs: one of them must be resharded.
type Conflict struct {
	Instr   *ir.Instr
	Operand int          // the operand that loses
	Have    *ir.Sharding // its sharding
	Want    *ir.Sharding // what the op needs of it
	Winner  *Origin      // where the winning axes came from
	Loser   *Origin      // where the operand's came from
	Bytes   int64        // bytes each device receives to reshard it
}

func (c *Conflict) String() string {
	return fmt.Sprintf("operand #%d is sharded %v (from %v) but the op needs %v (from %v): resharding it moves %s per device",
		c.Operand, c.Have, c.Loser, c.Want, c.Winner, formatBytes(c.Bytes))
}

// ShardingReport is what propagation decided and why.
type ShardingReport struct {
	Func      *ir.Func
	Mesh      *ir.Mesh
	Conflicts []*Conflict
	// dims[v][d] explains dimension d of value v's sharding; whole[v]
	// the value when a user gave it as a whole.
	st map[*ir.Value]*valState
	uf map[*ir.Value]*ir.Value
}

type valState struct {
	sh    *ir.Sharding
	fixed bool
	dims  []*Step // per dimension: where its axes came from (nil: whole)
	given *Step   // the user annotation that fixed or seeded it
}

// PropagateSharding fills Value.Sharding for every value of f (and of
// its regions). f must have a mesh; the user's shardings must fit it
// (ir.Verify checks them).
func PropagateSharding(f *ir.Func) (*ShardingReport, error) {
	if f.Mesh == nil {
		return nil, fmt.Errorf("sharding propagation: @%s has no mesh", f.Name)
	}
	if err := ir.Verify(f); err != nil {
		return nil, err
	}
	p := &ShardingReport{Func: f, Mesh: f.Mesh, st: map[*ir.Value]*valState{}, uf: map[*ir.Value]*ir.Value{}}
	var instrs []*ir.Instr
	walkGlobal(f, func(in *ir.Instr) { instrs = append(instrs, in) })
	p.unify(instrs)

	// Seeds: the user's shardings.
	for i, v := range f.Params {
		if s := f.InSharding(i); s != nil {
			p.seed(v, s, &Origin{What: fmt.Sprintf("parameter #%d", i), Loc: v.Loc()}, true)
		}
	}
	for _, in := range instrs {
		switch in.Op {
		case ir.OpShardingConstraint:
			a := in.Attr.(ir.ShardingConstraintAttr)
			p.seed(in.Results[0], &a.Sharding, &Origin{What: "sharding_constraint", Loc: in.Loc}, true)
		case ir.OpManualComputation:
			// The results are laid out as the out specs say; the operands
			// are wanted as the in specs say (a wish: a value the user
			// laid out otherwise is resharded, with a conflict).
			a := in.Attr.(ir.ManualComputationAttr)
			o := &Origin{What: "sharding.Map", Loc: in.Loc}
			for k, r := range in.Results {
				p.seed(r, &a.OutShardings[k], o, true)
			}
		}
	}
	for _, in := range instrs {
		if in.Op != ir.OpManualComputation {
			continue
		}
		a := in.Attr.(ir.ManualComputationAttr)
		o := &Origin{What: "sharding.Map", Loc: in.Loc}
		for i, v := range in.Args {
			if p.state(v).sh == nil {
				p.seed(v, &a.InShardings[i], o, false)
			}
		}
	}
	// The results' shardings seed what the operands' did not reach in a
	// first forward sweep: a result computed from sharded operands keeps
	// their layout and is resharded at the end.
	for _, in := range instrs {
		p.infer(in, false)
	}
	for i, r := range f.Results {
		s := f.OutSharding(i)
		st := p.state(r)
		if s == nil || st.fixed {
			continue
		}
		o := &Origin{What: fmt.Sprintf("result #%d", i), Loc: r.Loc()}
		if st.sh == nil {
			p.seed(r, s, o, false)
			continue
		}
		// Dimensions the sweep left whole take the result's axes.
		taken := map[string]bool{}
		for _, a := range st.sh.UsedAxes() {
			taken[a] = true
		}
		for d, axes := range s.Dims {
			free := len(st.sh.Dims[d]) == 0 && len(axes) > 0
			for _, a := range axes {
				free = free && !taken[a]
			}
			if free {
				st.sh.Dims[d] = slices.Clone(axes)
				st.dims[d] = &Step{Origin: o}
				for _, a := range axes {
					taken[a] = true
				}
			}
		}
	}

	// Sweeps to a fixpoint. Each change adds an axis to some value, so
	// there are at most (values × axes) changes.
	limit := 2 * (len(instrs) + 1) * (len(f.Mesh.Axes) + 1)
	for round := 0; ; round++ {
		changed := false
		for _, in := range instrs {
			changed = p.infer(in, false) || changed
		}
		for i := len(instrs) - 1; i >= 0; i-- {
			changed = p.infer(instrs[i], true) || changed
		}
		if !changed {
			break
		}
		if round > limit {
			return nil, fmt.Errorf("sharding propagation: @%s did not settle after %d rounds (a bug)", f.Name, round)
		}
	}

	// What nothing reached is replicated; then the conflicts, and the
	// decisions go into the IR.
	set := func(v *ir.Value) {
		s := p.state(v)
		if s.sh == nil {
			s.sh = ir.Replicated(v.Type.Rank())
			s.dims = make([]*Step, v.Type.Rank())
		}
		v.Sharding = s.sh.Clone()
	}
	var setFunc func(g *ir.Func)
	setFunc = func(g *ir.Func) {
		for _, v := range g.Params {
			set(v)
		}
		for _, in := range g.Body {
			for _, r := range globalRegions(in) {
				setFunc(r)
			}
			for _, v := range in.Results {
				set(v)
			}
		}
	}
	setFunc(f)
	for _, in := range instrs {
		p.conflicts(in)
	}
	return p, nil
}

// walkGlobal calls fn for every instruction of f and of its regions,
// regions first, except inside manual computations: their bodies are the
// program of one device, whose values have no global sharding.
func walkGlobal(f *ir.Func, fn func(*ir.Instr)) {
	for _, in := range f.Body {
		for _, r := range globalRegions(in) {
			walkGlobal(r, fn)
		}
		fn(in)
	}
}

// globalRegions are in's regions that hold global values: none for a
// manual computation.
func globalRegions(in *ir.Instr) []*ir.Func {
	if in.Op == ir.OpManualComputation {
		return nil
	}
	return in.Regions
}

// unify makes the values that must share a sharding one class: a while
// loop's operand, result, and its regions' parameters and results at each
// position; a case's results and its branches' results, and its operands
// and the branches' parameters.
func (p *ShardingReport) unify(instrs []*ir.Instr) {
	for _, in := range instrs {
		switch in.Op {
		case ir.OpWhile:
			for i := range in.Args {
				p.union(in.Args[i], in.Results[i])
				for _, r := range in.Regions {
					p.union(in.Args[i], r.Params[i])
				}
				p.union(in.Args[i], in.Regions[1].Results[i])
			}
		case ir.OpCase:
			for _, r := range in.Regions {
				for i := range in.Results {
					p.union(in.Results[i], r.Results[i])
				}
				for i, v := range r.Params {
					p.union(in.Args[1+i], v)
				}
			}
		}
	}
}

func (p *ShardingReport) find(v *ir.Value) *ir.Value {
	for {
		u, ok := p.uf[v]
		if !ok || u == v {
			return v
		}
		if w, ok := p.uf[u]; ok && w != u {
			p.uf[v] = w
		}
		v = u
	}
}

func (p *ShardingReport) union(a, b *ir.Value) {
	ra, rb := p.find(a), p.find(b)
	if ra != rb {
		p.uf[rb] = ra
	}
}

func (p *ShardingReport) state(v *ir.Value) *valState {
	r := p.find(v)
	s := p.st[r]
	if s == nil {
		s = &valState{}
		p.st[r] = s
	}
	return s
}

func (p *ShardingReport) seed(v *ir.Value, sh *ir.Sharding, o *Origin, fixed bool) {
	s := p.state(v)
	step := &Step{Origin: o}
	s.sh, s.fixed, s.given = sh.Clone(), fixed, step
	s.sh.Partial = nil
	s.dims = make([]*Step, len(sh.Dims))
	for d := range sh.Dims {
		s.dims[d] = step
	}
}

// project splits a dimension's axes over its factors, major first: a
// factor takes axes while their product divides its size, and the next
// factor starts only when it is full. It returns nil when the axes do not
// fit the factors that way.
func project(m *ir.Mesh, axes []string, factors []int, sizes []int) map[int][]string {
	out := map[int][]string{}
	fi, cum := 0, 1
	for _, a := range axes {
		if fi >= len(factors) {
			return nil
		}
		n := m.AxisSize(a)
		f := factors[fi]
		if sizes[f]%(cum*n) != 0 {
			return nil
		}
		out[f] = append(out[f], a)
		cum *= n
		if cum == sizes[f] {
			fi, cum = fi+1, 1
		}
	}
	return out
}

// compose is the inverse: the axes of a dimension from its factors'. A
// factor's axes count only while the factors before it are full.
func compose(m *ir.Mesh, fax map[int][]string, factors []int, sizes []int) []string {
	var axes []string
	for _, f := range factors {
		as := fax[f]
		axes = append(axes, as...)
		if m.AxesSize(as) != sizes[f] {
			break
		}
	}
	return axes
}

// factorAxes gathers what the decided operands and results of in say
// about each factor. For each factor it returns the first non-empty
// opinion in order (operands, then results) and where it came from.
type opinion struct {
	axes []string
	from *ir.Value
	dim  int
	step *Step
}

func (p *ShardingReport) opinions(in *ir.Instr, r *ir.ShardingRule, backward bool) map[int]opinion {
	out := map[int]opinion{}
	used := map[string]int{} // axis → factor
	look := func(v *ir.Value, dims [][]int) {
		s := p.state(v)
		if s.sh == nil {
			return
		}
		for d, fs := range dims {
			if len(fs) == 0 || len(s.sh.Dims[d]) == 0 {
				continue
			}
			pr := project(p.Mesh, s.sh.Dims[d], fs, r.Factors)
			for _, f := range fs {
				axes := pr[f]
				if len(axes) == 0 {
					continue
				}
				if _, ok := out[f]; ok {
					continue
				}
				clash := false
				for _, a := range axes {
					if g, ok := used[a]; ok && g != f {
						clash = true
					}
				}
				if clash {
					continue
				}
				for _, a := range axes {
					used[a] = f
				}
				out[f] = opinion{axes: axes, from: v, dim: d, step: s.dims[d]}
			}
		}
	}
	if backward {
		for i, v := range in.Results {
			look(v, r.Results[i])
		}
		for i, v := range in.Args {
			look(v, r.Operands[i])
		}
	} else {
		for i, v := range in.Args {
			look(v, r.Operands[i])
		}
		for i, v := range in.Results {
			look(v, r.Results[i])
		}
	}
	return out
}

// infer sets or refines the shardings of in's results (forward) or
// operands (backward) from the others, through in's rule. It reports a
// change.
func (p *ShardingReport) infer(in *ir.Instr, backward bool) bool {
	r := in.ShardingRule()
	if r == nil {
		return false
	}
	ops := p.opinions(in, r, backward)
	if len(ops) == 0 {
		return false
	}
	changed := false
	apply := func(v *ir.Value, dims [][]int) {
		s := p.state(v)
		if s.fixed {
			return
		}
		if s.sh == nil {
			s.sh = ir.Replicated(v.Type.Rank())
			s.dims = make([]*Step, v.Type.Rank())
			changed = true // decided, even if whole
		}
		taken := map[string]bool{}
		for _, a := range s.sh.UsedAxes() {
			taken[a] = true
		}
		for d, fs := range dims {
			if len(fs) == 0 || len(s.sh.Dims[d]) > 0 {
				continue
			}
			fax := map[int][]string{}
			var src opinion
			for _, f := range fs {
				if o, ok := ops[f]; ok && o.from != v {
					fax[f] = o.axes
					if src.from == nil {
						src = o
					}
				}
			}
			axes := compose(p.Mesh, fax, fs, r.Factors)
			if len(axes) == 0 {
				continue
			}
			free := true
			for _, a := range axes {
				free = free && !taken[a]
			}
			if !free {
				continue
			}
			for _, a := range axes {
				taken[a] = true
			}
			s.sh.Dims[d] = axes
			origin := (*Origin)(nil)
			if src.step != nil {
				origin = src.step.Origin
			}
			s.dims[d] = &Step{Origin: origin, From: src.from, Via: in, Backward: backward}
			changed = true
		}
	}
	if backward {
		for i, v := range in.Args {
			if v.Type.Rank() > 0 || p.state(v).sh == nil {
				apply(v, r.Operands[i])
			}
		}
	} else {
		for i, v := range in.Results {
			apply(v, r.Results[i])
		}
	}
	return changed
}

// conflicts records where in's operands disagree with the factors its
// results were given: those operands will be resharded.
func (p *ShardingReport) conflicts(in *ir.Instr) {
	if in.Op == ir.OpManualComputation {
		p.manualConflicts(in)
		return
	}
	r := in.ShardingRule()
	if r == nil {
		return
	}
	// The factors as the results have them, completed by the operands in
	// order (the partitioner's default choice).
	fax := map[int][]string{}
	src := map[int]*Step{}
	used := map[string]bool{}
	take := func(v *ir.Value, dims [][]int) {
		s := p.state(v)
		for d, fs := range dims {
			if len(fs) == 0 {
				continue
			}
			pr := project(p.Mesh, s.sh.Dims[d], fs, r.Factors)
			for _, f := range fs {
				if _, ok := fax[f]; ok || len(pr[f]) == 0 {
					continue
				}
				ok := true
				for _, a := range pr[f] {
					ok = ok && !used[a]
				}
				if !ok {
					continue
				}
				for _, a := range pr[f] {
					used[a] = true
				}
				fax[f] = pr[f]
				src[f] = s.dims[d]
			}
		}
	}
	for i, v := range in.Results {
		take(v, r.Results[i])
	}
	for i, v := range in.Args {
		take(v, r.Operands[i])
	}
	for i, v := range in.Args {
		if v.Type.Rank() == 0 {
			continue
		}
		have := p.state(v).sh
		want := ir.Replicated(v.Type.Rank())
		for d, fs := range r.Operands[i] {
			want.Dims[d] = compose(p.Mesh, fax, fs, r.Factors)
		}
		if have.Equal(want) {
			continue
		}
		// The winner: whoever holds an axis the operand loses, else
		// whoever split a factor of the operand.
		var winner *Origin
		for d, axes := range have.Dims {
			for _, a := range axes {
				if winner != nil || slices.Contains(want.Dims[d], a) {
					continue
				}
				for f, fa := range fax {
					if slices.Contains(fa, a) && src[f] != nil {
						winner = src[f].Origin
					}
				}
			}
		}
		for _, fs := range r.Operands[i] {
			for _, f := range fs {
				if st := src[f]; st != nil && winner == nil && len(fax[f]) > 0 {
					winner = st.Origin
				}
			}
		}
		bytes := ReshardBytes(p.Mesh, v.Type, have, want)
		if bytes == 0 {
			continue // only slicing: free
		}
		var loser *Origin
		for _, st := range p.state(v).dims {
			if st != nil && st.Origin != nil {
				loser = st.Origin
				break
			}
		}
		p.Conflicts = append(p.Conflicts, &Conflict{Instr: in, Operand: i, Have: have.Clone(), Want: want, Winner: winner, Loser: loser, Bytes: bytes})
	}
}

// manualConflicts records the operands of a manual computation that are
// not laid out as its in specs say: the partitioner reshards them.
func (p *ShardingReport) manualConflicts(in *ir.Instr) {
	a := in.Attr.(ir.ManualComputationAttr)
	winner := &Origin{What: "sharding.Map", Loc: in.Loc}
	for i, v := range in.Args {
		have, want := p.state(v).sh, &a.InShardings[i]
		if have.Equal(want) {
			continue
		}
		bytes := ReshardBytes(p.Mesh, v.Type, have, want)
		if bytes == 0 {
			continue
		}
		var loser *Origin
		for _, st := range p.state(v).dims {
			if st != nil && st.Origin != nil {
				loser = st.Origin
				break
			}
		}
		p.Conflicts = append(p.Conflicts, &Conflict{Instr: in, Operand: i, Have: have.Clone(), Want: want.Clone(), Winner: winner, Loser: loser, Bytes: bytes})
	}
}

// Explain says where v's sharding came from, one line per split
// dimension, following each decision back to the user's annotation.
func (p *ShardingReport) Explain(v *ir.Value) string {
	s := p.state(v)
	var b strings.Builder
	fmt.Fprintf(&b, "%s : %v sharded %v", valueName(v), v.Type, s.sh)
	if l := v.Loc(); l.IsKnown() {
		fmt.Fprintf(&b, " (defined at %v)", l.Primary())
	}
	b.WriteByte('\n')
	if s.sh == nil || s.sh.IsReplicated() {
		if s.given != nil {
			fmt.Fprintf(&b, "  replicated: asked for by %v\n", s.given.Origin)
		} else {
			b.WriteString("  replicated: no annotation reaches it\n")
		}
		return b.String()
	}
	for d, axes := range s.sh.Dims {
		if len(axes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  dim %d split by %s: ", d, quoteList(axes))
		b.WriteString(p.chain(v, d, s.dims[d]))
		b.WriteByte('\n')
	}
	return b.String()
}

// chain prints the path of decisions that reached v's dimension.
func (p *ShardingReport) chain(v *ir.Value, d int, st *Step) string {
	if st == nil {
		return "(unknown)"
	}
	var hops []string
	seen := map[*Step]bool{}
	for st != nil && st.Via != nil && !seen[st] {
		seen[st] = true
		dir := "forward"
		if st.Backward {
			dir = "backward"
		}
		hop := fmt.Sprintf("%s through %s", dir, st.Via.Op)
		if l := st.Via.Loc; l.IsKnown() {
			hop += fmt.Sprintf(" at %v", l.Primary())
		}
		hop += " from " + valueName(st.From)
		hops = append(hops, hop)
		// Continue from the neighbour's step for the same axes.
		next := (*Step)(nil)
		ns := p.state(st.From)
		for _, s2 := range ns.dims {
			if s2 != nil && s2.Origin == st.Origin {
				next = s2
				break
			}
		}
		st = next
	}
	slices.Reverse(hops)
	origin := "(unknown)"
	if st != nil {
		origin = st.Origin.String()
	}
	if len(hops) == 0 {
		return "from " + origin
	}
	return "from " + origin + "; " + strings.Join(hops, "; ")
}

// ExplainAll writes Explain for every value of the function, in program
// order, and then the conflicts.
func (p *ShardingReport) ExplainAll(w io.Writer) {
	var walk func(g *ir.Func)
	walk = func(g *ir.Func) {
		for _, v := range g.Params {
			io.WriteString(w, p.Explain(v))
		}
		for _, in := range g.Body {
			for _, r := range globalRegions(in) {
				walk(r)
			}
			for _, v := range in.Results {
				io.WriteString(w, p.Explain(v))
			}
		}
	}
	walk(p.Func)
	for _, c := range p.Conflicts {
		fmt.Fprintf(w, "conflict: %s", c.Instr.Op)
		if l := c.Instr.Loc; l.IsKnown() {
			fmt.Fprintf(w, " at %v", l.Primary())
		}
		fmt.Fprintf(w, ": %v\n", c)
	}
}

func valueName(v *ir.Value) string {
	if v == nil {
		return "?"
	}
	if v.IsParam() {
		if v.Func != nil && v.Func.Parent != nil {
			return fmt.Sprintf("region parameter #%d", v.Index)
		}
		return fmt.Sprintf("parameter #%d", v.Index)
	}
	if len(v.Def.Results) > 1 {
		return fmt.Sprintf("%s result #%d", v.Def.Op, v.Index)
	}
	return v.Def.Op.String()
}

func quoteList(axes []string) string {
	q := make([]string, len(axes))
	for i, a := range axes {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, ", ")
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// ShardingPropagation is the pass form of PropagateSharding: it runs on
// the module's entry when it has a mesh (nothing otherwise) and remarks
// every conflict.
var ShardingPropagation = &Pass{
	Name: "sharding-propagation",
	Doc:  "decide every value's sharding from the user's (jit.InShardings, OutShardings, sharding.Constrain)",
	Run: func(m *ir.Module, cx *Context) error {
		f := m.Funcs[0]
		if f.Mesh == nil {
			return nil
		}
		rep, err := PropagateSharding(f)
		if err != nil {
			return err
		}
		for _, c := range rep.Conflicts {
			cx.Remarkf(c.Instr, "%v", c)
		}
		return nil
	},
}
