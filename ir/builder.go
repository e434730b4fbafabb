package ir

import (
	"fmt"
	"slices"
)

// Builder writes instructions into a Func as expressions, all at one
// location: what rules that generate IR (the autodiff rules of the op
// table, passes that expand ops) use instead of calling Emit and checking
// each error. The operations take values of the Func and check them with
// the op table's type rules, as Emit does; a failure is a bug in the code
// that builds (a rule that got a shape wrong), so it panics with the
// located *Error, which the transform running the rule recovers and
// reports as an internal error in that rule.
type Builder struct {
	F   *Func
	Loc Loc
}

// NewBuilder returns a Builder that emits into f at loc.
func NewBuilder(f *Func, loc Loc) *Builder { return &Builder{F: f, Loc: loc} }

// emitFn is Func.Emit, and commutative reports the Commutative trait,
// reached through variables: the op table names autodiff rules that build
// IR, and a table whose initializer refers to functions that refer back
// to the table would be an initialization cycle.
var (
	emitFn      func(f *Func, loc Loc, op Op, args []*Value, attr any, regions ...*Func) ([]*Value, error)
	commutative func(op Op) bool
	opName      func(op Op) string
)

func init() {
	emitFn = (*Func).Emit
	commutative = func(op Op) bool { i := op.Info(); return i != nil && i.Has(Commutative) }
	opName = Op.String
}

// BuildError is what a Builder panics with when an instruction it is
// asked for does not type-check: a bug in the code that builds.
type BuildError struct{ Err error }

func (e *BuildError) Error() string { return e.Err.Error() }
func (e *BuildError) Unwrap() error { return e.Err }

// Emit appends one instruction and returns its results.
func (b *Builder) Emit(op Op, args []*Value, attr any, regions ...*Func) []*Value {
	rs, err := emitFn(b.F, b.Loc, op, args, attr, regions...)
	if err != nil {
		panic(&BuildError{err})
	}
	return rs
}

// Emit1 is Emit for an op with one result.
func (b *Builder) Emit1(op Op, args []*Value, attr any, regions ...*Func) *Value {
	return b.Emit(op, args, attr, regions...)[0]
}

// Const is a rank-0 constant of element type dt holding v, converted as
// ScalarLiteral converts.
func (b *Builder) Const(dt DType, v float64) *Value {
	return b.Emit1(OpConstant, nil, ConstantAttr{Value: ScalarLiteral(dt, v)})
}

// Literal is a constant holding l (owned by the instruction).
func (b *Builder) Literal(l *Literal) *Value {
	return b.Emit1(OpConstant, nil, ConstantAttr{Value: l})
}

// Full is a tensor of type t with every element v: a scalar constant
// broadcast to t's shape.
func (b *Builder) Full(t Type, v float64) *Value {
	c := b.Const(t.DType, v)
	if t.Rank() == 0 {
		return c
	}
	return b.BroadcastInDim(c, t.Shape, nil)
}

// Zeros is a tensor of type t filled with zeros (false for i1).
func (b *Builder) Zeros(t Type) *Value { return b.Full(t, 0) }

// FullLike is Full of x's type.
func (b *Builder) FullLike(x *Value, v float64) *Value { return b.Full(x.Type, v) }

// ZerosLike is Zeros of x's type.
func (b *Builder) ZerosLike(x *Value) *Value { return b.Full(x.Type, 0) }

// Unary applies an elementwise op with one operand.
func (b *Builder) Unary(op Op, x *Value) *Value { return b.Emit1(op, []*Value{x}, nil) }

// Binary applies an elementwise op with two operands of one shape, either
// of which may be a rank-0 value, broadcast to the other's shape.
func (b *Builder) Binary(op Op, x, y *Value) *Value {
	x, y = b.match(x, y)
	return b.Emit1(op, []*Value{x, y}, nil)
}

// match broadcasts a rank-0 operand to the shape of the other.
func (b *Builder) match(x, y *Value) (*Value, *Value) {
	switch {
	case x.Type.Rank() == 0 && y.Type.Rank() > 0:
		x = b.BroadcastInDim(x, y.Type.Shape, nil)
	case y.Type.Rank() == 0 && x.Type.Rank() > 0:
		y = b.BroadcastInDim(y, x.Type.Shape, nil)
	}
	return x, y
}

