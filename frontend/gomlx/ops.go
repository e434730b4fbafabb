package gomlx

import (
	"math"
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapeinference"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
)

// supportedOps are the GoMLX ops this package lowers (Capabilities).
var supportedOps = []compute.OpType{
	compute.OpTypeParameter, compute.OpTypeConstant, compute.OpTypeIdentity,
	compute.OpTypeAbs, compute.OpTypeNeg, compute.OpTypeSign, compute.OpTypeExp, compute.OpTypeExpm1,
	compute.OpTypeLog, compute.OpTypeLog1p, compute.OpTypeLogistic, compute.OpTypeSqrt, compute.OpTypeRsqrt,
	compute.OpTypeTanh, compute.OpTypeSin, compute.OpTypeCos, compute.OpTypeFloor, compute.OpTypeCeil,
	compute.OpTypeRound, compute.OpTypeBitwiseNot, compute.OpTypeLogicalNot, compute.OpTypeBitCount,
	compute.OpTypeClz, compute.OpTypeIsFinite, compute.OpTypeIsNaN, compute.OpTypeReal, compute.OpTypeImag,
	compute.OpTypeConj, compute.OpTypeErf,
	compute.OpTypeAdd, compute.OpTypeSub, compute.OpTypeMul, compute.OpTypeDiv, compute.OpTypeRem,
	compute.OpTypePow, compute.OpTypeMax, compute.OpTypeMin, compute.OpTypeAtan2,
	compute.OpTypeBitwiseAnd, compute.OpTypeBitwiseOr, compute.OpTypeBitwiseXor,
	compute.OpTypeLogicalAnd, compute.OpTypeLogicalOr, compute.OpTypeLogicalXor,
	compute.OpTypeShiftLeft, compute.OpTypeShiftRightArithmetic, compute.OpTypeShiftRightLogical,
	compute.OpTypeComplex,
	compute.OpTypeEqual, compute.OpTypeNotEqual, compute.OpTypeGreaterOrEqual, compute.OpTypeGreaterThan,
	compute.OpTypeLessOrEqual, compute.OpTypeLessThan,
	compute.OpTypeEqualTotalOrder, compute.OpTypeNotEqualTotalOrder, compute.OpTypeGreaterOrEqualTotalOrder,
	compute.OpTypeGreaterThanTotalOrder, compute.OpTypeLessOrEqualTotalOrder, compute.OpTypeLessThanTotalOrder,
	compute.OpTypeWhere, compute.OpTypeClamp, compute.OpTypeConvertDType, compute.OpTypeBitcast,
	compute.OpTypeReshape, compute.OpTypeTranspose, compute.OpTypeBroadcastInDim, compute.OpTypeIota,
	compute.OpTypeSlice, compute.OpTypeReverse, compute.OpTypeConcatenate, compute.OpTypePad,
	compute.OpTypeDynamicSlice, compute.OpTypeDynamicUpdateSlice,
	compute.OpTypeReduceSum, compute.OpTypeReduceProduct, compute.OpTypeReduceMax, compute.OpTypeReduceMin,
	compute.OpTypeReduceBitwiseAnd, compute.OpTypeReduceBitwiseOr, compute.OpTypeReduceBitwiseXor,
	compute.OpTypeReduceLogicalAnd, compute.OpTypeReduceLogicalOr, compute.OpTypeReduceLogicalXor,
	compute.OpTypeReduceWindow, compute.OpTypeCumSum, compute.OpTypeArgMinMax,
	compute.OpTypeDotGeneral, compute.OpTypeConvGeneral, compute.OpTypeGather,
	compute.OpTypeScatterSum, compute.OpTypeScatterMax, compute.OpTypeScatterMin,
	compute.OpTypeSelectAndScatterMax, compute.OpTypeSelectAndScatterMin,
	compute.OpTypeBatchNormForInference, compute.OpTypeBatchNormForTraining, compute.OpTypeBatchNormGradient,
	compute.OpTypeFFT, compute.OpTypeSort, compute.OpTypeWhile, compute.OpTypeIf, compute.OpTypeCall,
	compute.OpTypeOptimizationBarrier, compute.OpTypeSchedulingBarrier,
	compute.OpTypeAllReduce, compute.OpTypeRNGBitGenerator,
}

func (fn *Function) shapeOf(v *ir.Value) shapes.Shape { return gomlxShape(v.Type) }

// --- unary

func (fn *Function) unary(op compute.OpType, x compute.Value, emit func(b *ir.Builder, x *ir.Value) *ir.Value) (compute.Value, error) {
	return fn.build1(op.String(), []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if op == compute.OpTypeIsFinite || op == compute.OpTypeIsNaN {
			if !a[0].Type.DType.IsFloat() {
				return nil, errors.Errorf("%s takes a float operand, got %s", op, fn.shapeOf(a[0]))
			}
		} else if _, err := shapeinference.UnaryOp(op, fn.shapeOf(a[0])); err != nil {
			return nil, err
		}
		return emit(b, a[0]), nil
	})
}

func (fn *Function) unaryOp(op compute.OpType, irop ir.Op, x compute.Value) (compute.Value, error) {
	return fn.unary(op, x, func(b *ir.Builder, x *ir.Value) *ir.Value { return b.Unary(irop, x) })
}

