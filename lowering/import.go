package lowering

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// Import is the inverse of the lowering: it turns a StableHLO module —
// Stela's own lowered output, or what another producer wrote (JAX's
// `jax.jit(f).lower(...).as_text()`, hand-written text) — into an
// ir.Module (docs/import.md).
//
//   - The entry function (@main, or the only public function) becomes the
//     module's first function, named after the module (jit_f gives f).
//     Every other func.func becomes a further function in module order,
//     except those that are only composite decompositions, which become
//     the composites' regions.
//   - func.call is inlined (the callee is imported in place, so a
//     recursive call is an error); the callee is also a function of its
//     own.
//   - Regions become isolated ir regions. StableHLO regions may use values
//     defined above them; the IR's may not. A case's captured values
//     become operands of the ir case (each branch takes all of them), a
//     while's extra loop state that the body passes through unchanged;
//     the scalar regions (reduce, sort, scatter, ...) may capture only
//     constants and iotas, which are copied into them.
//   - Ops map to the ir op of the same name, or, for StableHLO spellings
//     with no ir op of their own, to an equivalent: broadcast becomes
//     broadcast_in_dim, dot dot_general, if a case on the negated
//     predicate, optimization_barrier the identity, tuple and
//     get_tuple_element resolve to the tuple's elements. A compare whose
//     compare_type is the default for its element type imports with
//     NOTYPE (what the lowering turns into that default).
//   - custom_call @Sharding (JAX's with_sharding_constraint) is the
//     identity, or an ir custom_call with ImportOptions.KeepShardingCalls;
//     its mhlo.sharding string, and that of any other custom_call that has
//     one (SPMDFullToShardShape, ...), is kept in Imported.ShardingCalls.
//     With ImportOptions.ManualComputations, shard_map's pattern of
//     custom calls becomes manual_computation ops (import_manual.go).
//   - Locations: loc("file":line:col) becomes ir.Loc{File, Line}; a named
//     location its child's, a call site its callee's, a fused location a
//     fused ir.Loc with the metadata string as the pass.
//
// What the IR cannot hold comes back in Imported: the module's name,
// mhlo.num_replicas and mhlo.num_partitions, @main's argument and result
// mhlo.sharding strings, tf.aliasing_output, jax.result_info.
//
// An op, attribute or type the IR has no form for is an error naming the
// op, the function, and the op's location (its loc(...) or the line of
// the parsed text), never a panic: an attribute must be understood or
// named in ImportOptions.Ignore, since dropping it could change what the
// program means.
func Import(m *stablehlo.Module) (*Imported, error) {
	return ImportWithOptions(m, ImportOptions{})
}

// ImportOptions controls Import.
type ImportOptions struct {
	// KeepShardingCalls imports custom_call @Sharding as an ir custom_call
	// with target "Sharding" (the instruction recorded in its
	// ShardingCall), instead of the identity, so that a later step can
	// turn it in place into a sharding_constraint. ir.Eval cannot run it.
	KeepShardingCalls bool
	// ManualComputations rebuilds a manual_computation from each
	// instance of the custom-call pattern that JAX makes of shard_map
	// (and Stela's annotate mode of manual_computation): @Sharding and
	// @SPMDFullToShardShape on the way in, the body on the pieces,
	// @Sharding {manual} and @SPMDShardToFullShape on the way out
	// (import_manual.go). Without it those stay custom_calls.
	ManualComputations bool
	// Mesh is the mesh the rebuilt manual computations' shardings are read
	// on (its devices are the partitions, in order); nil: PrimeMesh of the
	// module's mhlo.num_partitions.
	Mesh *ir.Mesh
	// Ignore names attributes to drop wherever they appear (on ops,
	// function arguments and results, functions, the module), for
	// attributes known not to matter to the caller, such as
	// "mhlo.frontend_attributes". Without it, such an attribute is an
	// error.
	Ignore []string
}

