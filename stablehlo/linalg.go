package stablehlo

import (
	"fmt"
	"slices"
)

// ExpandCholesky and ExpandTriangularSolve return stablehlo.cholesky and
// stablehlo.triangular_solve as blocks of other StableHLO ops (for the
// code generator and the importer, as ExpandFFT): one argument per
// operand and a stablehlo.return of the result. Each is a
// stablehlo.while over the rows (a column-by-column Cholesky, forward or
// backward substitution), so the program's size does not grow with the
// matrix. They read only the triangle the op names; the other triangle of
// cholesky's result (implementation-defined in the spec) is zero.

// lin builds the ops of an expansion.
type lin struct {
	b     *Builder
	elem  ElementType
	batch []int64 // the batch dimensions' sizes
}

func (l *lin) t(shape ...int64) TensorType {
	return TensorType{Shape: slices.Concat(l.batch, shape), Elem: l.elem}
}

func (l *lin) op(name string, ins []*Value, t Type, attrs ...NamedAttr) *Value {
	return l.b.Op1(name, ins, t, attrs...)
}

func (l *lin) i64(v int64) *Value {
	d, _ := DenseFromInt64s(TensorType{Elem: I64}, []int64{v})
	return l.b.Constant(d)
}

// zeros is a splat zero of type t.
func (l *lin) zeros(t TensorType) *Value {
	z := l.scalarZero(t.Elem)
	return l.op("stablehlo.broadcast_in_dim", []*Value{z}, t, NA("broadcast_dimensions", I64Array()))
}

func (l *lin) scalarZero(e ElementType) *Value {
	t := TensorType{Elem: e}
	var d *DenseElements
	switch {
	case e.IsComplex():
		d, _ = DenseFromComplex128s(t, []complex128{0})
	case e.IsFloat():
		d, _ = DenseFromFloat64s(t, []float64{0})
	case e.IsBool():
		d, _ = DenseFromBools(t, []bool{false})
	default:
		d, _ = DenseFromInt64s(t, []int64{0})
	}
	return l.b.Constant(d)
}

// slice is dynamic_slice of x at batch offsets 0 and the given trailing
// starts, with the trailing sizes.
func (l *lin) slice(x *Value, starts []*Value, sizes ...int64) *Value {
	ins := []*Value{x}
	for range l.batch {
		ins = append(ins, l.i64(0))
	}
	ins = append(ins, starts...)
	t := TensorType{Shape: slices.Concat(l.batch, sizes), Elem: x.Type.(TensorType).Elem}
	return l.op("stablehlo.dynamic_slice", ins, t, NA("slice_sizes", I64Array(t.Shape...)))
}

func (l *lin) update(x, u *Value, starts []*Value) *Value {
	ins := []*Value{x, u}
	for range l.batch {
		ins = append(ins, l.i64(0))
	}
	ins = append(ins, starts...)
	return l.op("stablehlo.dynamic_update_slice", ins, x.Type)
}

func (l *lin) reshape(x *Value, shape ...int64) *Value {
	return l.op("stablehlo.reshape", []*Value{x}, TensorType{Shape: slices.Concat(l.batch, shape), Elem: x.Type.(TensorType).Elem})
}

// bcast broadcasts x (shape batch + xs) to batch + shape, x's trailing
// dimensions going to dims (after the batch ones).
func (l *lin) bcast(x *Value, shape []int64, dims ...int64) *Value {
	var bd []int64
	for i := range l.batch {
		bd = append(bd, int64(i))
	}
	for _, d := range dims {
		bd = append(bd, int64(len(l.batch))+d)
	}
	t := TensorType{Shape: slices.Concat(l.batch, shape), Elem: x.Type.(TensorType).Elem}
	return l.op("stablehlo.broadcast_in_dim", []*Value{x}, t, NA("broadcast_dimensions", I64Array(bd...)))
}

func (l *lin) bin(name string, x, y *Value) *Value {
	return l.op("stablehlo."+name, []*Value{x, y}, x.Type)
}

