package lowering

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// Options controls the shape of the module Lower makes.
type Options struct {
	// ModuleName is the module's symbol name; empty means JAX's
	// convention, "jit_" followed by the entry function's name.
	ModuleName string
	// ResultInfo adds a jax.result_info attribute to each result of @main
	// ("result" for one result, "result[i]" for several), as JAX does, so
	// that tools reading JAX's output find what they expect.
	ResultInfo bool
	// NumReplicas and NumPartitions, when positive, become the module
	// attributes mhlo.num_replicas and mhlo.num_partitions (i32), as JAX
	// writes them.
	NumReplicas, NumPartitions int
	// Verify runs ir.Verify on the input first and returns its located
	// errors, all of them, instead of lowering a malformed function.
	Verify bool
	// Aliases pairs parameters of the entry with its results (buffer
	// donation): Aliases[i] >= 0 puts `tf.aliasing_output = Aliases[i] :
	// i32` on argument i of @main, as JAX does for donate_argnums, which
	// XLA's plugins and Stela's CPU plugin read as "result Aliases[i] may
	// be written into argument i's buffer when the caller donates it".
	// -1 (or a parameter past the slice's end) pairs nothing. A paired
	// result must have the parameter's type, and no result may be paired
	// twice.
	Aliases []int
	// Annotate lowers a function with a mesh in annotate mode
	// (sharding.go): mhlo.sharding on @main's parameters and results and
	// on constraints, and mhlo.num_partitions set to the mesh's size
	// unless NumPartitions says otherwise. Without it, shardings are left
	// out and constraints are the identity.
	Annotate bool
}

// Lower turns f into a StableHLO module whose public @main has f's
// parameters as its entry block arguments and returns f's results.
func Lower(f *ir.Func, opts Options) (*stablehlo.Module, error) {
	if f == nil {
		return nil, fmt.Errorf("lowering: nil function")
	}
	return LowerModule(&ir.Module{Funcs: []*ir.Func{f}}, opts)
}

// LowerModule lowers every function of m: the first (the entry point)
// becomes the public @main, the others private functions under their own
// names. Composite decompositions become further private functions.
func LowerModule(m *ir.Module, opts Options) (*stablehlo.Module, error) {
	if m == nil || len(m.Funcs) == 0 {
		return nil, fmt.Errorf("lowering: module has no functions")
	}
	for i, f := range m.Funcs {
		if f == nil {
			return nil, fmt.Errorf("lowering: function #%d is nil", i)
		}
	}
	if opts.Verify {
		if err := m.Verify(); err != nil {
			return nil, err
		}
	}
	entry := m.Funcs[0]
	name := opts.ModuleName
	if name == "" {
		n := entry.Name
		if n == "" {
			n = "main"
		}
		name = "jit_" + n
	}
	l := &lowerer{
		mod:     stablehlo.NewModule(name),
		names:   map[string]bool{"main": true},
		decomps: map[string]string{},
	}
	if opts.Annotate && entry.Mesh != nil {
		l.mesh = entry.Mesh
		if opts.NumPartitions <= 0 {
			opts.NumPartitions = entry.Mesh.NumDevices()
		}
		if opts.NumReplicas <= 0 {
			opts.NumReplicas = 1
		}
	}
	if opts.NumPartitions > 0 {
		stablehlo.SetAttr(&l.mod.Attrs, "mhlo.num_partitions", stablehlo.I32Attr(int64(opts.NumPartitions)))
	}
	if opts.NumReplicas > 0 {
		stablehlo.SetAttr(&l.mod.Attrs, "mhlo.num_replicas", stablehlo.I32Attr(int64(opts.NumReplicas)))
	}
	// Reserve the names of the other functions first, so that a
	// decomposition met while lowering @main cannot take one of them.
	others := make([]string, len(m.Funcs))
	for i, f := range m.Funcs[1:] {
		others[i+1] = l.uniqueName(symbolName(f.Name, "func"))
	}
	sf, err := l.lowerFunc(entry, "main", "public")
	if err != nil {
		return nil, err
	}
	if err := setAliases(sf, entry, opts.Aliases); err != nil {
		return nil, err
	}
	if l.mesh != nil {
		if err := annotateMain(sf, entry); err != nil {
			return nil, err
		}
	}
	if opts.ResultInfo {
		for i := range sf.ResultTypes {
			info := "result"
			if len(sf.ResultTypes) > 1 {
				info = "result[" + strconv.Itoa(i) + "]"
			}
			sf.SetResultAttr(i, "jax.result_info", stablehlo.StringAttr(info))
		}
	}
	for i, f := range m.Funcs[1:] {
		if _, err := l.lowerFunc(f, others[i+1], "private"); err != nil {
			return nil, err
		}
	}
	return l.mod, nil
}

