package passes

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Stela's SPMD partitioner (docs/sharding.md, "partition" mode).
//
// Partition rewrites a function with a mesh, whose values propagation
// gave shardings, into the program one device runs: its parameters and
// results are the device's pieces, and collectives (all_reduce,
// all_gather, reduce_scatter, all_to_all) move data between devices where
// the shardings require. The result runs on any plugin that runs SPMD
// programs with collectives, the Stela CPU plugin included; no compiler
// partitioning is needed.
//
// Each op is partitioned by its sharding rule: the partitioner chooses the
// mesh axes of each of the op's factors, reshards the operands to what
// that choice needs, runs the op on the pieces (with shapes in its
// attributes made local), and reshards the results to the shardings
// propagation decided. A split reduction factor (a contracting dimension
// of dot_general, a reduced dimension) leaves the results partial, and
// the reshard finishes them with an all_reduce, or with a reduce_scatter
// where the result is wanted split. The choice is the one that moves the
// fewest bytes (ReshardBytes) over the candidates the operands and results
// suggest; for dot_general that is the choice between all-gathering an
// operand and reduce-scattering the result. An op without a rule, or one
// that its rule cannot run on pieces, is computed whole: operands
// gathered, result sliced, and a remark says so.
//
// Every device computes the same program; partition_id and the mesh's
// row-major device order tell it which piece it holds.

// Partitioned is a program partitioned for the devices of a mesh.
type Partitioned struct {
	// Func is the per-device program.
	Func *ir.Func
	Mesh *ir.Mesh
	// InShardings and OutShardings are the global program's parameters'
	// and results' shardings: Func's parameter i is the piece of global
	// parameter i that InShardings[i] gives the device.
	InShardings, OutShardings []*ir.Sharding
	// Collectives counts the collective ops of Func by name (each op
	// once, even in a loop), and BytesMoved is what they receive per
	// device, summed the same way.
	Collectives map[string]int
	BytesMoved  int64
	Remarks     []Remark
	Report      *ShardingReport
}

// PrepareSharding makes f ready to partition: composites expanded (their
// decompositions are ops with rules) and every value's sharding decided.
func PrepareSharding(f *ir.Func) (*ShardingReport, error) {
	if err := inlineComposites(f); err != nil {
		return nil, err
	}
	return PropagateSharding(f)
}

// inlineComposites replaces every composite of f, and of its regions, by
// its decomposition.
func inlineComposites(f *ir.Func) (err error) {
	defer recoverBuild(&err)
	var visit func(g *ir.Func)
	visit = func(g *ir.Func) {
		for _, in := range g.Body {
			for _, r := range in.Regions {
				visit(r)
			}
		}
		for again := true; again; {
			again = false
			for i, in := range g.Body {
				if in.Op != ir.OpComposite {
					continue
				}
				// Re-emit the body with the composite replaced.
				old := g.Body
				g.Body = slices.Clone(old[:i])
				b := ir.NewBuilder(g, in.Loc)
				outs := b.Inline(in.Regions[0], in.Args...)
				for k, r := range in.Results {
					replaceAllUses(g, r, outs[k])
				}
				g.Body = append(g.Body, old[i+1:]...)
				again = true
				break
			}
		}
	}
	visit(f)
	return nil
}

// replaceAllUses points every use of old in g (operands and results; not
// regions, which are isolated) at nu.
func replaceAllUses(g *ir.Func, old, nu *ir.Value) {
	for _, in := range g.Body {
		for i, a := range in.Args {
			if a == old {
				in.Args[i] = nu
			}
		}
	}
	for i, r := range g.Results {
		if r == old {
			g.Results[i] = nu
		}
	}
}

func recoverBuild(err *error) {
	if r := recover(); r != nil {
		var be *ir.BuildError
		if e, ok := r.(error); ok && errors.As(e, &be) {
			*err = be.Err
			return
		}
		panic(r)
	}
}