func (fn *Function) Abs(x compute.Value) (compute.Value, error) {
	return fn.unary(compute.OpTypeAbs, x, func(b *ir.Builder, x *ir.Value) *ir.Value {
		if x.Type.DType.IsUnsigned() {
			return x
		}
		return b.Unary(ir.OpAbs, x)
	})
}
func (fn *Function) Neg(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeNeg, ir.OpNegate, x)
}
func (fn *Function) Sign(x compute.Value) (compute.Value, error) {
	return fn.unary(compute.OpTypeSign, x, func(b *ir.Builder, x *ir.Value) *ir.Value {
		if x.Type.DType.IsUnsigned() {
			return b.Convert(b.Compare(ir.CmpNE, x, b.ZerosLike(x)), x.Type.DType)
		}
		return b.Unary(ir.OpSign, x)
	})
}
func (fn *Function) Exp(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeExp, ir.OpExp, x)
}
func (fn *Function) Expm1(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeExpm1, ir.OpExpm1, x)
}
func (fn *Function) Log(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeLog, ir.OpLog, x)
}
func (fn *Function) Log1p(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeLog1p, ir.OpLog1p, x)
}
func (fn *Function) Logistic(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeLogistic, ir.OpLogistic, x)
}
func (fn *Function) Sqrt(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeSqrt, ir.OpSqrt, x)
}
func (fn *Function) Rsqrt(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeRsqrt, ir.OpRsqrt, x)
}
func (fn *Function) Tanh(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeTanh, ir.OpTanh, x)
}
func (fn *Function) Sin(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeSin, ir.OpSine, x)
}
func (fn *Function) Cos(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeCos, ir.OpCosine, x)
}
func (fn *Function) Floor(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeFloor, ir.OpFloor, x)
}
func (fn *Function) Ceil(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeCeil, ir.OpCeil, x)
}
func (fn *Function) Round(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeRound, ir.OpRoundNearestEven, x)
}
func (fn *Function) BitwiseNot(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeBitwiseNot, ir.OpNot, x)
}
func (fn *Function) LogicalNot(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeLogicalNot, ir.OpNot, x)
}
func (fn *Function) BitCount(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeBitCount, ir.OpPopcnt, x)
}
func (fn *Function) Clz(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeClz, ir.OpClz, x)
}
func (fn *Function) IsFinite(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeIsFinite, ir.OpIsFinite, x)
}
func (fn *Function) IsNaN(x compute.Value) (compute.Value, error) {
	return fn.unary(compute.OpTypeIsNaN, x, func(b *ir.Builder, x *ir.Value) *ir.Value {
		return b.Emit1(ir.OpCompare, []*ir.Value{x, x}, ir.CompareAttr{Direction: ir.CmpNE, Type: ir.CmpFloat})
	})
}
func (fn *Function) Real(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeReal, ir.OpReal, x)
}
func (fn *Function) Imag(x compute.Value) (compute.Value, error) {
	return fn.unaryOp(compute.OpTypeImag, ir.OpImag, x)
}
func (fn *Function) Conj(x compute.Value) (compute.Value, error) {
	return fn.unary(compute.OpTypeConj, x, func(b *ir.Builder, x *ir.Value) *ir.Value {
		if !x.Type.DType.IsComplex() {
			return x
		}
		return b.Emit1(ir.OpComplex, []*ir.Value{b.Unary(ir.OpReal, x), b.Neg(b.Unary(ir.OpImag, x))}, nil)
	})
}

// Identity returns x itself: the op has no effect on the program.
func (fn *Function) Identity(x compute.Value) (compute.Value, error) {
	if _, err := fn.val(x); err != nil {
		return nil, err
	}
	return fn.build1("Identity", []compute.Value{x}, func(_ *ir.Builder, a []*ir.Value) (*ir.Value, error) { return a[0], nil })
}

// --- binary, with GoMLX's implicit broadcasting (shapeinference.BinaryOp:
// a scalar against anything, or equal ranks with dimensions of 1).

// broadcastTo broadcasts v (a scalar or of the same rank) to dims.
func broadcastTo(b *ir.Builder, v *ir.Value, dims []int) *ir.Value {
	if slices.Equal(v.Type.Shape, dims) {
		return v
	}
	var bd []int
	if v.Type.Rank() > 0 {
		bd = make([]int, v.Type.Rank())
		for i := range bd {
			bd[i] = i
		}
		if v.Type.Rank() != len(dims) {
			off := len(dims) - v.Type.Rank()
			for i := range bd {
				bd[i] = i + off
			}
		}
	}
	return b.Emit1(ir.OpBroadcastInDim, []*ir.Value{v}, ir.BroadcastInDimAttr{Shape: slices.Clone(dims), Dims: bd})
}