// setAliases puts the tf.aliasing_output attributes of Options.Aliases
// on @main's arguments.
func setAliases(sf *stablehlo.Func, f *ir.Func, aliases []int) error {
	used := map[int]int{}
	for i, j := range aliases {
		if j < 0 {
			continue
		}
		if i >= len(f.Params) {
			return fmt.Errorf("lowering: alias of parameter #%d, but @%s has %d parameters", i, f.Name, len(f.Params))
		}
		if j >= len(f.Results) {
			return fmt.Errorf("lowering: parameter #%d aliases result #%d, but @%s has %d results", i, j, f.Name, len(f.Results))
		}
		if pt, rt := f.Params[i].Type, f.Results[j].Type; !pt.Equal(rt) {
			return fmt.Errorf("lowering: parameter #%d (%v) aliases result #%d of another type (%v)", i, pt, j, rt)
		}
		if k, ok := used[j]; ok {
			return fmt.Errorf("lowering: parameters #%d and #%d both alias result #%d", k, i, j)
		}
		used[j] = i
		stablehlo.SetAttr(&sf.Args[i].Attrs, "tf.aliasing_output", stablehlo.I32Attr(int64(j)))
	}
	return nil
}

// lowerer holds what one Lower call shares across functions and regions.
type lowerer struct {
	mod *stablehlo.Module
	// names are the function symbols in use.
	names map[string]bool
	// decomps maps a composite decomposition's content key to the symbol
	// of the private function already emitted for it.
	decomps map[string]string
	// mesh is the entry's mesh in annotate mode, else nil.
	mesh *ir.Mesh
}