// Partition partitions f, whose values have shardings (PrepareSharding);
// f is not modified.
func Partition(f *ir.Func, rep *ShardingReport) (res *Partitioned, err error) {
	if f.Mesh == nil {
		return nil, fmt.Errorf("spmd partitioner: @%s has no mesh", f.Name)
	}
	s := &spmd{m: f.Mesh, rep: rep, colls: map[string]int{}}
	defer func() {
		if r := recover(); r != nil {
			var be *ir.BuildError
			if e, ok := r.(error); ok && errors.As(e, &be) {
				err = fmt.Errorf("spmd partitioner: internal error: %w", be.Err)
				return
			}
			panic(r)
		}
	}()
	res = &Partitioned{Mesh: f.Mesh, Report: rep}
	g := ir.NewFunc(f.Name)
	env := map[*ir.Value]local{}
	for i, p := range f.Params {
		sh := p.Sharding
		if sh == nil {
			sh = f.InSharding(i)
		}
		if sh == nil {
			sh = ir.Replicated(p.Type.Rank())
		}
		gp := g.AddParam(sh.ShardType(s.m, p.Type), p.Loc())
		env[p] = local{v: gp, sh: sh}
		res.InShardings = append(res.InShardings, sh.Clone())
	}
	if err := s.body(g, f, env); err != nil {
		return nil, err
	}
	var outs []*ir.Value
	for i, r := range f.Results {
		sh := f.OutSharding(i)
		if sh == nil {
			sh = r.Sharding
		}
		if sh == nil {
			sh = ir.Replicated(r.Type.Rank())
		}
		b := ir.NewBuilder(g, r.Loc())
		outs = append(outs, s.reshard(b, env[r], sh, r.Type))
		res.OutShardings = append(res.OutShardings, sh.Clone())
	}
	g.Return(outs...)
	stripShardings(g)
	// One rendezvous for the all_reduces that can share it (a training
	// step's gradients): the bytes moved stay the same.
	n, err := CombineAllReduces(g)
	if err != nil {
		return nil, fmt.Errorf("spmd partitioner: internal error: %w", err)
	}
	if n > 0 {
		s.colls["all_reduce"] -= n
	}
	if err := ir.Verify(g); err != nil {
		return nil, fmt.Errorf("spmd partitioner: internal error: the per-device program does not verify: %w", err)
	}
	res.Func, res.Collectives, res.BytesMoved, res.Remarks = g, s.colls, s.bytes, s.remarks
	return res, nil
}

// local is a value of the per-device program and how it is laid out: a
// piece of the global value it stands for, possibly a partial sum
// (sh.Partial, combined by op).
type local struct {
	v  *ir.Value
	sh *ir.Sharding
	op ir.Op
}

type spmd struct {
	m       *ir.Mesh
	rep     *ShardingReport
	channel int64
	colls   map[string]int
	bytes   int64
	remarks []Remark
}

func (s *spmd) remark(in *ir.Instr, format string, args ...any) {
	s.remarks = append(s.remarks, Remark{Pass: "spmd-partition", Op: in.Op.String(), Loc: in.Loc, Msg: fmt.Sprintf(format, args...)})
}

func decided(v *ir.Value) *ir.Sharding {
	if v.Sharding != nil {
		return v.Sharding
	}
	return ir.Replicated(v.Type.Rank())
}

// body partitions f's instructions into g; env maps f's values to g's.
func (s *spmd) body(g, f *ir.Func, env map[*ir.Value]local) error {
	for _, in := range f.Body {
		b := ir.NewBuilder(g, in.Loc)
		if err := s.instr(b, in, env); err != nil {
			return err
		}
	}
	return nil
}

