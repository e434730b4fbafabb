package lowering

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// Rebuilding manual computations (ImportOptions.ManualComputations).
//
// JAX lowers shard_map for XLA's SPMD partitioner, and Stela's annotate
// mode lowers manual_computation the same way (lowerManualComputation):
//
//	%p = custom_call @Sharding(%x) {mhlo.sharding = IN}
//	%q = custom_call @SPMDFullToShardShape(%p) {mhlo.sharding = "{manual}"}
//	... the body, on the pieces (%q), with explicit collectives ...
//	%r = custom_call @Sharding(%y) {mhlo.sharding = "{manual}"}
//	%z = custom_call @SPMDShardToFullShape(%r) {mhlo.sharding = OUT}
//
// The rebuild turns each such pattern back into one manual_computation:
// the instructions computed from the results of @SPMDFullToShardShape
// (transitively, up to the @Sharding {manual} → @SPMDShardToFullShape
// pairs), grouped into connected sets, become the bodies; the constants
// (and partition ids, iotas, and pure ops of them) a body uses are copied
// into it; the operands are the values @Sharding constrains on the way in,
// with IN as in sharding; the results replace those of
// @SPMDShardToFullShape, with OUT as out sharding. The shardings are read
// on the mesh of ImportOptions.Mesh (default PrimeMesh of the module's
// mhlo.num_partitions): the body's collectives name partition ids, which
// are that mesh's device ids.
//
// What does not fit is an error naming the custom call or op: a partially
// manual sharding (shard_map with axes left to the automatic partitioner:
// "last_tile_dims={manual}"), a body that uses a value of the global
// program other than through @SPMDFullToShardShape (a parameter, or
// anything computed from one), a manual value returned or used without
// @SPMDShardToFullShape, nested shard_maps, and operands and results that
// the shardings' pieces do not fit.

const manualSharding = "{manual}"

// manualRebuilder holds one Import's rebuild.
type manualRebuilder struct {
	im   *importer
	mesh *ir.Mesh
	// removed collects the sharding calls the rebuild consumed.
	removed map[*ir.Instr]bool
}

// rebuildManual runs the rebuild over every function of the module (and
// their regions), then drops the consumed calls from ShardingCalls and,
// unless KeepShardingCalls asks otherwise, turns the @Sharding calls left
// into the identity.
func (im *importer) rebuildManual() error {
	r := &manualRebuilder{im: im, mesh: im.opts.Mesh, removed: map[*ir.Instr]bool{}}
	for _, f := range im.out.Module.Funcs {
		if err := r.walk(f); err != nil {
			return err
		}
	}
	calls := im.out.ShardingCalls[:0]
	for _, c := range im.out.ShardingCalls {
		if c.Instr != nil && r.removed[c.Instr] {
			continue
		}
		calls = append(calls, c)
	}
	im.out.ShardingCalls = calls
	if im.opts.KeepShardingCalls {
		return nil
	}
	// The @Sharding calls were kept for the rebuild; the caller asked for
	// the identity.
	ident := map[*ir.Instr]bool{}
	for i := range calls {
		c := &calls[i]
		if c.Target == "Sharding" && c.Instr != nil {
			ident[c.Instr] = true
			c.Operand = c.Instr.Args[0]
			c.Instr = nil
		}
	}
	if len(ident) > 0 {
		for _, f := range im.out.Module.Funcs {
			dropIdentities(f, ident)
		}
	}
	return nil
}

// dropIdentities removes the one-operand instructions of ident from f and
// its regions, their uses taking their operands.
func dropIdentities(f *ir.Func, ident map[*ir.Instr]bool) {
	repl := map[*ir.Value]*ir.Value{}
	get := func(v *ir.Value) *ir.Value {
		for {
			w, ok := repl[v]
			if !ok {
				return v
			}
			v = w
		}
	}
	body := f.Body[:0]
	for _, in := range f.Body {
		for i, a := range in.Args {
			in.Args[i] = get(a)
		}
		for _, r := range in.Regions {
			dropIdentities(r, ident)
		}
		if ident[in] {
			repl[in.Results[0]] = in.Args[0]
			continue
		}
		body = append(body, in)
	}
	f.Body = body
	for i, v := range f.Results {
		f.Results[i] = get(v)
	}
}