// symbolName returns name, or def when name is empty.
func symbolName(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// uniqueName returns base, or base_N for the first N that is free, and
// reserves it (MLIR's symbol uniquing appends _N the same way).
func (l *lowerer) uniqueName(base string) string {
	name := base
	for i := 0; l.names[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	l.names[name] = true
	return name
}

// lowerFunc appends f to the module as a func.func named name.
func (l *lowerer) lowerFunc(f *ir.Func, name, visibility string) (*stablehlo.Func, error) {
	params, err := l.paramTypes(f)
	if err != nil {
		return nil, err
	}
	results, err := l.resultTypes(f)
	if err != nil {
		return nil, err
	}
	sf := l.mod.NewFunc(name, params, results)
	sf.Visibility = visibility
	env := make(map[*ir.Value]*stablehlo.Value, len(f.Params)+len(f.Body))
	for i, p := range f.Params {
		a := sf.Arg(i)
		a.Loc = lowerLoc(p.Loc())
		env[p] = a
	}
	b := sf.Builder()
	outs, err := l.lowerBody(b, f, env, nil)
	if err != nil {
		return nil, err
	}
	b.Loc = nil
	b.Return(outs...)
	return sf, nil
}

// paramTypes converts f's parameter types, rejecting what StableHLO
// cannot express.
func (l *lowerer) paramTypes(f *ir.Func) ([]stablehlo.Type, error) {
	ts := make([]stablehlo.Type, len(f.Params))
	for i, p := range f.Params {
		if p == nil {
			return nil, ir.Errorf(ir.UnknownLoc, "lowering", "function @%s: parameter #%d is nil", f.Name, i)
		}
		t, err := tensorType(p.Type)
		if err != nil {
			return nil, ir.Errorf(p.Loc(), "lowering", "function @%s: parameter #%d: %v", f.Name, i, err)
		}
		ts[i] = t
	}
	return ts, nil
}

func (l *lowerer) resultTypes(f *ir.Func) ([]stablehlo.Type, error) {
	ts := make([]stablehlo.Type, len(f.Results))
	for i, r := range f.Results {
		if r == nil {
			return nil, ir.Errorf(ir.UnknownLoc, "lowering", "function @%s: result #%d is nil", f.Name, i)
		}
		t, err := tensorType(r.Type)
		if err != nil {
			return nil, ir.Errorf(r.Loc(), "lowering", "function @%s: result #%d: %v", f.Name, i, err)
		}
		ts[i] = t
	}
	return ts, nil
}

// lowerBody appends the lowering of f's instructions to b, with f's
// parameters already mapped in env, and returns the values of f's results.
// It does not emit the terminator: a function returns with func.return, a
// region with stablehlo.return. An instruction with an unknown location
// gets fallback, the location of the op that holds the region, as an op
// an MLIR builder creates inside a region would.
func (l *lowerer) lowerBody(b *stablehlo.Builder, f *ir.Func, env map[*ir.Value]*stablehlo.Value, fallback stablehlo.Loc) ([]*stablehlo.Value, error) {
	for _, in := range f.Body {
		if in == nil {
			return nil, ir.Errorf(ir.UnknownLoc, "lowering", "function @%s has a nil instruction", f.Name)
		}
		args := make([]*stablehlo.Value, len(in.Args))
		for i, a := range in.Args {
			v, ok := env[a]
			if !ok {
				return nil, ir.Errorf(in.Loc, in.Op.String(), "operand #%d %v is not defined before its use in @%s", i, a, f.Name)
			}
			args[i] = v
		}
		outs, err := l.lowerInstr(b, in, args, fallback)
		if err != nil {
			return nil, err
		}
		if len(outs) != len(in.Results) {
			return nil, ir.Errorf(in.Loc, in.Op.String(), "internal error: lowering made %d results, want %d", len(outs), len(in.Results))
		}
		for i, r := range in.Results {
			env[r] = outs[i]
		}
	}
	outs := make([]*stablehlo.Value, len(f.Results))
	for i, r := range f.Results {
		v, ok := env[r]
		if !ok {
			return nil, ir.Errorf(ir.UnknownLoc, "lowering", "result #%d %v of @%s is not defined in it", i, r, f.Name)
		}
		outs[i] = v
	}
	return outs, nil
}

// lowerInstr checks in's form against the op table and applies its rule.
func (l *lowerer) lowerInstr(b *stablehlo.Builder, in *ir.Instr, args []*stablehlo.Value, fallback stablehlo.Loc) (outs []*stablehlo.Value, err error) {
	name := in.Op.String()
	r, ok := rules[in.Op]
	if !ok {
		return nil, ir.Errorf(in.Loc, name, "no lowering rule")
	}
	if err := checkForm(in); err != nil {
		return nil, err
	}
	c := &ctx{l: l, b: b, in: in, args: args}
	for i, v := range in.Results {
		if v == nil {
			return nil, ir.Errorf(in.Loc, name, "result #%d is nil", i)
		}
		t, err := tensorType(v.Type)
		if err != nil {
			return nil, ir.Errorf(in.Loc, name, "result #%d: %v", i, err)
		}
		c.types = append(c.types, t)
	}
	// A rule indexes operands and attributes the op table guarantees; a
	// panic there is a bug in the rule, reported here as a located
	// internal error rather than a crash of the user's program.
	defer func() {
		if p := recover(); p != nil {
			outs, err = nil, ir.Errorf(in.Loc, name, "internal error in lowering: %v", p)
		}
	}()
	b.Loc = lowerLoc(in.Loc)
	if b.Loc == nil {
		b.Loc = fallback
	}
	return r(c)
}

// checkForm checks what every rule relies on: the operand count, the
// region count and the attribute's type from the op table. ir.Verify
// checks the same, but Lower must not panic on an unverified function.
func checkForm(in *ir.Instr) error {
	info := in.Op.Info()
	name := in.Op.String()
	if info == nil {
		return ir.Errorf(in.Loc, name, "unknown op")
	}
	switch {
	case info.NumArgs >= 0 && len(in.Args) != info.NumArgs:
		return ir.Errorf(in.Loc, name, "has %d operands, want %d", len(in.Args), info.NumArgs)
	case info.NumArgs < 0 && len(in.Args) < info.MinArgs:
		return ir.Errorf(in.Loc, name, "has %d operands, want at least %d", len(in.Args), info.MinArgs)
	case info.NumRegions >= 0 && len(in.Regions) != info.NumRegions:
		return ir.Errorf(in.Loc, name, "has %d regions, want %d", len(in.Regions), info.NumRegions)
	case info.NumRegions < 0 && len(in.Regions) == 0:
		return ir.Errorf(in.Loc, name, "has no regions, want at least one")
	}
	for i, r := range in.Regions {
		if r == nil {
			return ir.Errorf(in.Loc, name, "region #%d is nil", i)
		}
	}
	if info.Attr == nil {
		if in.Attr != nil {
			return ir.Errorf(in.Loc, name, "takes no attributes, got %T", in.Attr)
		}
	} else if in.Attr == nil || reflect.TypeOf(in.Attr) != info.Attr {
		return ir.Errorf(in.Loc, name, "attribute is %T, want %v", in.Attr, info.Attr)
	}
	return nil
}

// ctx is what a rule sees: the instruction, its lowered operands, its
// lowered result types and the builder (whose Loc is the instruction's).
type ctx struct {
	l     *lowerer
	b     *stablehlo.Builder
	in    *ir.Instr
	args  []*stablehlo.Value
	types []stablehlo.Type // result types
}

// errorf returns a located error naming the op.
func (c *ctx) errorf(format string, args ...any) error {
	return ir.Errorf(c.in.Loc, c.in.Op.String(), format, args...)
}

// op appends a StableHLO op with the instruction's result types.
func (c *ctx) op(name string, operands []*stablehlo.Value, attrs ...stablehlo.NamedAttr) *stablehlo.Op {
	return c.b.Op(name, operands, c.types, attrs...)
}

// same is the rule of an op whose StableHLO form has the same name,
// operands and results and no attributes: the elementwise ops, select,
// clamp, convert, bitcast_convert, reshape, dynamic_update_slice.
func (c *ctx) same(attrs ...stablehlo.NamedAttr) ([]*stablehlo.Value, error) {
	return c.op("stablehlo."+c.in.Op.String(), c.args, attrs...).Results, nil
}

// region appends to o a region lowered from the ir region r, whose
// parameters become the block arguments.
func (c *ctx) region(o *stablehlo.Op, r *ir.Func) error {
	types, err := c.l.paramTypes(r)
	if err != nil {
		return err
	}
	rb := o.NewRegion(types...)
	env := make(map[*ir.Value]*stablehlo.Value, len(r.Params)+len(r.Body))
	for i, p := range r.Params {
		a := rb.Arg(i)
		a.Loc = lowerLoc(p.Loc())
		if a.Loc == nil {
			a.Loc = c.b.Loc
		}
		env[p] = a
	}
	return c.finishRegion(rb, r, env)
}

// capturingRegion appends to o a region without block arguments lowered
// from r, whose parameters stand for the values given: StableHLO's case
// branches capture values from above instead of taking arguments.
func (c *ctx) capturingRegion(o *stablehlo.Op, r *ir.Func, vals []*stablehlo.Value) error {
	if len(r.Params) != len(vals) {
		return c.errorf("region takes %d parameters, want %d", len(r.Params), len(vals))
	}
	rb := o.NewRegion()
	env := make(map[*ir.Value]*stablehlo.Value, len(r.Params)+len(r.Body))
	for i, p := range r.Params {
		env[p] = vals[i]
	}
	return c.finishRegion(rb, r, env)
}

func (c *ctx) finishRegion(rb *stablehlo.Builder, r *ir.Func, env map[*ir.Value]*stablehlo.Value) error {
	outs, err := c.l.lowerBody(rb, r, env, c.b.Loc)
	if err != nil {
		return err
	}
	// The terminator belongs to the op that holds the region.
	rb.Loc = c.b.Loc
	rb.Return(outs...)
	return nil
}

// tensorType converts an ir type; dynamic dimensions and invalid element
// types have no lowering.
func tensorType(t ir.Type) (stablehlo.TensorType, error) {
	e, err := elemType(t.DType)
	if err != nil {
		return stablehlo.TensorType{}, err
	}
	dims := make([]int64, len(t.Shape))
	for i, d := range t.Shape {
		if d < 0 {
			return stablehlo.TensorType{}, fmt.Errorf("type %v: dynamic dimensions are not supported yet", t)
		}
		dims[i] = int64(d)
	}
	return stablehlo.TensorType{Shape: dims, Elem: e}, nil
}

// elemType converts an element type: signed integers become signless iN,
// unsigned ones uiN, c64 complex<f32> (DType.MLIR knows the spellings).
func elemType(d ir.DType) (stablehlo.ElementType, error) {
	for _, v := range ir.EveryDType {
		if v == d {
			return stablehlo.ElementType(d.MLIR()), nil
		}
	}
	return "", fmt.Errorf("invalid element type %v", d)
}

// lowerLoc converts a location: a file and line become
// loc("file.go":LINE:0) (Go reports no column), a fused location
// loc(fused<"pass">[...]) with the merging pass as metadata, unknown nil.
func lowerLoc(l ir.Loc) stablehlo.Loc {
	if len(l.Fused) > 0 {
		var locs []stablehlo.Loc
		for _, m := range l.Fused {
			if s := lowerLoc(m); s != nil {
				locs = append(locs, s)
			}
		}
		if len(locs) == 0 {
			return nil
		}
		fl := stablehlo.FusedLoc{Locs: locs}
		if l.Pass != "" {
			fl.Metadata = stablehlo.StringAttr(l.Pass)
		}
		return fl
	}
	if l.File == "" {
		return nil
	}
	// MLIR lines are unsigned; a negative line means "somewhere in file".
	return stablehlo.FileLoc(l.File, max(l.Line, 0), 0)
}