func (fn *Function) binary(op compute.OpType, lhs, rhs compute.Value, emit func(b *ir.Builder, x, y *ir.Value) *ir.Value) (compute.Value, error) {
	return fn.build1(op.String(), []compute.Value{lhs, rhs}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		var out shapes.Shape
		var err error
		if shapeinference.ComparisonOperations.Has(op) {
			out, err = shapeinference.ComparisonOp(op, fn.shapeOf(a[0]), fn.shapeOf(a[1]))
		} else if op == compute.OpTypeComplex {
			out, err = complexShape(fn.shapeOf(a[0]), fn.shapeOf(a[1]))
		} else {
			out, err = shapeinference.BinaryOp(op, fn.shapeOf(a[0]), fn.shapeOf(a[1]))
		}
		if err != nil {
			return nil, err
		}
		return emit(b, broadcastTo(b, a[0], out.Dimensions), broadcastTo(b, a[1], out.Dimensions)), nil
	})
}

func complexShape(x, y shapes.Shape) (shapes.Shape, error) {
	if x.DType != y.DType || (x.DType != dtypes.Float32 && x.DType != dtypes.Float64) {
		return shapes.Invalid(), errors.Errorf("Complex takes two Float32 or two Float64 operands, got %s and %s", x, y)
	}
	s, err := shapeinference.BinaryOp(compute.OpTypeAdd, x, y)
	if err != nil {
		return s, err
	}
	if x.DType == dtypes.Float32 {
		s.DType = dtypes.Complex64
	} else {
		s.DType = dtypes.Complex128
	}
	return s, nil
}

func (fn *Function) binaryOp(op compute.OpType, irop ir.Op, lhs, rhs compute.Value) (compute.Value, error) {
	return fn.binary(op, lhs, rhs, func(b *ir.Builder, x, y *ir.Value) *ir.Value {
		return b.Emit1(irop, []*ir.Value{x, y}, nil)
	})
}

func (fn *Function) Add(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeAdd, ir.OpAdd, l, r)
}
func (fn *Function) Sub(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeSub, ir.OpSubtract, l, r)
}
func (fn *Function) Mul(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeMul, ir.OpMultiply, l, r)
}
func (fn *Function) Div(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeDiv, ir.OpDivide, l, r)
}
func (fn *Function) Rem(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeRem, ir.OpRemainder, l, r)
}
func (fn *Function) Pow(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypePow, ir.OpPower, l, r)
}
func (fn *Function) Max(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeMax, ir.OpMaximum, l, r)
}
func (fn *Function) Min(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeMin, ir.OpMinimum, l, r)
}
func (fn *Function) Atan2(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeAtan2, ir.OpAtan2, l, r)
}
func (fn *Function) BitwiseAnd(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeBitwiseAnd, ir.OpAnd, l, r)
}
func (fn *Function) BitwiseOr(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeBitwiseOr, ir.OpOr, l, r)
}
func (fn *Function) BitwiseXor(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeBitwiseXor, ir.OpXor, l, r)
}
func (fn *Function) LogicalAnd(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeLogicalAnd, ir.OpAnd, l, r)
}
func (fn *Function) LogicalOr(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeLogicalOr, ir.OpOr, l, r)
}
func (fn *Function) LogicalXor(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeLogicalXor, ir.OpXor, l, r)
}
func (fn *Function) ShiftLeft(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeShiftLeft, ir.OpShiftLeft, l, r)
}
func (fn *Function) ShiftRightArithmetic(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeShiftRightArithmetic, ir.OpShiftRightArithmetic, l, r)
}
func (fn *Function) ShiftRightLogical(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeShiftRightLogical, ir.OpShiftRightLogical, l, r)
}
func (fn *Function) Complex(l, r compute.Value) (compute.Value, error) {
	return fn.binaryOp(compute.OpTypeComplex, ir.OpComplex, l, r)
}

func (fn *Function) compare(op compute.OpType, dir ir.ComparisonDirection, total bool, l, r compute.Value) (compute.Value, error) {
	return fn.binary(op, l, r, func(b *ir.Builder, x, y *ir.Value) *ir.Value {
		at := ir.CompareAttr{Direction: dir}
		if total && x.Type.DType.IsFloat() {
			at.Type = ir.CmpTotalOrder
		}
		return b.Emit1(ir.OpCompare, []*ir.Value{x, y}, at)
	})
}

func (fn *Function) Equal(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeEqual, ir.CmpEQ, false, l, r)
}
func (fn *Function) NotEqual(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeNotEqual, ir.CmpNE, false, l, r)
}
func (fn *Function) GreaterOrEqual(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeGreaterOrEqual, ir.CmpGE, false, l, r)
}
func (fn *Function) GreaterThan(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeGreaterThan, ir.CmpGT, false, l, r)
}
func (fn *Function) LessOrEqual(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeLessOrEqual, ir.CmpLE, false, l, r)
}
func (fn *Function) LessThan(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeLessThan, ir.CmpLT, false, l, r)
}
func (fn *Function) EqualTotalOrder(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeEqualTotalOrder, ir.CmpEQ, true, l, r)
}
func (fn *Function) NotEqualTotalOrder(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeNotEqualTotalOrder, ir.CmpNE, true, l, r)
}
func (fn *Function) GreaterOrEqualTotalOrder(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeGreaterOrEqualTotalOrder, ir.CmpGE, true, l, r)
}
func (fn *Function) GreaterThanTotalOrder(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeGreaterThanTotalOrder, ir.CmpGT, true, l, r)
}
func (fn *Function) LessOrEqualTotalOrder(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeLessOrEqualTotalOrder, ir.CmpLE, true, l, r)
}
func (fn *Function) LessThanTotalOrder(l, r compute.Value) (compute.Value, error) {
	return fn.compare(compute.OpTypeLessThanTotalOrder, ir.CmpLT, true, l, r)
}