// walk rebuilds the manual computations of f, then of its regions.
func (r *manualRebuilder) walk(f *ir.Func) error {
	if err := r.rebuild(f); err != nil {
		return err
	}
	for _, in := range f.Body {
		if in.Op == ir.OpManualComputation {
			continue
		}
		for _, g := range in.Regions {
			if err := r.walk(g); err != nil {
				return err
			}
		}
	}
	return nil
}

// target returns the call target of a custom_call, "" for other ops.
func target(in *ir.Instr) string {
	if in == nil || in.Op != ir.OpCustomCall {
		return ""
	}
	a, _ := in.Attr.(ir.CustomCallAttr)
	return a.Target
}

// callSharding returns the mhlo.sharding an imported custom_call had.
func (r *manualRebuilder) callSharding(in *ir.Instr) (string, bool) {
	for _, c := range r.im.out.ShardingCalls {
		if c.Instr == in {
			return c.Sharding, true
		}
	}
	return "", false
}

// errorf is an error about in, with where the import found it.
func (r *manualRebuilder) errorf(in *ir.Instr, format string, args ...any) error {
	op := in.Op.String()
	if t := target(in); t != "" {
		op += " @" + t
	}
	msg := "manual computation (shard_map): " + fmt.Sprintf(format, args...)
	if w := r.im.origin[in]; w != "" {
		msg += " (" + w + ")"
	}
	return ir.Errorf(in.Loc, op, "%s", msg)
}

// rebuild finds the pattern in f's own body.
func (r *manualRebuilder) rebuild(f *ir.Func) error {
	for {
		done, err := r.rebuildOne(f)
		if err != nil || done {
			return err
		}
	}
}

