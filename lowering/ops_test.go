package lowering

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// opCase lowers one small function that uses op and checks the first
// StableHLO op named want: its attributes (name → MLIR text; "" means the
// attribute must be absent) and its result types. The printed module is
// compared with testdata/ops/<name>.mlir.
type opCase struct {
	name  string
	op    ir.Op
	build func(t *testing.T) *ir.Func
	want  string
	attrs map[string]string
	types string // the op's result types, comma-separated; "" to skip
}

// unaryDType and binaryDType pick an element type each elementwise op
// accepts, preferring ones that show the element type mapping.
var unaryDType = map[ir.Op]ir.DType{
	ir.OpAbs: ir.S32, ir.OpNegate: ir.S64, ir.OpSign: ir.F32, ir.OpNot: ir.Bool,
	ir.OpPopcnt: ir.U8, ir.OpClz: ir.U32, ir.OpIsFinite: ir.F16,
	ir.OpReal: ir.C64, ir.OpImag: ir.C128, ir.OpExp: ir.BF16, ir.OpLog: ir.F64,
	ir.OpCosine: ir.C64,
}

var binaryDType = map[ir.Op]ir.DType{
	ir.OpAdd: ir.F32, ir.OpSubtract: ir.S8, ir.OpMultiply: ir.U16, ir.OpDivide: ir.S32,
	ir.OpRemainder: ir.U64, ir.OpPower: ir.F64, ir.OpMaximum: ir.Bool, ir.OpMinimum: ir.BF16,
	ir.OpAtan2: ir.F32, ir.OpAnd: ir.Bool, ir.OpOr: ir.U8, ir.OpXor: ir.S16,
	ir.OpShiftLeft: ir.S32, ir.OpShiftRightArithmetic: ir.S32, ir.OpShiftRightLogical: ir.U32,
	ir.OpComplex: ir.F32,
}

func elementwiseCases() []opCase {
	var cs []opCase
	for _, op := range ir.AllOps() {
		info := op.Info()
		if !info.Has(ir.Elementwise) || info.Attr != nil {
			continue
		}
		op := op
		switch info.NumArgs {
		case 1:
			d, ok := unaryDType[op]
			if !ok {
				d = ir.F32
				if !info.Has(ir.FloatOnly) {
					d = ir.S32
				}
			}
			want := "stablehlo." + op.String()
			if op == ir.OpErf {
				want = "chlo.erf" // StableHLO has no erf
			}
			cs = append(cs, opCase{name: op.String(), op: op, want: want,
				build: func(t *testing.T) *ir.Func {
					b := newFB(t, op.String(), tt(d, 2, 3))
					return b.ret(b.e1(op, nil, b.p(0)))
				}})
		case 2:
			d, ok := binaryDType[op]
			if !ok {
				d = ir.F32
			}
			cs = append(cs, opCase{name: op.String(), op: op, want: "stablehlo." + op.String(),
				build: func(t *testing.T) *ir.Func {
					b := newFB(t, op.String(), tt(d, 4), tt(d, 4))
					return b.ret(b.e1(op, nil, b.p(0), b.p(1)))
				}})
		}
	}
	return cs
}

