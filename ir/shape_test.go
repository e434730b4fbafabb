package ir

import (
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func ty(s string) Type {
	t, err := ParseType(s)
	if err != nil {
		panic(err)
	}
	return t
}

func tys(ss ...string) []Type {
	out := make([]Type, len(ss))
	for i, s := range ss {
		out[i] = ty(s)
	}
	return out
}

// region builds a region with the given parameter types; body emits its
// instructions and returns its results.
func region(name string, params []Type, body func(f *Func, ps []*Value) []*Value) *Func {
	f := NewFunc(name, params...)
	f.Return(body(f, f.Params)...)
	return f
}

func mustEmit1(f *Func, op Op, args []*Value, attr any, regions ...*Func) *Value {
	v, err := f.Emit1(UnknownLoc, op, args, attr, regions...)
	if err != nil {
		panic(err)
	}
	return v
}

// adder is a reduction body over element types dts: (acc..., x...) →
// (acc_i + x_i)...
func adder(dts ...DType) *Func {
	var ps []Type
	for range 2 {
		for _, d := range dts {
			ps = append(ps, Scalar(d))
		}
	}
	return region("add", ps, func(f *Func, p []*Value) []*Value {
		n := len(dts)
		out := make([]*Value, n)
		for i := range n {
			out[i] = mustEmit1(f, OpAdd, []*Value{p[i], p[n+i]}, nil)
		}
		return out
	})
}

// passThrough returns its parameters.
// sumRegion is (a, b) → a + b over scalars of d.
func sumRegion(d DType) *Func { return BinaryRegion(OpAdd, d, UnknownLoc) }

func passThrough(params ...Type) *Func {
	return region("id", params, func(_ *Func, p []*Value) []*Value { return p })
}

// manualAttr is manual_computation's attribute on a mesh of the axes.
func manualAttr(axes []MeshAxis, in, out []*Sharding) ManualComputationAttr {
	a := ManualComputationAttr{Mesh: Mesh{Axes: axes}}
	for _, s := range in {
		a.InShardings = append(a.InShardings, *s)
	}
	for _, s := range out {
		a.OutShardings = append(a.OutShardings, *s)
	}
	return a
}

// constTrue takes params and returns an i1 scalar.
func constTrue(params ...Type) *Func {
	return region("cond", params, func(f *Func, _ []*Value) []*Value {
		return []*Value{mustEmit1(f, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(Bool), []bool{true})})}
	})
}

type ruleCase struct {
	name    string
	op      Op
	args    []Type
	attr    any
	regions []*Func
	want    []Type // expected results when wantErr is empty
	wantErr string // a substring of the expected error
}

func conv2D(strides []int, pad [][2]int, lhsDil []int) ConvolutionAttr {
	// b01f x 01io -> b01f, as in the specification's example.
	return ConvolutionAttr{
		WindowStrides: strides, Padding: pad, LhsDilation: lhsDil,
		InputBatchDim: 0, InputSpatialDims: []int{1, 2}, InputFeatureDim: 3,
		KernelSpatialDims: []int{0, 1}, KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3,
		OutputBatchDim: 0, OutputSpatialDims: []int{1, 2}, OutputFeatureDim: 3,
		FeatureGroupCount: 1, BatchGroupCount: 1,
	}
}

// convNCW is a 1-d convolution in NCW x OIW -> NCW layout.
func convNCW(fgc, bgc int) ConvolutionAttr {
	return ConvolutionAttr{
		InputBatchDim: 0, InputFeatureDim: 1, InputSpatialDims: []int{2},
		KernelOutputFeatureDim: 0, KernelInputFeatureDim: 1, KernelSpatialDims: []int{2},
		OutputBatchDim: 0, OutputFeatureDim: 1, OutputSpatialDims: []int{2},
		FeatureGroupCount: fgc, BatchGroupCount: bgc,
	}
}

func with[T any](a T, edit func(*T)) T {
	edit(&a)
	return a
}

// The gather and scatter examples of the specification.
var (
	specGather = GatherAttr{OffsetDims: []int{2, 3}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{1, 0}, IndexVectorDim: 2, SliceSizes: []int{1, 2, 2}}
	// batchGather takes operand f32[2,10,4] and indices si32[2,5,1]: row i of
	// the batch looks up in operand[i].
	batchGather = GatherAttr{OffsetDims: []int{2}, CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0},
		StartIndicesBatchingDims: []int{0}, StartIndexMap: []int{1}, IndexVectorDim: 2, SliceSizes: []int{1, 1, 4}}
	specScatter  = ScatterAttr{UpdateWindowDims: []int{2, 3}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{1, 0}, IndexVectorDim: 2}
	batchScatter = ScatterAttr{UpdateWindowDims: []int{2}, InsertedWindowDims: []int{1}, InputBatchingDims: []int{0},
		ScatterIndicesBatchingDims: []int{0}, ScatterDimsToOperandDims: []int{1}, IndexVectorDim: 2}
)