// rebuildOne rebuilds the first connected set of f and reports whether
// none was left.
func (r *manualRebuilder) rebuildOne(f *ir.Func) (bool, error) {
	pos := map[*ir.Instr]int{}
	uses := map[*ir.Value][]*ir.Instr{}
	returned := map[*ir.Value]bool{}
	var seeds []*ir.Instr
	for i, in := range f.Body {
		pos[in] = i
		for _, a := range in.Args {
			uses[a] = append(uses[a], in)
		}
		switch target(in) {
		case "SPMDFullToShardShape", "SPMDShardToFullShape":
			seeds = append(seeds, in)
		}
	}
	for _, v := range f.Results {
		returned[v] = true
	}
	if len(seeds) == 0 {
		return true, nil
	}
	// Check the calls' shardings and shapes.
	for _, in := range seeds {
		s, _ := r.callSharding(in)
		a := in.Attr.(ir.CustomCallAttr)
		if len(in.Args) != 1 || len(in.Results) != 1 {
			return false, r.errorf(in, "want one operand and one result, got %d and %d", len(in.Args), len(in.Results))
		}
		switch a.Target {
		case "SPMDFullToShardShape":
			if s != manualSharding {
				return false, r.errorf(in, "mhlo.sharding %q is not %q: partially manual shard_maps (axes left to the automatic partitioner) are not supported", s, manualSharding)
			}
			p := in.Args[0].Def
			if target(p) != "Sharding" {
				return false, r.errorf(in, "its operand is not a custom_call @Sharding, which gives the in sharding")
			}
			if ps, _ := r.callSharding(p); ps == manualSharding || strings.Contains(ps, "manual") {
				return false, r.errorf(in, "its operand's @Sharding is %q: nested or partially manual shard_maps are not supported", ps)
			}
		case "SPMDShardToFullShape":
			p := in.Args[0].Def
			if target(p) != "Sharding" {
				return false, r.errorf(in, "its operand is not a custom_call @Sharding %q", manualSharding)
			}
			if ps, _ := r.callSharding(p); ps != manualSharding {
				return false, r.errorf(in, "its operand's @Sharding is %q, not %q: partially manual shard_maps are not supported", ps, manualSharding)
			}
			if strings.Contains(s, "manual") {
				return false, r.errorf(in, "mhlo.sharding %q: partially manual shard_maps are not supported", s)
			}
		}
		if a.HasSideEffect || a.BackendConfig != "" {
			return false, r.errorf(in, "has_side_effect or backend_config %q, which shard_map's calls do not have", a.BackendConfig)
		}
	}

	// manual: the instructions computed from the pieces, and the
	// @Sharding {manual} calls before each @SPMDShardToFullShape.
	manual := map[*ir.Instr]bool{}
	var stack []*ir.Instr
	push := func(in *ir.Instr) {
		if !manual[in] {
			manual[in] = true
			stack = append(stack, in)
		}
	}
	for _, in := range seeds {
		if target(in) == "SPMDFullToShardShape" {
			push(in)
		} else {
			push(in.Args[0].Def)
		}
	}
	for len(stack) > 0 {
		in := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range in.Results {
			if returned[v] {
				return false, r.errorf(in, "its result, a per-device value, is returned without custom_call @SPMDShardToFullShape")
			}
			for _, u := range uses[v] {
				switch target(u) {
				case "SPMDShardToFullShape":
					if target(in) != "Sharding" {
						return false, r.errorf(u, "its operand is not a custom_call @Sharding %q", manualSharding)
					}
					continue
				case "SPMDFullToShardShape":
					return false, r.errorf(u, "takes a per-device value: nested shard_maps are not supported")
				}
				push(u)
			}
		}
	}

	// Union-find over the manual instructions; the copyable values they
	// use from outside are left out of it.
	parent := map[*ir.Instr]*ir.Instr{}
	var find func(*ir.Instr) *ir.Instr
	find = func(in *ir.Instr) *ir.Instr {
		p, ok := parent[in]
		if !ok || p == in {
			return in
		}
		root := find(p)
		parent[in] = root
		return root
	}
	union := func(a, b *ir.Instr) {
		ra, rb := find(a), find(b)
		if ra != rb {
			if pos[ra] < pos[rb] {
				parent[rb] = ra
			} else {
				parent[ra] = rb
			}
		}
	}
	copyable := map[*ir.Instr]bool{}
	var canCopy func(in *ir.Instr) bool
	canCopy = func(in *ir.Instr) bool {
		if in == nil || manual[in] {
			return false
		}
		if ok, seen := copyable[in]; seen {
			return ok
		}
		copyable[in] = false
		ok := in.Op != ir.OpCustomCall && in.IsPure() &&
			(!in.Op.Info().Has(ir.Collective) || in.Op == ir.OpPartitionID || in.Op == ir.OpReplicaID)
		for _, g := range in.Regions {
			g.Walk(func(c *ir.Instr) { ok = ok && !c.Op.Info().Has(ir.Collective) })
		}
		for _, a := range in.Args {
			ok = ok && canCopy(a.Def)
		}
		copyable[in] = ok
		return ok
	}
	for in := range manual {
		if target(in) == "SPMDFullToShardShape" {
			continue // its operand is the global value
		}
		for i, a := range in.Args {
			switch {
			case a.Def != nil && manual[a.Def]:
				union(in, a.Def)
			case canCopy(a.Def):
			case a.Def == nil:
				return false, r.errorf(in, "operand #%d is parameter #%d of @%s, a value of the global program: pass it to shard_map (through @SPMDFullToShardShape)", i, a.Index, f.Name)
			default:
				return false, r.errorf(in, "operand #%d is the result of %s, a value of the global program that is not computed from constants alone: pass it to shard_map (through @SPMDFullToShardShape)", i, opName(a.Def))
			}
		}
	}

	// A result computed from constants alone (JAX's axis_index, from
	// partition_id) is connected to no operand: it joins the shard_map
	// whose result comes just before it, as shard_map returns them
	// together, when that one's operands come before it.
	lastEntry := map[*ir.Instr]int{}
	for in := range manual {
		if target(in) == "SPMDFullToShardShape" {
			root := find(in)
			if p, ok := lastEntry[root]; !ok || pos[in] > p {
				lastEntry[root] = pos[in]
			}
		}
	}
	var prev *ir.Instr // the @Sharding {manual} of the last exit seen
	for _, in := range f.Body {
		if target(in) != "SPMDShardToFullShape" {
			continue
		}
		ms := in.Args[0].Def
		if _, ok := lastEntry[find(ms)]; !ok && prev != nil && lastEntry[find(prev)] < pos[in] {
			le := lastEntry[find(prev)]
			union(prev, ms)
			lastEntry[find(ms)] = le
		}
		if _, ok := lastEntry[find(ms)]; ok {
			prev = ms
		}
	}

	// The first connected set, in program order.
	var first *ir.Instr
	for _, in := range f.Body {
		if manual[in] {
			first = find(in)
			break
		}
	}
	var set, entries, exits []*ir.Instr
	for _, in := range f.Body {
		if !manual[in] || find(in) != first {
			continue
		}
		set = append(set, in)
		if target(in) == "SPMDFullToShardShape" {
			entries = append(entries, in)
		}
		if target(in) == "Sharding" {
			for _, u := range uses[in.Results[0]] {
				if target(u) == "SPMDShardToFullShape" {
					exits = append(exits, u)
				}
			}
		}
	}
	sort.SliceStable(exits, func(i, j int) bool { return pos[exits[i]] < pos[exits[j]] })
	return false, r.replace(f, set, entries, exits, copyable, pos, uses)
}

