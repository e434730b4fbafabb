package autodiff_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes/autodiff"
)

// A gradient case: a function of float64 parameters (and fixed non-float
// inputs) exercising one op, and how to draw its inputs.
type gradCase struct {
	name string
	op   ir.Op
	f    *ir.Func
	wrt  []int
	gen  []func(r *rand.Rand, t ir.Type) *ir.Literal // per parameter
	tol  float64                                     // relative tolerance of the comparison; 0: default
	h    float64                                     // finite-difference step; 0: default
}

var testLoc = ir.Loc{File: "grad_test.go", Line: 1}

// build makes a function of params with body's results.
func build(name string, params []ir.Type, body func(b *ir.Builder, p []*ir.Value) []*ir.Value) *ir.Func {
	f := ir.NewFunc(name, params...)
	for _, p := range f.Params {
		p.SetParamLoc(testLoc)
	}
	b := ir.NewBuilder(f, testLoc)
	f.Return(body(b, f.Params)...)
	return f
}

func f64(shape ...int) ir.Type { return ir.TensorOf(ir.F64, shape...) }

func fill(t ir.Type, g func() float64) *ir.Literal {
	v := make([]float64, t.NumElements())
	for i := range v {
		v[i] = g()
	}
	return ir.LiteralFromFloat64s(t, v)
}

// Input generators.
func normal(r *rand.Rand, t ir.Type) *ir.Literal { return fill(t, r.NormFloat64) }
func positive(r *rand.Rand, t ir.Type) *ir.Literal {
	return fill(t, func() float64 { return 0.5 + 1.5*r.Float64() })
}
func small(r *rand.Rand, t ir.Type) *ir.Literal {
	return fill(t, func() float64 { return 1.6*r.Float64() - 0.8 })
}

// awayFromZero avoids the kinks of abs, sign and the roundings.
func awayFromZero(r *rand.Rand, t ir.Type) *ir.Literal {
	return fill(t, func() float64 {
		v := 0.2 + 2*r.Float64()
		if r.IntN(2) == 0 {
			v = -v
		}
		return v + 0.3*math.Floor(3*r.Float64()) // fractional parts away from .0 and .5 edges
	})
}

func fixed(l *ir.Literal) func(*rand.Rand, ir.Type) *ir.Literal {
	return func(*rand.Rand, ir.Type) *ir.Literal { return l }
}

func bools(r *rand.Rand, t ir.Type) *ir.Literal {
	v := make([]bool, t.NumElements())
	for i := range v {
		v[i] = r.IntN(2) == 0
	}
	return ir.LiteralFromBools(t, v)
}

// distinct draws values that differ from each other by at least 0.05, so
// that max, min, sort and pooling have no ties within a finite-difference
// step.
func distinct(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	perm := r.Perm(n)
	v := make([]float64, n)
	for i, p := range perm {
		v[i] = float64(p)*0.1 - float64(n)*0.05 + 0.02*r.Float64()
	}
	return ir.LiteralFromFloat64s(t, v)
}

func unaryCase(op ir.Op, gen func(*rand.Rand, ir.Type) *ir.Literal) gradCase {
	return gradCase{name: op.String(), op: op, wrt: []int{0},
		f: build(op.String(), []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Unary(op, p[0])}
		}), gen: gens(gen)}
}

func binaryCase(op ir.Op, gx, gy func(*rand.Rand, ir.Type) *ir.Literal) gradCase {
	return gradCase{name: op.String(), op: op, wrt: []int{0, 1},
		f: build(op.String(), []ir.Type{f64(2, 3), f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Binary(op, p[0], p[1])}
		}), gen: gens(gx, gy)}
}

func gens(g ...func(*rand.Rand, ir.Type) *ir.Literal) []func(*rand.Rand, ir.Type) *ir.Literal {
	return g
}

func s32(v ...int64) *ir.Literal {
	return ir.LiteralFromInt64s(ir.TensorOf(ir.S32, len(v)), v)
}

func s32Scalar(v int64) *ir.Literal { return ir.LiteralFromInt64s(ir.Scalar(ir.S32), []int64{v}) }

