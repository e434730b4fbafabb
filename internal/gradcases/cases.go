// Package gradcases is the table of functions that exercise every
// differentiable IR op: the finite-difference test of passes/autodiff and
// the JAX cross-check of test/xla differentiate the same functions.
package gradcases

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/stela-ml/stela/ir"
)

// Case is a function of float64 parameters (and fixed non-float inputs)
// exercising one op, and how to draw its inputs.
type Case struct {
	Name string
	Op   ir.Op
	F    *ir.Func
	WRT  []int
	Gen  []func(r *rand.Rand, t ir.Type) *ir.Literal // per parameter
	Tol  float64                                     // relative tolerance of the comparison; 0: default
	H    float64                                     // finite-difference step; 0: default
	// NotJAX, when set, says why JAX's derivative of F differs from
	// Stela's (a rule that departs from JAX's on purpose, or an op JAX's
	// interpreter cannot take): the JAX cross-check skips the case.
	NotJAX string
	// NoJAXVJP, when set, says why JAX has no reverse mode for F: the
	// cross-check compares forward mode only.
	NoJAXVJP string
}

// testLoc is the location of every instruction of the cases.
var testLoc = ir.Loc{File: "gradcases.go", Line: 1}

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

func unaryCase(op ir.Op, gen func(*rand.Rand, ir.Type) *ir.Literal) Case {
	return Case{Name: op.String(), Op: op, WRT: []int{0},
		F: build(op.String(), []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Unary(op, p[0])}
		}), Gen: gens(gen)}
}

func binaryCase(op ir.Op, gx, gy func(*rand.Rand, ir.Type) *ir.Literal) Case {
	return Case{Name: op.String(), Op: op, WRT: []int{0, 1},
		F: build(op.String(), []ir.Type{f64(2, 3), f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Binary(op, p[0], p[1])}
		}), Gen: gens(gx, gy)}
}

func gens(g ...func(*rand.Rand, ir.Type) *ir.Literal) []func(*rand.Rand, ir.Type) *ir.Literal {
	return g
}

func s32(v ...int64) *ir.Literal {
	return ir.LiteralFromInt64s(ir.TensorOf(ir.S32, len(v)), v)
}

func s32Scalar(v int64) *ir.Literal { return ir.LiteralFromInt64s(ir.Scalar(ir.S32), []int64{v}) }

