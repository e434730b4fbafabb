package stablehlo

// This file holds the module model: Module, Func, Region, Block, Op, Value,
// and the builder used to make them programmatically. Types are in
// types.go, attributes in attr.go and dense.go, locations in loc.go.

// Module is one MLIR module: a list of functions with module attributes.
type Module struct {
	// Name is the module's symbol name without '@' ("jit_f"); empty for an
	// anonymous module.
	Name string
	// Attrs are the module attributes (`attributes {...}`), e.g.
	// mhlo.num_partitions. Printed sorted by name, as MLIR does.
	Attrs []NamedAttr
	// Funcs are the func.func ops of the module body, in order.
	Funcs []*Func
	// Loc is the module's location; nil means unknown.
	Loc Loc
	// Bare is set by Parse when the source had top-level functions with no
	// `module` wrapper; the printer then prints no wrapper either (when
	// Name and Attrs are empty and there is at least one function).
	Bare bool
}

// Param is one function parameter: its type and its argument attribute
// dictionary (`{jax.result_info = "", mhlo.sharding = "..."}`).
type Param struct {
	Type  Type
	Attrs []NamedAttr
}

// Func is a func.func operation.
//
// Invariant: when Body is not nil, its entry block has one argument per
// element of Args, of the same type. Body is nil for declarations
// (`func.func private @f(tensor<f32>) -> tensor<f32>`).
type Func struct {
	Name string // symbol name without '@'
	// Visibility is "public", "private", "nested" or "" (none printed).
	Visibility  string
	Args        []Param
	ResultTypes []Type
	// ResultAttrs holds one attribute list per result (may be shorter than
	// ResultTypes, or nil).
	ResultAttrs [][]NamedAttr
	// Attrs are the function's discardable attributes
	// (`attributes {...}` after the signature).
	Attrs []NamedAttr
	Body  *Region
	Loc   Loc
}

// Region is a list of blocks; StableHLO regions have exactly one.
type Region struct {
	Blocks []*Block
}

// Block is a basic block: arguments and a list of ops, the last of which
// is normally a terminator (func.return, stablehlo.return).
type Block struct {
	Args []*Value
	Ops  []*Op
}

// Op is one operation in generic representation. Pretty (custom) syntax
// is a matter of printing and parsing only: a parsed
// `stablehlo.compare  GT, %a, %b,  FLOAT` is an Op named
// "stablehlo.compare" with attributes comparison_direction and
// compare_type, exactly as its generic form would give.
type Op struct {
	// Name is the full op name: "stablehlo.add", "func.return",
	// "func.call", "check.expect_eq", "chlo.erf", ...
	Name     string
	Operands []*Value
	Results  []*Value
	// Attrs are the op's attributes in order. Printing sorts them by name
	// (MLIR dictionaries are sorted). For known ops the op table decides
	// which are inherent (printed in `<{...}>` in generic form); for
	// unknown ops NamedAttr.Prop does.
	Attrs   []NamedAttr
	Regions []*Region
	// Loc is the op's location; nil means unknown.
	Loc Loc
	// Line is the 1-based line of the parsed text on which the op starts
	// (its result names, if any); 0 for an op that was not parsed. Unlike
	// Loc it is not printed: it points into the text Parse read, for
	// messages about that text (`stela check` failures).
	Line int
}

// Value is an SSA value: an op result (Def != nil) or a block argument
// (Def == nil, Block != nil). The printer names values deterministically
// (%0, %arg0, %cst, %c, %iterArg, ... as MLIR does); names in parsed text
// are not kept.
type Value struct {
	Type Type
	// Def is the op that defines the value, nil for block arguments.
	Def *Op
	// Block is the block whose argument this is, nil for op results.
	Block *Block
	// Index is the result index in Def.Results or the argument index in
	// Block.Args.
	Index int
	// Loc is the location of a block argument (printed after its type in
	// signatures and block headers); unused for op results.
	Loc Loc
}

// NamedAttr is one entry of an attribute dictionary.
type NamedAttr struct {
	Name  string
	Value Attr
	// Prop marks an inherent attribute of an op that the op table does not
	// know: it is printed in the `<{...}>` properties of the generic form.
	// Parse sets it for attributes found in `<{...}>`. For known ops the
	// op table decides and Prop is ignored.
	Prop bool
}

// NA is a short constructor for a NamedAttr.
func NA(name string, v Attr) NamedAttr { return NamedAttr{Name: name, Value: v} }