// Where is select, with scalars broadcast.
func (fn *Function) Where(cond, onTrue, onFalse compute.Value) (compute.Value, error) {
	return fn.build1("Where", []compute.Value{cond, onTrue, onFalse}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		out, err := shapeinference.Where(fn.shapeOf(a[0]), fn.shapeOf(a[1]), fn.shapeOf(a[2]))
		if err != nil {
			return nil, err
		}
		p := a[0]
		if p.Type.Rank() > 0 {
			p = broadcastTo(b, p, out.Dimensions)
		}
		return b.Select(p, broadcastTo(b, a[1], out.Dimensions), broadcastTo(b, a[2], out.Dimensions)), nil
	})
}

// Clamp is clamp (min and max scalars or of x's shape).
func (fn *Function) Clamp(lo, x, hi compute.Value) (compute.Value, error) {
	return fn.build1("Clamp", []compute.Value{lo, x, hi}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		return b.Emit1(ir.OpClamp, []*ir.Value{a[0], a[1], a[2]}, nil), nil
	})
}

// ConvertDType is convert.
func (fn *Function) ConvertDType(x compute.Value, dtype dtypes.DType) (compute.Value, error) {
	return fn.build1("ConvertDType", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		dt, ok := dtypeMap[dtype]
		if !ok {
			return nil, errors.Wrapf(compute.ErrNotImplemented, "dtype %s", dtype)
		}
		v := a[0]
		if v.Type.DType.IsComplex() && !dt.IsComplex() {
			v = b.Unary(ir.OpReal, v) // complex to real types takes the real part (StableHLO, XLA)
		}
		if fn.subByteOf(v) != dtypes.InvalidDType {
			// A new value (even when the unpacked type is dtype): the
			// sub-byte tag stays with the operand.
			return b.Emit1(ir.OpConvert, []*ir.Value{v}, ir.ConvertAttr{To: dt}), nil
		}
		return b.Convert(v, dt), nil
	})
}

// Bitcast is bitcast_convert (GoMLX's rule for the trailing dimension is
// StableHLO's); to and from GoMLX's sub-byte types it unpacks and packs
// (subbyte.go).
func (fn *Function) Bitcast(x compute.Value, dtype dtypes.DType) (compute.Value, error) {
	var tag dtypes.DType
	out, err := fn.build1("Bitcast", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if src := fn.subByteOf(a[0]); src != dtypes.InvalidDType {
			dt, ok := dtypeMap[dtype]
			if !ok {
				return nil, errors.Wrapf(compute.ErrNotImplemented, "Bitcast from %s to %s", src, dtype)
			}
			return pack(b, a[0], src, dt)
		}
		if isSubByte(dtype) {
			tag = dtype
			return unpack(b, a[0], dtype)
		}
		if _, err := shapeinference.Bitcast(fn.shapeOf(a[0]), dtype); err != nil {
			return nil, err
		}
		dt, ok := dtypeMap[dtype]
		if !ok {
			return nil, errors.Wrapf(compute.ErrNotImplemented, "dtype %s", dtype)
		}
		return b.Emit1(ir.OpBitcastConvert, a, ir.BitcastConvertAttr{To: dt}), nil
	})
	if err == nil && tag != dtypes.InvalidDType {
		if fn.subByte == nil {
			fn.subByte = map[*ir.Value]dtypes.DType{}
		}
		fn.subByte[out.(*node).v] = tag
	}
	return out, err
}

// --- shapes and data movement

func (fn *Function) Reshape(x compute.Value, dims ...int) (compute.Value, error) {
	return fn.build1("Reshape", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if _, err := shapeinference.Reshape(fn.shapeOf(a[0]), dims); err != nil {
			return nil, err
		}
		return b.Emit1(ir.OpReshape, a, ir.ReshapeAttr{Shape: slices.Clone(dims)}), nil
	})
}

func (fn *Function) Transpose(x compute.Value, perm ...int) (compute.Value, error) {
	return fn.build1("Transpose", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if _, err := shapeinference.Transpose(fn.shapeOf(a[0]), perm); err != nil {
			return nil, err
		}
		return b.Emit1(ir.OpTranspose, a, ir.TransposeAttr{Perm: slices.Clone(perm)}), nil
	})
}

func (fn *Function) BroadcastInDim(x compute.Value, out shapes.Shape, axes []int) (compute.Value, error) {
	return fn.build1("BroadcastInDim", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if err := shapeinference.BroadcastInDim(fn.shapeOf(a[0]), out, axes, nil); err != nil {
			return nil, err
		}
		return b.Emit1(ir.OpBroadcastInDim, a, ir.BroadcastInDimAttr{Shape: slices.Clone(out.Dimensions), Dims: slices.Clone(axes)}), nil
	})
}