// Imported is an ir module made by Import, with what the StableHLO module
// says that the IR does not hold.
type Imported struct {
	Module *ir.Module
	// Name is the module's symbol name ("jit_f"), "" for an anonymous one.
	Name string
	// NumReplicas and NumPartitions are the module attributes
	// mhlo.num_replicas and mhlo.num_partitions, 0 when absent.
	NumReplicas, NumPartitions int
	// ArgShardings and ResultShardings hold the mhlo.sharding string (HLO
	// sharding syntax, "{devices=[2,1]<=[2]}") of each parameter and
	// result of the entry function, "" where there is none; nil when none
	// has one.
	ArgShardings, ResultShardings []string
	// ShardingCalls lists the custom_calls that carried mhlo.sharding, in
	// import order.
	ShardingCalls []ShardingCall
	// Aliases holds each entry parameter's tf.aliasing_output (the result
	// it may be donated to), -1 where there is none; nil when none has
	// one. It is Options.Aliases of the lowering.
	Aliases []int
	// ResultInfo holds each entry result's jax.result_info string; nil
	// when none has one.
	ResultInfo []string
}

// ShardingCall is a custom_call with an mhlo.sharding attribute: JAX's
// with_sharding_constraint (target "Sharding") or shard_map's
// SPMDFullToShardShape and SPMDShardToFullShape.
type ShardingCall struct {
	Target   string // the call target
	Sharding string // the mhlo.sharding string
	// Func is the ir function or region that holds the call; Operand is
	// the value it applies to (in Func).
	Func    *ir.Func
	Operand *ir.Value
	// Instr is the ir custom_call made of it, nil for a @Sharding
	// imported as the identity (whose uses then use Operand).
	Instr *ir.Instr
	Loc   ir.Loc
}

// LowerOptions returns the lowering options that give the module's name,
// replica and partition counts, aliases and (when they follow JAX's
// "result", "result[i]" convention) result infos back.
func (im *Imported) LowerOptions() Options {
	o := Options{ModuleName: im.Name, NumReplicas: im.NumReplicas, NumPartitions: im.NumPartitions, Aliases: im.Aliases}
	if len(im.ResultInfo) > 0 {
		o.ResultInfo = true
		for i, s := range im.ResultInfo {
			want := "result"
			if len(im.ResultInfo) > 1 {
				want = "result[" + strconv.Itoa(i) + "]"
			}
			o.ResultInfo = o.ResultInfo && s == want
		}
	}
	return o
}

// maxConstantBytes bounds the size of one imported constant (its literal
// is materialized in memory).
var maxConstantBytes int64 = 1 << 30

// ImportWithOptions is Import with options.
func ImportWithOptions(m *stablehlo.Module, opts ImportOptions) (out *Imported, err error) {
	if m == nil {
		return nil, fmt.Errorf("import: nil module")
	}
	// Dynamic-shape ops whose shapes fold to constants become static
	// ones (in m); the others stay, and their import says why not.
	m.RefineKnownShapes()
	if err := m.LowerChlo(); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if err := m.LowerQuant(); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	im := &importer{
		mod:      m,
		opts:     opts,
		out:      &Imported{Name: m.Name},
		funcs:    map[string]*stablehlo.Func{},
		inlining: map[*stablehlo.Func]bool{},
		ignore:   map[string]bool{},
	}
	for _, n := range opts.Ignore {
		im.ignore[n] = true
	}
	// Import follows the module's structure, which Parse and Verify
	// guarantee for parsed text but a module built in Go may break; a
	// panic there is reported, not passed on.
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("import: internal error: %v", p)
		}
	}()
	if opts.ManualComputations {
		im.origin = map[*ir.Instr]string{}
	}
	if err := im.module(); err != nil {
		return nil, err
	}
	if opts.ManualComputations {
		if err := im.rebuildManual(); err != nil {
			return nil, err
		}
	}
	return im.out, nil
}

// importer holds what one Import shares across functions.
type importer struct {
	mod   *stablehlo.Module
	opts  ImportOptions
	out   *Imported
	funcs map[string]*stablehlo.Func
	// inlining holds the functions being inlined (the call stack).
	inlining map[*stablehlo.Func]bool
	ignore   map[string]bool
	// origin says where each instruction came from ("in @main, line 5
	// of the StableHLO text"), for the rebuild's messages; only kept with
	// ImportOptions.ManualComputations.
	origin map[*ir.Instr]string
}