// conj is the complex conjugate (x itself for a real type).
func (l *lin) conj(x *Value) *Value {
	t := x.Type.(TensorType)
	if !t.Elem.IsComplex() {
		return x
	}
	pt := TensorType{Shape: t.Shape, Elem: t.Elem.ComplexPart()}
	re := l.op("stablehlo.real", []*Value{x}, pt)
	im := l.op("stablehlo.negate", []*Value{l.op("stablehlo.imag", []*Value{x}, pt)}, pt)
	return l.op("stablehlo.complex", []*Value{re, im}, t)
}

// transpose2 swaps the last two dimensions.
func (l *lin) transpose2(x *Value) *Value {
	t := x.Type.(TensorType)
	r := len(t.Shape)
	perm := make([]int64, r)
	for i := range perm {
		perm[i] = int64(i)
	}
	perm[r-2], perm[r-1] = perm[r-1], perm[r-2]
	shape := slices.Clone(t.Shape)
	shape[r-2], shape[r-1] = shape[r-1], shape[r-2]
	return l.op("stablehlo.transpose", []*Value{x}, TensorType{Shape: shape, Elem: t.Elem}, NA("permutation", I64Array(perm...)))
}

// triangle keeps the lower (or upper) triangle of the square matrices x,
// the diagonal included unless strict, and zeroes the rest.
func (l *lin) triangle(x *Value, n int64, lower, strict bool) *Value {
	it := TensorType{Shape: slices.Concat(l.batch, []int64{n, n}), Elem: I64}
	nb := int64(len(l.batch))
	row := l.op("stablehlo.iota", nil, it, NA("iota_dimension", I64Attr(nb)))
	col := l.op("stablehlo.iota", nil, it, NA("iota_dimension", I64Attr(nb+1)))
	dir := map[[2]bool]string{{true, false}: "GE", {false, false}: "LE", {true, true}: "GT", {false, true}: "LT"}[[2]bool{lower, strict}]
	keep := l.op("stablehlo.compare", []*Value{row, col}, TensorType{Shape: it.Shape, Elem: I1},
		NA("comparison_direction", EnumAttr{Dialect: "stablehlo", Kind: "comparison_direction", Value: dir}))
	return l.op("stablehlo.select", []*Value{keep, x, l.zeros(x.Type.(TensorType))}, x.Type)
}

// loop builds `while i < n` with state (i, x) and a body that maps (i, x)
// to the new x; it returns the final x.
func (l *lin) loop(n int64, x *Value, body func(l *lin, i, x *Value) *Value) *Value {
	it := TensorType{Elem: I64}
	w := l.b.Op("stablehlo.while", []*Value{l.i64(0), x}, []Type{it, x.Type})
	cb := w.NewRegion(it, x.Type)
	cl := &lin{b: cb, elem: l.elem, batch: l.batch}
	lt := cl.op("stablehlo.compare", []*Value{cb.Arg(0), cl.i64(n)}, TensorType{Elem: I1},
		NA("comparison_direction", EnumAttr{Dialect: "stablehlo", Kind: "comparison_direction", Value: "LT"}))
	cb.Return(lt)
	bb := w.NewRegion(it, x.Type)
	bl := &lin{b: bb, elem: l.elem, batch: l.batch}
	nx := body(bl, bb.Arg(0), bb.Arg(1))
	bb.Return(bl.bin("add", bb.Arg(0), bl.i64(1)), nx)
	return w.Results[1]
}

func linOperand(v *Value) (TensorType, error) {
	t, ok := v.Type.(TensorType)
	if !ok || !t.IsStatic() || t.Rank() < 2 || !(t.Elem.IsFloat() || t.Elem.IsComplex()) {
		return TensorType{}, fmt.Errorf("operand %s: want a static tensor of rank 2 or more of a float or complex type", v.Type)
	}
	return t, nil
}