func (s *spmd) instr(b *ir.Builder, in *ir.Instr, env map[*ir.Value]local) error {
	info := in.Op.Info()
	switch {
	case info.Has(ir.Collective):
		return ir.Errorf(in.Loc, in.Op.String(), "a collective in a program partitioned automatically: write explicit collectives inside sharding.Map")
	case in.Op == ir.OpShardingConstraint:
		r := in.Results[0]
		env[r] = local{v: s.reshard(b, env[in.Args[0]], decided(r), r.Type), sh: decided(r)}
		return nil
	case in.Op == ir.OpConstant:
		// A splat is made at the piece's shape; another constant is
		// made whole and sliced.
		r := in.Results[0]
		if l := in.Attr.(ir.ConstantAttr).Value; l != nil && l.IsSplat() {
			sh := decided(r)
			lt := sh.ShardType(s.m, r.Type)
			env[r] = local{v: b.Literal(ir.Splat(lt, l, 0)), sh: sh}
			return nil
		}
		s.whole(b, in, env, false)
		return nil
	case in.Op == ir.OpWhile:
		return s.while(b, in, env)
	case in.Op == ir.OpCase:
		return s.caseOp(b, in, env)
	case in.Op == ir.OpManualComputation:
		s.manual(b, in, env)
		return nil
	}
	if r := in.ShardingRule(); r != nil {
		ok, err := s.ruled(b, in, r, env)
		if err != nil || ok {
			return err
		}
	}
	s.whole(b, in, env, true)
	return nil
}

// ShardingStatus says how propagation and the partitioner treat an op,
// for `stela ops` and docs/ops.md: its rule's kind (ir.OpInfo's
// ShardingRuleKind), or what instr does with an op that has none. Keep it
// in step with instr.
func ShardingStatus(op ir.Op) string {
	info := op.Info()
	switch {
	case info.Has(ir.Collective):
		return "only inside sharding.Map (explicit)"
	case op == ir.OpShardingConstraint:
		return "constraint (reshards)"
	case op == ir.OpWhile:
		return "regions (loop state keeps one sharding)"
	case op == ir.OpCase:
		return "regions (branches share shardings)"
	case op == ir.OpManualComputation:
		return "manual (in/out specs)"
	case op == ir.OpComposite:
		return "inlined (decomposition's rules)"
	case info.Sharding == nil:
		return "replicated (no rule)"
	}
	return info.ShardingRuleKind()
}

// whole computes in on whole operands and slices its results.
func (s *spmd) whole(b *ir.Builder, in *ir.Instr, env map[*ir.Value]local, note bool) {
	args := make([]*ir.Value, len(in.Args))
	var moved int64
	for i, a := range in.Args {
		before := s.bytes
		args[i] = s.reshard(b, env[a], ir.Replicated(a.Type.Rank()), a.Type)
		moved += s.bytes - before
	}
	outs := b.Emit(in.Op, args, in.Attr, cloneRegions(in.Regions)...)
	sliced := false
	for i, r := range in.Results {
		sh := decided(r)
		sliced = sliced || !sh.IsReplicated()
		env[r] = local{v: s.reshard(b, local{v: outs[i], sh: ir.Replicated(r.Type.Rank())}, sh, r.Type), sh: sh}
	}
	if note && (moved > 0 || sliced) {
		s.remark(in, "computed whole on every device (no sharding rule runs it on pieces): gathering its operands moves %s per device", formatBytes(moved))
	}
}

// stripShardings clears the shardings of g's values: the per-device
// program has no mesh.
func stripShardings(g *ir.Func) {
	for _, p := range g.Params {
		p.Sharding = nil
	}
	for _, in := range g.Body {
		for _, r := range in.Regions {
			stripShardings(r)
		}
		for _, v := range in.Results {
			v.Sharding = nil
		}
	}
}

func cloneRegions(rs []*ir.Func) []*ir.Func {
	out := make([]*ir.Func, len(rs))
	for i, r := range rs {
		out[i] = ir.CloneFunc(r)
	}
	return out
}

// A choice of mesh axes for each factor of an op's rule.
type factorChoice map[int][]string