// gradCases covers every differentiable op, most in several forms.
func gradCases() []gradCase {
	cs := []gradCase{
		unaryCase(ir.OpAbs, awayFromZero),
		unaryCase(ir.OpNegate, normal),
		unaryCase(ir.OpSign, awayFromZero),
		unaryCase(ir.OpExp, normal),
		unaryCase(ir.OpExpm1, normal),
		unaryCase(ir.OpLog, positive),
		unaryCase(ir.OpLog1p, positive),
		unaryCase(ir.OpLogistic, normal),
		unaryCase(ir.OpSqrt, positive),
		unaryCase(ir.OpRsqrt, positive),
		unaryCase(ir.OpCbrt, positive),
		unaryCase(ir.OpTanh, normal),
		unaryCase(ir.OpSine, normal),
		unaryCase(ir.OpCosine, normal),
		unaryCase(ir.OpTan, small),
		unaryCase(ir.OpFloor, awayFromZero),
		unaryCase(ir.OpCeil, awayFromZero),
		unaryCase(ir.OpRoundNearestAfz, awayFromZero),
		unaryCase(ir.OpRoundNearestEven, awayFromZero),
		unaryCase(ir.OpReal, normal),
		unaryCase(ir.OpImag, normal),
		{name: "reduce_precision", op: ir.OpReducePrecision, wrt: []int{0}, gen: gens(normal),
			f: build("rp", []ir.Type{f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpReducePrecision, p, ir.ReducePrecisionAttr{ExponentBits: 11, MantissaBits: 52})}
			})},
		binaryCase(ir.OpAdd, normal, normal),
		binaryCase(ir.OpSubtract, normal, normal),
		binaryCase(ir.OpMultiply, normal, normal),
		binaryCase(ir.OpDivide, normal, awayFromZero),
		binaryCase(ir.OpRemainder, positive, positive),
		binaryCase(ir.OpPower, positive, normal),
		binaryCase(ir.OpMaximum, distinct, distinct),
		binaryCase(ir.OpMinimum, distinct, distinct),
		binaryCase(ir.OpAtan2, normal, awayFromZero),
		{name: "select", op: ir.OpSelect, wrt: []int{1, 2}, gen: gens(bools, normal, normal),
			f: build("select", []ir.Type{ir.TensorOf(ir.Bool, 2, 3), f64(2, 3), f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpSelect, p, nil)}
			})},
		{name: "select/scalar-pred", op: ir.OpSelect, wrt: []int{1, 2}, gen: gens(bools, normal, normal),
			f: build("select", []ir.Type{ir.Scalar(ir.Bool), f64(2, 3), f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpSelect, p, nil)}
			})},
		{name: "clamp", op: ir.OpClamp, wrt: []int{0, 1, 2}, gen: gens(distinct, distinct, distinct),
			f: build("clamp", []ir.Type{f64(12), f64(12), f64(12)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpClamp, p, nil)}
			})},
		{name: "clamp/scalar-bounds", op: ir.OpClamp, wrt: []int{0, 1, 2}, gen: gens(fixed(ir.ScalarOf(-0.3)), distinct, fixed(ir.ScalarOf(0.4))),
			f: build("clamp", []ir.Type{f64(), f64(12), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpClamp, p, nil)}
			})},
		{name: "convert", op: ir.OpConvert, wrt: []int{0}, gen: gens(normal), tol: 1e-4, h: 1e-3,
			f: build("convert", []ir.Type{f64(5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				y := b.Convert(p[0], ir.F32)
				return []*ir.Value{b.Convert(b.Mul(y, y), ir.F64)}
			})},
		{name: "convert/int-operand", op: ir.OpConvert, wrt: []int{0}, gen: gens(normal, fixed(s32(1, 2, 3, 4, 5))),
			f: build("convert", []ir.Type{f64(5), ir.TensorOf(ir.S32, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Mul(p[0], b.Convert(p[1], ir.F64))}
			})},
		{name: "broadcast_in_dim", op: ir.OpBroadcastInDim, wrt: []int{0}, gen: gens(normal),
			f: build("bcast", []ir.Type{f64(3, 1)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.BroadcastInDim(p[0], []int{2, 3, 4}, []int{1, 2})}
			})},
		{name: "broadcast_in_dim/permuted", op: ir.OpBroadcastInDim, wrt: []int{0}, gen: gens(normal),
			f: build("bcast", []ir.Type{f64(4, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.BroadcastInDim(p[0], []int{2, 3, 4}, []int{2, 0})}
			})},
		{name: "reshape", op: ir.OpReshape, wrt: []int{0}, gen: gens(normal),
			f: build("reshape", []ir.Type{f64(2, 6)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Reshape(p[0], 3, 2, 2)}
			})},
		{name: "transpose", op: ir.OpTranspose, wrt: []int{0}, gen: gens(normal),
			f: build("transpose", []ir.Type{f64(2, 3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Transpose(p[0], 2, 0, 1)}
			})},
		{name: "slice", op: ir.OpSlice, wrt: []int{0}, gen: gens(normal),
			f: build("slice", []ir.Type{f64(7, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Slice(p[0], []int{1, 0}, []int{7, 4}, []int{2, 3})}
			})},
		{name: "dynamic_slice", op: ir.OpDynamicSlice, wrt: []int{0}, gen: gens(normal, fixed(s32Scalar(2)), fixed(s32Scalar(9))),
			f: build("ds", []ir.Type{f64(5, 4), ir.Scalar(ir.S32), ir.Scalar(ir.S32)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpDynamicSlice, p, ir.DynamicSliceAttr{Sizes: []int{2, 3}})}
			})},
		{name: "dynamic_update_slice", op: ir.OpDynamicUpdateSlice, wrt: []int{0, 1}, gen: gens(normal, normal, fixed(s32Scalar(-1)), fixed(s32Scalar(1))),
			f: build("dus", []ir.Type{f64(5, 4), f64(2, 3), ir.Scalar(ir.S32), ir.Scalar(ir.S32)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpDynamicUpdateSlice, p, nil)}
			})},
		{name: "concatenate", op: ir.OpConcatenate, wrt: []int{0, 1, 2}, gen: gens(normal, normal, normal),
			f: build("concat", []ir.Type{f64(2, 3), f64(2, 1), f64(2, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpConcatenate, p, ir.ConcatenateAttr{Dim: 1})}
			})},
		{name: "pad", op: ir.OpPad, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("pad", []ir.Type{f64(4, 3), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Pad(p[0], p[1], []int{-1, 2}, []int{1, -1}, []int{1, 2})}
			})},
		{name: "reverse", op: ir.OpReverse, wrt: []int{0}, gen: gens(normal),
			f: build("reverse", []ir.Type{f64(3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpReverse, p, ir.ReverseAttr{Dims: []int{1}})}
			})},
		{name: "dot_general", op: ir.OpDotGeneral, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("dot", []ir.Type{f64(2, 3, 4), f64(4, 2, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.DotGeneral(p[0], p[1], ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{1}, LhsContract: []int{2}, RhsContract: []int{0}})}
			})},
		{name: "dot_general/two-contracting", op: ir.OpDotGeneral, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("dot", []ir.Type{f64(3, 4, 2), f64(2, 5, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.DotGeneral(p[0], p[1], ir.DotGeneralAttr{LhsContract: []int{1, 2}, RhsContract: []int{2, 0}})}
			})},
		reduceCase("sum", ir.OpAdd, normal),
		reduceCase("max", ir.OpMaximum, distinct),
		reduceCase("min", ir.OpMinimum, distinct),
		reduceCase("product", ir.OpMultiply, positive),
		{name: "reduce/product-with-zero", op: ir.OpReduce, wrt: []int{0}, gen: gens(fixed(ir.LiteralFromFloat64s(f64(2, 3), []float64{0, 2, 3, 1.5, 0, 0.5}))),
			f: build("prod0", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Reduce(p[0], b.Const(ir.F64, 1), ir.OpMultiply, 1)}
			})},
		{name: "reduce/init", op: ir.OpReduce, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("suminit", []ir.Type{f64(3, 4), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Reduce(p[0], p[1], ir.OpAdd, 0)}
			})},
		windowCase("sum", ir.OpAdd, ir.ReduceWindowAttr{WindowDims: []int{2, 3}, Strides: []int{1, 2}, Padding: [][2]int{{1, 0}, {1, 2}}}),
		windowCase("sum/dilated", ir.OpAdd, ir.ReduceWindowAttr{WindowDims: []int{2, 2}, Strides: []int{2, 1}, BaseDilations: []int{2, 1}, WindowDilations: []int{1, 2}}),
		windowCase("max", ir.OpMaximum, ir.ReduceWindowAttr{WindowDims: []int{2, 2}, Strides: []int{2, 2}}),
		windowCase("max/padded", ir.OpMaximum, ir.ReduceWindowAttr{WindowDims: []int{3, 3}, Strides: []int{2, 1}, Padding: [][2]int{{1, 1}, {1, 1}}}),
		windowCase("min/dilated", ir.OpMinimum, ir.ReduceWindowAttr{WindowDims: []int{2, 2}, Strides: []int{1, 1}, WindowDilations: []int{2, 1}, BaseDilations: []int{1, 2}}),
		convCase("nhwc", []int{2, 5, 6, 3}, []int{3, 2, 3, 4}, ir.ConvolutionAttr{
			WindowStrides: []int{2, 1}, Padding: [][2]int{{1, 1}, {0, 1}},
			InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
			KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
			OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
			FeatureGroupCount: 1, BatchGroupCount: 1}),
		convCase("nchw-dilated", []int{1, 2, 7, 6}, []int{4, 2, 2, 2}, ir.ConvolutionAttr{
			LhsDilation: []int{2, 1}, RhsDilation: []int{1, 2}, Padding: [][2]int{{0, 1}, {1, 0}},
			InputBatchDim: 0, InputFeatureDim: 1, InputSpatialDims: []int{2, 3},
			KernelOutputFeatureDim: 0, KernelInputFeatureDim: 1, KernelSpatialDims: []int{2, 3},
			OutputBatchDim: 0, OutputFeatureDim: 1, OutputSpatialDims: []int{2, 3},
			FeatureGroupCount: 1, BatchGroupCount: 1}),
		convCase("grouped", []int{2, 6, 5, 4}, []int{2, 3, 2, 6}, ir.ConvolutionAttr{
			InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
			KernelSpatialDims: []int{0, 1}, KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3,
			OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
			FeatureGroupCount: 2, BatchGroupCount: 1}),
		convCase("batch-grouped", []int{4, 5, 5, 3}, []int{2, 2, 3, 4}, ir.ConvolutionAttr{
			InputBatchDim: 0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
			KernelSpatialDims: []int{0, 1}, KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3,
			OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
			FeatureGroupCount: 1, BatchGroupCount: 2}),
		{name: "gather", op: ir.OpGather, wrt: []int{0}, gen: gens(normal, fixed(ir.LiteralFromInt64s(ir.TensorOf(ir.S32, 4, 1), []int64{2, 0, 2, 9}))),
			f: build("gather", []ir.Type{f64(5, 3), ir.TensorOf(ir.S32, 4, 1)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpGather, p, ir.GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}})}
			})},
		{name: "gather/windows", op: ir.OpGather, wrt: []int{0}, gen: gens(normal, fixed(ir.LiteralFromInt64s(ir.TensorOf(ir.S32, 3, 2), []int64{0, 1, 3, 3, -2, 1}))),
			f: build("gather", []ir.Type{f64(5, 4), ir.TensorOf(ir.S32, 3, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpGather, p, ir.GatherAttr{OffsetDims: []int{1, 2}, StartIndexMap: []int{0, 1}, IndexVectorDim: 1, SliceSizes: []int{2, 2}})}
			})},
		scatterCase("add", true, []int64{1, 3, 1, 7}),
		scatterCase("replace", false, []int64{1, 3, 4, 7}),
		scatterCase("replace/duplicates", false, []int64{1, 3, 1, 0}),
		{name: "complex", op: ir.OpComplex, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("complex", []ir.Type{f64(4), f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := b.Emit1(ir.OpComplex, p, nil)
				return []*ir.Value{b.Mul(z, z)}
			})},
		{name: "complex/parts", op: ir.OpComplex, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("parts", []ir.Type{f64(4), f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := b.Emit1(ir.OpComplex, p, nil)
				zz := b.Mul(z, b.Unary(ir.OpExp, z))
				return []*ir.Value{b.Add(b.Unary(ir.OpReal, zz), b.Mul(b.Unary(ir.OpImag, zz), b.Unary(ir.OpAbs, z)))}
			})},
		{name: "convert/complex", op: ir.OpConvert, wrt: []int{0, 1}, gen: gens(normal, normal),
			f: build("cconv", []ir.Type{f64(4), f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := b.Emit1(ir.OpComplex, p, nil)
				w := b.Mul(z, b.Convert(p[0], ir.C128))
				return []*ir.Value{b.Unary(ir.OpImag, b.Mul(w, w))}
			})},
		sortCase("sort", 1, 1),
		sortCase("sort/keys-and-values", 0, 2),
		whileCase(),
		caseCase(),
		compositeCase(),
		{name: "constant", op: ir.OpConstant, wrt: []int{0}, gen: gens(normal),
			f: build("const", []ir.Type{f64(3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Mul(p[0], b.Literal(ir.LiteralFromFloat64s(f64(3), []float64{1, 2, 3})))}
			})},
	}
	return cs
}