func (fn *Function) Iota(shape shapes.Shape, axis int) (compute.Value, error) {
	return fn.build1("Iota", nil, func(b *ir.Builder, _ []*ir.Value) (*ir.Value, error) {
		t, err := irType(shape)
		if err != nil {
			return nil, err
		}
		if axis < 0 || axis >= t.Rank() {
			return nil, errors.Errorf("axis %d out of range for shape %s", axis, shape)
		}
		return b.Emit1(ir.OpIota, nil, ir.IotaAttr{Type: t, Dim: axis}), nil
	})
}

func (fn *Function) Slice(x compute.Value, starts, limits, strides []int) (compute.Value, error) {
	return fn.build1("Slice", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if _, err := shapeinference.Slice(fn.shapeOf(a[0]), starts, limits, strides); err != nil {
			return nil, err
		}
		st := slices.Clone(strides)
		if len(st) == 0 {
			st = ones(len(starts))
		}
		return b.Emit1(ir.OpSlice, a, ir.SliceAttr{Start: slices.Clone(starts), Limit: slices.Clone(limits), Stride: st}), nil
	})
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func (fn *Function) Reverse(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.build1("Reverse", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if len(axes) == 0 {
			return a[0], nil
		}
		return b.Emit1(ir.OpReverse, a, ir.ReverseAttr{Dims: slices.Clone(axes)}), nil
	})
}

func (fn *Function) Concatenate(axis int, operands ...compute.Value) (compute.Value, error) {
	return fn.build1("Concatenate", operands, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if len(a) == 0 {
			return nil, errors.New("no operands")
		}
		ss := make([]shapes.Shape, len(a))
		for i, v := range a {
			ss[i] = fn.shapeOf(v)
		}
		if _, err := shapeinference.Concatenate(ss, axis); err != nil {
			return nil, err
		}
		if len(a) == 1 {
			return a[0], nil
		}
		return b.Emit1(ir.OpConcatenate, a, ir.ConcatenateAttr{Dim: axis}), nil
	})
}

func (fn *Function) Pad(x, fill compute.Value, axesConfig ...compute.PadAxis) (compute.Value, error) {
	return fn.build1("Pad", []compute.Value{x, fill}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		n := a[0].Type.Rank()
		if len(axesConfig) > n {
			return nil, errors.Errorf("%d axes configured for a rank-%d operand", len(axesConfig), n)
		}
		lo, hi, in := make([]int, n), make([]int, n), make([]int, n)
		for i, c := range axesConfig {
			lo[i], hi[i], in[i] = c.Start, c.End, c.Interior
		}
		return b.Pad(a[0], a[1], lo, hi, in), nil
	})
}

// startScalars are the start indices of a dynamic slice as one integer
// scalar each, of one type: GoMLX gives them as scalars or as one vector
// of rank elements.
func startScalars(b *ir.Builder, idx []*ir.Value, rank int) ([]*ir.Value, error) {
	if len(idx) == 1 && idx[0].Type.Rank() == 1 && idx[0].Type.Shape[0] == rank && rank != 1 {
		v := idx[0]
		idx = make([]*ir.Value, rank)
		for i := range rank {
			idx[i] = b.Reshape(b.Slice(v, []int{i}, []int{i + 1}, []int{1}))
		}
	}
	if len(idx) != rank {
		return nil, errors.Errorf("%d start indices for a rank-%d operand", len(idx), rank)
	}
	dt := ir.S32
	for _, v := range idx {
		if v.Type.Rank() != 0 || !v.Type.DType.IsInteger() {
			return nil, errors.Errorf("start index %s is not an integer scalar", v.Type)
		}
		if v.Type.DType.Bits() == 64 {
			dt = ir.S64
		}
	}
	out := make([]*ir.Value, len(idx))
	for i, v := range idx {
		out[i] = v
		if v.Type.DType != dt {
			out[i] = b.Convert(v, dt)
		}
	}
	return out, nil
}

func (fn *Function) DynamicSlice(x compute.Value, starts []compute.Value, sizes []int) (compute.Value, error) {
	return fn.build1("DynamicSlice", append([]compute.Value{x}, starts...), func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		idx, err := startScalars(b, a[1:], a[0].Type.Rank())
		if err != nil {
			return nil, err
		}
		return b.Emit1(ir.OpDynamicSlice, append([]*ir.Value{a[0]}, idx...), ir.DynamicSliceAttr{Sizes: slices.Clone(sizes)}), nil
	})
}

func (fn *Function) DynamicUpdateSlice(x, update compute.Value, starts []compute.Value) (compute.Value, error) {
	return fn.build1("DynamicUpdateSlice", append([]compute.Value{x, update}, starts...), func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		idx, err := startScalars(b, a[2:], a[0].Type.Rank())
		if err != nil {
			return nil, err
		}
		return b.Emit1(ir.OpDynamicUpdateSlice, append([]*ir.Value{a[0], a[1]}, idx...), nil), nil
	})
}

// --- reductions

