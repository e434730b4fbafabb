package codegen_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// Random programs: chains of elementwise ops, broadcasts, reductions,
// transposes, reshapes, slices, concatenations, converts, selects and dot
// products over f32 tensors of a few related shapes, compared bit-exactly
// with the reference evaluator. Bit-exactness holds because every op here
// is correctly rounded on both sides and reductions are sequential on
// both; dot products (which the evaluator sums in f64) are only applied to
// integer-valued operands small enough that every sum is exact.

type rval struct {
	v     *ir.Value
	exact bool    // holds integers of magnitude <= bound
	bound float64 // meaningful when exact
}

type progGen struct {
	t    *testing.T
	r    *rand.Rand
	b    *builder
	A, B int
	vals []rval
}

// pick returns a random value whose shape satisfies ok, or nil.
func (g *progGen) pick(ok func(rval) bool) *rval {
	var c []int
	for i, v := range g.vals {
		if ok(v) {
			c = append(c, i)
		}
	}
	if len(c) == 0 {
		return nil
	}
	v := g.vals[c[g.r.IntN(len(c))]]
	return &v
}

func (g *progGen) shaped(s ...int) func(rval) bool {
	return func(v rval) bool { return slices.Equal(v.v.Type.Shape, s) }
}

func (g *progGen) push(v *ir.Value, exact bool, bound float64) {
	if bound >= 1<<24 {
		exact = false
	}
	g.vals = append(g.vals, rval{v, exact, bound})
}

// step adds one random op.
func (g *progGen) step() {
	b, r := g.b, g.r
	A, B := g.A, g.B
	shapes := [][]int{{A, B}, {B, A}, {A, A}, {A}, {B}, {}}
	switch r.IntN(12) {
	case 0, 1, 2: // binary elementwise
		x := g.pick(func(rval) bool { return true })
		y := g.pick(g.shaped(x.v.Type.Shape...))
		ops := []ir.Op{ir.OpAdd, ir.OpSubtract, ir.OpMultiply, ir.OpMaximum, ir.OpMinimum, ir.OpDivide}
		op := ops[r.IntN(len(ops))]
		v := b.emit(op, nil, x.v, y.v)
		switch op {
		case ir.OpAdd, ir.OpSubtract:
			g.push(v, x.exact && y.exact, x.bound+y.bound)
		case ir.OpMultiply:
			g.push(v, x.exact && y.exact, x.bound*y.bound)
		case ir.OpDivide:
			g.push(v, false, 0)
		default:
			g.push(v, x.exact && y.exact, max(x.bound, y.bound))
		}
	case 3: // unary
		x := g.pick(func(rval) bool { return true })
		ops := []ir.Op{ir.OpNegate, ir.OpAbs, ir.OpFloor, ir.OpCeil, ir.OpRoundNearestEven, ir.OpSign}
		op := ops[r.IntN(len(ops))]
		v := b.emit(op, nil, x.v)
		switch op {
		case ir.OpNegate, ir.OpAbs:
			g.push(v, x.exact, x.bound)
		case ir.OpSign:
			g.push(v, true, 1)
		default:
			g.push(v, x.exact, x.bound+1)
		}
	case 4: // compare and select
		x := g.pick(func(rval) bool { return true })
		y := g.pick(g.shaped(x.v.Type.Shape...))
		dir := dirs[r.IntN(len(dirs))]
		p := b.emit(ir.OpCompare, ir.CompareAttr{Direction: dir}, x.v, y.v)
		g.push(b.emit(ir.OpSelect, nil, p, y.v, x.v), x.exact && y.exact, max(x.bound, y.bound))
	case 5: // broadcast
		x := g.pick(func(v rval) bool { return v.v.Type.Rank() <= 1 })
		var to []int
		var dims []int
		switch xs := x.v.Type.Shape; {
		case len(xs) == 0:
			to = shapes[r.IntN(len(shapes)-1)]
		case xs[0] == A && r.IntN(2) == 0:
			to, dims = []int{A, B}, []int{0}
		case xs[0] == A:
			to, dims = []int{B, A}, []int{1}
		default:
			to, dims = []int{A, B}, []int{1}
		}
		if dims == nil {
			dims = []int{}
		}
		g.push(b.emit(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: to, Dims: dims}, x.v), x.exact, x.bound)
	case 6: // reduce
		x := g.pick(func(v rval) bool { return v.v.Type.Rank() >= 1 })
		dim := r.IntN(x.v.Type.Rank())
		op := []ir.Op{ir.OpAdd, ir.OpMaximum}[r.IntN(2)]
		body := region(g.t, ir.F32, 1, func(b *builder, acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.emit(op, nil, acc[0], x[0])}
		})
		init := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(0))})
		if op == ir.OpMaximum {
			init = b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(math.Inf(-1)))})
		}
		v := b.emitN(ir.OpReduce, ir.ReduceAttr{Dims: []int{dim}}, []*ir.Func{body}, x.v, init)[0]
		bound := x.bound
		if op == ir.OpAdd {
			bound *= float64(x.v.Type.Shape[dim])
		}
		g.push(v, x.exact, bound)
	case 7: // transpose, or reshape through a flat vector
		x := g.pick(func(v rval) bool { return v.v.Type.Rank() == 2 })
		if x == nil {
			return
		}
		s := x.v.Type.Shape
		if r.IntN(2) == 0 {
			g.push(b.emit(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, x.v), x.exact, x.bound)
			return
		}
		flat := b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{s[0] * s[1]}}, x.v)
		g.push(b.emit(ir.OpReshape, ir.ReshapeAttr{Shape: []int{s[1], s[0]}}, flat), x.exact, x.bound)
	case 8: // dot
		x := g.pick(func(v rval) bool { return v.exact && v.v.Type.Rank() >= 1 })
		if x == nil {
			return
		}
		k := x.v.Type.Shape[x.v.Type.Rank()-1]
		y := g.pick(func(v rval) bool { return v.exact && v.v.Type.Rank() >= 1 && v.v.Type.Shape[0] == k })
		if y == nil {
			return
		}
		attr := ir.DotGeneralAttr{LhsContract: []int{x.v.Type.Rank() - 1}, RhsContract: []int{0}}
		g.push(b.emit(ir.OpDotGeneral, attr, x.v, y.v), true, x.bound*y.bound*float64(k))
	case 9: // convert round trip
		x := g.pick(func(rval) bool { return true })
		to := []ir.DType{ir.F64, ir.S32}[r.IntN(2)]
		c := b.emit(ir.OpConvert, ir.ConvertAttr{To: to}, x.v)
		back := b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.F32}, c)
		g.push(back, x.exact || to == ir.S32, min(x.bound, math.MaxInt32))
	case 10: // slice then concatenate back to the shape
		x := g.pick(func(v rval) bool { return v.v.Type.Rank() >= 1 && v.v.Type.Shape[0] >= 2 })
		if x == nil {
			return
		}
		s := x.v.Type.Shape
		cut := 1 + r.IntN(s[0]-1)
		start := make([]int, len(s))
		limit := slices.Clone(s)
		stride := slices.Repeat([]int{1}, len(s))
		limit[0] = cut
		lo := b.emit(ir.OpSlice, ir.SliceAttr{Start: start, Limit: limit, Stride: stride}, x.v)
		start2 := slices.Clone(start)
		start2[0] = cut
		hi := b.emit(ir.OpSlice, ir.SliceAttr{Start: start2, Limit: slices.Clone(s), Stride: stride}, x.v)
		g.push(b.emit(ir.OpConcatenate, ir.ConcatenateAttr{Dim: 0}, hi, lo), x.exact, x.bound)
	case 11: // clamp with scalar bounds
		x := g.pick(func(rval) bool { return true })
		lo := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(-2))})
		hi := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(float32(3))})
		g.push(b.emit(ir.OpClamp, nil, lo, x.v, hi), x.exact, 3)
	}
}