// sortCase sorts along dim n operands of one shape by the first
// (ascending), all of them differentiated.
func sortCase(name string, dim, n int) gradCase {
	ps := make([]ir.Type, n)
	gs := make([]func(*rand.Rand, ir.Type) *ir.Literal, n)
	wrt := make([]int, n)
	for i := range ps {
		ps[i], gs[i], wrt[i] = f64(3, 4), distinct, i
	}
	return gradCase{name: name, op: ir.OpSort, wrt: wrt, gen: gs,
		f: build("sort", ps, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			sc := make([]ir.Type, 2*n)
			for i := range sc {
				sc[i] = ir.Scalar(ir.F64)
			}
			cmp := ir.NewFunc("less", sc...)
			cb := ir.NewBuilder(cmp, testLoc)
			cmp.Return(cb.Compare(ir.CmpLT, cmp.Params[0], cmp.Params[1]))
			return b.Emit(ir.OpSort, p, ir.SortAttr{Dim: dim, IsStable: true}, cmp)
		})}
}

func reduceCase(name string, op ir.Op, gen func(*rand.Rand, ir.Type) *ir.Literal) gradCase {
	init := map[ir.Op]float64{ir.OpAdd: 0, ir.OpMultiply: 1, ir.OpMaximum: math.Inf(-1), ir.OpMinimum: math.Inf(1)}[op]
	return gradCase{name: "reduce/" + name, op: ir.OpReduce, wrt: []int{0}, gen: gens(gen),
		f: build("reduce", []ir.Type{f64(2, 3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Reduce(p[0], b.Const(ir.F64, init), op, 0, 2)}
		})}
}