// extreme is the literal of dt's lowest (or highest) value: -inf/+inf
// for floats, the integer range's ends, false/true for booleans.
func extreme(dt ir.DType, highest bool) *ir.Literal {
	t := ir.Scalar(dt)
	var data any
	switch dt {
	case ir.Bool:
		data = []bool{highest}
	case ir.S8:
		data = []int8{pick(highest, int8(math.MaxInt8), math.MinInt8)}
	case ir.S16:
		data = []int16{pick(highest, int16(math.MaxInt16), math.MinInt16)}
	case ir.S32:
		data = []int32{pick(highest, int32(math.MaxInt32), math.MinInt32)}
	case ir.S64:
		data = []int64{pick(highest, int64(math.MaxInt64), math.MinInt64)}
	case ir.U8:
		data = []uint8{pick(highest, uint8(math.MaxUint8), 0)}
	case ir.U16:
		data = []uint16{pick(highest, uint16(math.MaxUint16), 0)}
	case ir.U32:
		data = []uint32{pick(highest, uint32(math.MaxUint32), 0)}
	case ir.U64:
		data = []uint64{pick(highest, uint64(math.MaxUint64), 0)}
	default:
		return ir.ScalarLiteral(dt, pick(highest, math.Inf(1), math.Inf(-1)))
	}
	return ir.MustLiteral(t, data)
}

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// allOnes is the literal with every bit set (bitwise and's identity).
func allOnes(dt ir.DType) *ir.Literal {
	if dt.IsSigned() {
		return ir.ScalarLiteral(dt, -1)
	}
	return extreme(dt, true)
}

func (fn *Function) reduce(op compute.OpType, x compute.Value, axes []int, irop ir.Op, init func(dt ir.DType) *ir.Literal) (compute.Value, error) {
	return fn.build1(op.String(), []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		dims := slices.Clone(axes)
		if len(dims) == 0 {
			dims = make([]int, a[0].Type.Rank())
			for i := range dims {
				dims[i] = i
			}
		}
		if _, err := shapeinference.Reduce(fn.shapeOf(a[0]), dims); err != nil {
			return nil, err
		}
		slices.Sort(dims)
		return b.Reduce(a[0], b.Literal(init(a[0].Type.DType)), irop, dims...), nil
	})
}

func zero(dt ir.DType) *ir.Literal { return ir.ScalarLiteral(dt, 0) }
func one(dt ir.DType) *ir.Literal  { return ir.ScalarLiteral(dt, 1) }

func (fn *Function) ReduceSum(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceSum, x, axes, ir.OpAdd, zero)
}
func (fn *Function) ReduceProduct(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceProduct, x, axes, ir.OpMultiply, one)
}
func (fn *Function) ReduceMax(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceMax, x, axes, ir.OpMaximum, func(dt ir.DType) *ir.Literal { return extreme(dt, false) })
}
func (fn *Function) ReduceMin(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceMin, x, axes, ir.OpMinimum, func(dt ir.DType) *ir.Literal { return extreme(dt, true) })
}
func (fn *Function) ReduceBitwiseAnd(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceBitwiseAnd, x, axes, ir.OpAnd, allOnes)
}
func (fn *Function) ReduceBitwiseOr(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceBitwiseOr, x, axes, ir.OpOr, zero)
}
func (fn *Function) ReduceBitwiseXor(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceBitwiseXor, x, axes, ir.OpXor, zero)
}
func (fn *Function) ReduceLogicalAnd(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceLogicalAnd, x, axes, ir.OpAnd, func(dt ir.DType) *ir.Literal { return extreme(dt, true) })
}
func (fn *Function) ReduceLogicalOr(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceLogicalOr, x, axes, ir.OpOr, func(dt ir.DType) *ir.Literal { return extreme(dt, false) })
}
func (fn *Function) ReduceLogicalXor(x compute.Value, axes ...int) (compute.Value, error) {
	return fn.reduce(compute.OpTypeReduceLogicalXor, x, axes, ir.OpXor, func(dt ir.DType) *ir.Literal { return extreme(dt, false) })
}

func reduceOpOf(t compute.ReduceOpType) (ir.Op, func(ir.DType) *ir.Literal, error) {
	switch t {
	case compute.ReduceOpSum:
		return ir.OpAdd, zero, nil
	case compute.ReduceOpProduct:
		return ir.OpMultiply, one, nil
	case compute.ReduceOpMax:
		return ir.OpMaximum, func(dt ir.DType) *ir.Literal { return extreme(dt, false) }, nil
	case compute.ReduceOpMin:
		return ir.OpMinimum, func(dt ir.DType) *ir.Literal { return extreme(dt, true) }, nil
	}
	return ir.OpInvalid, nil, errors.Errorf("unknown reduction %s", t)
}

func (fn *Function) ReduceWindow(x compute.Value, rt compute.ReduceOpType, window, strides, baseDil, winDil []int, paddings [][2]int) (compute.Value, error) {
	return fn.build1("ReduceWindow", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		op, init, err := reduceOpOf(rt)
		if err != nil {
			return nil, err
		}
		if len(strides) == 0 {
			strides = window
		}
		if _, err := shapeinference.ReduceWindow(fn.shapeOf(a[0]), window, strides, baseDil, winDil, paddings); err != nil {
			return nil, err
		}
		dt := a[0].Type.DType
		at := ir.ReduceWindowAttr{WindowDims: slices.Clone(window), Strides: slices.Clone(strides), BaseDilations: slices.Clone(baseDil), WindowDilations: slices.Clone(winDil), Padding: slices.Clone(paddings)}
		return b.Emit1(ir.OpReduceWindow, []*ir.Value{a[0], b.Literal(init(dt))}, at, ir.BinaryRegion(op, dt, b.Loc)), nil
	})
}