// module imports the whole module into im.out.
func (im *importer) module() error {
	m := im.mod
	if len(m.Funcs) == 0 {
		return fmt.Errorf("import: module has no functions")
	}
	for _, a := range m.Attrs {
		if err := im.moduleAttr(a); err != nil {
			return err
		}
	}
	for _, f := range m.Funcs {
		if f == nil {
			return fmt.Errorf("import: module has a nil function")
		}
		if _, dup := im.funcs[f.Name]; dup {
			return fmt.Errorf("import: function @%s is defined twice", f.Name)
		}
		im.funcs[f.Name] = f
	}
	entry, err := im.entry()
	if err != nil {
		return err
	}
	// A function that only composites name is their regions' source, not
	// a function of the ir module.
	called := map[string]bool{}
	decomps := map[string]bool{}
	for _, f := range m.Funcs {
		walkOps(f.Body, func(o *stablehlo.Op) {
			switch o.Name {
			case "stablehlo.composite":
				if s, ok := o.Attr("decomposition").(stablehlo.SymbolRefAttr); ok {
					decomps[s.Name] = true
				}
			case "func.call":
				if s, ok := o.Attr("callee").(stablehlo.SymbolRefAttr); ok {
					called[s.Name] = true
				}
			}
		})
	}
	name := strings.TrimPrefix(m.Name, "jit_")
	if name == "" || im.funcs[name] != nil && im.funcs[name] != entry {
		name = "main"
	}
	irm := &ir.Module{}
	main, err := im.function(entry, name, true)
	if err != nil {
		return err
	}
	irm.Funcs = append(irm.Funcs, main)
	for _, f := range m.Funcs {
		// A declaration has nothing to import; calling one is an error
		// (at the call).
		if f == entry || decomps[f.Name] && !called[f.Name] || f.Body == nil {
			continue
		}
		g, err := im.function(f, f.Name, false)
		if err != nil {
			return err
		}
		irm.Funcs = append(irm.Funcs, g)
	}
	im.out.Module = irm
	return nil
}

// moduleAttr reads one module attribute.
func (im *importer) moduleAttr(a stablehlo.NamedAttr) error {
	switch a.Name {
	case "mhlo.num_replicas", "mhlo.num_partitions":
		n, ok := a.Value.(stablehlo.IntAttr)
		if !ok || n.Value < 1 || n.Value > 1<<31-1 {
			return fmt.Errorf("import: module attribute %s = %v: want a positive integer", a.Name, a.Value)
		}
		if a.Name == "mhlo.num_replicas" {
			im.out.NumReplicas = int(n.Value)
		} else {
			im.out.NumPartitions = int(n.Value)
		}
		return nil
	case "jax.uses_shape_polymorphism":
		if b, ok := a.Value.(stablehlo.BoolAttr); ok && !bool(b) {
			return nil
		}
		return fmt.Errorf("import: module attribute %s = %v: shape polymorphism is not supported", a.Name, a.Value)
	}
	if im.ignore[a.Name] {
		return nil
	}
	return fmt.Errorf("import: unsupported module attribute %s = %v", a.Name, a.Value)
}

// entry returns the entry function: @main, else the only public
// function, else the only function.
func (im *importer) entry() (*stablehlo.Func, error) {
	if f := im.funcs["main"]; f != nil {
		return f, nil
	}
	var public []*stablehlo.Func
	for _, f := range im.mod.Funcs {
		if f.Visibility == "public" || f.Visibility == "" {
			public = append(public, f)
		}
	}
	switch {
	case len(public) == 1:
		return public[0], nil
	case len(im.mod.Funcs) == 1:
		return im.mod.Funcs[0], nil
	}
	return nil, fmt.Errorf("import: module has no @main and %d public functions: cannot tell which is the entry", len(public))
}