func ruleCases() []ruleCase {
	return []ruleCase{
		// select
		{name: "select/scalar pred", op: OpSelect, args: tys("i1[]", "f32[2,3]", "f32[2,3]"), want: tys("f32[2,3]")},
		{name: "select/pred of the same shape", op: OpSelect, args: tys("i1[2,3]", "si32[2,3]", "si32[2,3]"), want: tys("si32[2,3]")},
		{name: "select/pred not i1", op: OpSelect, args: tys("si32[]", "f32[2]", "f32[2]"), wantErr: "pred has type si32[], want element type i1"},
		{name: "select/pred shape", op: OpSelect, args: tys("i1[3,2]", "f32[2,3]", "f32[2,3]"), wantErr: "pred has type i1[3,2], want a scalar or the shape of on_true f32[2,3]"},
		{name: "select/branches differ", op: OpSelect, args: tys("i1[]", "f32[2]", "f64[2]"), wantErr: "on_true type f32[2] and on_false type f64[2] differ"},

		// clamp
		{name: "clamp/scalar bounds", op: OpClamp, args: tys("f32[]", "f32[4]", "f32[]"), want: tys("f32[4]")},
		{name: "clamp/tensor bounds", op: OpClamp, args: tys("si32[4]", "si32[4]", "si32[4]"), want: tys("si32[4]")},
		{name: "clamp/min element type", op: OpClamp, args: tys("si32[]", "f32[4]", "f32[]"), wantErr: "min has type si32[], want element type f32"},
		{name: "clamp/max shape", op: OpClamp, args: tys("f32[]", "f32[4]", "f32[3]"), wantErr: "max has type f32[3], want a scalar or the shape of operand f32[4]"},

		// bitcast_convert
		{name: "bitcast/same width", op: OpBitcastConvert, args: tys("f32[2]"), attr: BitcastConvertAttr{To: S32}, want: tys("si32[2]")},
		{name: "bitcast/narrower adds a dim", op: OpBitcastConvert, args: tys("f32[2]"), attr: BitcastConvertAttr{To: S8}, want: tys("si8[2,4]")},
		{name: "bitcast/scalar to narrower", op: OpBitcastConvert, args: tys("f64[]"), attr: BitcastConvertAttr{To: F32}, want: tys("f32[2]")},
		{name: "bitcast/wider drops the dim", op: OpBitcastConvert, args: tys("si8[3,4]"), attr: BitcastConvertAttr{To: F32}, want: tys("f32[3]")},
		{name: "bitcast/wider to scalar", op: OpBitcastConvert, args: tys("ui8[2]"), attr: BitcastConvertAttr{To: F16}, want: tys("f16[]")},
		{name: "bitcast/complex narrower", op: OpBitcastConvert, args: tys("c128[]"), attr: BitcastConvertAttr{To: C64}, want: tys("c64[2]")},
		{name: "bitcast/i1 is one bit", op: OpBitcastConvert, args: tys("i1[3,8]"), attr: BitcastConvertAttr{To: U8}, want: tys("ui8[3]")},
		{name: "bitcast/wrong last dim", op: OpBitcastConvert, args: tys("si8[3,3]"), attr: BitcastConvertAttr{To: F32}, wantErr: "operand si8[3,3]: converting si8 to f32 needs a last dimension of size 4"},
		{name: "bitcast/wider from scalar", op: OpBitcastConvert, args: tys("si8[]"), attr: BitcastConvertAttr{To: F16}, wantErr: "needs a last dimension of size 2"},
		{name: "bitcast/to complex", op: OpBitcastConvert, args: tys("f32[2]"), attr: BitcastConvertAttr{To: C64}, wantErr: "bitcast between complex and non-complex types (f32 → c64) is not allowed"},
		{name: "bitcast/from complex", op: OpBitcastConvert, args: tys("c64[2]"), attr: BitcastConvertAttr{To: S64}, wantErr: "complex and non-complex"},
		{name: "bitcast/invalid target", op: OpBitcastConvert, args: tys("f32[2]"), attr: BitcastConvertAttr{To: DType(99)}, wantErr: "invalid target element type"},

		// broadcast_in_dim
		{name: "broadcast/row", op: OpBroadcastInDim, args: tys("f32[3]"), attr: BroadcastInDimAttr{Shape: []int{2, 3}, Dims: []int{1}}, want: tys("f32[2,3]")},
		{name: "broadcast/size one and reorder", op: OpBroadcastInDim, args: tys("si32[1,3]"), attr: BroadcastInDimAttr{Shape: []int{2, 3, 2}, Dims: []int{2, 1}}, want: tys("si32[2,3,2]")},
		{name: "broadcast/scalar", op: OpBroadcastInDim, args: tys("f32[]"), attr: BroadcastInDimAttr{Shape: []int{2, 2}, Dims: []int{}}, want: tys("f32[2,2]")},
		{name: "broadcast/dims length", op: OpBroadcastInDim, args: tys("f32[3]"), attr: BroadcastInDimAttr{Shape: []int{3}, Dims: []int{0, 0}}, wantErr: "dims [0 0] has 2 entries, want 1 (the rank of operand f32[3])"},
		{name: "broadcast/dims out of range", op: OpBroadcastInDim, args: tys("f32[3]"), attr: BroadcastInDimAttr{Shape: []int{3}, Dims: []int{1}}, wantErr: "dims[0] = 1 is out of range"},
		{name: "broadcast/dims repeated", op: OpBroadcastInDim, args: tys("f32[3,3]"), attr: BroadcastInDimAttr{Shape: []int{3, 3}, Dims: []int{1, 1}}, wantErr: "dimension 1 appears twice in dims"},
		{name: "broadcast/size mismatch", op: OpBroadcastInDim, args: tys("f32[3]"), attr: BroadcastInDimAttr{Shape: []int{4}, Dims: []int{0}}, wantErr: "operand dimension 0 has size 3, result dimension 0 has size 4: want equal sizes or 1"},
		{name: "broadcast/dynamic shape", op: OpBroadcastInDim, args: tys("f32[]"), attr: BroadcastInDimAttr{Shape: []int{DynamicDim}, Dims: []int{}}, wantErr: errDynamic},
		{name: "broadcast/negative shape", op: OpBroadcastInDim, args: tys("f32[]"), attr: BroadcastInDimAttr{Shape: []int{-3}, Dims: []int{}}, wantErr: "shape[0] = -3 is negative"},

		// reshape
		{name: "reshape/flatten", op: OpReshape, args: tys("f32[2,3]"), attr: ReshapeAttr{Shape: []int{6}}, want: tys("f32[6]")},
		{name: "reshape/scalar", op: OpReshape, args: tys("f32[]"), attr: ReshapeAttr{Shape: []int{1, 1}}, want: tys("f32[1,1]")},
		{name: "reshape/empty", op: OpReshape, args: tys("f32[0,3]"), attr: ReshapeAttr{Shape: []int{2, 0}}, want: tys("f32[2,0]")},
		{name: "reshape/count", op: OpReshape, args: tys("f32[2,3]"), attr: ReshapeAttr{Shape: []int{4}}, wantErr: "operand f32[2,3] has 6 elements, shape [4] has 4"},
		{name: "reshape/dynamic", op: OpReshape, args: tys("f32[2,3]"), attr: ReshapeAttr{Shape: []int{-1, 6}}, wantErr: errDynamic},
		{name: "reshape/overflow", op: OpReshape, args: tys("f32[0]"), attr: ReshapeAttr{Shape: []int{1 << 62, 1 << 62, 4}}, wantErr: "has 0 elements"},

		// transpose
		{name: "transpose/rotate", op: OpTranspose, args: tys("f32[2,3,4]"), attr: TransposeAttr{Perm: []int{2, 0, 1}}, want: tys("f32[4,2,3]")},
		{name: "transpose/scalar", op: OpTranspose, args: tys("f32[]"), attr: TransposeAttr{Perm: []int{}}, want: tys("f32[]")},
		{name: "transpose/length", op: OpTranspose, args: tys("f32[2,3]"), attr: TransposeAttr{Perm: []int{0}}, wantErr: "perm [0] has 1 entries, want 2"},
		{name: "transpose/repeat", op: OpTranspose, args: tys("f32[2,3]"), attr: TransposeAttr{Perm: []int{1, 1}}, wantErr: "perm [1 1] is not a permutation"},
		{name: "transpose/range", op: OpTranspose, args: tys("f32[2,3]"), attr: TransposeAttr{Perm: []int{0, 2}}, wantErr: "perm[1] = 2 is out of range"},

		// slice
		{name: "slice/box", op: OpSlice, args: tys("si64[3,4]"), attr: SliceAttr{Start: []int{1, 2}, Limit: []int{3, 4}, Stride: []int{1, 1}}, want: tys("si64[2,2]")},
		{name: "slice/stride rounds up", op: OpSlice, args: tys("f32[10]"), attr: SliceAttr{Start: []int{1}, Limit: []int{8}, Stride: []int{3}}, want: tys("f32[3]")},
		{name: "slice/empty", op: OpSlice, args: tys("f32[5]"), attr: SliceAttr{Start: []int{5}, Limit: []int{5}, Stride: []int{1}}, want: tys("f32[0]")},
		{name: "slice/start after limit", op: OpSlice, args: tys("f32[4]"), attr: SliceAttr{Start: []int{3}, Limit: []int{2}, Stride: []int{1}}, wantErr: "dimension 0: start 3, limit 2, size 4: want 0 <= start <= limit <= size"},
		{name: "slice/limit past end", op: OpSlice, args: tys("f32[4]"), attr: SliceAttr{Start: []int{0}, Limit: []int{5}, Stride: []int{1}}, wantErr: "limit 5, size 4"},
		{name: "slice/negative start", op: OpSlice, args: tys("f32[4]"), attr: SliceAttr{Start: []int{-1}, Limit: []int{2}, Stride: []int{1}}, wantErr: "start -1"},
		{name: "slice/zero stride", op: OpSlice, args: tys("f32[4]"), attr: SliceAttr{Start: []int{0}, Limit: []int{2}, Stride: []int{0}}, wantErr: "dimension 0: stride 0, want at least 1"},
		{name: "slice/lengths", op: OpSlice, args: tys("f32[4,4]"), attr: SliceAttr{Start: []int{0}, Limit: []int{2, 2}, Stride: []int{1, 1}}, wantErr: "start, limit and stride have 1, 2 and 2 entries, want 2 each"},

		// dynamic_slice
		{name: "dynamic_slice/2d", op: OpDynamicSlice, args: tys("f32[4,4]", "si64[]", "si64[]"), attr: DynamicSliceAttr{Sizes: []int{2, 2}}, want: tys("f32[2,2]")},
		{name: "dynamic_slice/scalar operand", op: OpDynamicSlice, args: tys("f32[]"), attr: DynamicSliceAttr{Sizes: []int{}}, want: tys("f32[]")},
		{name: "dynamic_slice/index count", op: OpDynamicSlice, args: tys("f32[4,4]", "si64[]"), attr: DynamicSliceAttr{Sizes: []int{2, 2}}, wantErr: "has 1 start indices, want 2 (the rank of operand f32[4,4])"},
		{name: "dynamic_slice/index not scalar", op: OpDynamicSlice, args: tys("f32[4]", "si64[1]"), attr: DynamicSliceAttr{Sizes: []int{2}}, wantErr: "start index #0 has type si64[1], want an integer scalar"},
		{name: "dynamic_slice/float index", op: OpDynamicSlice, args: tys("f32[4]", "f32[]"), attr: DynamicSliceAttr{Sizes: []int{2}}, wantErr: "want an integer scalar"},
		{name: "dynamic_slice/index types differ", op: OpDynamicSlice, args: tys("f32[4,4]", "si64[]", "si32[]"), attr: DynamicSliceAttr{Sizes: []int{2, 2}}, wantErr: "start index #1 has type si32[], but start index #0 has si64[]"},
		{name: "dynamic_slice/size too large", op: OpDynamicSlice, args: tys("f32[4]", "ui32[]"), attr: DynamicSliceAttr{Sizes: []int{5}}, wantErr: "sizes[0] = 5, want it in [0, 4]"},
		{name: "dynamic_slice/sizes length", op: OpDynamicSlice, args: tys("f32[4]", "ui32[]"), attr: DynamicSliceAttr{Sizes: []int{1, 1}}, wantErr: "sizes [1 1] has 2 entries, want 1"},

		// dynamic_update_slice
		{name: "dynamic_update_slice/2d", op: OpDynamicUpdateSlice, args: tys("f32[4,4]", "f32[2,2]", "si32[]", "si32[]"), want: tys("f32[4,4]")},
		{name: "dynamic_update_slice/element type", op: OpDynamicUpdateSlice, args: tys("f32[4]", "f64[2]", "si32[]"), wantErr: "update has type f64[2], want element type f32"},
		{name: "dynamic_update_slice/rank", op: OpDynamicUpdateSlice, args: tys("f32[4]", "f32[2,1]", "si32[]"), wantErr: "want rank 1"},
		{name: "dynamic_update_slice/too large", op: OpDynamicUpdateSlice, args: tys("f32[4]", "f32[5]", "si32[]"), wantErr: "update f32[5] is larger than operand f32[4] in dimension 0"},
		{name: "dynamic_update_slice/index count", op: OpDynamicUpdateSlice, args: tys("f32[4,4]", "f32[2,2]", "si32[]"), wantErr: "has 1 start indices, want 2"},

		// concatenate
		{name: "concatenate/rows", op: OpConcatenate, args: tys("si64[3,2]", "si64[1,2]"), attr: ConcatenateAttr{Dim: 0}, want: tys("si64[4,2]")},
		{name: "concatenate/one operand", op: OpConcatenate, args: tys("f32[3]"), attr: ConcatenateAttr{Dim: 0}, want: tys("f32[3]")},
		{name: "concatenate/dim out of range", op: OpConcatenate, args: tys("f32[3]", "f32[3]"), attr: ConcatenateAttr{Dim: 1}, wantErr: "dim 1 is out of range for operand #0 f32[3] (rank 1)"},
		{name: "concatenate/scalar", op: OpConcatenate, args: tys("f32[]"), attr: ConcatenateAttr{Dim: 0}, wantErr: "out of range"},
		{name: "concatenate/other dim differs", op: OpConcatenate, args: tys("f32[3,2]", "f32[1,3]"), attr: ConcatenateAttr{Dim: 0}, wantErr: "operand #1 has type f32[1,3], operand #0 has f32[3,2]: want the same element type and sizes except in dimension 0"},
		{name: "concatenate/element type differs", op: OpConcatenate, args: tys("f32[3]", "f64[3]"), attr: ConcatenateAttr{Dim: 0}, wantErr: "operand #1 has type f64[3]"},

		// pad
		{name: "pad/spec example", op: OpPad, args: tys("si32[2,3]", "si32[]"), attr: PadAttr{Low: []int{0, 1}, High: []int{2, 1}, Interior: []int{1, 2}}, want: tys("si32[5,9]")},
		{name: "pad/negative edge", op: OpPad, args: tys("f32[5]", "f32[]"), attr: PadAttr{Low: []int{-2}, High: []int{0}, Interior: []int{0}}, want: tys("f32[3]")},
		{name: "pad/empty with interior", op: OpPad, args: tys("f32[0]", "f32[]"), attr: PadAttr{Low: []int{1}, High: []int{1}, Interior: []int{3}}, want: tys("f32[2]")},
		{name: "pad/value not scalar", op: OpPad, args: tys("f32[5]", "f32[1]"), attr: PadAttr{Low: []int{0}, High: []int{0}, Interior: []int{0}}, wantErr: "padding value has type f32[1], want f32[]"},
		{name: "pad/value element type", op: OpPad, args: tys("f32[5]", "f64[]"), attr: PadAttr{Low: []int{0}, High: []int{0}, Interior: []int{0}}, wantErr: "padding value has type f64[], want f32[]"},
		{name: "pad/negative interior", op: OpPad, args: tys("f32[5]", "f32[]"), attr: PadAttr{Low: []int{0}, High: []int{0}, Interior: []int{-1}}, wantErr: "interior[0] = -1 is negative"},
		{name: "pad/negative result", op: OpPad, args: tys("f32[2]", "f32[]"), attr: PadAttr{Low: []int{-3}, High: []int{0}, Interior: []int{0}}, wantErr: "dimension 0 would have size -1"},
		{name: "pad/lengths", op: OpPad, args: tys("f32[2]", "f32[]"), attr: PadAttr{Low: []int{0}, High: []int{0}}, wantErr: "low, high and interior have 1, 1 and 0 entries, want 1 each"},
		{name: "pad/overflow", op: OpPad, args: tys("f32[3]", "f32[]"), attr: PadAttr{Low: []int{0}, High: []int{0}, Interior: []int{math.MaxInt}}, wantErr: "sizes overflow"},

		// reverse
		{name: "reverse/one dim", op: OpReverse, args: tys("si32[3,2]"), attr: ReverseAttr{Dims: []int{1}}, want: tys("si32[3,2]")},
		{name: "reverse/no dims", op: OpReverse, args: tys("si32[3,2]"), attr: ReverseAttr{}, want: tys("si32[3,2]")},
		{name: "reverse/repeat", op: OpReverse, args: tys("si32[3,2]"), attr: ReverseAttr{Dims: []int{0, 0}}, wantErr: "dimension 0 appears twice in dims"},
		{name: "reverse/range", op: OpReverse, args: tys("si32[3,2]"), attr: ReverseAttr{Dims: []int{-1}}, wantErr: "dims[0] = -1 is out of range for operand si32[3,2] (rank 2)"},

		// dot_general
		{name: "dot_general/matmul", op: OpDotGeneral, args: tys("f32[2,3]", "f32[3,4]"), attr: DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, want: tys("f32[2,4]")},
		{name: "dot_general/batched", op: OpDotGeneral, args: tys("f32[5,2,3]", "f32[5,3,4]"),
			attr: DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{1}, Precision: []Precision{PrecisionDefault, PrecisionHighest}}, want: tys("f32[5,2,4]")},
		{name: "dot_general/batch dims not leading", op: OpDotGeneral, args: tys("si32[3,7,2]", "si32[2,3,5]"),
			attr: DotGeneralAttr{LhsBatch: []int{2}, RhsBatch: []int{0}, LhsContract: []int{0}, RhsContract: []int{1}}, want: tys("si32[2,7,5]")},
		{name: "dot_general/outer", op: OpDotGeneral, args: tys("f32[2]", "f32[3]"), attr: DotGeneralAttr{}, want: tys("f32[2,3]")},
		{name: "dot_general/inner", op: OpDotGeneral, args: tys("f32[3]", "f32[3]"), attr: DotGeneralAttr{LhsContract: []int{0}, RhsContract: []int{0}}, want: tys("f32[]")},
		{name: "dot_general/contracting sizes", op: OpDotGeneral, args: tys("f32[2,4]", "f32[5,3]"), attr: DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}}, wantErr: "contracting dimension sizes differ: lhs dim 1 is 4, rhs dim 0 is 5"},
		{name: "dot_general/batch sizes", op: OpDotGeneral, args: tys("f32[2,4]", "f32[3,4]"), attr: DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}}, wantErr: "batch dimension sizes differ: lhs dim 0 is 2, rhs dim 0 is 3"},
		{name: "dot_general/element types", op: OpDotGeneral, args: tys("f32[2]", "f64[2]"), attr: DotGeneralAttr{}, wantErr: "lhs f32[2] and rhs f64[2] have different element types"},
		{name: "dot_general/batch lengths", op: OpDotGeneral, args: tys("f32[2]", "f32[2]"), attr: DotGeneralAttr{LhsBatch: []int{0}}, wantErr: "lhs_batch [0] and rhs_batch [] have different lengths"},
		{name: "dot_general/contract lengths", op: OpDotGeneral, args: tys("f32[2]", "f32[2]"), attr: DotGeneralAttr{RhsContract: []int{0}}, wantErr: "lhs_contract [] and rhs_contract [0] have different lengths"},
		{name: "dot_general/batch dim out of range", op: OpDotGeneral, args: tys("f32[2,3]", "f32[2,3,4]"), attr: DotGeneralAttr{LhsBatch: []int{2}, RhsBatch: []int{0}}, wantErr: "lhs_batch[0] = 2 is out of range for lhs f32[2,3] (rank 2)"},
		{name: "dot_general/dim both batch and contracting", op: OpDotGeneral, args: tys("f32[2,3]", "f32[2,3]"),
			attr: DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{0}, RhsContract: []int{1}}, wantErr: "dimension 0 appears twice in lhs_batch and lhs_contract"},
		{name: "dot_general/precision count", op: OpDotGeneral, args: tys("f32[2]", "f32[2]"), attr: DotGeneralAttr{Precision: []Precision{PrecisionHigh}}, wantErr: "precision has 1 entries, want 0 or 2"},
		{name: "dot_general/bad precision", op: OpDotGeneral, args: tys("f32[2]", "f32[2]"), attr: DotGeneralAttr{Precision: []Precision{PrecisionHigh, 7}}, wantErr: "precision[1] is invalid"},

		// reduce
		{name: "reduce/rows", op: OpReduce, args: tys("f32[2,3]", "f32[]"), attr: ReduceAttr{Dims: []int{1}}, regions: []*Func{adder(F32)}, want: tys("f32[2]")},
		{name: "reduce/two inputs to scalars", op: OpReduce, args: tys("f32[2,3]", "si32[2,3]", "f32[]", "si32[]"), attr: ReduceAttr{Dims: []int{1, 0}}, regions: []*Func{adder(F32, S32)}, want: tys("f32[]", "si32[]")},
		{name: "reduce/no dims", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{}, regions: []*Func{adder(F32)}, want: tys("f32[2]")},
		{name: "reduce/odd operand count", op: OpReduce, args: tys("f32[2]", "f32[]", "f32[]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{adder(F32)}, wantErr: "has 3 operands, want an even number (N inputs, then N init values)"},
		{name: "reduce/init not scalar", op: OpReduce, args: tys("f32[2]", "f32[1]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{adder(F32)}, wantErr: "init value #0 has type f32[1], want f32[] (a scalar of input #0's element type)"},
		{name: "reduce/init element type", op: OpReduce, args: tys("f32[2]", "f64[]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{adder(F32)}, wantErr: "init value #0 has type f64[], want f32[]"},
		{name: "reduce/input shapes", op: OpReduce, args: tys("f32[2]", "f32[3]", "f32[]", "f32[]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{adder(F32, F32)}, wantErr: "input #1 has type f32[3], input #0 has f32[2]: want the same shape"},
		{name: "reduce/dims repeated", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{Dims: []int{0, 0}}, regions: []*Func{adder(F32)}, wantErr: "dimension 0 appears twice in dims"},
		{name: "reduce/dims range", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{Dims: []int{1}}, regions: []*Func{adder(F32)}, wantErr: "dims[0] = 1 is out of range for input f32[2] (rank 1)"},
		{name: "reduce/body parameters", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{adder(F64)}, wantErr: "body region takes (f64[], f64[]), want (f32[], f32[])"},
		{name: "reduce/body results", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{passThrough(tys("f32[]", "f32[]")...)}, wantErr: "body region returns (f32[], f32[]), want (f32[])"},
		{name: "reduce/nil body result", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{Dims: []int{0}}, regions: []*Func{{Name: "b", Results: []*Value{nil}}}, wantErr: "body region result #0 is nil"},

		// reduce_window
		{name: "reduce_window/spec example", op: OpReduceWindow, args: tys("si32[3,2]", "si32[]"),
			attr:    ReduceWindowAttr{WindowDims: []int{2, 1}, Strides: []int{4, 1}, BaseDilations: []int{2, 1}, WindowDilations: []int{3, 1}, Padding: [][2]int{{2, 1}, {0, 0}}},
			regions: []*Func{adder(S32)}, want: tys("si32[2,2]")},
		{name: "reduce_window/pooling", op: OpReduceWindow, args: tys("f32[4,6]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{2, 2}, Strides: []int{2, 2}}, regions: []*Func{adder(F32)}, want: tys("f32[2,3]")},
		{name: "reduce_window/window larger than input", op: OpReduceWindow, args: tys("f32[2]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{3}}, regions: []*Func{adder(F32)}, want: tys("f32[0]")},
		{name: "reduce_window/negative padding", op: OpReduceWindow, args: tys("f32[5]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{1}, Padding: [][2]int{{-1, -1}}}, regions: []*Func{adder(F32)}, want: tys("f32[3]")},
		{name: "reduce_window/two inputs", op: OpReduceWindow, args: tys("f32[4]", "si32[4]", "f32[]", "si32[]"), attr: ReduceWindowAttr{WindowDims: []int{2}}, regions: []*Func{adder(F32, S32)}, want: tys("f32[3]", "si32[3]")},
		{name: "reduce_window/window length", op: OpReduceWindow, args: tys("f32[4,6]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{2}}, regions: []*Func{adder(F32)}, wantErr: "window [2] has 1 entries, want 2"},
		{name: "reduce_window/zero window", op: OpReduceWindow, args: tys("f32[4]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{0}}, regions: []*Func{adder(F32)}, wantErr: "window[0] = 0, want at least 1"},
		{name: "reduce_window/zero stride", op: OpReduceWindow, args: tys("f32[4]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{1}, Strides: []int{0}}, regions: []*Func{adder(F32)}, wantErr: "strides[0] = 0, want at least 1"},
		{name: "reduce_window/base dilation", op: OpReduceWindow, args: tys("f32[4]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{1}, BaseDilations: []int{1, 1}}, regions: []*Func{adder(F32)}, wantErr: "base_dilations [1 1] has 2 entries, want 1"},
		{name: "reduce_window/padding length", op: OpReduceWindow, args: tys("f32[4]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{1}, Padding: [][2]int{{0, 0}, {0, 0}}}, regions: []*Func{adder(F32)}, wantErr: "padding has 2 entries, want 1"},
		{name: "reduce_window/body", op: OpReduceWindow, args: tys("f32[4]", "f32[]"), attr: ReduceWindowAttr{WindowDims: []int{1}}, regions: []*Func{adder(S32)}, wantErr: "body region takes (si32[], si32[]), want (f32[], f32[])"},

		// convolution
		{name: "convolution/spec example", op: OpConvolution, args: tys("si32[1,4,4,1]", "si32[3,3,1,1]"), attr: conv2D([]int{4, 4}, [][2]int{{0, 0}, {0, 0}}, []int{2, 2}), want: tys("si32[1,2,2,1]")},
		{name: "convolution/defaults", op: OpConvolution, args: tys("f32[2,5,5,3]", "f32[3,3,3,8]"), attr: conv2D(nil, nil, nil), want: tys("f32[2,3,3,8]")},
		{name: "convolution/same padding NCHW", op: OpConvolution, args: tys("f32[2,3,5,5]", "f32[4,3,3,3]"),
			attr: ConvolutionAttr{Padding: [][2]int{{1, 1}, {1, 1}}, InputBatchDim: 0, InputFeatureDim: 1, InputSpatialDims: []int{2, 3},
				KernelOutputFeatureDim: 0, KernelInputFeatureDim: 1, KernelSpatialDims: []int{2, 3},
				OutputBatchDim: 0, OutputFeatureDim: 1, OutputSpatialDims: []int{2, 3}, FeatureGroupCount: 1, BatchGroupCount: 1,
				Precision: []Precision{PrecisionDefault, PrecisionDefault}},
			want: tys("f32[2,4,5,5]")},
		{name: "convolution/feature groups", op: OpConvolution, args: tys("f32[1,8,5]", "f32[6,4,3]"), attr: convNCW(2, 1), want: tys("f32[1,6,3]")},
		{name: "convolution/batch groups", op: OpConvolution, args: tys("f32[4,2,5]", "f32[4,2,1]"), attr: convNCW(1, 2), want: tys("f32[2,4,5]")},
		{name: "convolution/dilated kernel and stride", op: OpConvolution, args: tys("f32[1,1,10]", "f32[1,1,3]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) {
				a.RhsDilation = []int{2}
				a.WindowStrides = []int{2}
				a.WindowReversal = []bool{true}
			}), want: tys("f32[1,1,3]")},
		{name: "convolution/no spatial dims", op: OpConvolution, args: tys("f32[2,3]", "f32[3,4]"),
			attr: ConvolutionAttr{InputBatchDim: 0, InputFeatureDim: 1, KernelInputFeatureDim: 0, KernelOutputFeatureDim: 1, OutputBatchDim: 0, OutputFeatureDim: 1, FeatureGroupCount: 1, BatchGroupCount: 1},
			want: tys("f32[2,4]")},
		{name: "convolution/rank 1", op: OpConvolution, args: tys("f32[2]", "f32[2]"), attr: convNCW(1, 1), wantErr: "lhs f32[2] has rank 1, want at least 2"},
		{name: "convolution/ranks differ", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1]"), attr: convNCW(1, 1), wantErr: "rhs f32[1,1] has rank 2, want 3"},
		{name: "convolution/element types", op: OpConvolution, args: tys("f32[1,1,4]", "f64[1,1,1]"), attr: convNCW(1, 1), wantErr: "have different element types"},
		{name: "convolution/zero feature groups", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"), attr: convNCW(0, 1), wantErr: "feature_group_count 0 and batch_group_count 1 must both be at least 1"},
		{name: "convolution/both groups", op: OpConvolution, args: tys("f32[2,2,4]", "f32[2,1,1]"), attr: convNCW(2, 2), wantErr: "at most one may exceed 1"},
		{name: "convolution/features not divisible", op: OpConvolution, args: tys("f32[1,3,4]", "f32[2,1,1]"), attr: convNCW(2, 1), wantErr: "lhs feature dimension size 3 is not a multiple of feature_group_count 2"},
		{name: "convolution/kernel input features", op: OpConvolution, args: tys("f32[1,4,4]", "f32[2,4,1]"), attr: convNCW(2, 1), wantErr: "rhs input feature dimension has size 4, want 2 (lhs feature size 4 / feature_group_count 2)"},
		{name: "convolution/kernel output features vs groups", op: OpConvolution, args: tys("f32[1,4,4]", "f32[3,2,1]"), attr: convNCW(2, 1), wantErr: "rhs output feature dimension size 3 is not a multiple of feature_group_count 2"},
		{name: "convolution/batch not divisible", op: OpConvolution, args: tys("f32[3,1,4]", "f32[2,1,1]"), attr: convNCW(1, 2), wantErr: "lhs batch dimension size 3 is not a multiple of batch_group_count 2"},
		{name: "convolution/kernel output vs batch groups", op: OpConvolution, args: tys("f32[4,1,4]", "f32[3,1,1]"), attr: convNCW(1, 2), wantErr: "rhs output feature dimension size 3 is not a multiple of batch_group_count 2"},
		{name: "convolution/spatial dims count", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.InputSpatialDims = nil }), wantErr: "input_spatial_dims [] has 0 entries, want 1 (rank 3 minus 2)"},
		{name: "convolution/dimension repeated", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.KernelSpatialDims = []int{1} }), wantErr: "dimension 1 appears twice in kernel dimension numbers"},
		{name: "convolution/dimension out of range", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.OutputFeatureDim = 3 }), wantErr: "output dimension numbers: 3 is out of range for the result (rank 3)"},
		{name: "convolution/zero stride", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.WindowStrides = []int{0} }), wantErr: "strides[0] = 0, want at least 1"},
		{name: "convolution/padding length", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.Padding = [][2]int{{0, 0}, {0, 0}} }), wantErr: "padding has 2 entries, want 1"},
		{name: "convolution/lhs dilation", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.LhsDilation = []int{-1} }), wantErr: "lhs_dilation[0] = -1, want at least 1"},
		{name: "convolution/window reversal length", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.WindowReversal = []bool{true, false} }), wantErr: "window_reversal has 2 entries, want 1"},
		{name: "convolution/precision count", op: OpConvolution, args: tys("f32[1,1,4]", "f32[1,1,1]"),
			attr: with(convNCW(1, 1), func(a *ConvolutionAttr) { a.Precision = []Precision{0, 0, 0} }), wantErr: "precision has 3 entries"},

		// gather
		{name: "gather/spec example", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: specGather, want: tys("si32[2,3,2,2]")},
		{name: "gather/embedding lookup", op: OpGather, args: tys("f32[10,4]", "si32[5]"),
			attr: GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 4}}, want: tys("f32[5,4]")},
		{name: "gather/batching dims", op: OpGather, args: tys("f32[2,10,4]", "si32[2,5,1]"), attr: batchGather, want: tys("f32[2,5,4]")},
		{name: "gather/offset dims first", op: OpGather, args: tys("f32[10,4]", "si32[5,1]"),
			attr: GatherAttr{OffsetDims: []int{0}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}}, want: tys("f32[3,5]")},
		{name: "gather/index_vector_dim range", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.IndexVectorDim = 4 }),
			wantErr: "index_vector_dim 4 is out of range [0, 3] for start_indices si64[2,3,2]"},
		{name: "gather/float indices", op: OpGather, args: tys("si32[3,4,2]", "f32[2,3,2]"), attr: specGather, wantErr: "start_indices has type f32[2,3,2], want an integer element type"},
		{name: "gather/start_index_map length", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.StartIndexMap = []int{1} }),
			wantErr: "start_index_map [1] has 1 entries, want 2 (the index vector length of start_indices si64[2,3,2])"},
		{name: "gather/offset_dims unsorted", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.OffsetDims = []int{3, 2} }), wantErr: "offset_dims [3 2] is not sorted"},
		{name: "gather/offset_dims repeated", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.OffsetDims = []int{2, 2} }), wantErr: "dimension 2 appears twice in offset_dims"},
		{name: "gather/offset_dims range", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.OffsetDims = []int{2, 4} }), wantErr: "offset_dims[1] = 4 is out of range for the result (rank 4)"},
		{name: "gather/collapsed range", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.CollapsedSliceDims = []int{3} }), wantErr: "collapsed_slice_dims[0] = 3 is out of range"},
		{name: "gather/collapsed slice size", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.SliceSizes = []int{2, 2, 2} }), wantErr: "slice_sizes[0] = 2, want at most 1 for a collapsed or batching dimension"},
		{name: "gather/slice size too large", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.SliceSizes = []int{1, 2, 3} }), wantErr: "slice_sizes[2] = 3, want it in [0, 2]"},
		{name: "gather/slice_sizes length", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.SliceSizes = []int{1, 2} }), wantErr: "slice_sizes [1 2] has 2 entries, want 3"},
		{name: "gather/rank sum", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.OffsetDims = []int{2} }),
			wantErr: "offset_dims, collapsed_slice_dims and operand_batching_dims have 2 entries in all, want 3"},
		{name: "gather/start_index_map repeated", op: OpGather, args: tys("si32[3,4,2]", "si64[2,3,2]"), attr: with(specGather, func(a *GatherAttr) { a.StartIndexMap = []int{1, 1} }), wantErr: "dimension 1 appears twice in start_index_map"},
		{name: "gather/batching sizes", op: OpGather, args: tys("f32[3,10,4]", "si32[2,5,1]"), attr: batchGather, wantErr: "batching dimension sizes differ: operand dim 0 is 3, indices dim 0 is 2"},
		{name: "gather/batching includes index_vector_dim", op: OpGather, args: tys("f32[2,10,4]", "si32[2,5,1]"),
			attr: with(batchGather, func(a *GatherAttr) { a.StartIndicesBatchingDims = []int{2} }), wantErr: "start_indices_batching_dims [2] contains index_vector_dim 2"},
		{name: "gather/batching lengths", op: OpGather, args: tys("f32[2,10,4]", "si32[2,5,1]"),
			attr: with(batchGather, func(a *GatherAttr) { a.StartIndicesBatchingDims = nil }), wantErr: "operand_batching_dims [0] and start_indices_batching_dims [] have different lengths"},
		{name: "gather/batching and collapsed overlap", op: OpGather, args: tys("f32[2,10,4]", "si32[2,5,1]"),
			attr: with(batchGather, func(a *GatherAttr) { a.CollapsedSliceDims = []int{0} }), wantErr: "dimension 0 appears twice in collapsed_slice_dims and operand_batching_dims"},
		{name: "gather/batching in start_index_map", op: OpGather, args: tys("f32[2,10,4]", "si32[2,5,1]"),
			attr: with(batchGather, func(a *GatherAttr) { a.StartIndexMap = []int{0} }), wantErr: "dimension 0 appears twice in start_index_map and operand_batching_dims"},

		// scatter
		{name: "scatter/spec example", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,2]"), attr: specScatter, regions: []*Func{adder(S32)}, want: tys("si32[3,4,2]")},
		{name: "scatter/batching dims", op: OpScatter, args: tys("f32[2,10,4]", "si32[2,5,1]", "f32[2,5,4]"), attr: batchScatter, regions: []*Func{adder(F32)}, want: tys("f32[2,10,4]")},
		{name: "scatter/two inputs", op: OpScatter, args: tys("f32[4]", "si32[4]", "si32[2,1]", "f32[2]", "si32[2]"),
			attr: ScatterAttr{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}, regions: []*Func{adder(F32, S32)}, want: tys("f32[4]", "si32[4]")},
		{name: "scatter/smaller window", op: OpScatter, args: tys("f32[4,6]", "si32[2,1]", "f32[2,3]"),
			attr: ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}, regions: []*Func{adder(F32)}, want: tys("f32[4,6]")},
		{name: "scatter/even operand count", op: OpScatter, args: tys("f32[4]", "si32[2,1]", "f32[2]", "f32[2]"), attr: ScatterAttr{}, regions: []*Func{adder(F32)}, wantErr: "has 4 operands, want an odd number"},
		{name: "scatter/update element type", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "f32[2,3,2,2]"), attr: specScatter, regions: []*Func{adder(S32)}, wantErr: "update #0 has type f32[2,3,2,2], want element type si32 of input #0"},
		{name: "scatter/window too large", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,3]"), attr: specScatter, regions: []*Func{adder(S32)}, wantErr: "update window dimension 3 has size 3, larger than input dimension 2 (size 2)"},
		{name: "scatter/scatter dim size", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,4,2,2]"), attr: specScatter, regions: []*Func{adder(S32)}, wantErr: "update scatter dimension 1 has size 4, want 3 to match scatter_indices si64[2,3,2]"},
		{name: "scatter/update rank", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,2,1]"), attr: specScatter, regions: []*Func{adder(S32)}, wantErr: "updates si32[2,3,2,2,1] have rank 5, want 4"},
		{name: "scatter/update region", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,2]"), attr: specScatter, regions: []*Func{adder(F32)}, wantErr: "update region takes (f32[], f32[]), want (si32[], si32[])"},
		{name: "scatter/index map length", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,2]"),
			attr: with(specScatter, func(a *ScatterAttr) { a.ScatterDimsToOperandDims = []int{0} }), regions: []*Func{adder(S32)}, wantErr: "scatter_dims_to_operand_dims [0] has 1 entries, want 2"},
		{name: "scatter/inserted unsorted", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2]"),
			attr: with(specScatter, func(a *ScatterAttr) { a.UpdateWindowDims = []int{2}; a.InsertedWindowDims = []int{1, 0} }), regions: []*Func{adder(S32)}, wantErr: "inserted_window_dims [1 0] is not sorted"},
		{name: "scatter/window dims range", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,2]"),
			attr: with(specScatter, func(a *ScatterAttr) { a.UpdateWindowDims = []int{2, 4} }), regions: []*Func{adder(S32)}, wantErr: "update_window_dims[1] = 4 is out of range for updates si32[2,3,2,2] (rank 4)"},
		{name: "scatter/rank sum", op: OpScatter, args: tys("si32[3,4,2]", "si64[2,3,2]", "si32[2,3,2,2]"),
			attr: with(specScatter, func(a *ScatterAttr) { a.InsertedWindowDims = nil }), regions: []*Func{adder(S32)}, wantErr: "have 2 entries in all, want 3"},
		{name: "scatter/batching sizes", op: OpScatter, args: tys("f32[3,10,4]", "si32[2,5,1]", "f32[2,5,4]"), attr: batchScatter, regions: []*Func{adder(F32)}, wantErr: "batching dimension sizes differ: operand dim 0 is 3, indices dim 0 is 2"},
		{name: "scatter/inputs differ", op: OpScatter, args: tys("f32[4]", "f32[5]", "si32[2,1]", "f32[2]", "f32[2]"), attr: ScatterAttr{}, regions: []*Func{adder(F32, F32)}, wantErr: "input #1 has type f32[5], input #0 has f32[4]"},

		// sort
		{name: "sort/one operand", op: OpSort, args: tys("f32[3,4]"), attr: SortAttr{Dim: 1}, regions: []*Func{constTrue(tys("f32[]", "f32[]")...)}, want: tys("f32[3,4]")},
		{name: "sort/operands of mixed types", op: OpSort, args: tys("c64[5]", "si32[5]", "i1[5]"), attr: SortAttr{Dim: 0, IsStable: true},
			regions: []*Func{constTrue(tys("c64[]", "c64[]", "si32[]", "si32[]", "i1[]", "i1[]")...)}, want: tys("c64[5]", "si32[5]", "i1[5]")},
		{name: "sort/empty dimension", op: OpSort, args: tys("ui8[0,3]"), attr: SortAttr{Dim: 0}, regions: []*Func{constTrue(tys("ui8[]", "ui8[]")...)}, want: tys("ui8[0,3]")},
		{name: "sort/shapes differ", op: OpSort, args: tys("f32[3,4]", "si32[4,3]"), attr: SortAttr{Dim: 0}, regions: []*Func{constTrue(tys("f32[]", "f32[]", "si32[]", "si32[]")...)},
			wantErr: "operand #1 has type si32[4,3], operand #0 has f32[3,4]: want the same shape"},
		{name: "sort/scalar", op: OpSort, args: tys("f32[]"), attr: SortAttr{Dim: 0}, regions: []*Func{constTrue(tys("f32[]", "f32[]")...)}, wantErr: "operands are scalars (f32[]): want rank at least 1"},
		{name: "sort/dim too large", op: OpSort, args: tys("f32[3,4]"), attr: SortAttr{Dim: 2}, regions: []*Func{constTrue(tys("f32[]", "f32[]")...)}, wantErr: "dim 2 is out of range for operand f32[3,4] (rank 2)"},
		{name: "sort/dim negative", op: OpSort, args: tys("f32[3,4]"), attr: SortAttr{Dim: -1}, regions: []*Func{constTrue(tys("f32[]", "f32[]")...)}, wantErr: "dim -1 is out of range"},
		{name: "sort/comparator parameters", op: OpSort, args: tys("f32[3]", "si32[3]"), attr: SortAttr{}, regions: []*Func{constTrue(tys("f32[]", "si32[]", "f32[]", "si32[]")...)},
			wantErr: "comparator region takes (f32[], si32[], f32[], si32[]), want (f32[], f32[], si32[], si32[])"},
		{name: "sort/comparator not scalar", op: OpSort, args: tys("f32[3]"), attr: SortAttr{}, regions: []*Func{constTrue(tys("f32[3]", "f32[3]")...)},
			wantErr: "comparator region takes (f32[3], f32[3]), want (f32[], f32[])"},
		{name: "sort/comparator result", op: OpSort, args: tys("f32[3]"), attr: SortAttr{}, regions: []*Func{passThrough(tys("f32[]", "f32[]")...)},
			wantErr: "comparator region returns (f32[], f32[]), want (i1[])"},
		{name: "sort/no operands", op: OpSort, attr: SortAttr{}, regions: []*Func{constTrue()}, wantErr: "has 0 operands, want at least 1"},

		// while
		{name: "while/two state values", op: OpWhile, args: tys("si32[]", "f32[3]"), regions: []*Func{constTrue(tys("si32[]", "f32[3]")...), passThrough(tys("si32[]", "f32[3]")...)}, want: tys("si32[]", "f32[3]")},
		{name: "while/no state", op: OpWhile, regions: []*Func{constTrue(), passThrough()}, want: []Type{}},
		{name: "while/cond result", op: OpWhile, args: tys("si32[]"), regions: []*Func{passThrough(ty("si32[]")), passThrough(ty("si32[]"))}, wantErr: "cond region returns (si32[]), want (i1[])"},
		{name: "while/cond parameters", op: OpWhile, args: tys("si32[]"), regions: []*Func{constTrue(ty("si64[]")), passThrough(ty("si32[]"))}, wantErr: "cond region takes (si64[]), want (si32[])"},
		{name: "while/body results", op: OpWhile, args: tys("si32[]"), regions: []*Func{constTrue(ty("si32[]")),
			region("body", tys("si32[]"), func(f *Func, p []*Value) []*Value { return []*Value{p[0], p[0]} })}, wantErr: "body region returns (si32[], si32[]), want (si32[])"},

		// case
		{name: "case/two branches", op: OpCase, args: tys("si32[]", "f32[2]"), regions: []*Func{passThrough(ty("f32[2]")), passThrough(ty("f32[2]"))}, want: tys("f32[2]")},
		{name: "case/branch without operands", op: OpCase, args: tys("si32[]"), regions: []*Func{constTrue()}, want: tys("i1[]")},
		{name: "case/index type", op: OpCase, args: tys("si64[]"), regions: []*Func{constTrue()}, wantErr: "index has type si64[], want si32[]"},
		{name: "case/index not scalar", op: OpCase, args: tys("si32[1]"), regions: []*Func{constTrue()}, wantErr: "index has type si32[1], want si32[]"},
		{name: "case/branch parameters", op: OpCase, args: tys("si32[]", "f32[2]"), regions: []*Func{passThrough(ty("f32[2]")), passThrough(ty("f32[3]"))}, wantErr: "branch #1 region takes (f32[3]), want (f32[2])"},
		{name: "case/branch results differ", op: OpCase, args: tys("si32[]", "f32[2]"), regions: []*Func{passThrough(ty("f32[2]")), constTrue(ty("f32[2]"))}, wantErr: "branch #1 region returns (i1[]), want (f32[2])"},

		// custom_call
		{name: "custom_call/results", op: OpCustomCall, args: tys("f32[2]"), attr: CustomCallAttr{Target: "foo", ResultTypes: tys("f32[2]", "si32[]")}, want: tys("f32[2]", "si32[]")},
		{name: "custom_call/no results", op: OpCustomCall, attr: CustomCallAttr{Target: "check.expect_eq", HasSideEffect: true}, want: []Type{}},
		{name: "custom_call/empty target", op: OpCustomCall, attr: CustomCallAttr{ResultTypes: tys("f32[2]")}, wantErr: "empty call target"},
		{name: "custom_call/dynamic result", op: OpCustomCall, attr: CustomCallAttr{Target: "foo", ResultTypes: tys("f32[?]")}, wantErr: "result #0: type f32[?]: " + errDynamic},
		{name: "custom_call/invalid result", op: OpCustomCall, attr: CustomCallAttr{Target: "foo", ResultTypes: []Type{{Shape: []int{}}}}, wantErr: "has an invalid element type"},

		// composite
		{name: "composite/decomposition", op: OpComposite, args: tys("f32[4]"), attr: CompositeAttr{Name: "stela.softmax"}, regions: []*Func{passThrough(ty("f32[4]"))}, want: tys("f32[4]")},
		{name: "composite/empty name", op: OpComposite, args: tys("f32[4]"), attr: CompositeAttr{}, regions: []*Func{passThrough(ty("f32[4]"))}, wantErr: "empty composite name"},
		{name: "composite/parameters", op: OpComposite, args: tys("f32[4]"), attr: CompositeAttr{Name: "x.y"}, regions: []*Func{passThrough(ty("f32[3]"))}, wantErr: "decomposition region takes (f32[3]), want (f32[4])"},

		// collectives
		{name: "all_reduce/two operands", op: OpAllReduce, args: tys("f32[2,3]", "f32[4]"), attr: AllReduceAttr{ReplicaGroups: [][]int64{{0, 1}, {2, 3}}}, regions: []*Func{sumRegion(F32)}, want: tys("f32[2,3]", "f32[4]")},
		{name: "all_reduce/all devices, groups of several sizes", op: OpAllReduce, args: tys("si32[2]"), attr: AllReduceAttr{ReplicaGroups: [][]int64{{0}, {1, 2}}, ChannelID: 3}, regions: []*Func{sumRegion(S32)}, want: tys("si32[2]")},
		{name: "all_reduce/empty groups", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{}, regions: []*Func{sumRegion(F32)}, want: tys("f32[2]")},
		{name: "all_reduce/element types differ", op: OpAllReduce, args: tys("f32[2]", "f64[2]"), attr: AllReduceAttr{}, regions: []*Func{sumRegion(F32)}, wantErr: "operand #1 has element type f64, operand #0 has f32"},
		{name: "all_reduce/body type", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{}, regions: []*Func{sumRegion(F64)}, wantErr: "body region takes (f64[], f64[]), want (f32[], f32[])"},
		{name: "all_reduce/repeated id", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{ReplicaGroups: [][]int64{{0, 1}, {1}}}, regions: []*Func{sumRegion(F32)}, wantErr: "id 1 appears twice"},
		{name: "all_reduce/negative id", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{ReplicaGroups: [][]int64{{0, -1}}}, regions: []*Func{sumRegion(F32)}, wantErr: "id -1 is negative"},
		{name: "all_reduce/empty group", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{ReplicaGroups: [][]int64{{0}, {}}}, regions: []*Func{sumRegion(F32)}, wantErr: "group #1 is empty"},
		{name: "all_reduce/global ids without channel", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{ReplicaGroups: [][]int64{{0}}, UseGlobalDeviceIDs: true}, regions: []*Func{sumRegion(F32)}, wantErr: "use_global_device_ids needs a channel_id > 0"},
		{name: "all_reduce/global ids without groups", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{ChannelID: 1, UseGlobalDeviceIDs: true}, regions: []*Func{sumRegion(F32)}, wantErr: "use_global_device_ids needs explicit replica groups"},
		{name: "all_reduce/negative channel", op: OpAllReduce, args: tys("f32[2]"), attr: AllReduceAttr{ChannelID: -1}, regions: []*Func{sumRegion(F32)}, wantErr: "channel_id -1 is negative"},
		{name: "all_gather/dim 1", op: OpAllGather, args: tys("bf16[2,3]", "si8[1,2]"), attr: AllGatherAttr{AllGatherDim: 1, ReplicaGroups: [][]int64{{0, 1, 2, 3}}, ChannelID: 1, UseGlobalDeviceIDs: true}, want: tys("bf16[2,12]", "si8[1,8]")},
		{name: "all_gather/empty groups", op: OpAllGather, args: tys("f32[2]"), attr: AllGatherAttr{}, wantErr: "replica_groups is empty: this op's result type depends on the group size, so the IR requires explicit, non-empty replica groups of one size"},
		{name: "all_gather/unequal groups", op: OpAllGather, args: tys("f32[2]"), attr: AllGatherAttr{ReplicaGroups: [][]int64{{0, 1}, {2}}}, wantErr: "group #1 has 1 members, group #0 has 2"},
		{name: "all_gather/dim out of range", op: OpAllGather, args: tys("f32[2]"), attr: AllGatherAttr{AllGatherDim: 1, ReplicaGroups: [][]int64{{0}}}, wantErr: "all_gather_dim 1 is out of range for operand #0 f32[2] (rank 1)"},
		{name: "all_gather/scalar", op: OpAllGather, args: tys("f32[]"), attr: AllGatherAttr{ReplicaGroups: [][]int64{{0}}}, wantErr: "all_gather_dim 0 is out of range"},
		{name: "reduce_scatter/dim 0", op: OpReduceScatter, args: tys("f32[8,3]"), attr: ReduceScatterAttr{ScatterDim: 0, ReplicaGroups: [][]int64{{0, 1}, {2, 3}}}, regions: []*Func{sumRegion(F32)}, want: tys("f32[4,3]")},
		{name: "reduce_scatter/does not divide", op: OpReduceScatter, args: tys("f32[2,6]"), attr: ReduceScatterAttr{ScatterDim: 1, ReplicaGroups: [][]int64{{0, 1, 2, 3}}}, regions: []*Func{sumRegion(F32)}, wantErr: "dimension 1 of operand f32[2,6] has size 6, which the group size 4 does not divide"},
		{name: "reduce_scatter/body", op: OpReduceScatter, args: tys("f32[4]"), attr: ReduceScatterAttr{ReplicaGroups: [][]int64{{0, 1}}}, regions: []*Func{passThrough(tys("f32[]", "f32[]")...)}, wantErr: "body region returns (f32[], f32[]), want (f32[])"},
		{name: "reduce_scatter/empty groups", op: OpReduceScatter, args: tys("f32[4]"), attr: ReduceScatterAttr{}, regions: []*Func{sumRegion(F32)}, wantErr: "replica_groups is empty"},
		{name: "all_to_all/split 1 concat 0", op: OpAllToAll, args: tys("si64[4,6]", "ui8[4,2]"), attr: AllToAllAttr{SplitDim: 1, ConcatDim: 0, SplitCount: 2, ReplicaGroups: [][]int64{{0, 1}, {2, 3}}, ChannelID: 2}, want: tys("si64[8,3]", "ui8[8,1]")},
		{name: "all_to_all/same dims", op: OpAllToAll, args: tys("f32[6]"), attr: AllToAllAttr{SplitCount: 3, ReplicaGroups: [][]int64{{2, 0, 1}}}, want: tys("f32[6]")},
		{name: "all_to_all/split count and groups", op: OpAllToAll, args: tys("f32[6]"), attr: AllToAllAttr{SplitCount: 2, ReplicaGroups: [][]int64{{2, 0, 1}}}, wantErr: "split_count 2 differs from the group size 3"},
		{name: "all_to_all/does not divide", op: OpAllToAll, args: tys("f32[5,2]"), attr: AllToAllAttr{SplitCount: 2, ConcatDim: 1, ReplicaGroups: [][]int64{{0, 1}}}, wantErr: "dimension 0 of operand #0 f32[5,2] has size 5, which split_count 2 does not divide"},
		{name: "all_to_all/concat out of range", op: OpAllToAll, args: tys("f32[4]"), attr: AllToAllAttr{SplitCount: 2, ConcatDim: 1, ReplicaGroups: [][]int64{{0, 1}}}, wantErr: "concat_dimension 1 is out of range"},
		{name: "all_to_all/split count", op: OpAllToAll, args: tys("f32[4]"), attr: AllToAllAttr{ReplicaGroups: [][]int64{{0, 1}}}, wantErr: "split_count 0: want at least 1"},
		{name: "collective_permute/ring", op: OpCollectivePermute, args: tys("c64[3]"), attr: CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 1}, {1, 2}, {2, 0}}, ChannelID: 1}, want: tys("c64[3]")},
		{name: "collective_permute/no pairs", op: OpCollectivePermute, args: tys("i1[3]"), attr: CollectivePermuteAttr{}, want: tys("i1[3]")},
		{name: "collective_permute/two sources", op: OpCollectivePermute, args: tys("f32[3]"), attr: CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 1}, {0, 2}}}, wantErr: "source 0 appears twice"},
		{name: "collective_permute/two targets", op: OpCollectivePermute, args: tys("f32[3]"), attr: CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 1}, {2, 1}}}, wantErr: "target 1 appears twice"},
		{name: "replica_id", op: OpReplicaID, want: tys("ui32[]")},
		{name: "partition_id", op: OpPartitionID, want: tys("ui32[]")},

		// manual_computation
		{name: "manual/split and replicated", op: OpManualComputation, args: tys("f32[8,6]", "si32[3]"), attr: manualAttr([]MeshAxis{{"x", 2}, {"y", 3}}, []*Sharding{ShardDims(2, map[int][]string{0: {"x"}, 1: {"y"}}), Replicated(1)}, []*Sharding{ShardDims(2, map[int][]string{0: {"y", "x"}}), Replicated(1)}),
			regions: []*Func{passThrough(ty("f32[4,2]"), ty("si32[3]"))}, want: tys("f32[24,2]", "si32[3]")},
		{name: "manual/no operands", op: OpManualComputation, attr: manualAttr([]MeshAxis{{"x", 4}}, nil, nil), regions: []*Func{passThrough()}, want: tys()},
		{name: "manual/body parameters", op: OpManualComputation, args: tys("f32[8]"), attr: manualAttr([]MeshAxis{{"x", 4}}, []*Sharding{ShardDims(1, map[int][]string{0: {"x"}})}, []*Sharding{Replicated(1)}),
			regions: []*Func{passThrough(ty("f32[8]"))}, wantErr: "body region takes (f32[8]), want (f32[2])"},
		{name: "manual/indivisible", op: OpManualComputation, args: tys("f32[6]"), attr: manualAttr([]MeshAxis{{"x", 4}}, []*Sharding{ShardDims(1, map[int][]string{0: {"x"}})}, []*Sharding{Replicated(1)}),
			regions: []*Func{passThrough(ty("f32[1]"))}, wantErr: "operand #0: sharding [{\"x\"}] splits dimension 0 of f32[6] (size 6) 4 ways"},
		{name: "manual/unknown in axis", op: OpManualComputation, args: tys("f32[8]"), attr: manualAttr([]MeshAxis{{"x", 4}}, []*Sharding{ShardDims(1, map[int][]string{0: {"y"}})}, []*Sharding{Replicated(1)}),
			regions: []*Func{passThrough(ty("f32[8]"))}, wantErr: `names axis "y", which mesh ["x"=4] does not have`},
		{name: "manual/unknown out axis", op: OpManualComputation, args: tys("f32[8]"), attr: manualAttr([]MeshAxis{{"x", 4}}, []*Sharding{Replicated(1)}, []*Sharding{ShardDims(1, map[int][]string{0: {"z"}})}),
			regions: []*Func{passThrough(ty("f32[8]"))}, wantErr: `result #0: out sharding [{"z"}] names axis "z"`},
		{name: "manual/out rank", op: OpManualComputation, args: tys("f32[8]"), attr: manualAttr([]MeshAxis{{"x", 4}}, []*Sharding{Replicated(1)}, []*Sharding{Replicated(2)}),
			regions: []*Func{passThrough(ty("f32[8]"))}, wantErr: "out sharding [{}, {}] has 2 dimensions, but the body's result f32[8] has rank 1"},
		{name: "manual/partial", op: OpManualComputation, args: tys("f32[8]"), attr: manualAttr([]MeshAxis{{"x", 4}}, []*Sharding{{Dims: [][]string{nil}, Partial: []string{"x"}}}, []*Sharding{Replicated(1)}),
			regions: []*Func{passThrough(ty("f32[8]"))}, wantErr: "in sharding [{}] partial {\"x\"} is partial"},
		{name: "manual/shardings count", op: OpManualComputation, args: tys("f32[8]"), attr: manualAttr([]MeshAxis{{"x", 4}}, nil, nil),
			regions: []*Func{passThrough(ty("f32[8]"))}, wantErr: "0 in_shardings for 1 operands"},
		{name: "manual/bad mesh", op: OpManualComputation, attr: manualAttr([]MeshAxis{{"x", 0}}, nil, nil), regions: []*Func{passThrough()}, wantErr: `mesh: mesh axis "x" has size 0`},

		// checks shared by every rule (guardRule)
		{name: "all/dynamic operand", op: OpAdd, args: tys("f32[?]", "f32[?]"), wantErr: "operand #0: type f32[?]: dynamic dimensions are not supported yet"},
		{name: "all/dynamic operand of a structural op", op: OpTranspose, args: tys("f32[2,?]"), attr: TransposeAttr{Perm: []int{1, 0}}, wantErr: errDynamic},
		{name: "all/negative dimension", op: OpNegate, args: []Type{{DType: F32, Shape: []int{-4}}}, wantErr: "operand #0: type f32[?] has negative dimension -4"},
		{name: "all/invalid element type", op: OpReshape, args: []Type{{Shape: []int{2}}}, attr: ReshapeAttr{Shape: []int{2}}, wantErr: "operand #0: type invalid[2] has an invalid element type"},
		{name: "all/operand count", op: OpSelect, args: tys("i1[]", "f32[]"), wantErr: "has 2 operands, want 3"},
		{name: "all/attribute type", op: OpTranspose, args: tys("f32[2]"), attr: ReshapeAttr{}, wantErr: "attribute is ir.ReshapeAttr, want ir.TransposeAttr"},
		{name: "all/attribute missing", op: OpTranspose, args: tys("f32[2]"), wantErr: "attribute is <nil>, want ir.TransposeAttr"},
		{name: "all/region count", op: OpReduce, args: tys("f32[2]", "f32[]"), attr: ReduceAttr{}, wantErr: "has 0 regions, want 1"},
		{name: "all/nil region", op: OpWhile, regions: []*Func{nil, passThrough()}, wantErr: "region #0 is nil"},
		{name: "all/iota dynamic type", op: OpIota, attr: IotaAttr{Type: ty("si32[?]")}, wantErr: errDynamic},
		{name: "all/constant data mismatch", op: OpConstant, attr: ConstantAttr{Value: &Literal{Type: ty("f32[2]"), Data: []float32{1}}}, wantErr: "value has 1 elements, want 2 for f32[2]"},
		{name: "all/constant data type", op: OpConstant, attr: ConstantAttr{Value: &Literal{Type: ty("f32[1]"), Data: []int32{1}}}, wantErr: "value data is []int32, want []float32 for f32[1]"},
	}
}