// CumSum is a reduce_window over the axis with a window as long as the
// axis, padded before it (XLA's own lowering of cumulative sums).
func (fn *Function) CumSum(x compute.Value, axis int, opts compute.CumSumOptions) (compute.Value, error) {
	return fn.build1("CumSum", []compute.Value{x}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		v := a[0]
		n := v.Type.Rank()
		if axis < 0 || axis >= n {
			return nil, errors.Errorf("axis %d out of range for rank %d", axis, n)
		}
		size := v.Type.Shape[axis]
		if size == 0 {
			return v, nil
		}
		if opts.Reverse {
			v = b.Emit1(ir.OpReverse, []*ir.Value{v}, ir.ReverseAttr{Dims: []int{axis}})
		}
		dt := v.Type.DType
		if opts.Exclusive {
			lo, hi := make([]int, n), make([]int, n)
			lo[axis], hi[axis] = 1, -1
			v = b.Pad(v, b.Const(dt, 0), lo, hi, make([]int, n))
		}
		win, pad := ones(n), make([][2]int, n)
		win[axis], pad[axis] = size, [2]int{size - 1, 0}
		at := ir.ReduceWindowAttr{WindowDims: win, Strides: ones(n), Padding: pad}
		v = b.Emit1(ir.OpReduceWindow, []*ir.Value{v, b.Const(dt, 0)}, at, ir.BinaryRegion(ir.OpAdd, dt, b.Loc))
		if opts.Reverse {
			v = b.Emit1(ir.OpReverse, []*ir.Value{v}, ir.ReverseAttr{Dims: []int{axis}})
		}
		return v, nil
	})
}

// --- linear algebra, convolution, gather/scatter

func (fn *Function) DotGeneral(lhs compute.Value, lc, lb []int, rhs compute.Value, rc, rb []int, config compute.DotGeneralConfig) (compute.Value, error) {
	return fn.build1("DotGeneral", []compute.Value{lhs, rhs}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		x, y := a[0], a[1]
		if x.Type.DType != y.Type.DType {
			return nil, errors.Errorf("operands have different dtypes: %s and %s", fn.shapeOf(x), fn.shapeOf(y))
		}
		if config.AccumulatorDType != dtypes.InvalidDType {
			acc, ok := dtypeMap[config.AccumulatorDType]
			if !ok {
				return nil, errors.Wrapf(compute.ErrNotImplemented, "accumulator dtype %s", config.AccumulatorDType)
			}
			if acc != x.Type.DType {
				x, y = b.Convert(x, acc), b.Convert(y, acc)
			}
		}
		r := b.DotGeneral(x, y, ir.DotGeneralAttr{LhsBatch: slices.Clone(lb), RhsBatch: slices.Clone(rb), LhsContract: slices.Clone(lc), RhsContract: slices.Clone(rc)})
		out := config.OutputDType
		if out == dtypes.InvalidDType {
			out = fn.shapeOf(a[0]).DType
		}
		odt, ok := dtypeMap[out]
		if !ok {
			return nil, errors.Wrapf(compute.ErrNotImplemented, "output dtype %s", out)
		}
		if odt != r.Type.DType {
			r = b.Convert(r, odt)
		}
		return r, nil
	})
}

func (fn *Function) ConvGeneral(input, kernel compute.Value, axes compute.ConvolveAxesConfig, strides []int, paddings [][2]int, inDil, kDil []int, channelGroups, batchGroups int) (compute.Value, error) {
	return fn.build1("ConvGeneral", []compute.Value{input, kernel}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		channelGroups, batchGroups = max(channelGroups, 1), max(batchGroups, 1)
		if _, err := shapeinference.ConvGeneral(fn.shapeOf(a[0]), fn.shapeOf(a[1]), axes, strides, paddings, inDil, kDil, channelGroups, batchGroups); err != nil {
			return nil, err
		}
		at := ir.ConvolutionAttr{
			WindowStrides: slices.Clone(strides), Padding: slices.Clone(paddings),
			LhsDilation: slices.Clone(inDil), RhsDilation: slices.Clone(kDil),
			InputBatchDim: axes.InputBatch, InputFeatureDim: axes.InputChannels, InputSpatialDims: slices.Clone(axes.InputSpatial),
			KernelInputFeatureDim: axes.KernelInputChannels, KernelOutputFeatureDim: axes.KernelOutputChannels, KernelSpatialDims: slices.Clone(axes.KernelSpatial),
			OutputBatchDim: axes.OutputBatch, OutputFeatureDim: axes.OutputChannels, OutputSpatialDims: slices.Clone(axes.OutputSpatial),
			FeatureGroupCount: max(channelGroups, 1), BatchGroupCount: max(batchGroups, 1),
		}
		return b.Emit1(ir.OpConvolution, a, at), nil
	})
}