// LookupAttr returns the value of the attribute with the given name in
// attrs, or nil.
func LookupAttr(attrs []NamedAttr, name string) Attr {
	for _, a := range attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

// SetAttr sets the attribute name in *attrs, replacing an existing entry.
func SetAttr(attrs *[]NamedAttr, name string, v Attr) {
	for i := range *attrs {
		if (*attrs)[i].Name == name {
			(*attrs)[i].Value = v
			return
		}
	}
	*attrs = append(*attrs, NamedAttr{Name: name, Value: v})
}

// Attr returns the op's attribute with the given name, or nil.
func (o *Op) Attr(name string) Attr { return LookupAttr(o.Attrs, name) }

// SetAttr sets (adds or replaces) an attribute of the op.
func (o *Op) SetAttr(name string, v Attr) { SetAttr(&o.Attrs, name, v) }

// Result returns the op's i-th result.
func (o *Op) Result(i int) *Value { return o.Results[i] }

// NewModule returns an empty module with the given symbol name ("" for
// none).
func NewModule(name string) *Module { return &Module{Name: name} }

// Func returns the function named name, or nil.
func (m *Module) Func(name string) *Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// NewFunc appends a new function with a body (an entry block with one
// argument per argType) to the module. Visibility is empty; set it to
// "public" or "private" as needed.
func (m *Module) NewFunc(name string, argTypes, resultTypes []Type) *Func {
	f := &Func{Name: name, ResultTypes: append([]Type(nil), resultTypes...)}
	blk := &Block{}
	for i, t := range argTypes {
		f.Args = append(f.Args, Param{Type: t})
		blk.Args = append(blk.Args, &Value{Type: t, Block: blk, Index: i})
	}
	f.Body = &Region{Blocks: []*Block{blk}}
	m.Funcs = append(m.Funcs, f)
	return f
}

// Entry returns the entry block of the function body (nil for a
// declaration).
func (f *Func) Entry() *Block {
	if f.Body == nil || len(f.Body.Blocks) == 0 {
		return nil
	}
	return f.Body.Blocks[0]
}

// Arg returns the i-th argument of the function's entry block.
func (f *Func) Arg(i int) *Value { return f.Entry().Args[i] }

// SetArgAttr sets an attribute on the i-th parameter.
func (f *Func) SetArgAttr(i int, name string, v Attr) { SetAttr(&f.Args[i].Attrs, name, v) }

// SetResultAttr sets an attribute on the i-th result.
func (f *Func) SetResultAttr(i int, name string, v Attr) {
	for len(f.ResultAttrs) <= i {
		f.ResultAttrs = append(f.ResultAttrs, nil)
	}
	SetAttr(&f.ResultAttrs[i], name, v)
}

// Builder appends ops to the end of a block. Make one with Func.Builder,
// Op.NewRegion or NewBuilder.
type Builder struct {
	blk *Block
	// ret is the terminator op name Return emits.
	ret string
	// Loc is given to every op the builder makes (nil: unknown).
	Loc Loc
}

// NewBuilder returns a builder appending to blk whose Return emits an op
// named returnOp ("func.return" or "stablehlo.return").
func NewBuilder(blk *Block, returnOp string) *Builder {
	return &Builder{blk: blk, ret: returnOp}
}

// Builder returns a builder appending to the function's entry block; its
// Return emits func.return.
func (f *Func) Builder() *Builder { return NewBuilder(f.Entry(), "func.return") }

// Block returns the block the builder appends to.
func (b *Builder) Block() *Block { return b.blk }

// Arg returns the i-th argument of the builder's block.
func (b *Builder) Arg(i int) *Value { return b.blk.Args[i] }

// Op appends an op with the given name, operands, result types and
// attributes and returns it.
func (b *Builder) Op(name string, operands []*Value, resultTypes []Type, attrs ...NamedAttr) *Op {
	op := &Op{Name: name, Operands: append([]*Value(nil), operands...), Loc: b.Loc}
	if len(attrs) > 0 {
		op.Attrs = append([]NamedAttr(nil), attrs...)
	}
	for i, t := range resultTypes {
		op.Results = append(op.Results, &Value{Type: t, Def: op, Index: i})
	}
	b.blk.Ops = append(b.blk.Ops, op)
	return op
}

// Op1 appends an op with exactly one result and returns that result.
func (b *Builder) Op1(name string, operands []*Value, resultType Type, attrs ...NamedAttr) *Value {
	return b.Op(name, operands, []Type{resultType}, attrs...).Results[0]
}

// Constant appends `stablehlo.constant` of d and returns its result.
func (b *Builder) Constant(d *DenseElements) *Value {
	return b.Op1("stablehlo.constant", nil, d.Type, NA("value", d))
}

// Return appends the block's terminator (func.return in a function body,
// stablehlo.return in a region made by Op.NewRegion).
func (b *Builder) Return(vals ...*Value) *Op {
	return b.Op(b.ret, vals, nil)
}

// Call appends `func.call @callee(args)` with the callee's result types
// and returns the results.
func (b *Builder) Call(callee *Func, args ...*Value) []*Value {
	return b.Op("func.call", args, callee.ResultTypes, NA("callee", SymbolRefAttr{Name: callee.Name})).Results
}

// NewRegion appends a region with one block whose arguments have the given
// types to the op and returns a builder for that block; its Return emits
// stablehlo.return. Use it for the bodies of reduce, while (cond, then
// body), case, if, sort, scatter, reduce_window, map, all_reduce, ...
func (o *Op) NewRegion(argTypes ...Type) *Builder {
	blk := &Block{}
	for i, t := range argTypes {
		blk.Args = append(blk.Args, &Value{Type: t, Block: blk, Index: i})
	}
	o.Regions = append(o.Regions, &Region{Blocks: []*Block{blk}})
	return NewBuilder(blk, "stablehlo.return")
}

// AddArg appends an argument of type t to the block and returns it.
func (blk *Block) AddArg(t Type) *Value {
	v := &Value{Type: t, Block: blk, Index: len(blk.Args)}
	blk.Args = append(blk.Args, v)
	return v
}