// ruled partitions in by its rule; ok is false when the rule cannot run
// it on pieces (nothing is emitted then).
func (s *spmd) ruled(b *ir.Builder, in *ir.Instr, r *ir.ShardingRule, env map[*ir.Value]local) (bool, error) {
	fc, ok := s.choose(in, r, env)
	if !ok {
		return false, nil
	}
	// What each operand must be, and the op's attribute on pieces.
	want := make([]*ir.Sharding, len(in.Args))
	ltypes := make([]ir.Type, len(in.Args))
	for i, a := range in.Args {
		want[i] = composeSharding(s.m, fc, r.Operands[i], r.Factors)
		ltypes[i] = want[i].ShardType(s.m, a.Type)
	}
	rsh := make([]*ir.Sharding, len(in.Results))
	rtypes := make([]ir.Type, len(in.Results))
	var partial []string
	for f, axes := range fc {
		if r.Reduction[f] {
			partial = append(partial, axes...)
		}
	}
	partial = meshOrder(s.m, partial)
	for i, v := range in.Results {
		rsh[i] = composeSharding(s.m, fc, r.Results[i], r.Factors)
		rsh[i].Partial = partial
		rtypes[i] = rsh[i].ShardType(s.m, v.Type)
	}
	attr, ok := localAttr(in, ltypes, rtypes)
	if !ok {
		return false, nil
	}
	regions := cloneRegions(in.Regions)
	got, err := in.Op.Info().Infer(ltypes, attr, regions)
	if err != nil || len(got) != len(rtypes) {
		return false, nil
	}
	for i := range got {
		if !got[i].Equal(rtypes[i]) {
			return false, nil
		}
	}
	args := make([]*ir.Value, len(in.Args))
	for i, a := range in.Args {
		args[i] = s.reshard(b, env[a], want[i], a.Type)
	}
	outs := slices.Clone(b.Emit(in.Op, args, attr, regions...))
	if in.Op == ir.OpIota {
		outs[0] = s.offsetIota(b, in, outs[0], rsh[0])
	}
	for i, v := range in.Results {
		sh := decided(v)
		env[v] = local{v: s.reshard(b, local{v: outs[i], sh: rsh[i], op: r.ReduceOp}, sh, v.Type), sh: sh}
	}
	return true, nil
}

// composeSharding is the sharding of a value whose dimensions have the
// given factors, under the choice.
func composeSharding(m *ir.Mesh, fc factorChoice, dims [][]int, sizes []int) *ir.Sharding {
	sh := ir.Replicated(len(dims))
	for d, fs := range dims {
		sh.Dims[d] = compose(m, fc, fs, sizes)
	}
	return sh
}

// valid reports whether every dimension's factors compose to all of
// their axes (no axes on a factor after one that is not full).
func (fc factorChoice) valid(m *ir.Mesh, r *ir.ShardingRule) bool {
	check := func(dims [][]int) bool {
		for _, fs := range dims {
			n := 0
			for _, f := range fs {
				n += len(fc[f])
			}
			if len(compose(m, fc, fs, r.Factors)) != n {
				return false
			}
		}
		return true
	}
	for _, d := range r.Operands {
		if !check(d) {
			return false
		}
	}
	for _, d := range r.Results {
		if !check(d) {
			return false
		}
	}
	return true
}

