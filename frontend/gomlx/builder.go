package gomlx

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/notimplemented"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// Builder builds one computation: its main function, top-level functions
// (inlined where called) and closures (the regions of while, case, sort).
type Builder struct {
	b        *Backend
	name     string
	main     *Function
	funcs    map[string]*Function
	spmd     int // DistributedSPMD's or the mesh's device count; 0: one device
	auto     *autoSharding
	assign   []compute.DeviceNum
	compiled bool
}

var _ compute.Builder = (*Builder)(nil)

func newBuilder(b *Backend, name string) *Builder {
	bl := &Builder{b: b, name: name, funcs: map[string]*Function{}}
	bl.main = bl.newFunction(compute.MainName, nil)
	return bl
}

// Name is the computation's name.
func (bl *Builder) Name() string { return bl.name }

// Main is the main function.
func (bl *Builder) Main() compute.Function { return bl.main }

// NewFunction makes a top-level function; calls to it (Function.Call)
// are inlined.
func (bl *Builder) NewFunction(name string) (compute.Function, error) {
	if name == "" || name == compute.MainName {
		return nil, errors.Errorf("stela backend: NewFunction(%q): a top-level function needs a name other than %q", name, compute.MainName)
	}
	if _, dup := bl.funcs[name]; dup {
		return nil, errors.Errorf("stela backend: NewFunction(%q): a function of that name exists", name)
	}
	fn := bl.newFunction(name, nil)
	bl.funcs[name] = fn
	return fn, nil
}

func (bl *Builder) newFunction(name string, parent *Function) *Function {
	fn := &Function{bl: bl, name: name, parent: parent, f: ir.NewFunc(irName(name, parent)), capIndex: map[*ir.Value]int{}, consts: map[*ir.Value]*ir.Value{}}
	fn.Function = notimplemented.Function{ErrFn: func(op compute.OpType) error {
		return errors.Wrapf(compute.ErrNotImplemented, "stela backend: %s is not implemented", op)
	}}
	return fn
}

func irName(name string, parent *Function) string {
	if parent != nil {
		return "closure"
	}
	return name
}

// OpShape is the shape of a value.
func (bl *Builder) OpShape(op compute.Value) (shapes.Shape, error) {
	n, ok := op.(*node)
	if !ok || n == nil {
		return shapes.Invalid(), errors.Errorf("stela backend: OpShape of %T, not a value of this backend", op)
	}
	if dt := n.fn.subByteOf(n.v); dt != dtypes.InvalidDType {
		return subByteShape(n.v, dt), nil
	}
	return gomlxShape(n.v.Type), nil
}

// DistributedSPMD makes the computation run on numDevices devices, one
// program per device with explicit collectives (AllReduce), compiled
// with runtime.CompileMulti as numDevices replicas.
func (bl *Builder) DistributedSPMD(numDevices int) error {
	if numDevices < 1 || numDevices > bl.b.NumDevices() {
		return errors.Errorf("stela backend: DistributedSPMD(%d): the backend has %d device(s)", numDevices, bl.b.NumDevices())
	}
	bl.spmd = numDevices
	return nil
}

// DeviceAssignment fixes the devices of the computation.
func (bl *Builder) DeviceAssignment(devices ...compute.DeviceNum) error {
	n := max(bl.spmd, 1)
	if len(devices) != n {
		return errors.Errorf("stela backend: DeviceAssignment given %d device(s), the computation runs on %d", len(devices), n)
	}
	for _, d := range devices {
		if _, err := bl.b.device(d); err != nil {
			return err
		}
	}
	bl.assign = slices.Clone(devices)
	return nil
}

// Function is one function of a Builder: main, a top-level function, or
// a closure. Its IR is an ir.Func; a closure's values captured from its
// ancestors become extra parameters (after its own), which the op that
// takes the closure (While, If) passes in as operands.
type Function struct {
	notimplemented.Function
	bl       *Builder
	name     string
	parent   *Function
	f        *ir.Func
	params   []*ir.Value // Parameter's, in order
	names    []string
	captured []*ir.Value       // parent values captured, in order
	capParam []*ir.Value       // the local parameter of each
	capIndex map[*ir.Value]int // parent value → index in captured
	consts   map[*ir.Value]*ir.Value
	subByte  map[*ir.Value]dtypes.DType // values of GoMLX's sub-byte types (subbyte.go)
	inSh     map[*ir.Value]*ir.Sharding // AutoSharding: parameters' shardings
	outSh    []*ir.Sharding             // AutoSharding: results' shardings
	returned bool
}