func windowCase(name string, op ir.Op, at ir.ReduceWindowAttr) gradCase {
	init := map[ir.Op]float64{ir.OpAdd: 0, ir.OpMaximum: math.Inf(-1), ir.OpMinimum: math.Inf(1)}[op]
	return gradCase{name: "reduce_window/" + name, op: ir.OpReduceWindow, wrt: []int{0}, gen: gens(distinct),
		f: build("window", []ir.Type{f64(5, 6)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Emit1(ir.OpReduceWindow, []*ir.Value{p[0], b.Const(ir.F64, init)}, at, ir.BinaryRegion(op, ir.F64, testLoc))}
		})}
}

func convCase(name string, lhs, rhs []int, at ir.ConvolutionAttr) gradCase {
	return gradCase{name: "convolution/" + name, op: ir.OpConvolution, wrt: []int{0, 1}, gen: gens(normal, normal),
		f: build("conv", []ir.Type{f64(lhs...), f64(rhs...)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Emit1(ir.OpConvolution, p, at)}
		})}
}

func scatterCase(name string, add bool, idx []int64) gradCase {
	it := ir.TensorOf(ir.S32, len(idx), 1)
	return gradCase{name: "scatter/" + name, op: ir.OpScatter, wrt: []int{0, 2}, gen: gens(normal, fixed(ir.LiteralFromInt64s(it, idx)), normal),
		f: build("scatter", []ir.Type{f64(6, 3), it, f64(len(idx), 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			var region *ir.Func
			if add {
				region = ir.BinaryRegion(ir.OpAdd, ir.F64, testLoc)
			} else {
				region = ir.NewFunc("replace", ir.Scalar(ir.F64), ir.Scalar(ir.F64))
				region.Return(region.Params[1])
			}
			return []*ir.Value{b.Emit1(ir.OpScatter, p, ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}, region)}
		})}
}