// Add is x + y.
func (b *Builder) Add(x, y *Value) *Value { return b.Binary(OpAdd, x, y) }

// Sub is x - y.
func (b *Builder) Sub(x, y *Value) *Value { return b.Binary(OpSubtract, x, y) }

// Mul is x * y.
func (b *Builder) Mul(x, y *Value) *Value { return b.Binary(OpMultiply, x, y) }

// Div is x / y.
func (b *Builder) Div(x, y *Value) *Value { return b.Binary(OpDivide, x, y) }

// Neg is -x.
func (b *Builder) Neg(x *Value) *Value { return b.Unary(OpNegate, x) }

// Scale is x * v, v a constant of x's element type.
func (b *Builder) Scale(x *Value, v float64) *Value { return b.Mul(x, b.Const(x.Type.DType, v)) }

// AddN sums values of one type, skipping nils; nil when all are nil.
func (b *Builder) AddN(vs ...*Value) *Value {
	var s *Value
	for _, v := range vs {
		switch {
		case v == nil:
		case s == nil:
			s = v
		default:
			s = b.Add(s, v)
		}
	}
	return s
}

// Compare is x dir y, elementwise, as i1.
func (b *Builder) Compare(dir ComparisonDirection, x, y *Value) *Value {
	x, y = b.match(x, y)
	return b.Emit1(OpCompare, []*Value{x, y}, CompareAttr{Direction: dir})
}

// Select is pred ? x : y; a rank-0 pred selects whole tensors, and a
// rank-0 x or y is broadcast to the other's shape.
func (b *Builder) Select(pred, x, y *Value) *Value {
	x, y = b.match(x, y)
	if pred.Type.Rank() > 0 && x.Type.Rank() == 0 {
		x = b.BroadcastInDim(x, pred.Type.Shape, nil)
		y = b.BroadcastInDim(y, pred.Type.Shape, nil)
	}
	return b.Emit1(OpSelect, []*Value{pred, x, y}, nil)
}

// Convert converts x to element type dt; x itself when it has it.
func (b *Builder) Convert(x *Value, dt DType) *Value {
	if x.Type.DType == dt {
		return x
	}
	return b.Emit1(OpConvert, []*Value{x}, ConvertAttr{To: dt})
}

// BroadcastInDim broadcasts x to shape, operand dimension i going to
// result dimension dims[i] (dims nil: x is rank 0, or its dims are the
// trailing ones). It returns x when nothing changes.
func (b *Builder) BroadcastInDim(x *Value, shape, dims []int) *Value {
	if dims == nil {
		dims = make([]int, x.Type.Rank())
		for i := range dims {
			dims[i] = len(shape) - x.Type.Rank() + i
		}
	}
	if ShapeEqual(x.Type.Shape, shape) && isIdentityPerm(dims) {
		return x
	}
	return b.Emit1(OpBroadcastInDim, []*Value{x}, BroadcastInDimAttr{Shape: slices.Clone(shape), Dims: slices.Clone(dims)})
}

// Reshape gives x a new shape with the same number of elements; x itself
// when the shape is the same.
func (b *Builder) Reshape(x *Value, shape ...int) *Value {
	if ShapeEqual(x.Type.Shape, shape) {
		return x
	}
	return b.Emit1(OpReshape, []*Value{x}, ReshapeAttr{Shape: slices.Clone(shape)})
}

// Transpose permutes x's dimensions: result dimension i is x's perm[i]; x
// itself for the identity.
func (b *Builder) Transpose(x *Value, perm ...int) *Value {
	if isIdentityPerm(perm) {
		return x
	}
	return b.Emit1(OpTranspose, []*Value{x}, TransposeAttr{Perm: slices.Clone(perm)})
}

// Reduce reduces x over dims with a binary op (add, multiply, maximum,
// minimum, or, and) starting from init, a rank-0 value of x's element type.
func (b *Builder) Reduce(x, init *Value, op Op, dims ...int) *Value {
	if len(dims) == 0 {
		return x
	}
	return b.Emit1(OpReduce, []*Value{x, init}, ReduceAttr{Dims: slices.Clone(dims)}, BinaryRegion(op, x.Type.DType, b.Loc))
}