// choose picks the factors' axes that move the fewest bytes: the
// candidates for each factor are the axes an operand or a result has on
// it, or none.
func (s *spmd) choose(in *ir.Instr, r *ir.ShardingRule, env map[*ir.Value]local) (factorChoice, bool) {
	nf := len(r.Factors)
	opts := make([][][]string, nf)
	addOpt := func(f int, axes []string) {
		for _, o := range opts[f] {
			if slices.Equal(o, axes) {
				return
			}
		}
		opts[f] = append(opts[f], slices.Clone(axes))
	}
	suggest := func(sh *ir.Sharding, dims [][]int) {
		for d, fs := range dims {
			if len(fs) == 0 || d >= len(sh.Dims) {
				continue
			}
			for f, axes := range project(s.m, sh.Dims[d], fs, r.Factors) {
				if len(axes) > 0 {
					addOpt(f, axes)
				}
			}
		}
	}
	for i, v := range in.Results {
		suggest(decided(v), r.Results[i])
	}
	for i, a := range in.Args {
		suggest(env[a].sh, r.Operands[i])
	}
	// A reduce whose init is not the identity of its op may not split its
	// reduction factors: each device would add the init once.
	noReduce := in.Op == ir.OpReduce && !identityInit(in)
	for f := range opts {
		if noReduce && r.Reduction[f] {
			opts[f] = nil
		}
		opts[f] = append(opts[f], nil)
	}
	var best factorChoice
	bestCost, bestAxes := int64(-1), -1
	combos := 1
	for _, o := range opts {
		combos *= len(o)
	}
	if combos > 4096 {
		// Too many to try: the first suggestion for each factor.
		for f := range opts {
			opts[f] = opts[f][:1]
		}
	}
	cur := factorChoice{}
	used := map[string]bool{}
	var try func(f int)
	try = func(f int) {
		if f == nf {
			if !cur.valid(s.m, r) {
				return
			}
			cost, axes := s.cost(in, r, cur, env)
			if cost < 0 {
				return
			}
			if bestCost < 0 || cost < bestCost || (cost == bestCost && axes > bestAxes) {
				best, bestCost, bestAxes = factorChoice{}, cost, axes
				for k, v := range cur {
					best[k] = v
				}
			}
			return
		}
		for _, axes := range opts[f] {
			clash := false
			for _, a := range axes {
				clash = clash || used[a]
			}
			if clash {
				continue
			}
			for _, a := range axes {
				used[a] = true
			}
			if len(axes) > 0 {
				cur[f] = axes
			}
			try(f + 1)
			delete(cur, f)
			for _, a := range axes {
				delete(used, a)
			}
		}
	}
	try(0)
	return best, best != nil
}

// cost is the bytes a choice moves per device (resharding operands in,
// results out) and how many axes it splits the work by; -1 when a reshard
// is impossible.
func (s *spmd) cost(in *ir.Instr, r *ir.ShardingRule, fc factorChoice, env map[*ir.Value]local) (int64, int) {
	var total int64
	for i, a := range in.Args {
		n := ReshardBytes(s.m, a.Type, env[a].sh, composeSharding(s.m, fc, r.Operands[i], r.Factors))
		if n < 0 {
			return -1, 0
		}
		total += n
	}
	var partial []string
	axes := 0
	for f, as := range fc {
		axes += len(as)
		if r.Reduction[f] {
			partial = append(partial, as...)
		}
	}
	for i, v := range in.Results {
		sh := composeSharding(s.m, fc, r.Results[i], r.Factors)
		sh.Partial = partial
		n := ReshardBytes(s.m, v.Type, sh, decided(v))
		if n < 0 {
			return -1, 0
		}
		total += n
	}
	return total, axes
}

// identityInit reports whether a one-operand reduce starts from its op's
// identity (0 for a sum, 1 for a product) or reduces with an idempotent op
// (max, min, and, or), so that splitting it and combining the pieces
// gives the same result.
func identityInit(in *ir.Instr) bool {
	if len(in.Args) != 2 {
		return false
	}
	switch ir.RegionOp(in.Regions[0]) {
	case ir.OpMaximum, ir.OpMinimum, ir.OpAnd, ir.OpOr:
		return true
	case ir.OpAdd, ir.OpMultiply:
	default:
		return false
	}
	def := in.Args[1].Def
	if def == nil || def.Op != ir.OpConstant {
		return false
	}
	l := def.Attr.(ir.ConstantAttr).Value
	if l == nil || l.Type.NumElements() != 1 {
		return false
	}
	want := 0.0
	if ir.RegionOp(in.Regions[0]) == ir.OpMultiply {
		want = 1
	}
	return l.Float64s()[0] == want
}