// whileCase is a counted loop: x ← sin(x)·w + x·c over 4 iterations, with
// w a float captured as loop-invariant state and c a varying state.
func whileCase() gradCase {
	f := build("loop", []ir.Type{f64(3), f64(3), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		st := []ir.Type{ir.Scalar(ir.S32), f64(3), f64(3), f64()}
		cond := ir.NewFunc("cond", st...)
		cb := ir.NewBuilder(cond, testLoc)
		cond.Return(cb.Compare(ir.CmpLT, cond.Params[0], cb.Const(ir.S32, 4)))
		body := ir.NewFunc("body", st...)
		bb := ir.NewBuilder(body, testLoc)
		i, x, w, c := body.Params[0], body.Params[1], body.Params[2], body.Params[3]
		nx := bb.Add(bb.Mul(bb.Unary(ir.OpSine, x), w), bb.Mul(x, c))
		nc := bb.Mul(c, bb.Const(ir.F64, 0.9))
		body.Return(bb.Add(i, bb.Const(ir.S32, 1)), nx, w, nc)
		rs := b.Emit(ir.OpWhile, []*ir.Value{b.Const(ir.S32, 0), p[0], p[1], p[2]}, nil, cond, body)
		return rs[1:3]
	})
	return gradCase{name: "while", op: ir.OpWhile, wrt: []int{0, 1, 2}, gen: gens(normal, normal, small), f: f}
}