func newLinBlock(op *Op) (*Block, *Builder) {
	blk := &Block{}
	for _, x := range op.Operands {
		blk.Args = append(blk.Args, &Value{Type: x.Type, Block: blk, Index: len(blk.Args)})
	}
	b := NewBuilder(blk, "stablehlo.return")
	b.Loc = op.Loc
	return blk, b
}

// ExpandCholesky: column j of L is (A[:, j] - L·conj(L[j, :])) / L[j, j]
// on rows j and below, L[j, j] = sqrt(Re(A[j, j] - Σ_k |L[j, k]|²)); an
// upper result is the conjugate transpose of L.
func ExpandCholesky(op *Op) (*Block, error) {
	if op.Name != "stablehlo.cholesky" || len(op.Operands) != 1 || len(op.Results) != 1 {
		return nil, fmt.Errorf("want stablehlo.cholesky with one operand and one result")
	}
	at, err := linOperand(op.Operands[0])
	if err != nil {
		return nil, err
	}
	n := at.Shape[at.Rank()-1]
	if at.Shape[at.Rank()-2] != n || !TypesEqual(op.Results[0].Type, at) {
		return nil, fmt.Errorf("operand %s: want square matrices and a result of the same type", at)
	}
	lower := true
	if a, ok := op.Attr("lower").(BoolAttr); ok {
		lower = bool(a)
	}
	blk, b := newLinBlock(op)
	l := &lin{b: b, elem: at.Elem, batch: at.Shape[:at.Rank()-2]}
	a := blk.Args[0]
	L := l.loop(n, l.zeros(at), func(l *lin, i, L *Value) *Value {
		row := l.reshape(l.slice(L, []*Value{i, l.i64(0)}, 1, n), n)
		acol := l.reshape(l.slice(a, []*Value{l.i64(0), i}, n, 1), n)
		nb := int64(len(l.batch))
		var bd []int64
		for k := range nb {
			bd = append(bd, k)
		}
		s := l.op("stablehlo.dot_general", []*Value{L, l.conj(row)}, l.t(n),
			NA("dot_dimension_numbers", DotDims{LhsBatchingDims: bd, RhsBatchingDims: bd, LhsContractingDims: []int64{nb + 1}, RhsContractingDims: []int64{nb}}))
		c := l.bin("subtract", acol, s)
		cii := l.reshape(l.slice(c, []*Value{i}, 1))
		var d *Value
		if l.elem.IsComplex() {
			pt := TensorType{Shape: l.batch, Elem: l.elem.ComplexPart()}
			re := l.op("stablehlo.sqrt", []*Value{l.op("stablehlo.real", []*Value{cii}, pt)}, pt)
			d = l.op("stablehlo.complex", []*Value{re, l.zeros(pt)}, l.t())
		} else {
			d = l.op("stablehlo.sqrt", []*Value{cii}, l.t())
		}
		col := l.bin("divide", c, l.bcast(d, []int64{n}))
		// Rows above j stay zero.
		it := TensorType{Shape: slices.Concat(l.batch, []int64{n}), Elem: I64}
		rows := l.op("stablehlo.iota", nil, it, NA("iota_dimension", I64Attr(nb)))
		ib := l.op("stablehlo.broadcast_in_dim", []*Value{i}, it, NA("broadcast_dimensions", I64Array()))
		keep := l.op("stablehlo.compare", []*Value{rows, ib}, TensorType{Shape: it.Shape, Elem: I1},
			NA("comparison_direction", EnumAttr{Dialect: "stablehlo", Kind: "comparison_direction", Value: "GE"}))
		col = l.op("stablehlo.select", []*Value{keep, col, l.zeros(col.Type.(TensorType))}, col.Type)
		return l.update(L, l.reshape(col, n, 1), []*Value{l.i64(0), i})
	})
	if !lower {
		L = l.conj(l.transpose2(L))
	}
	b.Return(L)
	return blk, nil
}