func opCases() []opCase {
	cs := elementwiseCases()
	cs = append(cs, []opCase{
		{name: "constant", op: ir.OpConstant, want: "stablehlo.constant",
			attrs: map[string]string{"value": "dense<[[1.000000e+00, 2.500000e+00], [-0.000000e+00, 0x7FC00000]]> : tensor<2x2xf32>"},
			types: "tensor<2x2xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "constant")
				nan := float32FromBits(0x7FC00000)
				return b.ret(b.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.LiteralOf([]int{2, 2}, float32(1), 2.5, negZero32(), nan)}))
			}},
		{name: "iota", op: ir.OpIota, want: "stablehlo.iota",
			attrs: map[string]string{"iota_dimension": "1 : i64"}, types: "tensor<2x3xui32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "iota")
				return b.ret(b.e1(ir.OpIota, ir.IotaAttr{Type: tt(ir.U32, 2, 3), Dim: 1}))
			}},
		{name: "reduce_precision", op: ir.OpReducePrecision, want: "stablehlo.reduce_precision",
			attrs: map[string]string{"exponent_bits": "5 : i32", "mantissa_bits": "10 : i32"},
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "reduce_precision", tt(ir.F32, 4))
				return b.ret(b.e1(ir.OpReducePrecision, ir.ReducePrecisionAttr{ExponentBits: 5, MantissaBits: 10}, b.p(0)))
			}},
		{name: "compare", op: ir.OpCompare, want: "stablehlo.compare",
			attrs: map[string]string{"comparison_direction": "#stablehlo<comparison_direction LT>", "compare_type": "#stablehlo<comparison_type FLOAT>"},
			types: "tensor<4xi1>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "compare", tt(ir.F32, 4), tt(ir.F32, 4))
				return b.ret(b.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, b.p(0), b.p(1)))
			}},
		{name: "select", op: ir.OpSelect, want: "stablehlo.select", types: "tensor<4xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "select", tt(ir.Bool, 4), tt(ir.F32, 4), tt(ir.F32, 4))
				return b.ret(b.e1(ir.OpSelect, nil, b.p(0), b.p(1), b.p(2)))
			}},
		{name: "clamp", op: ir.OpClamp, want: "stablehlo.clamp", types: "tensor<4xi32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "clamp", tt(ir.S32), tt(ir.S32, 4), tt(ir.S32))
				return b.ret(b.e1(ir.OpClamp, nil, b.p(0), b.p(1), b.p(2)))
			}},
		{name: "convert", op: ir.OpConvert, want: "stablehlo.convert", types: "tensor<2x3xbf16>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "convert", tt(ir.U8, 2, 3))
				return b.ret(b.e1(ir.OpConvert, ir.ConvertAttr{To: ir.BF16}, b.p(0)))
			}},
		{name: "bitcast_convert", op: ir.OpBitcastConvert, want: "stablehlo.bitcast_convert", types: "tensor<3x4xui8>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "bitcast_convert", tt(ir.F32, 3))
				return b.ret(b.e1(ir.OpBitcastConvert, ir.BitcastConvertAttr{To: ir.U8}, b.p(0)))
			}},
		{name: "broadcast_in_dim", op: ir.OpBroadcastInDim, want: "stablehlo.broadcast_in_dim",
			attrs: map[string]string{"broadcast_dimensions": "array<i64: 1>"}, types: "tensor<2x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "broadcast_in_dim", tt(ir.F32, 3))
				return b.ret(b.e1(ir.OpBroadcastInDim, ir.BroadcastInDimAttr{Shape: []int{2, 3}, Dims: []int{1}}, b.p(0)))
			}},
		{name: "reshape", op: ir.OpReshape, want: "stablehlo.reshape", types: "tensor<3x2xi64>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "reshape", tt(ir.S64, 2, 3))
				return b.ret(b.e1(ir.OpReshape, ir.ReshapeAttr{Shape: []int{3, 2}}, b.p(0)))
			}},
		{name: "transpose", op: ir.OpTranspose, want: "stablehlo.transpose",
			attrs: map[string]string{"permutation": "array<i64: 1, 0>"}, types: "tensor<3x2xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "transpose", tt(ir.F32, 2, 3))
				return b.ret(b.e1(ir.OpTranspose, ir.TransposeAttr{Perm: []int{1, 0}}, b.p(0)))
			}},
		{name: "slice", op: ir.OpSlice, want: "stablehlo.slice",
			attrs: map[string]string{"start_indices": "array<i64: 1, 0>", "limit_indices": "array<i64: 4, 3>", "strides": "array<i64: 2, 1>"},
			types: "tensor<2x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "slice", tt(ir.F32, 4, 3))
				return b.ret(b.e1(ir.OpSlice, ir.SliceAttr{Start: []int{1, 0}, Limit: []int{4, 3}, Stride: []int{2, 1}}, b.p(0)))
			}},
		{name: "dynamic_slice", op: ir.OpDynamicSlice, want: "stablehlo.dynamic_slice",
			attrs: map[string]string{"slice_sizes": "array<i64: 2, 2>"}, types: "tensor<2x2xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "dynamic_slice", tt(ir.F32, 4, 3), tt(ir.S32), tt(ir.S32))
				return b.ret(b.e1(ir.OpDynamicSlice, ir.DynamicSliceAttr{Sizes: []int{2, 2}}, b.p(0), b.p(1), b.p(2)))
			}},
		{name: "dynamic_update_slice", op: ir.OpDynamicUpdateSlice, want: "stablehlo.dynamic_update_slice", types: "tensor<4x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "dynamic_update_slice", tt(ir.F32, 4, 3), tt(ir.F32, 2, 2), tt(ir.S64), tt(ir.S64))
				return b.ret(b.e1(ir.OpDynamicUpdateSlice, nil, b.p(0), b.p(1), b.p(2), b.p(3)))
			}},
		{name: "concatenate", op: ir.OpConcatenate, want: "stablehlo.concatenate",
			attrs: map[string]string{"dimension": "0 : i64"}, types: "tensor<5x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "concatenate", tt(ir.F32, 2, 3), tt(ir.F32, 3, 3))
				return b.ret(b.e1(ir.OpConcatenate, ir.ConcatenateAttr{Dim: 0}, b.p(0), b.p(1)))
			}},
		{name: "pad", op: ir.OpPad, want: "stablehlo.pad",
			attrs: map[string]string{"edge_padding_low": "array<i64: 1, -1>", "edge_padding_high": "array<i64: 0, 2>", "interior_padding": "array<i64: 1, 0>"},
			types: "tensor<4x4xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "pad", tt(ir.F32, 2, 3), tt(ir.F32))
				return b.ret(b.e1(ir.OpPad, ir.PadAttr{Low: []int{1, -1}, High: []int{0, 2}, Interior: []int{1, 0}}, b.p(0), b.p(1)))
			}},
		{name: "reverse", op: ir.OpReverse, want: "stablehlo.reverse",
			attrs: map[string]string{"dimensions": "array<i64: 0, 1>"},
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "reverse", tt(ir.F32, 2, 3))
				return b.ret(b.e1(ir.OpReverse, ir.ReverseAttr{Dims: []int{0, 1}}, b.p(0)))
			}},
		{name: "fft", op: ir.OpFFT, want: "stablehlo.fft",
			attrs: map[string]string{"fft_type": "#stablehlo<fft_type RFFT>", "fft_length": "array<i64: 3, 8>"},
			types: "tensor<2x3x5xcomplex<f32>>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "fft", tt(ir.F32, 2, 3, 8))
				return b.ret(b.e1(ir.OpFFT, ir.FFTAttr{Type: ir.FFTReal, Length: []int{3, 8}}, b.p(0)))
			}},
		{name: "dot_general", op: ir.OpDotGeneral, want: "stablehlo.dot_general",
			attrs: map[string]string{
				"dot_dimension_numbers": "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
				"precision_config":      "",
			},
			types: "tensor<2x3x5xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "dot_general", tt(ir.F32, 2, 3, 4), tt(ir.F32, 2, 4, 5))
				return b.ret(b.e1(ir.OpDotGeneral, ir.DotGeneralAttr{LhsBatch: []int{0}, RhsBatch: []int{0}, LhsContract: []int{2}, RhsContract: []int{1}}, b.p(0), b.p(1)))
			}},
		{name: "dot_general_precision", op: ir.OpDotGeneral, want: "stablehlo.dot_general",
			attrs: map[string]string{
				"dot_dimension_numbers": "#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>",
				"precision_config":      "[#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]",
			},
			types: "tensor<3x5xbf16>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "matmul", tt(ir.BF16, 3, 4), tt(ir.BF16, 4, 5))
				return b.ret(b.e1(ir.OpDotGeneral, ir.DotGeneralAttr{LhsContract: []int{1}, RhsContract: []int{0},
					Precision: []ir.Precision{ir.PrecisionHighest, ir.PrecisionDefault}}, b.p(0), b.p(1)))
			}},
		{name: "reduce", op: ir.OpReduce, want: "stablehlo.reduce",
			attrs: map[string]string{"dimensions": "array<i64: 1>"}, types: "tensor<2xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "reduce", tt(ir.F32, 2, 3), tt(ir.F32))
				return b.ret(b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{1}}, []*ir.Value{b.p(0), b.p(1)}, adder(t, ir.F32))...)
			}},
		{name: "reduce_variadic", op: ir.OpReduce, want: "stablehlo.reduce",
			attrs: map[string]string{"dimensions": "array<i64: 0>"}, types: "tensor<3xf32>, tensor<3xi32>",
			build: func(t *testing.T) *ir.Func {
				// argmax-like: (max value, its index) over dimension 0.
				b := newFB(t, "argmax", tt(ir.F32, 4, 3), tt(ir.S32, 4, 3), tt(ir.F32), tt(ir.S32))
				f, i := ir.Scalar(ir.F32), ir.Scalar(ir.S32)
				body := region(t, "argmax_body", []ir.Type{f, i, f, i}, func(r *fb) []*ir.Value {
					gt := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, r.p(2), r.p(0))
					return []*ir.Value{
						r.e1(ir.OpSelect, nil, gt, r.p(2), r.p(0)),
						r.e1(ir.OpSelect, nil, gt, r.p(3), r.p(1)),
					}
				})
				return b.ret(b.emit(ir.OpReduce, ir.ReduceAttr{Dims: []int{0}}, []*ir.Value{b.p(0), b.p(1), b.p(2), b.p(3)}, body)...)
			}},
		{name: "reduce_window", op: ir.OpReduceWindow, want: "stablehlo.reduce_window",
			attrs: map[string]string{
				"window_dimensions": "array<i64: 2, 2>", "window_strides": "array<i64: 2, 1>",
				"base_dilations": "", "window_dilations": "array<i64: 1, 2>",
				"padding": "dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>",
			},
			types: "tensor<2x2xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "reduce_window", tt(ir.F32, 4, 3), tt(ir.F32))
				return b.ret(b.emit(ir.OpReduceWindow, ir.ReduceWindowAttr{WindowDims: []int{2, 2}, Strides: []int{2, 1},
					WindowDilations: []int{1, 2}, Padding: [][2]int{{0, 1}, {1, 0}}},
					[]*ir.Value{b.p(0), b.p(1)}, adder(t, ir.F32))...)
			}},
		{name: "convolution", op: ir.OpConvolution, want: "stablehlo.convolution",
			attrs: map[string]string{
				"dimension_numbers":   "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>",
				"window_strides":      "array<i64: 1, 2>",
				"padding":             "dense<1> : tensor<2x2xi64>",
				"lhs_dilation":        "",
				"rhs_dilation":        "array<i64: 1, 1>",
				"window_reversal":     "array<i1: false, true>",
				"feature_group_count": "1 : i64",
				"batch_group_count":   "1 : i64",
				"precision_config":    "[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]",
			},
			types: "tensor<1x5x3x8xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "conv", tt(ir.F32, 1, 5, 5, 3), tt(ir.F32, 3, 3, 3, 8))
				return b.ret(b.e1(ir.OpConvolution, ir.ConvolutionAttr{
					WindowStrides: []int{1, 2}, Padding: [][2]int{{1, 1}, {1, 1}}, RhsDilation: []int{1, 1},
					WindowReversal: []bool{false, true},
					InputBatchDim:  0, InputFeatureDim: 3, InputSpatialDims: []int{1, 2},
					KernelInputFeatureDim: 2, KernelOutputFeatureDim: 3, KernelSpatialDims: []int{0, 1},
					OutputBatchDim: 0, OutputFeatureDim: 3, OutputSpatialDims: []int{1, 2},
					FeatureGroupCount: 1, BatchGroupCount: 1,
					Precision: []ir.Precision{ir.PrecisionDefault, ir.PrecisionHigh},
				}, b.p(0), b.p(1)))
			}},
		{name: "gather", op: ir.OpGather, want: "stablehlo.gather",
			attrs: map[string]string{
				"dimension_numbers":  "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
				"slice_sizes":        "array<i64: 1, 3>",
				"indices_are_sorted": "true",
			},
			types: "tensor<2x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "gather", tt(ir.F32, 5, 3), tt(ir.S32, 2, 1))
				return b.ret(b.e1(ir.OpGather, ir.GatherAttr{OffsetDims: []int{1}, CollapsedSliceDims: []int{0},
					StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 3}, IndicesAreSorted: true}, b.p(0), b.p(1)))
			}},
		{name: "gather_batching", op: ir.OpGather, want: "stablehlo.gather",
			attrs: map[string]string{
				"dimension_numbers":  "#stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>",
				"slice_sizes":        "array<i64: 1, 1, 4>",
				"indices_are_sorted": "",
			},
			types: "tensor<2x3x4xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "gather_batching", tt(ir.F32, 2, 5, 4), tt(ir.S32, 2, 3, 1))
				return b.ret(b.e1(ir.OpGather, ir.GatherAttr{OffsetDims: []int{2}, CollapsedSliceDims: []int{1},
					OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0},
					StartIndexMap: []int{1}, IndexVectorDim: 2, SliceSizes: []int{1, 1, 4}}, b.p(0), b.p(1)))
			}},
		{name: "scatter", op: ir.OpScatter, want: "stablehlo.scatter",
			attrs: map[string]string{
				"scatter_dimension_numbers": "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>",
				"indices_are_sorted":        "",
				"unique_indices":            "true",
			},
			types: "tensor<5x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "scatter", tt(ir.F32, 5, 3), tt(ir.S32, 2, 1), tt(ir.F32, 2, 3))
				return b.ret(b.emit(ir.OpScatter, ir.ScatterAttr{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0},
					ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1, UniqueIndices: true},
					[]*ir.Value{b.p(0), b.p(1), b.p(2)}, adder(t, ir.F32))...)
			}},
		{name: "sort", op: ir.OpSort, want: "stablehlo.sort",
			attrs: map[string]string{"dimension": "1 : i64", "is_stable": "true"},
			types: "tensor<2x5xf32>, tensor<2x5xi32>",
			build: func(t *testing.T) *ir.Func {
				// Keys with their positions, NaNs last (as jnp.argsort).
				b := newFB(t, "argsort", tt(ir.F32, 2, 5), tt(ir.S32, 2, 5))
				f, i := ir.Scalar(ir.F32), ir.Scalar(ir.S32)
				less := region(t, "less", []ir.Type{f, f, i, i}, func(r *fb) []*ir.Value {
					lt := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, r.p(0), r.p(1))
					aNaN := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpNE}, r.p(0), r.p(0))
					bNaN := r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpNE}, r.p(1), r.p(1))
					return []*ir.Value{r.e1(ir.OpOr, nil, lt, r.e1(ir.OpAnd, nil, r.e1(ir.OpNot, nil, aNaN), bNaN))}
				})
				return b.ret(b.emit(ir.OpSort, ir.SortAttr{Dim: 1, IsStable: true}, []*ir.Value{b.p(0), b.p(1)}, less)...)
			}},
		{name: "sort_unstable", op: ir.OpSort, want: "stablehlo.sort",
			attrs: map[string]string{"dimension": "0 : i64", "is_stable": "false"},
			types: "tensor<4xui16>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "sort", tt(ir.U16, 4))
				u := ir.Scalar(ir.U16)
				greater := region(t, "greater", []ir.Type{u, u}, func(r *fb) []*ir.Value {
					return []*ir.Value{r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpGT}, r.p(0), r.p(1))}
				})
				return b.ret(b.emit(ir.OpSort, ir.SortAttr{Dim: 0}, []*ir.Value{b.p(0)}, greater)...)
			}},
		{name: "while", op: ir.OpWhile, want: "stablehlo.while", types: "tensor<i32>, tensor<4xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "loop", tt(ir.S32), tt(ir.F32, 4))
				state := []ir.Type{tt(ir.S32), tt(ir.F32, 4)}
				cond := region(t, "cond", state, func(r *fb) []*ir.Value {
					ten := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(10))})
					return []*ir.Value{r.e1(ir.OpCompare, ir.CompareAttr{Direction: ir.CmpLT}, r.p(0), ten)}
				})
				body := region(t, "body", state, func(r *fb) []*ir.Value {
					one := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.ScalarOf(int32(1))})
					return []*ir.Value{r.e1(ir.OpAdd, nil, r.p(0), one), r.e1(ir.OpExp, nil, r.p(1))}
				})
				return b.ret(b.emit(ir.OpWhile, nil, []*ir.Value{b.p(0), b.p(1)}, cond, body)...)
			}},
		{name: "case", op: ir.OpCase, want: "stablehlo.case", types: "tensor<4xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "case", tt(ir.S32), tt(ir.F32, 4), tt(ir.F32, 4))
				args := []ir.Type{tt(ir.F32, 4), tt(ir.F32, 4)}
				add := region(t, "add", args, func(r *fb) []*ir.Value {
					return []*ir.Value{r.e1(ir.OpAdd, nil, r.p(0), r.p(1))}
				})
				second := region(t, "second", args, func(r *fb) []*ir.Value { return []*ir.Value{r.p(1)} })
				return b.ret(b.emit(ir.OpCase, nil, []*ir.Value{b.p(0), b.p(1), b.p(2)}, add, second)...)
			}},
		{name: "custom_call", op: ir.OpCustomCall, want: "stablehlo.custom_call",
			attrs: map[string]string{
				"call_target_name": `"my_target"`, "has_side_effect": "true", "backend_config": `"cfg \22x\22"`,
			},
			types: "tensor<2xf32>, tensor<ui8>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "custom_call", tt(ir.F32, 2))
				return b.ret(b.emit(ir.OpCustomCall, ir.CustomCallAttr{Target: "my_target", HasSideEffect: true,
					BackendConfig: `cfg "x"`, ResultTypes: []ir.Type{tt(ir.F32, 2), tt(ir.U8)}}, []*ir.Value{b.p(0)})...)
			}},
		{name: "composite", op: ir.OpComposite, want: "stablehlo.composite",
			attrs: map[string]string{
				"name":                 `"stela.scale"`,
				"composite_attributes": `{axis = 1 : i64, factor = 2.000000e+00 : f64, mode = "fast", shape = array<i64: 2, 3>, strict = true}`,
				"decomposition":        "@stela.scale_impl",
				"version":              "2 : i32",
			},
			types: "tensor<2x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "composite", tt(ir.F32, 2, 3))
				return b.ret(b.emit(ir.OpComposite, ir.CompositeAttr{Name: "stela.scale", Version: 2, Attrs: []ir.NamedAttr{
					{Name: "factor", Value: 2.0}, {Name: "axis", Value: int64(1)}, {Name: "strict", Value: true},
					{Name: "mode", Value: "fast"}, {Name: "shape", Value: []int64{2, 3}},
				}}, []*ir.Value{b.p(0)}, doubler(t, tt(ir.F32, 2, 3)))...)
			}},
		{name: "sharding_constraint", op: ir.OpShardingConstraint, want: "stablehlo.custom_call",
			attrs: map[string]string{
				"call_target_name": `"Sharding"`,
				"mhlo.sharding":    `"{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"`,
			},
			types: "tensor<2x8xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "sharding_constraint", tt(ir.F32, 2, 8))
				b.f.Mesh = &ir.Mesh{Axes: []ir.MeshAxis{{Name: "data", Size: 2}, {Name: "model", Size: 4}}}
				return b.ret(b.e1(ir.OpShardingConstraint, ir.ShardingConstraintAttr{Sharding: ir.Sharding{Dims: [][]string{{}, {"model"}}}}, b.p(0)))
			}},
	}...)
	cs = append(cs, collectiveOpCases()...)
	return cs
}