// function imports f as a top-level ir function named name; for the
// entry it also reads the argument and result attributes into im.out.
func (im *importer) function(f *stablehlo.Func, name string, entry bool) (*ir.Func, error) {
	where := "@" + f.Name
	blk := f.Entry()
	if blk == nil {
		return nil, fmt.Errorf("import: function %s is a declaration without a body", where)
	}
	if len(f.Body.Blocks) != 1 {
		return nil, fmt.Errorf("import: function %s has %d blocks; only single-block functions are supported", where, len(f.Body.Blocks))
	}
	if len(blk.Args) != len(f.Args) {
		return nil, fmt.Errorf("import: function %s: %d block arguments for %d parameters", where, len(blk.Args), len(f.Args))
	}
	for _, a := range f.Attrs {
		if !im.ignore[a.Name] {
			return nil, fmt.Errorf("import: function %s: unsupported attribute %s = %v", where, a.Name, a.Value)
		}
	}
	g := ir.NewFunc(name)
	s := &scope{im: im, f: g, where: where, env: map[*stablehlo.Value]*ir.Value{}}
	for i, a := range blk.Args {
		t, err := irType(a.Type)
		if err != nil {
			return nil, fmt.Errorf("import: function %s: parameter #%d: %v", where, i, err)
		}
		s.env[a] = g.AddParam(t, importLoc(a.Loc))
		if err := im.argAttrs(f, i, entry); err != nil {
			return nil, err
		}
	}
	results, err := s.block(blk, "func.return")
	if err != nil {
		return nil, err
	}
	if len(results) != len(f.ResultTypes) {
		return nil, fmt.Errorf("import: function %s returns %d values, but its type has %d results", where, len(results), len(f.ResultTypes))
	}
	for i, r := range results {
		if err := checkType(f.ResultTypes[i], r.Type); err != nil {
			return nil, fmt.Errorf("import: function %s: result #%d: %v", where, i, err)
		}
	}
	for i := range f.ResultAttrs {
		if err := im.resultAttrs(f, i, entry); err != nil {
			return nil, err
		}
	}
	g.Return(results...)
	return g, nil
}

// argAttrs reads the attributes of parameter i of f.
func (im *importer) argAttrs(f *stablehlo.Func, i int, entry bool) error {
	for _, a := range f.Args[i].Attrs {
		switch {
		case a.Name == "mhlo.sharding" && entry:
			s, ok := a.Value.(stablehlo.StringAttr)
			if !ok {
				return fmt.Errorf("import: function @%s: parameter #%d: mhlo.sharding = %v is not a string", f.Name, i, a.Value)
			}
			if im.out.ArgShardings == nil {
				im.out.ArgShardings = make([]string, len(f.Args))
			}
			im.out.ArgShardings[i] = string(s)
		case a.Name == "tf.aliasing_output" && entry:
			n, ok := a.Value.(stablehlo.IntAttr)
			if !ok || n.Value < 0 || n.Value >= int64(len(f.ResultTypes)) {
				return fmt.Errorf("import: function @%s: parameter #%d: tf.aliasing_output = %v is not a result index", f.Name, i, a.Value)
			}
			if im.out.Aliases == nil {
				im.out.Aliases = make([]int, len(f.Args))
				for j := range im.out.Aliases {
					im.out.Aliases[j] = -1
				}
			}
			im.out.Aliases[i] = int(n.Value)
		case a.Name == "jax.arg_info", im.ignore[a.Name], isDefaultLayoutMode(a):
		default:
			return fmt.Errorf("import: function @%s: parameter #%d: unsupported attribute %s = %v", f.Name, i, a.Name, a.Value)
		}
	}
	return nil
}

// resultAttrs reads the attributes of result i of f.
func (im *importer) resultAttrs(f *stablehlo.Func, i int, entry bool) error {
	for _, a := range f.ResultAttrs[i] {
		switch {
		case a.Name == "mhlo.sharding" && entry:
			s, ok := a.Value.(stablehlo.StringAttr)
			if !ok {
				return fmt.Errorf("import: function @%s: result #%d: mhlo.sharding = %v is not a string", f.Name, i, a.Value)
			}
			if im.out.ResultShardings == nil {
				im.out.ResultShardings = make([]string, len(f.ResultTypes))
			}
			im.out.ResultShardings[i] = string(s)
		case a.Name == "jax.result_info":
			s, ok := a.Value.(stablehlo.StringAttr)
			if !ok {
				return fmt.Errorf("import: function @%s: result #%d: jax.result_info = %v is not a string", f.Name, i, a.Value)
			}
			if entry {
				if im.out.ResultInfo == nil {
					im.out.ResultInfo = make([]string, len(f.ResultTypes))
				}
				im.out.ResultInfo[i] = string(s)
			}
		case im.ignore[a.Name], isDefaultLayoutMode(a):
		default:
			return fmt.Errorf("import: function @%s: result #%d: unsupported attribute %s = %v", f.Name, i, a.Name, a.Value)
		}
	}
	return nil
}