// Cases covers every differentiable op, most in several forms.
func Cases() []Case {
	cs := []Case{
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
		unaryCase(ir.OpErf, normal),
		unaryCase(ir.OpFloor, awayFromZero),
		unaryCase(ir.OpCeil, awayFromZero),
		unaryCase(ir.OpRoundNearestAfz, awayFromZero),
		unaryCase(ir.OpRoundNearestEven, awayFromZero),
		unaryCase(ir.OpReal, normal),
		unaryCase(ir.OpImag, normal),
		{Name: "reduce_precision", Op: ir.OpReducePrecision, WRT: []int{0}, Gen: gens(normal),
			F: build("rp", []ir.Type{f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
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
		{Name: "select", Op: ir.OpSelect, WRT: []int{1, 2}, Gen: gens(bools, normal, normal),
			F: build("select", []ir.Type{ir.TensorOf(ir.Bool, 2, 3), f64(2, 3), f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpSelect, p, nil)}
			})},
		{Name: "select/scalar-pred", Op: ir.OpSelect, WRT: []int{1, 2}, Gen: gens(bools, normal, normal),
			F: build("select", []ir.Type{ir.Scalar(ir.Bool), f64(2, 3), f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpSelect, p, nil)}
			})},
		{Name: "clamp", Op: ir.OpClamp, WRT: []int{0, 1, 2}, Gen: gens(distinct, distinct, distinct),
			NotJAX: "where lo > hi, hi's derivative: JAX's clamp rule misses it (docs/RATIONALE.md)",
			F: build("clamp", []ir.Type{f64(12), f64(12), f64(12)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpClamp, p, nil)}
			})},
		{Name: "clamp/scalar-bounds", Op: ir.OpClamp, WRT: []int{0, 1, 2}, Gen: gens(fixed(ir.ScalarOf(-0.3)), distinct, fixed(ir.ScalarOf(0.4))),
			F: build("clamp", []ir.Type{f64(), f64(12), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpClamp, p, nil)}
			})},
		{Name: "convert", Op: ir.OpConvert, WRT: []int{0}, Gen: gens(normal), Tol: 1e-4, H: 1e-3,
			F: build("convert", []ir.Type{f64(5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				y := b.Convert(p[0], ir.F32)
				return []*ir.Value{b.Convert(b.Mul(y, y), ir.F64)}
			})},
		{Name: "convert/int-operand", Op: ir.OpConvert, WRT: []int{0}, Gen: gens(normal, fixed(s32(1, 2, 3, 4, 5))),
			F: build("convert", []ir.Type{f64(5), ir.TensorOf(ir.S32, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Mul(p[0], b.Convert(p[1], ir.F64))}
			})},
		{Name: "broadcast_in_dim", Op: ir.OpBroadcastInDim, WRT: []int{0}, Gen: gens(normal),
			F: build("bcast", []ir.Type{f64(3, 1)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.BroadcastInDim(p[0], []int{2, 3, 4}, []int{1, 2})}
			})},
		{Name: "broadcast_in_dim/permuted", Op: ir.OpBroadcastInDim, WRT: []int{0}, Gen: gens(normal),
			F: build("bcast", []ir.Type{f64(4, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.BroadcastInDim(p[0], []int{2, 3, 4}, []int{2, 0})}
			})},
		{Name: "reshape", Op: ir.OpReshape, WRT: []int{0}, Gen: gens(normal),
			F: build("reshape", []ir.Type{f64(2, 6)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Reshape(p[0], 3, 2, 2)}
			})},
		{Name: "transpose", Op: ir.OpTranspose, WRT: []int{0}, Gen: gens(normal),
			F: build("transpose", []ir.Type{f64(2, 3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Transpose(p[0], 2, 0, 1)}
			})},
		{Name: "slice", Op: ir.OpSlice, WRT: []int{0}, Gen: gens(normal),
			F: build("slice", []ir.Type{f64(7, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Slice(p[0], []int{1, 0}, []int{7, 4}, []int{2, 3})}
			})},
		{Name: "dynamic_slice", Op: ir.OpDynamicSlice, WRT: []int{0}, Gen: gens(normal, fixed(s32Scalar(2)), fixed(s32Scalar(9))),
			F: build("ds", []ir.Type{f64(5, 4), ir.Scalar(ir.S32), ir.Scalar(ir.S32)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpDynamicSlice, p, ir.DynamicSliceAttr{Sizes: []int{2, 3}})}
			})},
		{Name: "dynamic_update_slice", Op: ir.OpDynamicUpdateSlice, WRT: []int{0, 1}, Gen: gens(normal, normal, fixed(s32Scalar(-1)), fixed(s32Scalar(1))),
			F: build("dus", []ir.Type{f64(5, 4), f64(2, 3), ir.Scalar(ir.S32), ir.Scalar(ir.S32)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpDynamicUpdateSlice, p, nil)}
			})},
		{Name: "concatenate", Op: ir.OpConcatenate, WRT: []int{0, 1, 2}, Gen: gens(normal, normal, normal),
			F: build("concat", []ir.Type{f64(2, 3), f64(2, 1), f64(2, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpConcatenate, p, ir.ConcatenateAttr{Dim: 1})}
			})},
		{Name: "pad", Op: ir.OpPad, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("pad", []ir.Type{f64(4, 3), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Pad(p[0], p[1], []int{-1, 2}, []int{1, -1}, []int{1, 2})}
			})},
		{Name: "reverse", Op: ir.OpReverse, WRT: []int{0}, Gen: gens(normal),
			F: build("reverse", []ir.Type{f64(3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpReverse, p, ir.ReverseAttr{Dims: []int{1}})}
			})},
		{Name: "dot_general", Op: ir.OpDotGeneral, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("dot", []ir.Type{f64(2, 3, 4), f64(4, 2, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.DotGeneral(p[0], p[1], ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{1}, LhsContract: []int{2}, RhsContract: []int{0}})}
			})},
		{Name: "dot_general/two-contracting", Op: ir.OpDotGeneral, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("dot", []ir.Type{f64(3, 4, 2), f64(2, 5, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.DotGeneral(p[0], p[1], ir.DotGeneralAttr{LhsContract: []int{1, 2}, RhsContract: []int{2, 0}})}
			})},
		reduceCase("sum", ir.OpAdd, normal),
		reduceCase("max", ir.OpMaximum, distinct),
		reduceCase("min", ir.OpMinimum, distinct),
		reduceCase("product", ir.OpMultiply, positive),
		{Name: "reduce/product-with-zero", Op: ir.OpReduce, WRT: []int{0}, Gen: gens(fixed(ir.LiteralFromFloat64s(f64(2, 3), []float64{0, 2, 3, 1.5, 0, 0.5}))),
			F: build("prod0", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Reduce(p[0], b.Const(ir.F64, 1), ir.OpMultiply, 1)}
			})},
		{Name: "reduce/init", Op: ir.OpReduce, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("suminit", []ir.Type{f64(3, 4), f64()}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
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
		{Name: "gather", Op: ir.OpGather, WRT: []int{0}, Gen: gens(normal, fixed(ir.LiteralFromInt64s(ir.TensorOf(ir.S32, 4, 1), []int64{2, 0, 2, 9}))),
			F: build("gather", []ir.Type{f64(5, 3), ir.TensorOf(ir.S32, 4, 1)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpGather, p, ir.GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}})}
			})},
		{Name: "gather/windows", Op: ir.OpGather, WRT: []int{0}, Gen: gens(normal, fixed(ir.LiteralFromInt64s(ir.TensorOf(ir.S32, 3, 2), []int64{0, 1, 3, 3, -2, 1}))),
			F: build("gather", []ir.Type{f64(5, 4), ir.TensorOf(ir.S32, 3, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Emit1(ir.OpGather, p, ir.GatherAttr{OffsetDims: []int{1, 2}, StartIndexMap: []int{0, 1}, IndexVectorDim: 1, SliceSizes: []int{2, 2}})}
			})},
		scatterCase("add", true, []int64{1, 3, 1, 7}),
		scatterCase("replace", false, []int64{1, 3, 4, 7}),
		scatterCase("replace/duplicates", false, []int64{1, 3, 1, 0}),
		{Name: "complex", Op: ir.OpComplex, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("complex", []ir.Type{f64(4), f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := b.Emit1(ir.OpComplex, p, nil)
				return []*ir.Value{b.Mul(z, z)}
			})},
		{Name: "complex/parts", Op: ir.OpComplex, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("parts", []ir.Type{f64(4), f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := b.Emit1(ir.OpComplex, p, nil)
				zz := b.Mul(z, b.Unary(ir.OpExp, z))
				return []*ir.Value{b.Add(b.Unary(ir.OpReal, zz), b.Mul(b.Unary(ir.OpImag, zz), b.Unary(ir.OpAbs, z)))}
			})},
		{Name: "convert/complex", Op: ir.OpConvert, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("cconv", []ir.Type{f64(4), f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := b.Emit1(ir.OpComplex, p, nil)
				w := b.Mul(z, b.Convert(p[0], ir.C128))
				return []*ir.Value{b.Unary(ir.OpImag, b.Mul(w, w))}
			})},
		sortCase("sort", 1, 1),
		sortCase("sort/keys-and-values", 0, 2),
		whileCase(),
		caseCase(),
		compositeCase(),
		{Name: "constant", Op: ir.OpConstant, WRT: []int{0}, Gen: gens(normal),
			F: build("const", []ir.Type{f64(3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Mul(p[0], b.Literal(ir.LiteralFromFloat64s(f64(3), []float64{1, 2, 3})))}
			})},
	}
	cs = append(cs, fftCases()...)
	cs = append(cs, collectiveCases()...)
	cs = append(cs, manualCases()...)
	cs = append(cs, shardingConstraintCase())
	return cs
}