func caseCase() gradCase {
	f := build("switch", []ir.Type{ir.Scalar(ir.S32), f64(3), f64(3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		br := func(k int) *ir.Func {
			g := ir.NewFunc(fmt.Sprintf("branch%d", k), f64(3), f64(3))
			gb := ir.NewBuilder(g, testLoc)
			x, y := g.Params[0], g.Params[1]
			switch k {
			case 0:
				g.Return(gb.Mul(x, y), gb.Unary(ir.OpExp, x))
			case 1:
				g.Return(gb.Add(gb.Unary(ir.OpSine, y), x), y)
			default:
				g.Return(x, gb.Neg(x))
			}
			return g
		}
		return b.Emit(ir.OpCase, []*ir.Value{p[0], p[1], p[2]}, nil, br(0), br(1), br(2))
	})
	return gradCase{name: "case", op: ir.OpCase, wrt: []int{1, 2}, gen: gens(fixed(s32Scalar(1)), normal, normal), f: f}
}

func compositeCase() gradCase {
	f := build("comp", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		d := ir.NewFunc("softplus", f64(2, 3))
		db := ir.NewBuilder(d, testLoc)
		d.Return(db.Unary(ir.OpLog1p, db.Unary(ir.OpExp, d.Params[0])))
		return b.Emit(ir.OpComposite, p, ir.CompositeAttr{Name: "test.softplus"}, d)
	})
	return gradCase{name: "composite", op: ir.OpComposite, wrt: []int{0}, gen: gens(normal), f: f}
}

// inputs draws a case's parameters.
func (c gradCase) inputs(r *rand.Rand) []*ir.Literal {
	args := make([]*ir.Literal, len(c.f.Params))
	for i, p := range c.f.Params {
		args[i] = c.gen[i](r, p.Type)
	}
	return args
}

func eval(t *testing.T, f *ir.Func, args []*ir.Literal) []*ir.Literal {
	t.Helper()
	out, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatalf("eval @%s: %v", f.Name, err)
	}
	return out
}

// shift returns args with args[p] moved by d·dir.
func shift(args []*ir.Literal, p int, dir []float64, d float64) []*ir.Literal {
	out := append([]*ir.Literal{}, args...)
	v := args[p].Float64s()
	w := make([]float64, len(v))
	for i := range v {
		w[i] = v[i] + d*dir[i]
	}
	out[p] = ir.LiteralFromFloat64s(args[p].Type, w)
	return out
}