func TestReducePrecisionRule(t *testing.T) {
	if _, err := inferReducePrecision(tys("f32[2]"), ReducePrecisionAttr{ExponentBits: 5, MantissaBits: 10}, nil); err != nil {
		t.Fatal(err)
	}
	_, err := inferReducePrecision(tys("f32[2]"), ReducePrecisionAttr{ExponentBits: 0, MantissaBits: 10}, nil)
	if err == nil || !strings.Contains(err.Error(), "exponent_bits 0 and mantissa_bits 10") {
		t.Fatalf("got %v", err)
	}
}

func TestTypeRules(t *testing.T) {
	for _, c := range ruleCases() {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.op.Info().Infer(c.args, c.attr, c.regions)
			if c.wantErr != "" {
				if err == nil {
					t.Fatalf("got %v, want error containing %q", got, c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %q, want it to contain %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !sameTypes(got, c.want) {
				t.Fatalf("got %s, want %s", typeListString(got), typeListString(c.want))
			}
		})
	}
}

// TestTypeRulesThroughEmit checks that a rule's error reaches the user with
// the location and op name.
func TestTypeRulesThroughEmit(t *testing.T) {
	loc := Loc{File: "/src/mlp.go", Line: 42}
	f := NewFunc("f", ty("f32[2,4]"), ty("f32[5,3]"))
	_, err := f.Emit(loc, OpDotGeneral, f.Params, DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0}})
	want := "mlp.go:42: dot_general: contracting dimension sizes differ: lhs dim 1 is 4, rhs dim 0 is 5"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if len(f.Body) != 0 {
		t.Fatalf("a failed Emit added %d instructions", len(f.Body))
	}
	g := NewFunc("g", ty("f32[?,3]"))
	_, err = g.Emit(loc, OpExp, g.Params, nil)
	want = "mlp.go:42: exponential: operand #0: type f32[?,3]: dynamic dimensions are not supported yet"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestTypeRulesReturnFreshShapes checks that a result shape does not alias