// ExpandTriangularSolve solves op(a)·x = b (left_side) or x·op(a) = b by
// substitution over the rows of x, after turning the right-side case into
// a left-side one on the transposes (x·op(a) = b ⇔ op(a)ᵀ·xᵀ = bᵀ).
func ExpandTriangularSolve(op *Op) (*Block, error) {
	if op.Name != "stablehlo.triangular_solve" || len(op.Operands) != 2 || len(op.Results) != 1 {
		return nil, fmt.Errorf("want stablehlo.triangular_solve with two operands and one result")
	}
	at, err := linOperand(op.Operands[0])
	if err != nil {
		return nil, err
	}
	bt, err := linOperand(op.Operands[1])
	if err != nil {
		return nil, err
	}
	r := at.Rank()
	m := at.Shape[r-1]
	flag := func(name string) bool {
		v, _ := op.Attr(name).(BoolAttr)
		return bool(v)
	}
	left, lower, unit := flag("left_side"), flag("lower"), flag("unit_diagonal")
	tr := "NO_TRANSPOSE"
	if e, ok := op.Attr("transpose_a").(EnumAttr); ok {
		tr = e.Value
	}
	if at.Shape[r-2] != m || bt.Rank() != r || bt.Elem != at.Elem || !slices.Equal(bt.Shape[:r-2], at.Shape[:r-2]) ||
		!TypesEqual(op.Results[0].Type, bt) {
		return nil, fmt.Errorf("operands %s and %s and result %s do not fit", at, bt, op.Results[0].Type)
	}
	if left && bt.Shape[r-2] != m || !left && bt.Shape[r-1] != m {
		return nil, fmt.Errorf("b %s does not fit a %s on the %s side", bt, at, map[bool]string{true: "left", false: "right"}[left])
	}
	switch tr {
	case "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT":
	default:
		return nil, fmt.Errorf("transpose_a %q: want NO_TRANSPOSE, TRANSPOSE or ADJOINT", tr)
	}
	blk, b := newLinBlock(op)
	l := &lin{b: b, elem: at.Elem, batch: at.Shape[:r-2]}
	a, rhs := blk.Args[0], blk.Args[1]
	// Only a's named triangle counts (without the diagonal when it is
	// taken as ones).
	a = l.triangle(a, m, lower, unit)
	transposed := tr != "NO_TRANSPOSE"
	conj := tr == "ADJOINT"
	if !left {
		// x·op(a) = b ⇔ op(a)ᵀ·xᵀ = bᵀ.
		transposed = !transposed
		rhs = l.transpose2(rhs)
	}
	if transposed {
		a = l.transpose2(a)
		lower = !lower
	}
	if conj {
		a = l.conj(a)
	}
	nrhs := rhs.Type.(TensorType).Shape[r-1]
	nb := int64(len(l.batch))
	var bd []int64
	for k := range nb {
		bd = append(bd, k)
	}
	x := l.loop(m, l.zeros(rhs.Type.(TensorType)), func(l *lin, i, x *Value) *Value {
		row := i // forward substitution for lower, backward for upper
		if !lower {
			row = l.bin("subtract", l.i64(m-1), i)
		}
		arow := l.reshape(l.slice(a, []*Value{row, l.i64(0)}, 1, m), m)
		s := l.op("stablehlo.dot_general", []*Value{arow, x}, l.t(nrhs),
			NA("dot_dimension_numbers", DotDims{LhsBatchingDims: bd, RhsBatchingDims: bd, LhsContractingDims: []int64{nb}, RhsContractingDims: []int64{nb}}))
		bi := l.reshape(l.slice(rhs, []*Value{row, l.i64(0)}, 1, nrhs), nrhs)
		v := l.bin("subtract", bi, s)
		if !unit {
			d := l.reshape(l.slice(a, []*Value{row, row}, 1, 1))
			v = l.bin("divide", v, l.bcast(d, []int64{nrhs}))
		}
		return l.update(x, l.reshape(v, 1, nrhs), []*Value{row, l.i64(0)})
	})
	if !left {
		x = l.transpose2(x)
	}
	b.Return(x)
	return blk, nil
}