func (fn *Function) Gather(operand, indices compute.Value, indexVectorAxis int, offsetAxes, collapsed, startIndexMap, sliceSizes []int, sorted bool) (compute.Value, error) {
	return fn.build1("Gather", []compute.Value{operand, indices}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if _, err := shapeinference.Gather(fn.shapeOf(a[0]), fn.shapeOf(a[1]), indexVectorAxis, offsetAxes, collapsed, startIndexMap, sliceSizes, sorted); err != nil {
			return nil, err
		}
		at := ir.GatherAttr{OffsetDims: slices.Clone(offsetAxes), CollapsedSliceDims: slices.Clone(collapsed), StartIndexMap: slices.Clone(startIndexMap), IndexVectorDim: indexVectorAxis, SliceSizes: slices.Clone(sliceSizes), IndicesAreSorted: sorted}
		return b.Emit1(ir.OpGather, a, at), nil
	})
}

func (fn *Function) scatter(name string, op ir.Op, operand, indices, updates compute.Value, indexVectorAxis int, updateWindowAxes, insertedWindowAxes, scatterToOperand []int, sorted, unique bool) (compute.Value, error) {
	return fn.build1(name, []compute.Value{operand, indices, updates}, func(b *ir.Builder, a []*ir.Value) (*ir.Value, error) {
		if _, err := shapeinference.Scatter(fn.shapeOf(a[0]), fn.shapeOf(a[1]), fn.shapeOf(a[2]), indexVectorAxis, updateWindowAxes, insertedWindowAxes, scatterToOperand); err != nil {
			return nil, err
		}
		at := ir.ScatterAttr{UpdateWindowDims: slices.Clone(updateWindowAxes), InsertedWindowDims: slices.Clone(insertedWindowAxes), ScatterDimsToOperandDims: slices.Clone(scatterToOperand), IndexVectorDim: indexVectorAxis, IndicesAreSorted: sorted, UniqueIndices: unique}
		dt := a[0].Type.DType
		if dt == ir.Bool && op == ir.OpAdd {
			op = ir.OpOr
		}
		return b.Emit1(ir.OpScatter, a, at, ir.BinaryRegion(op, dt, b.Loc)), nil
	})
}

func (fn *Function) ScatterSum(operand, indices, updates compute.Value, indexVectorAxis int, updateWindowAxes, insertedWindowAxes, scatterToOperand []int, sorted, unique bool) (compute.Value, error) {
	return fn.scatter("ScatterSum", ir.OpAdd, operand, indices, updates, indexVectorAxis, updateWindowAxes, insertedWindowAxes, scatterToOperand, sorted, unique)
}
func (fn *Function) ScatterMax(operand, indices, updates compute.Value, indexVectorAxis int, updateWindowAxes, insertedWindowAxes, scatterToOperand []int, sorted, unique bool) (compute.Value, error) {
	return fn.scatter("ScatterMax", ir.OpMaximum, operand, indices, updates, indexVectorAxis, updateWindowAxes, insertedWindowAxes, scatterToOperand, sorted, unique)
}
func (fn *Function) ScatterMin(operand, indices, updates compute.Value, indexVectorAxis int, updateWindowAxes, insertedWindowAxes, scatterToOperand []int, sorted, unique bool) (compute.Value, error) {
	return fn.scatter("ScatterMin", ir.OpMinimum, operand, indices, updates, indexVectorAxis, updateWindowAxes, insertedWindowAxes, scatterToOperand, sorted, unique)
}

// --- barriers: Stela's passes keep the program's values, so both are
// the identity (the operands are returned as they are).

func (fn *Function) OptimizationBarrier(operands ...compute.Value) ([]compute.Value, error) {
	return fn.build("OptimizationBarrier", operands, func(_ *ir.Builder, a []*ir.Value) ([]*ir.Value, error) { return a, nil })
}

func (fn *Function) SchedulingBarrier(operand compute.Value, deps ...compute.Value) (compute.Value, error) {
	return fn.build1("SchedulingBarrier", append([]compute.Value{operand}, deps...), func(_ *ir.Builder, a []*ir.Value) (*ir.Value, error) { return a[0], nil })
}

// --- collectives

// AllReduce is all_reduce over the replica groups (indices into the
// device assignment: the replicas of a DistributedSPMD computation).
func (fn *Function) AllReduce(inputs []compute.Value, rt compute.ReduceOpType, groups [][]int) ([]compute.Value, error) {
	return fn.build("AllReduce", inputs, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		op, _, err := reduceOpOf(rt)
		if err != nil {
			return nil, err
		}
		var g [][]int64
		for _, grp := range groups {
			var r []int64
			for _, d := range grp {
				r = append(r, int64(d))
			}
			g = append(g, r)
		}
		out := make([]*ir.Value, len(a))
		for i, v := range a {
			out[i] = b.Emit1(ir.OpAllReduce, []*ir.Value{v}, ir.AllReduceAttr{ReplicaGroups: g}, ir.BinaryRegion(op, v.Type.DType, b.Loc))
		}
		return out, nil
	})
}