var _ compute.Function = (*Function)(nil)

// node is a compute.Value: an IR value of one Function.
type node struct {
	v  *ir.Value
	fn *Function
}

// Name is the function's name ("" for closures).
func (fn *Function) Name() string {
	if fn.parent != nil {
		return ""
	}
	return fn.name
}

// Builder is the function's builder.
func (fn *Function) Builder() compute.Builder { return fn.bl }

// Parent is the enclosing function of a closure.
func (fn *Function) Parent() compute.Function {
	if fn.parent == nil {
		return nil
	}
	return fn.parent
}

// Closure makes a closure of fn.
func (fn *Function) Closure() (compute.Function, error) {
	return fn.bl.newFunction("", fn), nil
}

func (fn *Function) wrap(v *ir.Value) *node { return &node{v: v, fn: fn} }

// Shape is the shape of v.
func (fn *Function) Shape(v compute.Value) (shapes.Shape, error) { return fn.bl.OpShape(v) }

// Parameter adds a parameter (the main function's are the computation's
// inputs, in order).
func (fn *Function) Parameter(name string, shape shapes.Shape, sharding *compute.ShardingSpec) (compute.Value, error) {
	if err := fn.open("Parameter"); err != nil {
		return nil, err
	}
	t, err := irType(shape)
	if err != nil {
		return nil, errors.WithMessagef(err, "Parameter %q", name)
	}
	sh, err := fn.bl.irSharding(sharding, t)
	if err != nil {
		return nil, errors.WithMessagef(err, "Parameter %q", name)
	}
	if sh != nil && fn != fn.bl.main {
		return nil, errors.Errorf("stela backend: Parameter %q: shardings are for the main function's parameters", name)
	}
	p := fn.f.AddParam(t, callerLoc())
	if sh != nil {
		if fn.inSh == nil {
			fn.inSh = map[*ir.Value]*ir.Sharding{}
		}
		fn.inSh[p] = sh
	}
	fn.params = append(fn.params, p)
	fn.names = append(fn.names, name)
	return fn.wrap(p), nil
}

func (fn *Function) open(what string) error {
	if fn.returned {
		return errors.Errorf("stela backend: %s on function %q after Return", what, fn.name)
	}
	if fn.bl.compiled {
		return errors.Errorf("stela backend: %s after Compile", what)
	}
	return nil
}

// Constant embeds flat (a slice of a supported Go type) with dims.
func (fn *Function) Constant(flat any, dims ...int) (compute.Value, error) {
	if err := fn.open("Constant"); err != nil {
		return nil, err
	}
	v := reflect.ValueOf(flat)
	if v.Kind() != reflect.Slice {
		return nil, errors.Errorf("stela backend: Constant given %T, want a flat slice", flat)
	}
	dt := dtypes.FromGoType(v.Type().Elem())
	shape := shapes.Make(dt, dims...)
	if shape.Size() != v.Len() {
		return nil, errors.Errorf("stela backend: Constant given %d values for shape %s", v.Len(), shape)
	}
	t, err := irType(shape)
	if err != nil {
		return nil, err
	}
	l, err := ir.NewLiteral(t, toLiteralData(flat, true))
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: Constant")
	}
	r, err := fn.f.Emit1(callerLoc(), ir.OpConstant, nil, ir.ConstantAttr{Value: l})
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: Constant")
	}
	return fn.wrap(r), nil
}