func TestRandomPrograms(t *testing.T) {
	for seed := range randomSeeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 99))
			A, B := 1+r.IntN(6), 1+r.IntN(6)
			params := []ir.Type{ir.TensorOf(ir.F32, A, B), ir.TensorOf(ir.F32, B, A), ir.TensorOf(ir.F32, A),
				ir.TensorOf(ir.F32, B), ir.TensorOf(ir.F32, A, A), ir.TensorOf(ir.F32)}
			g := &progGen{t: t, r: r, b: newBuilder(t, "random", params...), A: A, B: B}
			for _, p := range g.b.f.Params {
				g.push(p, true, 4)
			}
			for range 30 {
				g.step()
			}
			// Return the last values and a few random ones (dead code in
			// between is dropped by the compiler, kept by the evaluator).
			var outs []*ir.Value
			for i := max(len(params), len(g.vals)-4); i < len(g.vals); i++ {
				outs = append(outs, g.vals[i].v)
			}
			for range 3 {
				outs = append(outs, g.vals[r.IntN(len(g.vals))].v)
			}
			g.b.f.Return(outs...)
			var args []*ir.Literal
			for _, p := range params {
				args = append(args, smallIntFloats(r, p))
			}
			evalAndCompare(t, g.b.f, nil, args...)
		})
	}
}

// randomSeeds is the number of random programs; raise it to hunt for bugs:
// go test ./pjrt/cpu/codegen -run RandomPrograms -random 200.
var randomSeeds = 4

func init() { flag.IntVar(&randomSeeds, "random", randomSeeds, "number of random programs to test") }