// an attribute slice that a later edit could change.
func TestTypeRulesReturnFreshShapes(t *testing.T) {
	a := ReshapeAttr{Shape: []int{6}}
	ts, err := OpReshape.Info().Infer(tys("f32[2,3]"), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Shape[0] = 7
	if ts[0].Shape[0] != 6 {
		t.Fatalf("result shape aliases the attribute")
	}
}

// TestEveryRuleImplemented guards against a stub left behind: every op has
// a rule, and each rule filled in here has a valid case in ruleCases.
func TestEveryRuleImplemented(t *testing.T) {
	covered := map[Op]bool{}
	for _, c := range ruleCases() {
		if c.wantErr == "" {
			covered[c.op] = true
		}
	}
	for _, op := range AllOps() {
		if op.Info().Infer == nil {
			t.Errorf("%v has no type rule", op)
		}
		switch op {
		case OpSelect, OpClamp, OpBitcastConvert, OpBroadcastInDim, OpReshape, OpTranspose, OpSlice,
			OpDynamicSlice, OpDynamicUpdateSlice, OpConcatenate, OpPad, OpReverse, OpDotGeneral, OpReduce,
			OpReduceWindow, OpConvolution, OpGather, OpScatter, OpSort, OpWhile, OpCase, OpCustomCall, OpComposite,
			OpAllReduce, OpAllGather, OpReduceScatter, OpAllToAll, OpCollectivePermute, OpReplicaID, OpPartitionID,
			OpManualComputation:
			if !covered[op] {
				t.Errorf("%v has no valid case in ruleCases", op)
			}
		}
	}
}

// Nasty inputs: a rule must answer every input with results or an error,
// never a panic (guardRule turns one into an "internal error", which fails
// the test).

var nastyInts = []int{0, 1, 2, 3, 4, -1, -2, 1 << 40, math.MaxInt, math.MinInt, math.MaxInt / 2}

func nastyInt(rng *rand.Rand) int {
	if rng.Intn(3) > 0 {
		return rng.Intn(5) - 1
	}
	return nastyInts[rng.Intn(len(nastyInts))]
}

func randomType(rng *rand.Rand) Type {
	d := AllDTypes[rng.Intn(len(AllDTypes))]
	if rng.Intn(20) == 0 {
		d = DType(rng.Intn(30))
	}
	shape := make([]int, rng.Intn(4))
	for i := range shape {
		shape[i] = rng.Intn(4)
		if rng.Intn(30) == 0 {
			shape[i] = nastyInt(rng)
		}
	}
	return Type{DType: d, Shape: shape}
}

func randomRegion(rng *rand.Rand) *Func {
	switch rng.Intn(6) {
	case 0:
		return nil
	case 1:
		return &Func{Name: "broken", Params: []*Value{nil}, Results: []*Value{nil}}
	case 2:
		return adder(AllDTypes[1+rng.Intn(len(AllDTypes)-1)])
	}
	params := make([]Type, rng.Intn(4))
	for i := range params {
		params[i] = randomType(rng)
	}
	return passThrough(params...)
}

// randomValue makes a random value of type t (an attribute or a field).
func randomValue(rng *rand.Rand, t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch {
	case t == reflect.TypeFor[Type]():
		v.Set(reflect.ValueOf(randomType(rng)))
	case t == reflect.TypeFor[*Literal]():
		if rng.Intn(2) == 0 {
			v.Set(reflect.ValueOf(&Literal{Type: randomType(rng), Data: []float32{1, 2}}))
		}
	case t.Kind() == reflect.Interface:
		v.Set(reflect.ValueOf(nastyInt(rng)))
	case t.Kind() == reflect.Int:
		v.SetInt(int64(nastyInt(rng)))
	case t.Kind() == reflect.Uint8:
		v.SetUint(uint64(rng.Intn(20)))
	case t.Kind() == reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case t.Kind() == reflect.String:
		v.SetString([]string{"", "x", "stela.softmax"}[rng.Intn(3)])
	case t.Kind() == reflect.Array:
		for i := range v.Len() {
			v.Index(i).Set(randomValue(rng, t.Elem()))
		}
	case t.Kind() == reflect.Slice:
		if rng.Intn(5) == 0 {
			return v // nil
		}
		n := rng.Intn(5)
		v.Set(reflect.MakeSlice(t, n, n))
		for i := range n {
			v.Index(i).Set(randomValue(rng, t.Elem()))
		}
	case t.Kind() == reflect.Struct:
		for i := range v.NumField() {
			v.Field(i).Set(randomValue(rng, t.Field(i).Type))
		}
	}
	return v
}

// mutate returns a copy of attr with one field, or one element of a slice
// field, replaced by a random value; it never writes into attr's slices.
func mutate(rng *rand.Rand, attr any) any {
	if attr == nil {
		return nil
	}
	v := reflect.New(reflect.TypeOf(attr)).Elem()
	v.Set(reflect.ValueOf(attr))
	if v.Kind() != reflect.Struct || v.NumField() == 0 {
		return attr
	}
	fv := v.Field(rng.Intn(v.NumField()))
	if fv.Kind() == reflect.Slice && fv.Len() > 0 && rng.Intn(2) == 0 {
		c := reflect.MakeSlice(fv.Type(), fv.Len(), fv.Len())
		reflect.Copy(c, fv)
		c.Index(rng.Intn(c.Len())).Set(randomValue(rng, fv.Type().Elem()))
		fv.Set(c)
	} else {
		fv.Set(randomValue(rng, fv.Type()))
	}
	return v.Interface()
}

func mutateTypes(rng *rand.Rand, ts []Type) []Type {
	out := copyTypes(ts)
	if len(out) == 0 || rng.Intn(4) == 0 {
		return append(out, randomType(rng))
	}
	i := rng.Intn(len(out))
	switch {
	case rng.Intn(3) == 0:
		out[i] = randomType(rng)
	case len(out[i].Shape) > 0:
		out[i].Shape[rng.Intn(len(out[i].Shape))] = nastyInt(rng)
	default:
		out[i].DType = AllDTypes[rng.Intn(len(AllDTypes))]
	}
	return out
}

func checkNoPanic(t *testing.T, op Op, args []Type, attr any, regions []*Func) {
	t.Helper()
	ts, err := op.Info().Infer(args, attr, regions)
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v%s attr %+v: %v", op, typeListString(args), attr, err)
		}
		return
	}
	for _, r := range ts {
		if checkStaticType(r) != nil {
			t.Fatalf("%v%s attr %+v: bad result type %v", op, typeListString(args), attr, r)
		}
	}
}