// isDefaultLayoutMode reports whether a is mhlo.layout_mode = "default",
// which JAX writes and which asks for nothing.
func isDefaultLayoutMode(a stablehlo.NamedAttr) bool {
	s, ok := a.Value.(stablehlo.StringAttr)
	return a.Name == "mhlo.layout_mode" && ok && s == "default"
}

// scope is one ir function (or region) being built: the StableHLO values
// visible in it and what they became.
type scope struct {
	im    *importer
	f     *ir.Func
	where string // the StableHLO function, for messages
	env   map[*stablehlo.Value]*ir.Value
	// tuples holds the elements of values made by stablehlo.tuple.
	tuples map[*stablehlo.Value][]*ir.Value
}

// block imports the ops of blk, whose arguments are already in the
// scope, and returns the operands of its terminator, which must be
// named term.
func (s *scope) block(blk *stablehlo.Block, term string) ([]*ir.Value, error) {
	if len(blk.Ops) == 0 {
		return nil, fmt.Errorf("import: %s: block has no terminator (want %s)", s.where, term)
	}
	last := blk.Ops[len(blk.Ops)-1]
	for _, o := range blk.Ops[:len(blk.Ops)-1] {
		if err := s.op(o); err != nil {
			return nil, err
		}
	}
	if last.Name != term {
		if isTerminatorName(last.Name) {
			return nil, s.errorf(last, "is not this block's terminator (want %s)", term)
		}
		return nil, s.errorf(last, "block ends without its terminator %s", term)
	}
	if len(last.Attrs) > 0 || len(last.Regions) > 0 || len(last.Results) > 0 {
		return nil, s.errorf(last, "terminator with attributes, regions or results")
	}
	return s.values(last, last.Operands)
}

func isTerminatorName(n string) bool { return n == "func.return" || n == "stablehlo.return" }

// values maps operands to their ir values.
func (s *scope) values(o *stablehlo.Op, vs []*stablehlo.Value) ([]*ir.Value, error) {
	out := make([]*ir.Value, len(vs))
	for i, v := range vs {
		x, ok := s.env[v]
		if !ok {
			if _, isTuple := s.tuples[v]; isTuple {
				return nil, s.errorf(o, "operand #%d is a tuple, which the IR has no form for (only get_tuple_element may take one)", i)
			}
			return nil, s.errorf(o, "operand #%d is not defined before its use", i)
		}
		out[i] = x
	}
	return out, nil
}

// errorf returns an error naming o, the function and o's location (its
// loc(...), else the line of the parsed text).
func (s *scope) errorf(o *stablehlo.Op, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	msg += " (in " + s.where
	if o.Line > 0 {
		msg += ", line " + strconv.Itoa(o.Line) + " of the StableHLO text"
	}
	msg += ")"
	return ir.Errorf(importLoc(o.Loc), o.Name, "%s", msg)
}

// op imports one op into the scope.
func (s *scope) op(o *stablehlo.Op) error {
	if isTerminatorName(o.Name) {
		return s.errorf(o, "terminator in the middle of a block")
	}
	r, ok := importRules[o.Name]
	if !ok {
		return s.errorf(o, "%s", unsupportedOp(o.Name))
	}
	c := &opCtx{s: s, o: o, loc: importLoc(o.Loc)}
	for _, a := range o.Attrs {
		if !s.im.ignore[a.Name] {
			c.attrs = append(c.attrs, a)
		}
	}
	if o.Name != "stablehlo.get_tuple_element" {
		args, err := s.values(o, o.Operands)
		if err != nil {
			return err
		}
		c.args = args
	}
	if o.Name != "stablehlo.tuple" {
		for i, v := range o.Results {
			t, err := irType(v.Type)
			if err != nil {
				return s.errorf(o, "result #%d: %v", i, err)
			}
			c.types = append(c.types, t)
		}
	}
	first := len(s.f.Body)
	outs, err := r(c)
	if err != nil {
		return err
	}
	if s.im.origin != nil {
		w := "in " + s.where
		if o.Line > 0 {
			w += ", line " + strconv.Itoa(o.Line) + " of the StableHLO text"
		}
		for _, in := range s.f.Body[min(first, len(s.f.Body)):] {
			s.im.origin[in] = w
		}
	}
	if o.Name == "stablehlo.tuple" {
		return nil
	}
	if len(outs) != len(o.Results) {
		return s.errorf(o, "imports as %d values, but has %d results", len(outs), len(o.Results))
	}
	for i, v := range o.Results {
		if !outs[i].Type.Equal(c.types[i]) {
			return s.errorf(o, "result #%d has type %s, but the IR's type rule gives %v", i, v.Type, outs[i].Type)
		}
		s.env[v] = outs[i]
	}
	return nil
}