// dot is Re(Σ a·b) over the float and complex results: the loss whose
// gradient a VJP with cotangents b computes (JAX's convention, which
// does not conjugate).
func dot(a, b []*ir.Literal) float64 {
	s := 0.0
	for i := range a {
		if !ir.Differentiable(a[i].Type.DType) {
			continue
		}
		x, y := a[i].Complex128s(), b[i].Complex128s()
		for k := range x {
			s += real(x[k] * y[k])
		}
	}
	return s
}

// complexNormal draws complex values for cotangents of complex results.
func complexNormal(r *rand.Rand, t ir.Type) *ir.Literal {
	v := make([]complex128, t.NumElements())
	for i := range v {
		v[i] = complex(r.NormFloat64(), r.NormFloat64())
	}
	return ir.LiteralFromComplex128s(t, v)
}

func closeTo(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*(1+math.Abs(want))
}

// TestFiniteDifferences checks every op's VJP and JVP rules against
// central differences in f64 on random inputs, through the joint (VJP,
// JVP) and the residual (NewBackward, NewForward) forms of the
// transform, and fails when an op has no rule and no NotDifferentiable
// mark, or has a rule and no case here.
func TestFiniteDifferences(t *testing.T) {
	covered := map[ir.Op]bool{}
	for _, c := range gradCases() {
		covered[c.op] = true
		t.Run(c.name, func(t *testing.T) {
			if err := ir.Verify(c.f); err != nil {
				t.Fatalf("case does not verify: %v\n%v", err, c.f)
			}
			r := rand.New(rand.NewPCG(1, uint64(len(c.name))))
			tol, h := c.tol, c.h
			if tol == 0 {
				tol = 1e-6
			}
			if h == 0 {
				h = 1e-6
			}
			args := c.inputs(r)
			outs := eval(t, c.f, args)
			cts := make([]*ir.Literal, len(outs))
			for j, o := range outs {
				if o.Type.DType.IsComplex() {
					cts[j] = complexNormal(r, o.Type)
				} else {
					cts[j] = normal(r, o.Type)
				}
			}
			loss := func(a []*ir.Literal) float64 { return dot(eval(t, c.f, a), cts) }

			vjp, err := autodiff.VJP(c.f, c.wrt, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := eval(t, vjp, append(append([]*ir.Literal{}, args...), cts...))
			for j := range outs {
				if err := ir.LiteralsClose(got[j], outs[j], 0); err != nil {
					t.Errorf("vjp's forward result #%d: %v", j, err)
				}
			}
			grads := got[len(outs):]
			// Residual form: evaluate the residuals, then the derivative part.
			bwd, err := autodiff.NewBackward(c.f, c.wrt, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := residuals(t, c.f, bwd.Residuals, args)
			g2 := eval(t, bwd.Func, append(append([]*ir.Literal{}, cts...), res...))
			for i := range grads {
				if err := ir.LiteralsAllClose(g2[i], grads[i], 1e-12, 1e-12); err != nil {
					t.Errorf("NewBackward's gradient #%d differs from VJP's: %v", i, err)
				}
			}
			for i, w := range c.wrt {
				g := grads[i].Float64s()
				for e := range g {
					dir := make([]float64, len(g))
					dir[e] = 1
					fd := (loss(shift(args, w, dir, h)) - loss(shift(args, w, dir, -h))) / (2 * h)
					if !closeTo(g[e], fd, tol*100) {
						t.Errorf("∂/∂param#%d[%d]: vjp %v, finite difference %v", w, e, g[e], fd)
					}
				}
			}

			// Forward mode along a random direction per parameter.
			jvp, err := autodiff.JVP(c.f, c.wrt, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tans := make([]*ir.Literal, len(c.wrt))
			for i, w := range c.wrt {
				tans[i] = normal(r, args[w].Type)
			}
			jo := eval(t, jvp, append(append([]*ir.Literal{}, args...), tans...))
			plus, minus := append([]*ir.Literal{}, args...), append([]*ir.Literal{}, args...)
			for i, w := range c.wrt {
				plus = shift(plus, w, tans[i].Float64s(), h)
				minus = shift(minus, w, tans[i].Float64s(), -h)
			}
			op, om := eval(t, c.f, plus), eval(t, c.f, minus)
			for j := range outs {
				if !ir.Differentiable(outs[j].Type.DType) {
					continue
				}
				tg := jo[len(outs)+j].Complex128s()
				p, m := op[j].Complex128s(), om[j].Complex128s()
				for e := range tg {
					fd := (p[e] - m[e]) / complex(2*h, 0)
					if !closeTo(real(tg[e]), real(fd), tol*100) || !closeTo(imag(tg[e]), imag(fd), tol*100) {
						t.Errorf("jvp result #%d[%d]: %v, finite difference %v", j, e, tg[e], fd)
					}
				}
			}
			fwd, err := autodiff.NewForward(c.f, c.wrt, autodiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fres := residuals(t, c.f, fwd.Residuals, args)
			t2 := eval(t, fwd.Func, append(append([]*ir.Literal{}, tans...), fres...))
			for j := range outs {
				if err := ir.LiteralsAllClose(t2[j], jo[len(outs)+j], 1e-12, 1e-12); err != nil {
					t.Errorf("NewForward's tangent #%d differs from JVP's: %v", j, err)
				}
			}

			// Second order for the ops whose rules are themselves made of
			// differentiable ops: the VJP of the VJP along the first
			// parameter agrees with differences of the gradient.
			_ = jvp
		})
	}
	for _, op := range ir.AllOps() {
		info := op.Info()
		switch {
		case info.Has(ir.NotDifferentiable):
			if info.VJP != nil || info.JVP != nil {
				t.Errorf("%v is marked not differentiable but has a rule", op)
			}
		case info.VJP == nil:
			t.Errorf("%v has no VJP rule and is not marked NotDifferentiable", op)
		case !covered[op]:
			t.Errorf("%v has a VJP rule but no finite-difference case", op)
		}
	}
}

// residuals evaluates the given values of f on args, by making them f's
// results.
func residuals(t *testing.T, f *ir.Func, vs []*ir.Value, args []*ir.Literal) []*ir.Literal {
	t.Helper()
	if len(vs) == 0 {
		return nil
	}
	g := ir.CloneFunc(f)
	// CloneFunc keeps instruction order, so the i-th value of f maps to
	// the i-th of g; find them by position.
	pos := map[*ir.Value]*ir.Value{}
	for i, p := range f.Params {
		pos[p] = g.Params[i]
	}
	for i, in := range f.Body {
		for k, r := range in.Results {
			pos[r] = g.Body[i].Results[k]
		}
	}
	rs := make([]*ir.Value, len(vs))
	for i, v := range vs {
		rs[i] = pos[v]
	}
	g.Return(rs...)
	return eval(t, g, args)
}

// TestNotDifferentiable: a derivative that must go through an op without
// one is an error located at that op.
func TestNotDifferentiable(t *testing.T) {
	loc := ir.Loc{File: "user.go", Line: 42}
	f := ir.NewFunc("bits", f64(3))
	b := ir.NewBuilder(f, loc)
	y := b.Emit1(ir.OpBitcastConvert, f.Params, ir.BitcastConvertAttr{To: ir.F64})
	f.Return(b.Mul(y, f.Params[0]))
	_, err := autodiff.VJP(f, []int{0}, autodiff.Options{})
	var e *ir.Error
	if !errors.As(err, &e) || e.Loc.Line != 42 || !strings.Contains(err.Error(), "bitcast_convert: is not differentiable") {
		t.Fatalf("err = %v, want a located bitcast_convert error", err)
	}
	if _, err := autodiff.JVP(f, []int{0}, autodiff.Options{}); err == nil || !strings.Contains(err.Error(), "bitcast_convert") {
		t.Fatalf("jvp err = %v", err)
	}
	// Integer parameters have no derivative.
	g := ir.NewFunc("int", ir.TensorOf(ir.S32, 2))
	g.Return(g.Params[0])
	if _, err := autodiff.VJP(g, []int{0}, autodiff.Options{}); err == nil || !strings.Contains(err.Error(), "only float") {
		t.Fatalf("err = %v", err)
	}
}