// collectiveOpCases lower each collective in the forms JAX prints: a
// channel as channel_handle<handle = N, type = 1>, flattened ids as the
// unit attribute use_global_device_ids, no channel as no channel_handle.
func collectiveOpCases() []opCase {
	return []opCase{
		{name: "all_reduce", op: ir.OpAllReduce, want: "stablehlo.all_reduce",
			attrs: map[string]string{
				"replica_groups":        "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>",
				"channel_handle":        "#stablehlo.channel_handle<handle = 1, type = 1>",
				"use_global_device_ids": "unit",
			},
			types: "tensor<8xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "psum", tt(ir.F32, 8))
				return b.ret(b.emit(ir.OpAllReduce, ir.AllReduceAttr{ReplicaGroups: [][]int64{{0, 1, 2, 3}}, ChannelID: 1, UseGlobalDeviceIDs: true},
					[]*ir.Value{b.p(0)}, adder(t, ir.F32))...)
			}},
		{name: "all_reduce_variadic_ragged", op: ir.OpAllReduce, want: "stablehlo.all_reduce",
			attrs: map[string]string{
				"replica_groups":        "dense<[[0, 2, 3], [1, -1, -1]]> : tensor<2x3xi64>",
				"channel_handle":        "",
				"use_global_device_ids": "",
			},
			types: "tensor<2xi32>, tensor<3x2xi32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "pmax", tt(ir.S32, 2), tt(ir.S32, 3, 2))
				s := ir.Scalar(ir.S32)
				body := region(t, "max", []ir.Type{s, s}, func(r *fb) []*ir.Value { return []*ir.Value{r.e1(ir.OpMaximum, nil, r.p(0), r.p(1))} })
				return b.ret(b.emit(ir.OpAllReduce, ir.AllReduceAttr{ReplicaGroups: [][]int64{{0, 2, 3}, {1}}}, []*ir.Value{b.p(0), b.p(1)}, body)...)
			}},
		{name: "all_reduce_all_devices", op: ir.OpAllReduce, want: "stablehlo.all_reduce",
			attrs: map[string]string{"replica_groups": "dense<> : tensor<0x0xi64>", "channel_handle": "#stablehlo.channel_handle<handle = 3, type = 1>"},
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "psum_all", tt(ir.BF16, 4))
				return b.ret(b.emit(ir.OpAllReduce, ir.AllReduceAttr{ChannelID: 3}, []*ir.Value{b.p(0)}, adder(t, ir.BF16))...)
			}},
		{name: "all_gather", op: ir.OpAllGather, want: "stablehlo.all_gather",
			attrs: map[string]string{
				"all_gather_dim": "1 : i64", "replica_groups": "dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>",
				"channel_handle": "#stablehlo.channel_handle<handle = 2, type = 1>", "use_global_device_ids": "unit",
			},
			types: "tensor<2x6xf16>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "all_gather", tt(ir.F16, 2, 3))
				return b.ret(b.e1(ir.OpAllGather, ir.AllGatherAttr{AllGatherDim: 1, ReplicaGroups: [][]int64{{0, 2}, {1, 3}}, ChannelID: 2, UseGlobalDeviceIDs: true}, b.p(0)))
			}},
		{name: "reduce_scatter", op: ir.OpReduceScatter, want: "stablehlo.reduce_scatter",
			attrs: map[string]string{
				"scatter_dimension": "0 : i64", "replica_groups": "dense<[[1, 0]]> : tensor<1x2xi64>",
				"channel_handle": "", "use_global_device_ids": "",
			},
			types: "tensor<4x3xf64>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "reduce_scatter", tt(ir.F64, 8, 3))
				return b.ret(b.emit(ir.OpReduceScatter, ir.ReduceScatterAttr{ReplicaGroups: [][]int64{{1, 0}}}, []*ir.Value{b.p(0)}, adder(t, ir.F64))...)
			}},
		{name: "all_to_all", op: ir.OpAllToAll, want: "stablehlo.all_to_all",
			attrs: map[string]string{
				"split_dimension": "0 : i64", "concat_dimension": "1 : i64", "split_count": "2 : i64",
				"replica_groups": "dense<[[0, 1]]> : tensor<1x2xi64>", "channel_handle": "#stablehlo.channel_handle<handle = 4, type = 1>",
			},
			types: "tensor<2x16xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "all_to_all", tt(ir.F32, 4, 8))
				return b.ret(b.e1(ir.OpAllToAll, ir.AllToAllAttr{SplitDim: 0, ConcatDim: 1, SplitCount: 2, ReplicaGroups: [][]int64{{0, 1}}, ChannelID: 4}, b.p(0)))
			}},
		{name: "collective_permute", op: ir.OpCollectivePermute, want: "stablehlo.collective_permute",
			attrs: map[string]string{
				"source_target_pairs": "dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>",
				"channel_handle":      "#stablehlo.channel_handle<handle = 5, type = 1>",
			},
			types: "tensor<4xui8>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "collective_permute", tt(ir.U8, 4))
				return b.ret(b.e1(ir.OpCollectivePermute, ir.CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 1}, {1, 2}, {2, 0}}, ChannelID: 5}, b.p(0)))
			}},
		{name: "collective_permute_no_pairs", op: ir.OpCollectivePermute, want: "stablehlo.collective_permute",
			attrs: map[string]string{"source_target_pairs": "dense<> : tensor<0x2xi64>", "channel_handle": ""},
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "zeros", tt(ir.C64, 2))
				return b.ret(b.e1(ir.OpCollectivePermute, ir.CollectivePermuteAttr{}, b.p(0)))
			}},
		{name: "replica_id", op: ir.OpReplicaID, want: "stablehlo.replica_id", types: "tensor<ui32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "replica_id")
				return b.ret(b.e1(ir.OpReplicaID, nil))
			}},
		{name: "partition_id", op: ir.OpPartitionID, want: "stablehlo.partition_id", types: "tensor<ui32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "partition_id")
				return b.ret(b.e1(ir.OpPartitionID, nil))
			}},
		// In a function without a mesh, a manual computation over a mesh
		// of one device is its body inlined (TestLowerManualComputation
		// has the annotated form).
		{name: "manual_computation", op: ir.OpManualComputation, want: "stablehlo.all_reduce", types: "tensor<2x3xf32>",
			build: func(t *testing.T) *ir.Func {
				b := newFB(t, "manual_computation", tt(ir.F32, 2, 3))
				body := region(t, "body", []ir.Type{tt(ir.F32, 2, 3)}, func(r *fb) []*ir.Value {
					s := r.emit(ir.OpAllReduce, ir.AllReduceAttr{ReplicaGroups: [][]int64{{0}}, ChannelID: 1, UseGlobalDeviceIDs: true}, []*ir.Value{r.p(0)}, adder(t, ir.F32))
					return []*ir.Value{r.e1(ir.OpMultiply, nil, s[0], r.p(0))}
				})
				one := ir.Mesh{Axes: []ir.MeshAxis{{Name: "x", Size: 1}}}
				sh := ir.Sharding{Dims: [][]string{{"x"}, {}}}
				return b.ret(b.emit(ir.OpManualComputation, ir.ManualComputationAttr{Mesh: one, InShardings: []ir.Sharding{sh}, OutShardings: []ir.Sharding{sh}}, []*ir.Value{b.p(0)}, body)...)
			}},
	}
}