// unsupportedOp explains why an op has no import.
func unsupportedOp(name string) string {
	switch {
	case strings.HasPrefix(name, "chlo."):
		return "CHLO ops have no IR form (decompose them to StableHLO first, as stablehlo-opt --chlo-legalize-to-stablehlo does)"
	case strings.HasPrefix(name, "stablehlo.dynamic_") || name == "stablehlo.real_dynamic_slice" || name == "stablehlo.get_dimension_size" || name == "stablehlo.set_dimension_size":
		return "dynamic shapes are not supported"
	case strings.HasPrefix(name, "stablehlo."):
		return "the IR has no op for it"
	}
	return "not a StableHLO op"
}

// regionFunc imports the single block of r as an isolated ir region named
// name: the block's arguments, then the captured values, become its
// parameters; clone lists captured values whose defining ops (constants,
// iotas) are copied into the region instead.
func (s *scope) regionFunc(o *stablehlo.Op, name string, r *stablehlo.Region, captured, clone []*stablehlo.Value) (*ir.Func, error) {
	if r == nil || len(r.Blocks) != 1 {
		return nil, s.errorf(o, "region %s must have exactly one block", name)
	}
	blk := r.Blocks[0]
	f := ir.NewFunc(name)
	rs := &scope{im: s.im, f: f, where: s.where, env: map[*stablehlo.Value]*ir.Value{}}
	for i, a := range blk.Args {
		t, err := irType(a.Type)
		if err != nil {
			return nil, s.errorf(o, "region %s: argument #%d: %v", name, i, err)
		}
		rs.env[a] = f.AddParam(t, importLoc(a.Loc))
	}
	for _, v := range captured {
		rs.env[v] = f.AddParam(s.env[v].Type, ir.UnknownLoc)
	}
	for _, v := range clone {
		if _, done := rs.env[v]; !done {
			if err := rs.op(v.Def); err != nil {
				return nil, err
			}
		}
	}
	results, err := rs.block(blk, "stablehlo.return")
	if err != nil {
		return nil, err
	}
	f.Return(results...)
	return f, nil
}

// captures returns the values that o's regions use (at any depth) but
// that are defined outside them, in order of first use.
func captures(o *stablehlo.Op) []*stablehlo.Value {
	inside := map[*stablehlo.Value]bool{}
	for _, r := range o.Regions {
		walkRegion(r, func(blk *stablehlo.Block) {
			for _, a := range blk.Args {
				inside[a] = true
			}
			for _, op := range blk.Ops {
				for _, v := range op.Results {
					inside[v] = true
				}
			}
		}, nil)
	}
	seen := map[*stablehlo.Value]bool{}
	var out []*stablehlo.Value
	for _, r := range o.Regions {
		walkRegion(r, nil, func(op *stablehlo.Op) {
			for _, v := range op.Operands {
				if !inside[v] && !seen[v] {
					seen[v] = true
					out = append(out, v)
				}
			}
		})
	}
	return out
}