// localAttr is in's attribute for operands and results of the given local
// types: shapes written in the attribute become the pieces'.
func localAttr(in *ir.Instr, args, results []ir.Type) (any, bool) {
	switch a := in.Attr.(type) {
	case ir.BroadcastInDimAttr:
		a.Shape = slices.Clone(results[0].Shape)
		return a, true
	case ir.ReshapeAttr:
		a.Shape = slices.Clone(results[0].Shape)
		return a, true
	case ir.IotaAttr:
		a.Type = results[0]
		return a, true
	case ir.SliceAttr:
		a.Limit = slices.Clone(a.Limit)
		for d, n := range in.Args[0].Type.Shape {
			if args[0].Shape[d] != n {
				a.Limit[d] = args[0].Shape[d]
			}
		}
		return a, true
	case ir.DynamicSliceAttr:
		a.Sizes = slices.Clone(results[0].Shape)
		return a, true
	case ir.CustomCallAttr:
		return nil, false
	}
	return in.Attr, true
}

// offsetIota adds the piece's offset to a local iota whose counting
// dimension is split.
func (s *spmd) offsetIota(b *ir.Builder, in *ir.Instr, v *ir.Value, sh *ir.Sharding) *ir.Value {
	a := in.Attr.(ir.IotaAttr)
	axes := sh.Dims[a.Dim]
	if len(axes) == 0 {
		return v
	}
	off := b.Mul(s.index(b, axes), b.Const(ir.S32, float64(v.Type.Shape[a.Dim])))
	off = b.Convert(off, v.Type.DType)
	return b.Add(v, b.BroadcastInDim(off, v.Type.Shape, nil))
}

// while partitions a loop: its state keeps the shardings propagation gave
// it (one per position, shared by operand, result and the regions').
func (s *spmd) while(b *ir.Builder, in *ir.Instr, env map[*ir.Value]local) error {
	shs := make([]*ir.Sharding, len(in.Args))
	args := make([]*ir.Value, len(in.Args))
	for i, a := range in.Args {
		shs[i] = decided(in.Results[i])
		args[i] = s.reshard(b, env[a], shs[i], a.Type)
	}
	cond, err := s.region(in.Regions[0], shs, []*ir.Sharding{ir.Replicated(0)})
	if err != nil {
		return err
	}
	body, err := s.region(in.Regions[1], shs, shs)
	if err != nil {
		return err
	}
	outs := b.Emit(ir.OpWhile, args, in.Attr, cond, body)
	for i, r := range in.Results {
		env[r] = local{v: outs[i], sh: shs[i]}
	}
	return nil
}

func (s *spmd) caseOp(b *ir.Builder, in *ir.Instr, env map[*ir.Value]local) error {
	args := []*ir.Value{s.reshard(b, env[in.Args[0]], ir.Replicated(0), in.Args[0].Type)}
	var pshs []*ir.Sharding
	if len(in.Regions) > 0 {
		for _, p := range in.Regions[0].Params {
			pshs = append(pshs, decided(p))
		}
	}
	for i, a := range in.Args[1:] {
		args = append(args, s.reshard(b, env[a], pshs[i], a.Type))
	}
	rshs := make([]*ir.Sharding, len(in.Results))
	for i, r := range in.Results {
		rshs[i] = decided(r)
	}
	var branches []*ir.Func
	for _, r := range in.Regions {
		g, err := s.region(r, pshs, rshs)
		if err != nil {
			return err
		}
		branches = append(branches, g)
	}
	outs := b.Emit(ir.OpCase, args, in.Attr, branches...)
	for i, r := range in.Results {
		env[r] = local{v: outs[i], sh: rshs[i]}
	}
	return nil
}

