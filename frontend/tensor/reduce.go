package tensor

import (
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Reductions. Each builds a reduce op whose body region is a small ir.Func
// over scalars (add, multiply, maximum, ...). Regions are isolated from
// above, so they are built directly here rather than traced.

// regionBuilder emits into a region Func at the user's location.
type regionBuilder struct {
	f   *ir.Func
	loc ir.Loc
}

func newRegion(name string, loc ir.Loc, params ...ir.Type) *regionBuilder {
	f := ir.NewFunc(name)
	for _, t := range params {
		f.AddParam(t, loc)
	}
	return &regionBuilder{f: f, loc: loc}
}

func (r *regionBuilder) param(i int) *ir.Value { return r.f.Params[i] }

func (r *regionBuilder) op(op ir.Op, attr any, args ...*ir.Value) *ir.Value {
	v, err := r.f.Emit1(r.loc, op, args, attr)
	if err != nil {
		panic(located(err, r.loc, op.String()))
	}
	return v
}

func (r *regionBuilder) cmp(dir ir.ComparisonDirection, a, b *ir.Value) *ir.Value {
	return r.op(ir.OpCompare, ir.CompareAttr{Direction: dir}, a, b)
}

func (r *regionBuilder) ret(vs ...*ir.Value) *ir.Func {
	r.f.Return(vs...)
	return r.f
}

// binaryRegion is the region (a, b) → op(a, b) over scalars of dt.
func binaryRegion(name string, op ir.Op, dt ir.DType, loc ir.Loc) *ir.Func {
	r := newRegion(name, loc, ir.Scalar(dt), ir.Scalar(dt))
	return r.ret(r.op(op, nil, r.param(0), r.param(1)))
}

type reduction struct {
	fn   string // the frontend function, for errors
	name string // the region's name
	op   ir.Op
	init func(dt ir.DType) (*ir.Literal, error)
}

var (
	sumReduction  = reduction{opSum, "add", ir.OpAdd, func(dt ir.DType) (*ir.Literal, error) { return fullLiteral(ir.Scalar(dt), 0) }}
	prodReduction = reduction{opProd, "multiply", ir.OpMultiply, func(dt ir.DType) (*ir.Literal, error) { return fullLiteral(ir.Scalar(dt), 1) }}
	maxReduction  = reduction{opMax, "maximum", ir.OpMaximum, func(dt ir.DType) (*ir.Literal, error) { return extremeLiteral(dt, false) }}
	minReduction  = reduction{opMin, "minimum", ir.OpMinimum, func(dt ir.DType) (*ir.Literal, error) { return extremeLiteral(dt, true) }}
)

// reduceAxes resolves the axes to reduce: all of them when none are given.
func reduceAxes(op string, x *Tensor, axes []int) []int {
	if len(axes) == 0 {
		return iotaInts(x.Rank())
	}
	a := normAxes(op, axes, x.Rank())
	slices.Sort(a)
	return a
}

func reduce(k reduction, x *Tensor, axes []int) *Tensor {
	defer named(k.fn)
	checkNotNil(k.fn, x)
	dims := reduceAxes(k.fn, x, axes)
	if len(dims) == 0 {
		return x
	}
	lit, err := k.init(x.typ.DType)
	if err != nil {
		panic(fail(k.fn, "%v", err))
	}
	init := constantAt(x, lit)
	body := binaryRegion(k.name, k.op, x.typ.DType, ir.CallerLoc())
	return emit(nil, ir.OpReduce, []*Tensor{x, init}, ir.ReduceAttr{Dims: dims}, body)[0]
}

// Sum adds the elements over the given axes (all axes when none are given).
func Sum(x *Tensor, axes ...int) *Tensor { return reduce(sumReduction, x, axes) }

// Prod multiplies the elements over the given axes (all when none).
func Prod(x *Tensor, axes ...int) *Tensor { return reduce(prodReduction, x, axes) }

// Max takes the largest element over the given axes (all when none); NaN
// wins.
func Max(x *Tensor, axes ...int) *Tensor { return reduce(maxReduction, x, axes) }

// Min takes the smallest element over the given axes (all when none); NaN
// wins.
func Min(x *Tensor, axes ...int) *Tensor { return reduce(minReduction, x, axes) }

// Mean averages over the given axes (all when none). On integers the
// division truncates.
func Mean(x *Tensor, axes ...int) *Tensor {
	defer named(opMean)
	checkNotNil(opMean, x)
	n := 1
	for _, a := range reduceAxes(opMean, x, axes) {
		n *= x.typ.Shape[a]
	}
	s := Sum(x, axes...)
	return Div(s, ScalarLike(s, float64(n)))
}

// KeepDims applies a reduction and keeps the reduced axes with size 1, so
// that the result broadcasts against x:
//
//	x = Sub(x, KeepDims(Max, x, -1))
//
// The reduction's own errors carry its name ("max: ..."): reduce may be
// any function, so KeepDims does not rename them.
func KeepDims(reduce func(x *Tensor, axes ...int) *Tensor, x *Tensor, axes ...int) *Tensor {
	checkNotNil(opKeepDims, x)
	shape := x.Shape()
	for _, a := range reduceAxes(opKeepDims, x, axes) {
		shape[a] = 1
	}
	return Reshape(reduce(x, axes...), shape...)
}

// ArgMax is the index (si32) of the largest element along axis; ties go
// to the smallest index, and NaN counts as largest, as in numpy.
func ArgMax(x *Tensor, axis int) *Tensor { return argReduce(opArgMax, x, axis, ir.CmpGT) }

// ArgMin is the index (si32) of the smallest element along axis; ties go
// to the smallest index, and NaN counts as smallest, as in numpy.
func ArgMin(x *Tensor, axis int) *Tensor { return argReduce(opArgMin, x, axis, ir.CmpLT) }

// argReduce reduces (value, index) pairs with the order "better value,
// then smaller index". That order is total, so the body is associative and
// commutative, as reduce requires.
func argReduce(name string, x *Tensor, axis int, better ir.ComparisonDirection) *Tensor {
	defer named(name)
	checkNotNil(name, x)
	a := normAxis(name, axis, x.Rank())
	dt := x.typ.DType
	lit, err := extremeLiteral(dt, better == ir.CmpLT)
	if err != nil {
		panic(fail(name, "%v", err))
	}
	idx := IotaLike(x, ir.S32, x.typ.Shape, a)
	initV := constantAt(x, lit)
	initI := ScalarLike(idx, 0)

	loc := ir.CallerLoc()
	s, si := ir.Scalar(dt), ir.Scalar(ir.S32)
	r := newRegion(name, loc, s, si, s, si)
	av, ai, v, i := r.param(0), r.param(1), r.param(2), r.param(3)
	wins := r.cmp(better, v, av)
	same := r.cmp(ir.CmpEQ, v, av)
	if dt.IsFloat() {
		vNaN, aNaN := r.cmp(ir.CmpNE, v, v), r.cmp(ir.CmpNE, av, av)
		wins = r.op(ir.OpOr, nil, wins, r.op(ir.OpAnd, nil, vNaN, r.op(ir.OpNot, nil, aNaN)))
		same = r.op(ir.OpOr, nil, same, r.op(ir.OpAnd, nil, vNaN, aNaN))
	}
	first := r.op(ir.OpAnd, nil, same, r.cmp(ir.CmpLT, i, ai))
	take := r.op(ir.OpOr, nil, wins, first)
	body := r.ret(r.op(ir.OpSelect, nil, take, v, av), r.op(ir.OpSelect, nil, take, i, ai))

	outs := emit(nil, ir.OpReduce, []*Tensor{x, idx, initV, initI}, ir.ReduceAttr{Dims: []int{a}}, body)
	return outs[1]
}