// Sum adds x's elements over dims.
func (b *Builder) Sum(x *Value, dims ...int) *Value {
	return b.Reduce(x, b.Const(x.Type.DType, 0), OpAdd, dims...)
}

// SumTo sums x over the dimensions that broadcasting added or stretched
// to make it from shape, the inverse of a numpy-style broadcast from
// shape: the leading extra dimensions and those where shape has 1.
func (b *Builder) SumTo(x *Value, shape []int) *Value {
	if ShapeEqual(x.Type.Shape, shape) {
		return x
	}
	lead := x.Type.Rank() - len(shape)
	var dims []int
	for i := range x.Type.Rank() {
		if i < lead || (shape[i-lead] == 1 && x.Type.Shape[i] != 1) {
			dims = append(dims, i)
		}
	}
	return b.Reshape(b.Sum(x, dims...), shape...)
}

// Slice is x[start:limit:stride] per dimension (stride nil: ones).
func (b *Builder) Slice(x *Value, start, limit, stride []int) *Value {
	if stride == nil {
		stride = make([]int, len(start))
		for i := range stride {
			stride[i] = 1
		}
	}
	return b.Emit1(OpSlice, []*Value{x}, SliceAttr{Start: slices.Clone(start), Limit: slices.Clone(limit), Stride: slices.Clone(stride)})
}

// Pad pads x with the rank-0 value pv: low and high edge padding (may be
// negative) and interior padding (nil: none).
func (b *Builder) Pad(x, pv *Value, low, high, interior []int) *Value {
	if interior == nil {
		interior = make([]int, len(low))
	}
	return b.Emit1(OpPad, []*Value{x, pv}, PadAttr{Low: slices.Clone(low), High: slices.Clone(high), Interior: slices.Clone(interior)})
}

// DotGeneral contracts x and y as attr says.
func (b *Builder) DotGeneral(x, y *Value, attr DotGeneralAttr) *Value {
	return b.Emit1(OpDotGeneral, []*Value{x, y}, attr)
}

// Inline emits g's instructions (a function of b.F's kind, typically a
// region or a generated function) with its parameters bound to args, and
// returns what g returns. g is not modified: regions are copied.
func (b *Builder) Inline(g *Func, args ...*Value) []*Value {
	if len(args) != len(g.Params) {
		panic(&BuildError{Errorf(b.Loc, "inline", "@%s takes %d arguments, got %d", g.Name, len(g.Params), len(args))})
	}
	vmap := make(map[*Value]*Value, len(g.Params)+len(g.Body))
	for i, p := range g.Params {
		vmap[p] = args[i]
	}
	return cloneBody(b.F, g, vmap)
}

// BinaryRegion is the region (a, b) → op(a, b) over scalars of dt: the
// body of a reduction.
func BinaryRegion(op Op, dt DType, loc Loc) *Func {
	f := NewFunc(opName(op), Scalar(dt), Scalar(dt))
	for _, p := range f.Params {
		p.SetParamLoc(loc)
	}
	rs, err := emitFn(f, loc, op, []*Value{f.Params[0], f.Params[1]}, nil)
	if err != nil {
		panic(&BuildError{err})
	}
	f.Return(rs[0])
	return f
}

// RegionOp reports the op of a region that applies one binary op to its
// two scalar parameters in order, (a, b) → op(a, b) (or op(b, a) for a
// commutative op): the body of a plain sum, product, max or min
// reduction. It returns OpInvalid for any other region.
func RegionOp(r *Func) Op {
	if len(r.Params) != 2 || len(r.Results) != 1 || len(r.Body) != 1 {
		return OpInvalid
	}
	in := r.Body[0]
	if len(in.Args) != 2 || in.Attr != nil || r.Results[0] != in.Result() {
		return OpInvalid
	}
	a, c := in.Args[0], in.Args[1]
	p, q := r.Params[0], r.Params[1]
	if (a == p && c == q) || (a == q && c == p && commutative(in.Op)) {
		return in.Op
	}
	return OpInvalid
}