// shardingConstraintCase differentiates through sharding constraints on
// a mesh of one device: the identity, whose cotangent gets the same
// constraint (the rules' shardings across devices are checked by the
// sharding passes' tests).
func shardingConstraintCase() Case {
	f := build("constrain", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		y := b.Emit1(ir.OpShardingConstraint, []*ir.Value{b.Unary(ir.OpSine, p[0])}, ir.ShardingConstraintAttr{Sharding: *ir.ShardDims(2, map[int][]string{0: {"data"}})})
		return []*ir.Value{b.Mul(y, p[0])}
	})
	m, err := ir.NewMesh([]string{"data"}, []int{1})
	if err != nil {
		panic(err)
	}
	f.Mesh = m
	return Case{Name: "sharding_constraint", Op: ir.OpShardingConstraint, WRT: []int{0}, Gen: gens(normal), F: f,
		NotJAX: "jax.lax.with_sharding_constraint needs a mesh of devices, which grad_xla.py's interpreter does not set up"}
}

// notJAXCollective: jax.lax's collectives need a named axis (shard_map,
// pmap), which grad_xla.py's interpreter does not set up.
const notJAXCollective = "jax.lax's collectives need a named axis; passes/autodiff's TestSPMDGradients checks these rules on grids of devices"

// collectiveCases run the collectives on ir.Eval's single device, where
// a process group is that device alone: the rules' shapes and plumbing
// are checked here, their values across devices by TestSPMDGradients.
func collectiveCases() []Case {
	one := [][]int64{{0}}
	sum := func(d ir.DType) *ir.Func { return ir.BinaryRegion(ir.OpAdd, d, testLoc) }
	return []Case{
		{Name: "all_reduce/sum", Op: ir.OpAllReduce, WRT: []int{0, 1}, Gen: gens(normal, normal), NotJAX: notJAXCollective,
			F: build("psum", []ir.Type{f64(3), f64(2, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				rs := b.Emit(ir.OpAllReduce, []*ir.Value{b.Unary(ir.OpSine, p[0]), p[1]}, ir.AllReduceAttr{}, sum(ir.F64))
				return []*ir.Value{b.Mul(rs[0], p[0]), rs[1]}
			})},
		{Name: "all_reduce/max", Op: ir.OpAllReduce, WRT: []int{0}, Gen: gens(normal), NotJAX: notJAXCollective,
			F: build("pmax", []ir.Type{f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				r := b.Emit1(ir.OpAllReduce, p, ir.AllReduceAttr{ReplicaGroups: one, ChannelID: 1, UseGlobalDeviceIDs: true}, ir.BinaryRegion(ir.OpMaximum, ir.F64, testLoc))
				return []*ir.Value{b.Mul(r, p[0])}
			})},
		{Name: "all_gather", Op: ir.OpAllGather, WRT: []int{0}, Gen: gens(normal), NotJAX: notJAXCollective,
			F: build("all_gather", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{b.Unary(ir.OpTanh, b.Emit1(ir.OpAllGather, p, ir.AllGatherAttr{AllGatherDim: 1, ReplicaGroups: one}))}
			})},
		{Name: "reduce_scatter/sum", Op: ir.OpReduceScatter, WRT: []int{0}, Gen: gens(normal), NotJAX: notJAXCollective,
			F: build("reduce_scatter", []ir.Type{f64(4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				r := b.Emit1(ir.OpReduceScatter, []*ir.Value{b.Mul(p[0], p[0])}, ir.ReduceScatterAttr{ReplicaGroups: one}, sum(ir.F64))
				return []*ir.Value{r}
			})},
		{Name: "reduce_scatter/min", Op: ir.OpReduceScatter, WRT: []int{0}, Gen: gens(normal), NotJAX: notJAXCollective,
			F: build("reduce_scatter_min", []ir.Type{f64(2, 2)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				r := b.Emit1(ir.OpReduceScatter, p, ir.ReduceScatterAttr{ScatterDim: 1, ReplicaGroups: one}, ir.BinaryRegion(ir.OpMinimum, ir.F64, testLoc))
				return []*ir.Value{b.Unary(ir.OpExp, r)}
			})},
		{Name: "all_to_all", Op: ir.OpAllToAll, WRT: []int{0}, Gen: gens(normal), NotJAX: notJAXCollective,
			F: build("all_to_all", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				r := b.Emit1(ir.OpAllToAll, []*ir.Value{b.Unary(ir.OpSine, p[0])}, ir.AllToAllAttr{SplitDim: 0, ConcatDim: 1, SplitCount: 1, ReplicaGroups: one})
				return []*ir.Value{b.Mul(r, p[0])}
			})},
		{Name: "collective_permute", Op: ir.OpCollectivePermute, WRT: []int{0}, Gen: gens(normal), NotJAX: notJAXCollective,
			F: build("collective_permute", []ir.Type{f64(3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				r := b.Emit1(ir.OpCollectivePermute, []*ir.Value{b.Unary(ir.OpLogistic, p[0])}, ir.CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 0}}})
				return []*ir.Value{b.Mul(r, p[0])}
			})},
	}
}