// region partitions a region whose parameters and results have the given
// shardings.
func (s *spmd) region(r *ir.Func, params, results []*ir.Sharding) (*ir.Func, error) {
	g := ir.NewFunc(r.Name)
	env := map[*ir.Value]local{}
	for i, p := range r.Params {
		gp := g.AddParam(params[i].ShardType(s.m, p.Type), p.Loc())
		env[p] = local{v: gp, sh: params[i]}
	}
	if err := s.body(g, r, env); err != nil {
		return nil, err
	}
	var outs []*ir.Value
	for i, v := range r.Results {
		outs = append(outs, s.reshard(ir.NewBuilder(g, v.Loc()), env[v], results[i], v.Type))
	}
	g.Return(outs...)
	return g, nil
}

// reshard emits the steps that turn x into the piece of its global value
// (of type t) that sharding `to` gives each device.
func (s *spmd) reshard(b *ir.Builder, x local, to *ir.Sharding, t ir.Type) *ir.Value {
	steps, err := planReshard(s.m, t, x.sh, to)
	if err != nil {
		panic(&ir.BuildError{Err: ir.Errorf(b.Loc, "reshard", "%v", err)})
	}
	v := x.v
	for _, st := range steps {
		v = s.step(b, v, st, x.op)
	}
	return v
}

func (s *spmd) nextChannel() int64 {
	s.channel++
	return s.channel
}

func (s *spmd) count(kind reshardKind, bytes int64) {
	s.colls[string(kind)]++
	s.bytes += bytes
}

// step emits one reshard step on v.
func (s *spmd) step(b *ir.Builder, v *ir.Value, st reshardStep, op ir.Op) *ir.Value {
	groups := func() [][]int64 { return s.m.Groups(st.axes) }
	dt := v.Type.DType
	if op == ir.OpInvalid {
		op = ir.OpAdd
	}
	switch st.kind {
	case stepAllReduce:
		s.count(st.kind, st.bytes)
		return b.Emit1(ir.OpAllReduce, []*ir.Value{v}, ir.AllReduceAttr{ReplicaGroups: groups(), ChannelID: s.nextChannel(), UseGlobalDeviceIDs: true},
			ir.BinaryRegion(op, dt, b.Loc))
	case stepReduceScatter:
		s.count(st.kind, st.bytes)
		return b.Emit1(ir.OpReduceScatter, []*ir.Value{v}, ir.ReduceScatterAttr{ScatterDim: st.dim, ReplicaGroups: groups(), ChannelID: s.nextChannel(), UseGlobalDeviceIDs: true},
			ir.BinaryRegion(op, dt, b.Loc))
	case stepAllGather:
		s.count(st.kind, st.bytes)
		return b.Emit1(ir.OpAllGather, []*ir.Value{v}, ir.AllGatherAttr{AllGatherDim: st.dim, ReplicaGroups: groups(), ChannelID: s.nextChannel(), UseGlobalDeviceIDs: true})
	case stepAllToAll:
		s.count(st.kind, st.bytes)
		return b.Emit1(ir.OpAllToAll, []*ir.Value{v}, ir.AllToAllAttr{SplitDim: st.split, ConcatDim: st.dim, SplitCount: s.m.AxesSize(st.axes), ReplicaGroups: groups(), ChannelID: s.nextChannel()})
	case stepSlice:
		args := []*ir.Value{v}
		for d, axes := range st.slices {
			if len(axes) == 0 {
				args = append(args, b.Const(ir.S32, 0))
				continue
			}
			args = append(args, b.Mul(s.index(b, axes), b.Const(ir.S32, float64(st.after.Shape[d]))))
		}
		return b.Emit1(ir.OpDynamicSlice, args, ir.DynamicSliceAttr{Sizes: slices.Clone(st.after.Shape)})
	}
	panic(&ir.BuildError{Err: fmt.Errorf("unknown reshard step %q", st.kind)})
}