func isIdentityPerm(p []int) bool {
	for i, d := range p {
		if d != i {
			return false
		}
	}
	return true
}

// CloneFunc copies f, its instructions and, recursively, their regions:
// the copy shares nothing mutable with f (attributes are values, and
// literals are never mutated).
func CloneFunc(f *Func) *Func {
	g := NewFunc(f.Name, f.ParamTypes()...)
	vmap := make(map[*Value]*Value, len(f.Params)+len(f.Body))
	for i, p := range f.Params {
		vmap[p] = g.Params[i]
		g.Params[i].SetParamLoc(p.Loc())
		g.Params[i].Sharding = p.Sharding.Clone()
	}
	g.Return(cloneBody(g, f, vmap)...)
	g.Mesh = f.Mesh
	for _, s := range f.InShardings {
		g.InShardings = append(g.InShardings, s.Clone())
	}
	for _, s := range f.OutShardings {
		g.OutShardings = append(g.OutShardings, s.Clone())
	}
	return g
}

// CloneFuncIDs is CloneFunc keeping the values' IDs (and so the next
// free one): the copy prints as f does with PrintOptions.StableNames.
// ok is false if the copy's shape differs from f's (an instruction that
// re-emits as another), when only CloneFunc's copy is to be had.
func CloneFuncIDs(f *Func) (*Func, bool) {
	g := CloneFunc(f)
	return g, sameIDs(f, g)
}

// MaxConstant returns the most elements of a constant in f or its
// regions (0 if it has none): caches keyed by a function's text leave out
// functions whose text would be mostly a large literal.
func MaxConstant(f *Func) int {
	n := 0
	f.Walk(func(in *Instr) {
		if a, ok := in.Attr.(ConstantAttr); ok && a.Value != nil {
			n = max(n, a.Value.Type.NumElements())
		}
	})
	return n
}

func sameIDs(f, g *Func) bool {
	if len(f.Params) != len(g.Params) || len(f.Body) != len(g.Body) {
		return false
	}
	for i, p := range f.Params {
		g.Params[i].ID = p.ID
	}
	for i, in := range f.Body {
		c := g.Body[i]
		if c.Op != in.Op || len(c.Results) != len(in.Results) || len(c.Regions) != len(in.Regions) {
			return false
		}
		for j, r := range in.Results {
			c.Results[j].ID = r.ID
		}
		for j, r := range in.Regions {
			if !sameIDs(r, c.Regions[j]) {
				return false
			}
		}
	}
	g.nextID = f.nextID
	return true
}

// CloneInstr re-emits in into dst with its operands mapped through vmap
// and its regions copied, and returns the new results (also recorded in
// vmap).
func CloneInstr(dst *Func, in *Instr, vmap map[*Value]*Value) []*Value {
	args := make([]*Value, len(in.Args))
	for i, a := range in.Args {
		m, ok := vmap[a]
		if !ok {
			panic(&BuildError{Errorf(in.Loc, opName(in.Op), "clone: operand %s has no copy", a)})
		}
		args[i] = m
	}
	regions := make([]*Func, len(in.Regions))
	for i, r := range in.Regions {
		regions[i] = CloneFunc(r)
	}
	rs, err := emitFn(dst, in.Loc, in.Op, args, in.Attr, regions...)
	if err != nil {
		panic(&BuildError{err})
	}
	for i, r := range in.Results {
		vmap[r] = rs[i]
		rs[i].Sharding = r.Sharding.Clone()
	}
	return rs
}

// cloneBody re-emits g's instructions into dst, g's parameters mapped by
// vmap (which it extends), and returns what g returns, mapped.
func cloneBody(dst, g *Func, vmap map[*Value]*Value) []*Value {
	for _, in := range g.Body {
		CloneInstr(dst, in, vmap)
	}
	out := make([]*Value, len(g.Results))
	for i, r := range g.Results {
		m, ok := vmap[r]
		if !ok {
			panic(&BuildError{fmt.Errorf("clone @%s: result #%d has no copy", g.Name, i)})
		}
		out[i] = m
	}
	return out
}