// walkRegion calls blockFn on every block of r and opFn on every op, in
// order, each op before the regions it holds.
func walkRegion(r *stablehlo.Region, blockFn func(*stablehlo.Block), opFn func(*stablehlo.Op)) {
	if r == nil {
		return
	}
	for _, blk := range r.Blocks {
		if blk == nil {
			continue
		}
		if blockFn != nil {
			blockFn(blk)
		}
		for _, op := range blk.Ops {
			if op == nil {
				continue
			}
			if opFn != nil {
				opFn(op)
			}
			for _, sub := range op.Regions {
				walkRegion(sub, blockFn, opFn)
			}
		}
	}
}

// walkOps calls fn on every op of r, nested ones included.
func walkOps(r *stablehlo.Region, fn func(*stablehlo.Op)) { walkRegion(r, nil, fn) }

// irType converts a StableHLO tensor type.
func irType(t stablehlo.Type) (ir.Type, error) {
	tt, ok := t.(stablehlo.TensorType)
	if !ok {
		return ir.Type{}, fmt.Errorf("type %s is not a tensor type (the IR has tensors only)", typeText(t))
	}
	if tt.Unranked {
		return ir.Type{}, fmt.Errorf("type %s: unranked tensors are not supported", tt)
	}
	if tt.Encoding != nil {
		return ir.Type{}, fmt.Errorf("type %s: tensor encodings (bounds, sparsity) are not supported", tt)
	}
	d, err := irDType(tt.Elem)
	if err != nil {
		return ir.Type{}, fmt.Errorf("type %s: %v", tt, err)
	}
	dims := make([]int, len(tt.Shape))
	for i, n := range tt.Shape {
		if n < 0 {
			return ir.Type{}, fmt.Errorf("type %s: dynamic dimensions are not supported", tt)
		}
		if n > 1<<47 {
			return ir.Type{}, fmt.Errorf("type %s: dimension %d is too large", tt, n)
		}
		dims[i] = int(n)
	}
	return ir.TensorOf(d, dims...), nil
}

func typeText(t stablehlo.Type) string {
	if t == nil {
		return "<nil>"
	}
	return t.String()
}

// irDTypes maps StableHLO element types to the IR's: signless integers
// are signed.
var irDTypes = map[stablehlo.ElementType]ir.DType{
	"si8": ir.S8, "si16": ir.S16, "si32": ir.S32, "si64": ir.S64,
}

func init() {
	for _, d := range ir.EveryDType {
		irDTypes[stablehlo.ElementType(d.MLIR())] = d
	}
}

func irDType(e stablehlo.ElementType) (ir.DType, error) {
	if d, ok := irDTypes[e]; ok {
		return d, nil
	}
	return ir.InvalidDType, fmt.Errorf("element type %s is not supported (the IR has i1, i2 to i64, ui2 to ui64, the f4, f6 and f8 types, f16, bf16, f32, f64, complex<f32> and complex<f64>)", e)
}

// checkType checks that an ir type is the StableHLO type t.
func checkType(t stablehlo.Type, got ir.Type) error {
	want, err := irType(t)
	if err != nil {
		return err
	}
	if !want.Equal(got) {
		return fmt.Errorf("has type %v, want %v (%s)", got, want, typeText(t))
	}
	return nil
}

// importLoc converts a location (see Import).
func importLoc(l stablehlo.Loc) ir.Loc {
	return importLocDepth(l, 0)
}

func importLocDepth(l stablehlo.Loc, depth int) ir.Loc {
	if depth > 64 {
		return ir.UnknownLoc
	}
	switch l := l.(type) {
	case stablehlo.FileLineColLoc:
		if l.File == "" {
			return ir.UnknownLoc
		}
		return ir.Loc{File: l.File, Line: l.Line}
	case stablehlo.NameLoc:
		return importLocDepth(l.Child, depth+1)
	case stablehlo.CallSiteLoc:
		if c := importLocDepth(l.Callee, depth+1); c.IsKnown() {
			return c
		}
		return importLocDepth(l.Caller, depth+1)
	case stablehlo.FusedLoc:
		var locs []ir.Loc
		for _, m := range l.Locs {
			if c := importLocDepth(m, depth+1); c.IsKnown() {
				locs = append(locs, c)
			}
		}
		pass := ""
		if s, ok := l.Metadata.(stablehlo.StringAttr); ok {
			pass = string(s)
		}
		return ir.FusedLoc(pass, locs...)
	}
	return ir.UnknownLoc
}