// opName names an instruction's op for messages: "add", "custom_call @foo".
func opName(in *ir.Instr) string {
	if t := target(in); t != "" {
		return "custom_call @" + t
	}
	return in.Op.String()
}

// replace makes one manual_computation of a connected set.
func (r *manualRebuilder) replace(f *ir.Func, set, entries, exits []*ir.Instr, copyable map[*ir.Instr]bool, pos map[*ir.Instr]int, uses map[*ir.Value][]*ir.Instr) error {
	loc := set[0].Loc
	if len(entries) > 0 {
		loc = entries[0].Loc
	}
	mesh, err := r.meshFor(set[0])
	if err != nil {
		return err
	}
	attr := ir.ManualComputationAttr{Mesh: ir.Mesh{Axes: slices.Clone(mesh.Axes)}}
	body := ir.NewFunc("shmap_body")
	vmap := map[*ir.Value]*ir.Value{}
	var args []*ir.Value
	for _, e := range entries {
		sc := e.Args[0].Def // the @Sharding call
		x := sc.Args[0]
		hs, _ := r.callSharding(sc)
		sh, err := ParseHLOSharding(hs, mesh, x.Type)
		if err != nil {
			return r.errorf(sc, "in sharding: %v", err)
		}
		if want := sh.ShardType(mesh, x.Type); !want.Equal(e.Results[0].Type) {
			return r.errorf(e, "gives %v, but the piece of %v under %s on mesh %v is %v", e.Results[0].Type, x.Type, hs, mesh, want)
		}
		args = append(args, x)
		attr.InShardings = append(attr.InShardings, *sh)
		vmap[e.Results[0]] = body.AddParam(e.Results[0].Type, e.Loc)
	}
	// Copy the body: the set in program order, the constants it uses
	// first.
	inSet := map[*ir.Instr]bool{}
	for _, in := range set {
		inSet[in] = true
	}
	var cloneErr error
	clone := func(in *ir.Instr) {
		defer func() {
			if p := recover(); p != nil {
				if be, ok := p.(*ir.BuildError); ok {
					cloneErr = r.errorf(in, "copying it into the body: %v", be.Err)
					return
				}
				panic(p)
			}
		}()
		ir.CloneInstr(body, in, vmap)
	}
	var need func(v *ir.Value)
	need = func(v *ir.Value) {
		if _, ok := vmap[v]; ok || cloneErr != nil {
			return
		}
		d := v.Def
		if d == nil || !copyable[d] {
			cloneErr = fmt.Errorf("internal error: %v has no copy in the body", v)
			return
		}
		for _, a := range d.Args {
			need(a)
		}
		if cloneErr == nil {
			clone(d)
		}
	}
	for _, in := range set {
		if target(in) == "SPMDFullToShardShape" {
			continue
		}
		for _, a := range in.Args {
			need(a)
		}
		if cloneErr != nil {
			return cloneErr
		}
		if target(in) == "Sharding" { // {manual}: the identity in the body
			vmap[in.Results[0]] = vmap[in.Args[0]]
			continue
		}
		if clone(in); cloneErr != nil {
			return cloneErr
		}
	}
	var outs []*ir.Value
	for _, x := range exits {
		s, _ := r.callSharding(x)
		sh, err := ParseHLOSharding(s, mesh, x.Results[0].Type)
		if err != nil {
			return r.errorf(x, "out sharding: %v", err)
		}
		piece := x.Args[0].Type
		if g := sh.GlobalType(mesh, piece); !g.Equal(x.Results[0].Type) || !sh.ShardType(mesh, g).Equal(piece) {
			return r.errorf(x, "makes %v of the pieces %v, but under %s on mesh %v they make %v", x.Results[0].Type, piece, s, mesh, g)
		}
		attr.OutShardings = append(attr.OutShardings, *sh)
		outs = append(outs, vmap[x.Args[0]])
	}
	body.Return(outs...)

	// Where the op goes: after the last @SPMDFullToShardShape (its
	// operands are defined there), which must come before every use of
	// its results.
	at := -1
	for _, e := range entries {
		at = max(at, pos[e])
	}
	if at < 0 && len(exits) > 0 {
		at = pos[exits[0]] - 1
	}
	for _, x := range exits {
		for _, u := range uses[x.Results[0]] {
			if pos[u] <= at {
				return r.errorf(u, "uses the result of a shard_map (through @SPMDShardToFullShape) before an operand of that shard_map is passed in: the shard_map cannot be rebuilt as one manual computation")
			}
		}
	}
	// A set with no results whose ops are pure (the piece of an operand
	// the body does not use) is dropped, not made an op that computes
	// nothing.
	var mc *ir.Instr
	var res []*ir.Value
	pure := len(exits) == 0
	for _, in := range set {
		pure = pure && in.IsPure()
	}
	if !pure {
		n := len(f.Body)
		if res, err = f.Emit(loc, ir.OpManualComputation, args, attr, body); err != nil {
			return fmt.Errorf("manual computation (shard_map) rebuilt: %w", err)
		}
		mc = f.Body[n]
		f.Body = f.Body[:n]
	}

	// Drop what the op replaces: the set, the calls around it, and the
	// @Sharding calls before the entries when nothing else uses them.
	drop := map[*ir.Instr]bool{}
	for _, in := range set {
		drop[in] = true
		r.removed[in] = true
	}
	repl := map[*ir.Value]*ir.Value{}
	for k, x := range exits {
		drop[x] = true
		r.removed[x] = true
		repl[x.Results[0]] = res[k]
	}
	for _, e := range entries {
		sc := e.Args[0].Def
		onlyEntries := true
		for _, u := range uses[sc.Results[0]] {
			onlyEntries = onlyEntries && target(u) == "SPMDFullToShardShape" && drop[u]
		}
		if onlyEntries && !slices.Contains(f.Results, sc.Results[0]) {
			drop[sc] = true
			r.removed[sc] = true
		}
	}
	var out []*ir.Instr
	if at < 0 && mc != nil {
		out = append(out, mc)
	}
	for i, in := range f.Body {
		if !drop[in] {
			for j, a := range in.Args {
				if w, ok := repl[a]; ok {
					in.Args[j] = w
				}
			}
			out = append(out, in)
		}
		if i == at && mc != nil {
			out = append(out, mc)
		}
	}
	f.Body = out
	for i, v := range f.Results {
		if w, ok := repl[v]; ok {
			f.Results[i] = w
		}
	}
	dropDeadCopyable(f, copyable)
	return nil
}