// val returns the IR value of x in fn: x itself, or for a value of an
// ancestor function, a capture (constants are copied instead).
func (fn *Function) val(x compute.Value) (*ir.Value, error) {
	n, ok := x.(*node)
	if !ok || n == nil {
		return nil, errors.Errorf("stela backend: operand is %T, not a value of this backend", x)
	}
	if n.fn == fn {
		return n.v, nil
	}
	if n.fn.bl != fn.bl {
		return nil, errors.Errorf("stela backend: operand belongs to another computation (%q)", n.fn.bl.name)
	}
	for a := fn.parent; a != nil; a = a.parent {
		if a == n.fn {
			return fn.capture(n.v, n.fn)
		}
	}
	return nil, errors.Errorf("stela backend: operand belongs to function %q, which is neither this function nor one it is a closure of", n.fn.name)
}

// capture gives fn (a closure) a local copy of v, a value of the ancestor
// owner.
func (fn *Function) capture(v *ir.Value, owner *Function) (*ir.Value, error) {
	if v.Def != nil && v.Def.Op == ir.OpConstant {
		if c, ok := fn.consts[v]; ok {
			return c, nil
		}
		c, err := fn.f.Emit1(v.Def.Loc, ir.OpConstant, nil, v.Def.Attr)
		if err != nil {
			return nil, err
		}
		fn.consts[v] = c
		return c, nil
	}
	pv := v
	if fn.parent != owner {
		var err error
		if pv, err = fn.parent.capture(v, owner); err != nil {
			return nil, err
		}
	}
	if i, ok := fn.capIndex[pv]; ok {
		return fn.capParam[i], nil
	}
	p := fn.f.AddParam(pv.Type, pv.Loc())
	fn.capIndex[pv] = len(fn.captured)
	fn.captured = append(fn.captured, pv)
	fn.capParam = append(fn.capParam, p)
	return p, nil
}

// Return sets the function's results.
func (fn *Function) Return(outputs []compute.Value, shardings []*compute.ShardingSpec) error {
	if err := fn.open("Return"); err != nil {
		return err
	}
	vals := make([]*ir.Value, len(outputs))
	for i, o := range outputs {
		v, err := fn.val(o)
		if err != nil {
			return errors.WithMessagef(err, "Return output #%d", i)
		}
		if dt := fn.subByteOf(v); dt != dtypes.InvalidDType {
			return errors.Wrapf(compute.ErrNotImplemented, "stela backend: Return output #%d is of the sub-byte type %s (convert it first)", i, dt)
		}
		vals[i] = v
	}
	if len(shardings) > 0 {
		if len(shardings) != len(vals) {
			return errors.Errorf("stela backend: Return: %d shardings for %d outputs", len(shardings), len(vals))
		}
		fn.outSh = make([]*ir.Sharding, len(vals))
		for i, s := range shardings {
			sh, err := fn.bl.irSharding(s, vals[i].Type)
			if err != nil {
				return errors.WithMessagef(err, "Return output #%d", i)
			}
			fn.outSh[i] = sh
		}
	}
	fn.f.Return(vals...)
	fn.returned = true
	return nil
}

// regionFor makes the region of closure c for one op: a new function
// that takes c's own parameters and then the values of union (the
// parent's values captured by c or by its sibling closures, in union's
// order), with c's body inlined into it (so that a closure used by
// several ops gives each its own region). When passThrough is set, the
// region also returns the union values after c's results (a loop body's
// state). order, when not nil, reorders c's own parameters (a sort
// comparator's).
func regionFor(c *Function, union []*ir.Value, passThrough bool, order []int) *ir.Func {
	var types []ir.Type
	own := c.params
	if order != nil {
		own = make([]*ir.Value, len(order))
		for i, k := range order {
			own[i] = c.params[k]
		}
	}
	for _, p := range own {
		types = append(types, p.Type)
	}
	for _, u := range union {
		types = append(types, u.Type)
	}
	g := ir.NewFunc("closure", types...)
	bind := map[*ir.Value]*ir.Value{}
	for i, p := range own {
		bind[p] = g.Params[i]
		g.Params[i].SetParamLoc(p.Loc())
	}
	for j, u := range union {
		g.Params[len(own)+j].SetParamLoc(u.Loc())
		if i, ok := c.capIndex[u]; ok {
			bind[c.capParam[i]] = g.Params[len(own)+j]
		}
	}
	args := make([]*ir.Value, len(c.f.Params))
	for i, p := range c.f.Params {
		args[i] = bind[p]
	}
	rs := ir.NewBuilder(g, ir.UnknownLoc).Inline(c.f, args...)
	if passThrough {
		rs = append(rs, g.Params[len(own):]...)
	}
	g.Return(rs...)
	return g
}