// index computes this device's position along the axes taken together
// (the first major), from partition_id and the mesh's row-major order, as
// an si32 scalar.
func (s *spmd) index(b *ir.Builder, axes []string) *ir.Value {
	pid := b.Convert(b.Emit1(ir.OpPartitionID, nil, nil), ir.S32)
	var idx *ir.Value
	for _, a := range axes {
		k := s.m.AxisIndex(a)
		stride := 1
		for _, x := range s.m.Axes[k+1:] {
			stride *= x.Size
		}
		c := pid
		if stride > 1 {
			c = b.Div(c, b.Const(ir.S32, float64(stride)))
		}
		if k > 0 {
			c = b.Binary(ir.OpRemainder, c, b.Const(ir.S32, float64(s.m.Axes[k].Size)))
		}
		if idx == nil {
			idx = c
		} else {
			idx = b.Add(b.Mul(idx, b.Const(ir.S32, float64(s.m.Axes[k].Size))), c)
		}
	}
	return idx
}

// manual partitions a manual computation (sharding.Map): the operands are
// resharded to the in specs, the body, already the program of one device,
// is inlined on the pieces, and its results are the pieces of the op's
// results under the out specs. Its collectives get channels of their own
// and count in the program's collectives and bytes moved.
func (s *spmd) manual(b *ir.Builder, in *ir.Instr, env map[*ir.Value]local) {
	a := in.Attr.(ir.ManualComputationAttr)
	args := make([]*ir.Value, len(in.Args))
	for i, x := range in.Args {
		args[i] = s.reshard(b, env[x], a.InShardings[i].Clone(), x.Type)
	}
	start := len(b.F.Body)
	outs := b.Inline(in.Regions[0], args...)
	for _, c := range b.F.Body[start:] {
		s.explicit(c)
	}
	for k, r := range in.Results {
		sh := decided(r)
		env[r] = local{v: s.reshard(b, local{v: outs[k], sh: a.OutShardings[k].Clone()}, sh, r.Type), sh: sh}
	}
}

// explicit gives a collective of a manual computation's body (and those
// in its regions) a channel of its own, and counts it with the bytes each
// device receives, as the reshard steps count theirs.
func (s *spmd) explicit(in *ir.Instr) {
	for _, r := range in.Regions {
		for _, c := range r.Body {
			s.explicit(c)
		}
	}
	if len(in.Args) == 0 {
		return
	}
	var size int64
	for _, x := range in.Args {
		size += int64(x.Type.NumElements() * x.Type.DType.Size())
	}
	groupSize := func(groups [][]int64) int64 {
		if len(groups) == 0 {
			return int64(s.m.NumDevices())
		}
		return int64(len(groups[0]))
	}
	switch a := in.Attr.(type) {
	case ir.AllReduceAttr:
		if a.ChannelID > 0 {
			a.ChannelID = s.nextChannel()
		}
		g := groupSize(a.ReplicaGroups)
		s.count(stepAllReduce, 2*size*(g-1)/g)
		in.Attr = a
	case ir.ReduceScatterAttr:
		if a.ChannelID > 0 {
			a.ChannelID = s.nextChannel()
		}
		g := groupSize(a.ReplicaGroups)
		s.count(stepReduceScatter, size*(g-1)/g)
		in.Attr = a
	case ir.AllGatherAttr:
		if a.ChannelID > 0 {
			a.ChannelID = s.nextChannel()
		}
		s.count(stepAllGather, size*(groupSize(a.ReplicaGroups)-1))
		in.Attr = a
	case ir.AllToAllAttr:
		if a.ChannelID > 0 {
			a.ChannelID = s.nextChannel()
		}
		g := int64(a.SplitCount)
		s.count(stepAllToAll, size*(g-1)/g)
		in.Attr = a
	case ir.CollectivePermuteAttr:
		if a.ChannelID > 0 {
			a.ChannelID = s.nextChannel()
		}
		s.count(stepCollectivePermute, size)
		in.Attr = a
	}
}