func TestTypeRulesNastyInputs(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cases := ruleCases()
	// Mutations of valid cases reach the deep checks.
	for range 40 {
		for _, c := range cases {
			args, attr, regions := c.args, c.attr, c.regions
			switch rng.Intn(4) {
			case 0:
				args = mutateTypes(rng, args)
			case 1:
				if len(regions) > 0 {
					regions = append([]*Func{}, regions...)
					regions[rng.Intn(len(regions))] = randomRegion(rng)
				}
			default:
				attr = mutate(rng, attr)
				if rng.Intn(3) == 0 {
					attr = mutate(rng, attr)
				}
			}
			checkNoPanic(t, c.op, args, attr, regions)
		}
	}
	// Random everything, for every op.
	for _, op := range AllOps() {
		info := op.Info()
		for range 300 {
			n := info.NumArgs
			if n < 0 {
				n = info.MinArgs + rng.Intn(4)
			}
			if rng.Intn(10) == 0 {
				n = rng.Intn(5)
			}
			args := make([]Type, n)
			for i := range args {
				args[i] = randomType(rng)
			}
			var attr any
			if info.Attr != nil && rng.Intn(20) != 0 {
				attr = randomValue(rng, info.Attr).Interface()
			}
			nr := info.NumRegions
			if nr < 0 {
				nr = 1 + rng.Intn(3)
			}
			regions := make([]*Func, nr)
			for i := range regions {
				regions[i] = randomRegion(rng)
			}
			checkNoPanic(t, op, args, attr, regions)
		}
	}
}