// doubler is the region x → x + x.
func doubler(t *testing.T, ty ir.Type) *ir.Func {
	return region(t, "double", []ir.Type{ty}, func(r *fb) []*ir.Value {
		return []*ir.Value{r.e1(ir.OpAdd, nil, r.p(0), r.p(0))}
	})
}

func TestEveryOpHasRule(t *testing.T) {
	for _, op := range ir.AllOps() {
		if !HasRule(op) {
			t.Errorf("op %v has no lowering rule", op)
		}
	}
}

// TestLowerEveryOp lowers one instance of every op of the op table.
func TestLowerEveryOp(t *testing.T) {
	cases := opCases()
	covered := map[ir.Op]bool{}
	for _, c := range cases {
		covered[c.op] = true
	}
	for _, op := range ir.AllOps() {
		if !covered[op] {
			t.Errorf("op %v has no lowering test case", op)
		}
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			f := c.build(t)
			if err := ir.Verify(f); err != nil {
				t.Fatalf("input does not verify: %v", err)
			}
			m := lower(t, f)
			o := findOp(m, c.want)
			if o == nil {
				t.Fatalf("no %s op in\n%s", c.want, m)
			}
			for name, want := range c.attrs {
				a := o.Attr(name)
				switch {
				case want == "" && a != nil:
					t.Errorf("attribute %s = %s, want it left out", name, a)
				case want != "" && a == nil:
					t.Errorf("attribute %s is missing, want %s", name, want)
				case want != "" && a.String() != want:
					t.Errorf("attribute %s = %s, want %s", name, a, want)
				}
			}
			if c.types != "" {
				var ts []string
				for _, r := range o.Results {
					ts = append(ts, r.Type.String())
				}
				if got := strings.Join(ts, ", "); got != c.types {
					t.Errorf("result types %s, want %s", got, c.types)
				}
			}
			golden(t, "ops/"+c.name+".mlir", m.String())
		})
	}
}

func float32FromBits(b uint32) float32 { return ir.ElemFromBits(ir.F32, uint64(b)).(float32) }

func negZero32() float32 { return float32FromBits(0x80000000) }
