package ir

import "fmt"

// Module is a set of functions; the first is the entry point.
type Module struct {
	Funcs []*Func
}

// Func is a function in SSA form: typed parameters, instructions in program
// order, and results. Regions of ops (the bodies of while, case, reduce, ...)
// are nested Funcs too: they are isolated from above (they see only their
// own parameters), so evaluating or lowering a region needs no environment.
type Func struct {
	Name    string
	Params  []*Value
	Body    []*Instr
	Results []*Value
	// Parent is the instruction whose region this is, nil at top level.
	Parent *Instr
	// Mesh is the device mesh of a sharded top-level function (nil:
	// not sharded); InShardings and OutShardings are the shardings the
	// user asked for its parameters and results, one per parameter or
	// result, or nil (sharding.go).
	Mesh         *Mesh
	InShardings  []*Sharding
	OutShardings []*Sharding
	nextID       int
}

// Instr is one operation applied to operands: its op, attributes (the
// struct type named by the op table), regions and results.
type Instr struct {
	Op      Op
	Args    []*Value
	Attr    any
	Regions []*Func
	Results []*Value
	Loc     Loc
	Func    *Func // the function that contains it
}

// Value is an SSA value: a parameter of a Func or one result of an Instr.
type Value struct {
	// ID is unique in its Func: a new value gets the next free one, and it
	// stays with the value (passes keep it; Func.Renumber reassigns them
	// all). The text form prints it with PrintOptions.StableNames.
	ID    int
	Type  Type
	Def   *Instr // nil for parameters
	Index int    // result index in Def, or parameter index
	Func  *Func
	// Sharding is the sharding propagation decided for the value over
	// its function's mesh (nil: none decided).
	Sharding *Sharding
	loc      Loc // for parameters
}

// Loc is the value's source location: its defining instruction's, or the
// parameter's.
func (v *Value) Loc() Loc {
	if v.Def != nil {
		return v.Def.Loc
	}
	return v.loc
}

// IsParam reports whether v is a parameter of its Func.
func (v *Value) IsParam() bool { return v.Def == nil }

func (v *Value) String() string { return fmt.Sprintf("%%%d", v.ID) }

// NewFunc makes a function with parameters of the given types.
func NewFunc(name string, params ...Type) *Func {
	f := &Func{Name: name}
	for _, t := range params {
		f.AddParam(t, UnknownLoc)
	}
	return f
}

// AddParam appends a parameter.
func (f *Func) AddParam(t Type, loc Loc) *Value {
	v := &Value{ID: f.nextID, Type: t, Index: len(f.Params), Func: f, loc: loc}
	f.nextID++
	f.Params = append(f.Params, v)
	return v
}

// SetParamLoc sets the location of a parameter.
func (v *Value) SetParamLoc(l Loc) {
	if v.Def == nil {
		v.loc = l
	}
}

// ParamTypes lists the parameter types.
func (f *Func) ParamTypes() []Type {
	ts := make([]Type, len(f.Params))
	for i, p := range f.Params {
		ts[i] = p.Type
	}
	return ts
}

// ResultTypes lists the result types.
func (f *Func) ResultTypes() []Type {
	ts := make([]Type, len(f.Results))
	for i, r := range f.Results {
		ts[i] = r.Type
	}
	return ts
}

// Return sets the function's results.
func (f *Func) Return(vals ...*Value) { f.Results = vals }

// Emit appends an instruction after checking it: the op's arity, attribute
// type and region count, and its type rule, which gives the result types.
// A problem comes back as a located *Error naming the op; nothing is added.
func (f *Func) Emit(loc Loc, op Op, args []*Value, attr any, regions ...*Func) ([]*Value, error) {
	in := &Instr{Op: op, Args: args, Attr: attr, Regions: regions, Loc: loc, Func: f}
	types, err := in.infer()
	if err != nil {
		return nil, err
	}
	for _, a := range args {
		if a == nil {
			return nil, Errorf(loc, op.String(), "nil operand")
		}
		if a.Func != f {
			return nil, Errorf(loc, op.String(), "operand %s belongs to function @%s, not @%s (regions are isolated from above: pass values in as parameters)", a, a.Func.Name, f.Name)
		}
	}
	for _, r := range regions {
		r.Parent = in
	}
	for i, t := range types {
		in.Results = append(in.Results, &Value{ID: f.nextID, Type: t, Def: in, Index: i, Func: f})
		f.nextID++
	}
	f.Body = append(f.Body, in)
	return in.Results, nil
}

// Emit1 is Emit for single-result ops.
func (f *Func) Emit1(loc Loc, op Op, args []*Value, attr any, regions ...*Func) (*Value, error) {
	rs, err := f.Emit(loc, op, args, attr, regions...)
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, Errorf(loc, op.String(), "has %d results, want 1", len(rs))
	}
	return rs[0], nil
}

// infer checks the instruction's shape against the op table and returns
// its result types.
func (in *Instr) infer() ([]Type, error) {
	info := in.Op.Info()
	if info == nil {
		return nil, Errorf(in.Loc, in.Op.String(), "unknown op")
	}
	if err := info.checkForm(in); err != nil {
		return nil, Errorf(in.Loc, info.Name, "%v", err)
	}
	argTypes := make([]Type, len(in.Args))
	for i, a := range in.Args {
		if a == nil {
			return nil, Errorf(in.Loc, info.Name, "operand #%d is nil", i)
		}
		argTypes[i] = a.Type
	}
	ts, err := info.Infer(argTypes, in.Attr, in.Regions)
	if err != nil {
		return nil, Errorf(in.Loc, info.Name, "%v", err)
	}
	return ts, nil
}

// Renumber gives values consecutive IDs in definition order (parameters
// first), recursively in regions, as the default printing numbers them.
func (f *Func) Renumber() {
	id := 0
	for _, p := range f.Params {
		p.ID = id
		id++
	}
	for _, in := range f.Body {
		for _, r := range in.Regions {
			r.Renumber()
		}
		for _, v := range in.Results {
			v.ID = id
			id++
		}
	}
	f.nextID = id
}

// Walk calls fn for every instruction of f and of its regions, depth first,
// regions before the instruction that holds them.
func (f *Func) Walk(fn func(*Instr)) {
	for _, in := range f.Body {
		for _, r := range in.Regions {
			r.Walk(fn)
		}
		fn(in)
	}
}

// Result returns the single result of a one-result instruction.
func (in *Instr) Result() *Value { return in.Results[0] }