// captureUnion is the parent values captured by the closures, each once.
func captureUnion(cs ...*Function) []*ir.Value {
	var u []*ir.Value
	seen := map[*ir.Value]bool{}
	for _, c := range cs {
		for _, v := range c.captured {
			if !seen[v] {
				seen[v] = true
				u = append(u, v)
			}
		}
	}
	return u
}

func (fn *Function) closureArg(c compute.Function, what string) (*Function, error) {
	cf, ok := c.(*Function)
	if !ok || cf == nil {
		return nil, errors.Errorf("stela backend: %s: %T is not a function of this backend", what, c)
	}
	if cf.parent != fn {
		return nil, errors.Errorf("stela backend: %s: the closure must be made by this function's Closure()", what)
	}
	if !cf.returned {
		return nil, errors.Errorf("stela backend: %s: the closure has not called Return", what)
	}
	return cf, nil
}

// Call inlines the top-level function f.
func (fn *Function) Call(f compute.Function, inputs ...compute.Value) ([]compute.Value, error) {
	if err := fn.open("Call"); err != nil {
		return nil, err
	}
	g, ok := f.(*Function)
	if !ok || g == nil || g.bl != fn.bl {
		return nil, errors.Errorf("stela backend: Call: %T is not a function of this computation", f)
	}
	if !g.returned {
		return nil, errors.Errorf("stela backend: Call: function %q has not called Return", g.name)
	}
	if len(g.captured) > 0 {
		return nil, errors.Errorf("stela backend: Call: closure captures values; call top-level functions only")
	}
	if len(inputs) != len(g.f.Params) {
		return nil, errors.Errorf("stela backend: Call %q: %d inputs, the function takes %d", g.name, len(inputs), len(g.f.Params))
	}
	return fn.build("Call", inputs, func(b *ir.Builder, args []*ir.Value) ([]*ir.Value, error) {
		for i, a := range args {
			if !a.Type.Equal(g.f.Params[i].Type) {
				return nil, errors.Errorf("input #%d is %s, function %q takes %s", i, a.Type, g.name, g.f.Params[i].Type)
			}
		}
		return b.Inline(g.f, args...), nil
	})
}

// build runs one GoMLX op: its operands' IR values, a Builder at the
// user's location, and the IR it emits; errors (and the Builder's
// panics on IR that does not type-check) come back as errors that name
// the GoMLX op and the user's line.
func (fn *Function) build(op string, operands []compute.Value, emit func(b *ir.Builder, args []*ir.Value) ([]*ir.Value, error)) (outs []compute.Value, err error) {
	if err := fn.open(op); err != nil {
		return nil, err
	}
	args := make([]*ir.Value, len(operands))
	for i, o := range operands {
		v, err := fn.val(o)
		if err != nil {
			return nil, errors.WithMessagef(err, "stela backend: %s operand #%d", op, i)
		}
		if dt := fn.subByteOf(v); dt != dtypes.InvalidDType && op != "ConvertDType" && op != "Bitcast" {
			return nil, errors.Wrapf(compute.ErrNotImplemented, "stela backend: %s operand #%d is of the sub-byte type %s, which only Bitcast and ConvertDType take", op, i, dt)
		}
		args[i] = v
	}
	loc := callerLoc()
	mark := len(fn.f.Body)
	defer func() {
		if r := recover(); r != nil {
			if be, ok := r.(*ir.BuildError); ok {
				err = be.Err
			} else {
				// A bug of this package: an error for the op, not a crash
				// of the user's program.
				err = errors.Errorf("internal error: %v", r)
			}
		}
		if err != nil {
			fn.f.Body = fn.f.Body[:mark] // drop what the failed op emitted
			outs = nil
			where := ""
			if loc.IsKnown() {
				where = loc.String() + ": "
			}
			err = errors.Wrapf(err, "%sstela backend: GoMLX %s", where, op)
		}
	}()
	rs, err := emit(ir.NewBuilder(fn.f, loc), args)
	if err != nil {
		return nil, err
	}
	outs = make([]compute.Value, len(rs))
	for i, r := range rs {
		outs[i] = fn.wrap(r)
	}
	return outs, nil
}