// dropDeadCopyable removes the copyable instructions (constants and what
// is computed from them) that nothing uses any more: their uses moved into
// bodies. So are unused partition_id and replica_id ops, which a body
// left dead in the lowering (a body's dead ops are connected to nothing)
// and which mean nothing in the global program.
func dropDeadCopyable(f *ir.Func, copyable map[*ir.Instr]bool) {
	used := map[*ir.Value]bool{}
	for _, v := range f.Results {
		used[v] = true
	}
	keep := make([]bool, len(f.Body))
	for i := len(f.Body) - 1; i >= 0; i-- {
		in := f.Body[i]
		live := !copyable[in] && in.Op != ir.OpPartitionID && in.Op != ir.OpReplicaID
		for _, v := range in.Results {
			live = live || used[v]
		}
		if live {
			keep[i] = true
			for _, a := range in.Args {
				used[a] = true
			}
		}
	}
	out := f.Body[:0]
	for i, in := range f.Body {
		if keep[i] {
			out = append(out, in)
		}
	}
	f.Body = out
}

// meshFor returns the mesh that the shardings are read on.
func (r *manualRebuilder) meshFor(at *ir.Instr) (*ir.Mesh, error) {
	if r.mesh != nil {
		return r.mesh, nil
	}
	n := r.im.out.NumPartitions
	if n < 1 {
		return nil, r.errorf(at, "the module has no mhlo.num_partitions, and ImportOptions.Mesh names no mesh: the devices of the shardings are unknown")
	}
	if r.im.out.NumReplicas > 1 {
		return nil, r.errorf(at, "the module has %d replicas: manual computations run on programs of one replica (their collectives name partition ids)", r.im.out.NumReplicas)
	}
	r.mesh = PrimeMesh(n)
	return r.mesh, nil
}
