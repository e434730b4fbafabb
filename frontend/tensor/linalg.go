package tensor

import (
	"slices"

	"github.com/stela-ml/stela/ir"
)

// MatMul is numpy's matmul for operands of rank >= 2: the product of the
// last two dimensions, with the leading (batch) dimensions broadcast
// against each other.
func MatMul(x, y *Tensor) *Tensor {
	defer named(opMatMul)
	checkNotNil(opMatMul, x, y)
	if x.Rank() < 2 || y.Rank() < 2 {
		panic(fail(opMatMul, "operands need rank >= 2, got %v and %v", x.typ, y.typ))
	}
	if x.typ.DType != y.typ.DType {
		panic(fail(opMatMul, "operand types %v and %v differ: element types must match (no implicit promotion; use Convert)", x.typ, y.typ))
	}
	xr, yr := x.Rank(), y.Rank()
	k, k2 := x.typ.Shape[xr-1], y.typ.Shape[yr-2]
	if k != k2 {
		panic(fail(opMatMul, "%v times %v: contracting dimensions differ (%d and %d)", x.typ, y.typ, k, k2))
	}
	if yr == 2 {
		// [..., m, k] x [k, n]: contract without batch dimensions; the
		// result's free dimensions come out as [..., m, n] already, and the
		// weight is not broadcast to the batch.
		return DotGeneral(x, y, ir.DotGeneralAttr{LhsContract: []int{xr - 1}, RhsContract: []int{0}})
	}
	bx, by := x.typ.Shape[:xr-2], y.typ.Shape[:yr-2]
	batch, err := broadcastShapes(bx, by)
	if err != nil {
		panic(fail(opMatMul, "%v times %v: batch dimensions do not broadcast (%v)", x.typ, y.typ, err))
	}
	x = broadcastTo(x, append(slices.Clone(batch), x.typ.Shape[xr-2:]...))
	y = broadcastTo(y, append(slices.Clone(batch), y.typ.Shape[yr-2:]...))
	b := len(batch)
	return DotGeneral(x, y, ir.DotGeneralAttr{
		LhsBatch: iotaInts(b), RhsBatch: iotaInts(b),
		LhsContract: []int{b + 1}, RhsContract: []int{b},
	})
}

// DotGeneral is StableHLO's dot_general: contract lhs and rhs over the
// contracting dimensions, pairing the batch dimensions. The result is the
// batch dimensions, then lhs's free ones, then rhs's. A floating-point dot
// whose dims set no Precision gets DefaultPrecision for both operands;
// integer dots get none.
func DotGeneral(lhs, rhs *Tensor, dims ir.DotGeneralAttr) *Tensor {
	checkNotNil("dot_general", lhs, rhs)
	dims.LhsBatch = nonNil(dims.LhsBatch)
	dims.RhsBatch = nonNil(dims.RhsBatch)
	dims.LhsContract = nonNil(dims.LhsContract)
	dims.RhsContract = nonNil(dims.RhsContract)
	dims.Precision = precisionFor(lhs.typ.DType, dims.Precision)
	return emit(nil, ir.OpDotGeneral, []*Tensor{lhs, rhs}, dims)[0]
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return slices.Clone(s)
}