// build1 is build for ops with one result.
func (fn *Function) build1(op string, operands []compute.Value, emit func(b *ir.Builder, args []*ir.Value) (*ir.Value, error)) (compute.Value, error) {
	outs, err := fn.build(op, operands, func(b *ir.Builder, args []*ir.Value) ([]*ir.Value, error) {
		r, err := emit(b, args)
		if err != nil {
			return nil, err
		}
		return []*ir.Value{r}, nil
	})
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// callerLoc is the location of the first frame outside GoMLX's, Stela's
// and Go's own packages (tests of those packages count as users): the
// GoMLX user's line that built the op.
func callerLoc() ir.Loc {
	var pcs [48]uintptr
	n := goruntime.Callers(2, pcs[:])
	for _, pc := range pcs[:n] {
		if l, ok := locCache.Load(pc); ok {
			if pl := l.(pcLoc); pl.user {
				return pl.loc
			}
			continue
		}
		pl := resolvePC(pc)
		locCache.Store(pc, pl)
		if pl.user {
			return pl.loc
		}
	}
	return ir.UnknownLoc
}

// locCache interns what each return address resolves to (callerLoc runs
// for every op and every execution).
var locCache sync.Map // pc → pcLoc

type pcLoc struct {
	user bool
	loc  ir.Loc
}

func resolvePC(pc uintptr) pcLoc {
	frames := goruntime.CallersFrames([]uintptr{pc})
	for {
		fr, more := frames.Next()
		if fr.Function != "" && (!libraryFrame(fr.Function) || strings.HasSuffix(fr.File, "_test.go")) {
			return pcLoc{user: true, loc: ir.Loc{File: fr.File, Line: fr.Line}}
		}
		if !more {
			return pcLoc{}
		}
	}
}

func libraryFrame(fn string) bool {
	for _, p := range []string{"github.com/gomlx/", "github.com/stela-ml/stela/", "runtime.", "reflect.", "testing."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// Compile runs Stela's passes over the main function and compiles it
// for the computation's device(s).
func (bl *Builder) Compile() (compute.Executable, error) {
	if bl.compiled {
		return nil, errors.New("stela backend: Compile called twice")
	}
	if !bl.main.returned {
		return nil, errors.New("stela backend: Compile before the main function's Return")
	}
	bl.compiled = true
	f := bl.main.f
	f.Name = sanitize(bl.name)
	m := &ir.Module{Funcs: []*ir.Func{f}}
	if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
		return nil, errors.Wrapf(err, "stela backend: compiling %q", bl.name)
	}
	e := &Executable{b: bl.b, name: bl.name, fn: m.Funcs[0], names: bl.main.names, spmd: bl.spmd, assign: bl.assign}
	for _, p := range bl.main.params {
		e.inShapes = append(e.inShapes, gomlxShape(p.Type))
	}
	if bl.auto != nil {
		p, err := bl.partition(e.fn)
		if err != nil {
			return nil, errors.Wrapf(err, "stela backend: partitioning %q over mesh %q", bl.name, bl.auto.name)
		}
		e.fn, e.partitioned = p.Func, true
		e.logical = bl.auto.logical
	}
	for _, p := range e.fn.Params {
		e.devInShapes = append(e.devInShapes, gomlxShape(p.Type))
	}
	for _, r := range e.fn.Results {
		e.outShapes = append(e.outShapes, gomlxShape(r.Type))
	}
	if err := e.prepare(); err != nil {
		return nil, err
	}
	return e, nil
}

// sanitize makes a computation name a function name the printers accept.
func sanitize(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 || (s[0] >= '0' && s[0] <= '9') {
		return "gomlx_" + b.String()
	}
	return b.String()
}

var _ = fmt.Sprintf