// sortCase sorts along dim n operands of one shape by the first
// (ascending), all of them differentiated.
func sortCase(name string, dim, n int) Case {
	ps := make([]ir.Type, n)
	gs := make([]func(*rand.Rand, ir.Type) *ir.Literal, n)
	wrt := make([]int, n)
	for i := range ps {
		ps[i], gs[i], wrt[i] = f64(3, 4), distinct, i
	}
	return Case{Name: name, Op: ir.OpSort, WRT: wrt, Gen: gs,
		F: build("sort", ps, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
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

func reduceCase(name string, op ir.Op, gen func(*rand.Rand, ir.Type) *ir.Literal) Case {
	init := map[ir.Op]float64{ir.OpAdd: 0, ir.OpMultiply: 1, ir.OpMaximum: math.Inf(-1), ir.OpMinimum: math.Inf(1)}[op]
	return Case{Name: "reduce/" + name, Op: ir.OpReduce, WRT: []int{0}, Gen: gens(gen),
		F: build("reduce", []ir.Type{f64(2, 3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Reduce(p[0], b.Const(ir.F64, init), op, 0, 2)}
		})}
}

func windowCase(name string, op ir.Op, at ir.ReduceWindowAttr) Case {
	var noVJP string
	if op != ir.OpAdd && len(at.WindowDilations) > 0 {
		noVJP = "JAX has no VJP for max/min pooling with window dilation (select_and_gather)"
	}
	init := map[ir.Op]float64{ir.OpAdd: 0, ir.OpMaximum: math.Inf(-1), ir.OpMinimum: math.Inf(1)}[op]
	return Case{Name: "reduce_window/" + name, Op: ir.OpReduceWindow, WRT: []int{0}, Gen: gens(distinct), NoJAXVJP: noVJP,
		F: build("window", []ir.Type{f64(5, 6)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Emit1(ir.OpReduceWindow, []*ir.Value{p[0], b.Const(ir.F64, init)}, at, ir.BinaryRegion(op, ir.F64, testLoc))}
		})}
}

func convCase(name string, lhs, rhs []int, at ir.ConvolutionAttr) Case {
	return Case{Name: "convolution/" + name, Op: ir.OpConvolution, WRT: []int{0, 1}, Gen: gens(normal, normal),
		F: build("conv", []ir.Type{f64(lhs...), f64(rhs...)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
			return []*ir.Value{b.Emit1(ir.OpConvolution, p, at)}
		})}
}

func scatterCase(name string, add bool, idx []int64) Case {
	it := ir.TensorOf(ir.S32, len(idx), 1)
	return Case{Name: "scatter/" + name, Op: ir.OpScatter, WRT: []int{0, 2}, Gen: gens(normal, fixed(ir.LiteralFromInt64s(it, idx)), normal),
		F: build("scatter", []ir.Type{f64(6, 3), it, f64(len(idx), 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
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
func whileCase() Case {
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
	return Case{Name: "while", Op: ir.OpWhile, WRT: []int{0, 1, 2}, Gen: gens(normal, normal, small), F: f}
}

func caseCase() Case {
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
	return Case{Name: "case", Op: ir.OpCase, WRT: []int{1, 2}, Gen: gens(fixed(s32Scalar(1)), normal, normal), F: f}
}

func compositeCase() Case {
	f := build("comp", []ir.Type{f64(2, 3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		d := ir.NewFunc("softplus", f64(2, 3))
		db := ir.NewBuilder(d, testLoc)
		d.Return(db.Unary(ir.OpLog1p, db.Unary(ir.OpExp, d.Params[0])))
		return b.Emit(ir.OpComposite, p, ir.CompositeAttr{Name: "test.softplus"}, d)
	})
	return Case{Name: "composite", Op: ir.OpComposite, WRT: []int{0}, Gen: gens(normal), F: f}
}

// Inputs draws a case's parameters.
func (c Case) Inputs(r *rand.Rand) []*ir.Literal {
	args := make([]*ir.Literal, len(c.F.Params))
	for i, p := range c.F.Params {
		args[i] = c.Gen[i](r, p.Type)
	}
	return args
}

// Normal draws standard normal f64 values of type t: the cotangents and
// tangents the tests seed derivatives with.
func Normal(r *rand.Rand, t ir.Type) *ir.Literal { return normal(r, t) }

// ComplexNormal draws complex values for cotangents of complex results.
func ComplexNormal(r *rand.Rand, t ir.Type) *ir.Literal {
	v := make([]complex128, t.NumElements())
	for i := range v {
		v[i] = complex(r.NormFloat64(), r.NormFloat64())
	}
	return ir.LiteralFromComplex128s(t, v)
}

// notJAXManual: grad_xla.py's interpreter runs no shard_map.
const notJAXManual = "a manual computation is JAX's shard_map, which grad_xla.py's interpreter does not run"

// manualCases differentiate manual computations whose bodies run on
// several devices (ir.Eval runs them with EvalSPMD): a replicated operand
// (whose cotangent sums the devices'), a replicated result made so by an
// all_reduce (whose cotangent each device shares), and collectives that
// move pieces between devices.
func manualCases() []Case {
	mesh := func(axes ...ir.MeshAxis) ir.Mesh { return ir.Mesh{Axes: axes} }
	sh := func(rank int, dims map[int][]string) ir.Sharding { return *ir.ShardDims(rank, dims) }
	sum := func(d ir.DType) *ir.Func { return ir.BinaryRegion(ir.OpAdd, d, testLoc) }
	psum := build("psum_rows", []ir.Type{f64(4, 3), f64(3)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		body := ir.NewFunc("body", f64(2, 3), f64(3))
		bb := ir.NewBuilder(body, testLoc)
		x, w := body.Params[0], body.Params[1]
		a := bb.Mul(bb.Unary(ir.OpSine, x), bb.BroadcastInDim(w, []int{2, 3}, []int{1}))
		s := bb.Sum(bb.Mul(a, a), 0)
		ps := bb.Emit1(ir.OpAllReduce, []*ir.Value{s}, ir.AllReduceAttr{ReplicaGroups: [][]int64{{0, 1}}, ChannelID: 1, UseGlobalDeviceIDs: true}, sum(ir.F64))
		body.Return(ps, bb.Unary(ir.OpTanh, a))
		attr := ir.ManualComputationAttr{Mesh: mesh(ir.MeshAxis{Name: "d", Size: 2}),
			InShardings:  []ir.Sharding{sh(2, map[int][]string{0: {"d"}}), sh(1, nil)},
			OutShardings: []ir.Sharding{sh(1, nil), sh(2, map[int][]string{0: {"d"}})}}
		return b.Emit(ir.OpManualComputation, p, attr, body)
	})
	grid := build("gather_permute", []ir.Type{f64(4, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
		m := mesh(ir.MeshAxis{Name: "x", Size: 2}, ir.MeshAxis{Name: "y", Size: 2})
		body := ir.NewFunc("body", f64(2, 2))
		bb := ir.NewBuilder(body, testLoc)
		x := body.Params[0]
		g := bb.Emit1(ir.OpAllGather, []*ir.Value{bb.Mul(bb.Unary(ir.OpExp, x), x)}, ir.AllGatherAttr{AllGatherDim: 1, ReplicaGroups: m.Groups([]string{"y"}), ChannelID: 1, UseGlobalDeviceIDs: true})
		r := bb.Emit1(ir.OpCollectivePermute, []*ir.Value{g}, ir.CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 2}, {2, 0}, {1, 3}, {3, 1}}, ChannelID: 2})
		body.Return(bb.Mul(r, bb.Unary(ir.OpSine, g)))
		attr := ir.ManualComputationAttr{Mesh: m,
			InShardings:  []ir.Sharding{sh(2, map[int][]string{0: {"x"}, 1: {"y"}})},
			OutShardings: []ir.Sharding{sh(2, map[int][]string{0: {"x"}})}}
		return b.Emit(ir.OpManualComputation, p, attr, body)
	})
	return []Case{
		{Name: "manual_computation/psum", Op: ir.OpManualComputation, WRT: []int{0, 1}, Gen: gens(normal, normal), NotJAX: notJAXManual, F: psum},
		{Name: "manual_computation/gather_permute", Op: ir.OpManualComputation, WRT: []int{0}, Gen: gens(small), NotJAX: notJAXManual, F: grid},
	}
}

// fftCases differentiate the four kinds of fft through complex parameters
// made of real ones (the results are complex: the checks draw complex
// cotangents). IRFFT's cases feed Hermitian-inconsistent frequencies
// (nonzero imaginary parts at 0 and N/2), on which its transpose must still
// agree with finite differences.
func fftCases() []Case {
	fft := func(b *ir.Builder, x *ir.Value, t ir.FFTType, n ...int) *ir.Value {
		return b.Emit1(ir.OpFFT, []*ir.Value{x}, ir.FFTAttr{Type: t, Length: n})
	}
	cplx := func(b *ir.Builder, p []*ir.Value) *ir.Value { return b.Emit1(ir.OpComplex, p, nil) }
	return []Case{
		{Name: "fft/FFT", Op: ir.OpFFT, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("fft", []ir.Type{f64(3, 6), f64(3, 6)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{fft(b, cplx(b, p), ir.FFTForward, 6)}
			})},
		{Name: "fft/IFFT-2d", Op: ir.OpFFT, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("ifft", []ir.Type{f64(2, 3, 4), f64(2, 3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				z := cplx(b, p)
				return []*ir.Value{fft(b, b.Mul(z, z), ir.FFTInverse, 3, 4)}
			})},
		{Name: "fft/RFFT", Op: ir.OpFFT, WRT: []int{0}, Gen: gens(normal),
			F: build("rfft", []ir.Type{f64(2, 7)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{fft(b, p[0], ir.FFTReal, 7)}
			})},
		{Name: "fft/RFFT-2d", Op: ir.OpFFT, WRT: []int{0}, Gen: gens(normal),
			F: build("rfft2", []ir.Type{f64(3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{fft(b, p[0], ir.FFTReal, 3, 4)}
			})},
		{Name: "fft/IRFFT-even", Op: ir.OpFFT, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("irfft", []ir.Type{f64(2, 5), f64(2, 5)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{fft(b, cplx(b, p), ir.FFTInverseReal, 8)}
			})},
		{Name: "fft/IRFFT-odd-2d", Op: ir.OpFFT, WRT: []int{0, 1}, Gen: gens(normal, normal),
			F: build("irfft2", []ir.Type{f64(3, 4), f64(3, 4)}, func(b *ir.Builder, p []*ir.Value) []*ir.Value {
				return []*ir.Value{fft(b, cplx(b, p), ir.FFTInverseReal, 3, 7)}
			})},
	}
}
