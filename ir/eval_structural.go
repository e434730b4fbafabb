package ir

import (
	"fmt"
	"math"
	"reflect"
	"slices"
)

// Reference evaluation of the structural ops: data movement (this file),
// contractions and reductions (eval_structural_compute.go), gather and
// scatter (eval_structural_gather.go), and control flow
// (eval_structural_control.go). Each rule follows the definition in the
// StableHLO specification (openxla/stablehlo docs/spec.md) index by index:
// the result is filled by walking every result index and computing where
// its value comes from, which is slow but easy to check against the text.
//
// Every rule recomputes the result shape from its operands and attribute
// and refuses an instruction whose declared result type disagrees, so that
// a malformed hand-built instruction gives an error, not a wrong answer.
// Literals are never mutated: a rule that updates a tensor (scatter,
// dynamic_update_slice) works on a clone, so results may share storage
// with operands (while and case return their operands as they are).
//
// Private helpers carry an sx prefix to keep clear of the elementwise
// evaluator's names in the same package.

// sxGuard turns a panic inside a rule into an error. Rules validate their
// inputs, so a panic means a bug in the evaluator or an instruction that
// slipped past validation; either way the caller gets an error naming it
// instead of a crashed test binary.
func sxGuard(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal error in the reference evaluator: %v", r)
	}
}

// sxEval and sxConvert reach Eval and the convert op's rule through
// variables set in init: the op table refers to the rules in these files,
// and Eval refers to the op table, so calling either directly from a rule
// is an initialization cycle that Go rejects.
var (
	sxEval    func(f *Func, args ...*Literal) ([]*Literal, error)
	sxConvert EvalFunc
)

func init() {
	sxEval = Eval
	sxConvert = func(in *Instr, args []*Literal) ([]*Literal, error) { return OpConvert.Info().Eval(in, args) }
}

// sxAttr returns the instruction's attribute as a T.
func sxAttr[T any](in *Instr) (T, error) {
	a, ok := in.Attr.(T)
	if !ok {
		var z T
		return z, fmt.Errorf("attribute is %T, want %T", in.Attr, z)
	}
	return a, nil
}

// sxResultType returns the declared type of result i, which must be a
// valid static type.
func sxResultType(in *Instr, i int) (Type, error) {
	if i >= len(in.Results) || in.Results[i] == nil {
		return Type{}, fmt.Errorf("internal error: instruction has %d results, want at least %d", len(in.Results), i+1)
	}
	t := in.Results[i].Type
	if !t.DType.valid() || !t.IsStatic() {
		return Type{}, fmt.Errorf("result #%d has type %v, want a valid static type", i, t)
	}
	return t, nil
}

// sxCheckResult compares the computed result type with the declared one.
func sxCheckResult(in *Instr, i int, t Type) error {
	if i >= len(in.Results) || in.Results[i] == nil {
		return fmt.Errorf("internal error: instruction has %d results, want at least %d", len(in.Results), i+1)
	}
	if got := in.Results[i].Type; !got.Equal(t) {
		return fmt.Errorf("declared result type %v differs from the computed %v", got, t)
	}
	return nil
}

// sxArgs checks the operand count and that no operand is nil.
func sxArgs(args []*Literal, min int) error {
	if len(args) < min {
		return fmt.Errorf("%d operands, want at least %d", len(args), min)
	}
	for i, a := range args {
		if a == nil {
			return fmt.Errorf("operand #%d is nil", i)
		}
	}
	return nil
}

// sxEach calls fn with every index of shape in row-major order (the last
// dimension varies fastest). idx is reused between calls. A shape with a
// zero dimension has no indices; a scalar has one, the empty index.
func sxEach(shape []int, fn func(idx []int) error) error {
	for _, d := range shape {
		if d <= 0 {
			return nil
		}
	}
	idx := make([]int, len(shape))
	for {
		if err := fn(idx); err != nil {
			return err
		}
		k := len(shape) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return nil
		}
	}
}

// sxOffset is the row-major element offset of idx given the shape's strides.
func sxOffset(idx, strides []int) int {
	o := 0
	for i, x := range idx {
		o += x * strides[i]
	}
	return o
}

// sxInBounds reports whether idx is a valid index of shape.
func sxInBounds(idx, shape []int) bool {
	for i, x := range idx {
		if x < 0 || x >= shape[i] {
			return false
		}
	}
	return true
}

// sxDimsOK checks that dims are distinct dimensions of a rank-r tensor.
func sxDimsOK(what string, dims []int, r int) error {
	seen := make([]bool, r)
	for _, d := range dims {
		if d < 0 || d >= r {
			return fmt.Errorf("%s %v: dimension %d out of range for rank %d", what, dims, d, r)
		}
		if seen[d] {
			return fmt.Errorf("%s %v: dimension %d repeats", what, dims, d)
		}
		seen[d] = true
	}
	return nil
}

// sxComplement lists the dimensions of a rank-r tensor not in any of the
// given lists, in increasing order.
func sxComplement(r int, lists ...[]int) []int {
	var out []int
	for d := 0; d < r; d++ {
		in := false
		for _, l := range lists {
			if slices.Contains(l, d) {
				in = true
				break
			}
		}
		if !in {
			out = append(out, d)
		}
	}
	return out
}

// sxOnes returns v, or n ones when v is empty (the attribute default).
func sxOnes(what string, v []int, n int) ([]int, error) {
	if len(v) == 0 {
		v = make([]int, n)
		for i := range v {
			v[i] = 1
		}
		return v, nil
	}
	if len(v) != n {
		return nil, fmt.Errorf("%s has %d entries, want %d", what, len(v), n)
	}
	for _, x := range v {
		if x < 1 {
			return nil, fmt.Errorf("%s %v: entries must be at least 1", what, v)
		}
	}
	return v, nil
}

// sxPairs returns v, or n zero pairs when v is empty.
func sxPairs(what string, v [][2]int, n int) ([][2]int, error) {
	if len(v) == 0 {
		return make([][2]int, n), nil
	}
	if len(v) != n {
		return nil, fmt.Errorf("%s has %d entries, want %d", what, len(v), n)
	}
	return v, nil
}

// sxCopier moves elements between two literals of the same element type
// without going through an interface value per element.
type sxCopier struct{ fn func(i, j int) }

func sxNewCopier(dst, src *Literal) sxCopier {
	switch d := dst.Data.(type) {
	case []bool:
		return sxCopyInto(d, src)
	case []int8:
		return sxCopyInto(d, src)
	case []int16:
		return sxCopyInto(d, src)
	case []int32:
		return sxCopyInto(d, src)
	case []int64:
		return sxCopyInto(d, src)
	case []uint8:
		return sxCopyInto(d, src)
	case []uint16:
		return sxCopyInto(d, src)
	case []uint32:
		return sxCopyInto(d, src)
	case []uint64:
		return sxCopyInto(d, src)
	case []Float16:
		return sxCopyInto(d, src)
	case []BFloat16:
		return sxCopyInto(d, src)
	case []Int2:
		return sxCopyInto(d, src)
	case []Int4:
		return sxCopyInto(d, src)
	case []Uint2:
		return sxCopyInto(d, src)
	case []Uint4:
		return sxCopyInto(d, src)
	case []Float8E4M3FN:
		return sxCopyInto(d, src)
	case []Float8E5M2:
		return sxCopyInto(d, src)
	case []Float8E4M3FNUZ:
		return sxCopyInto(d, src)
	case []Float8E5M2FNUZ:
		return sxCopyInto(d, src)
	case []Float8E4M3B11FNUZ:
		return sxCopyInto(d, src)
	case []Float8E4M3:
		return sxCopyInto(d, src)
	case []Float8E3M4:
		return sxCopyInto(d, src)
	case []Float8E8M0FNU:
		return sxCopyInto(d, src)
	case []Float6E2M3FN:
		return sxCopyInto(d, src)
	case []Float6E3M2FN:
		return sxCopyInto(d, src)
	case []Float4E2M1FN:
		return sxCopyInto(d, src)
	case []float32:
		return sxCopyInto(d, src)
	case []float64:
		return sxCopyInto(d, src)
	case []complex64:
		return sxCopyInto(d, src)
	case []complex128:
		return sxCopyInto(d, src)
	}
	dv, sv := reflect.ValueOf(dst.Data), reflect.ValueOf(src.Data)
	return sxCopier{func(i, j int) { dv.Index(i).Set(sv.Index(j)) }}
}

// sxCopyInto copies from src, whose data must be a []T too (a literal of
// another element type panics, as a mismatched reflect.Value.Set would).
func sxCopyInto[T any](dst []T, src *Literal) sxCopier {
	s := src.Data.([]T)
	return sxCopier{func(i, j int) { dst[i] = s[j] }}
}

func (c sxCopier) copy(i, j int) { c.fn(i, j) }

// sxScalarAt returns element i of l as a rank-0 literal.
func sxScalarAt(l *Literal, i int) *Literal {
	s := Zeros(Scalar(l.Type.DType))
	s.CopyElem(0, l, i)
	return s
}

// sxIndexValue reads element i of an integer literal as an int. Values
// beyond the int range saturate, which keeps clamping right: such an index
// is out of range either way.
func sxIndexValue(l *Literal, i int) (int, error) {
	var v int64
	switch d := l.Data.(type) {
	case []int8:
		v = int64(d[i])
	case []int16:
		v = int64(d[i])
	case []int32:
		v = int64(d[i])
	case []int64:
		v = d[i]
	case []uint8:
		v = int64(d[i])
	case []uint16:
		v = int64(d[i])
	case []uint32:
		v = int64(d[i])
	case []uint64:
		if d[i] > math.MaxInt64 {
			v = math.MaxInt64
		} else {
			v = int64(d[i])
		}
	default:
		return 0, fmt.Errorf("index of type %v is not an integer", l.Type)
	}
	if v > math.MaxInt {
		return math.MaxInt, nil
	}
	if v < math.MinInt {
		return math.MinInt, nil
	}
	return int(v), nil
}

// sxScalarIndex reads a rank-0 integer literal.
func sxScalarIndex(what string, l *Literal) (int, error) {
	if l.Type.Rank() != 0 || !l.Type.DType.IsInteger() {
		return 0, fmt.Errorf("%s has type %v, want an integer scalar", what, l.Type)
	}
	return sxIndexValue(l, 0)
}

// sxClamp clamps v into [lo, hi].
func sxClamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// sxConvertTo converts l to element type d with the convert op's own
// evaluation rule, so that region arguments promoted to a wider type follow
// exactly the conversion semantics of convert.
func sxConvertTo(l *Literal, d DType) (*Literal, error) {
	if l.Type.DType == d {
		return l, nil
	}
	t := l.Type.WithDType(d)
	in := &Instr{Op: OpConvert, Attr: ConvertAttr{To: d}, Results: []*Value{{Type: t}}}
	outs, err := sxConvert(in, []*Literal{l})
	if err != nil {
		return nil, fmt.Errorf("converting %v to %v: %w", l.Type, d, err)
	}
	return outs[0], nil
}

// sxCall evaluates a region on arguments, converting each argument to the
// element type of the matching parameter first, and checks that it returns
// want results.
func sxCall(what string, r *Func, args []*Literal, want int) ([]*Literal, error) {
	if len(r.Params) != len(args) {
		return nil, fmt.Errorf("%s region takes %d parameters, want %d", what, len(r.Params), len(args))
	}
	conv := make([]*Literal, len(args))
	for i, a := range args {
		p := r.Params[i].Type
		if !ShapeEqual(p.Shape, a.Type.Shape) {
			return nil, fmt.Errorf("%s region parameter #%d has type %v, want shape of %v", what, i, p, a.Type)
		}
		c, err := sxConvertTo(a, p.DType)
		if err != nil {
			return nil, err
		}
		conv[i] = c
	}
	outs, err := sxEval(r, conv...)
	if err != nil {
		return nil, err
	}
	if len(outs) != want {
		return nil, fmt.Errorf("%s region returns %d values, want %d", what, len(outs), want)
	}
	return outs, nil
}

// ---- data movement ----

func evalBroadcastInDim(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[BroadcastInDimAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	if len(a.Dims) != x.Type.Rank() {
		return nil, fmt.Errorf("dims %v has %d entries for an operand of rank %d", a.Dims, len(a.Dims), x.Type.Rank())
	}
	if err := sxDimsOK("dims", a.Dims, len(a.Shape)); err != nil {
		return nil, err
	}
	for d, rd := range a.Dims {
		if n := x.Type.Shape[d]; n != 1 && n != a.Shape[rd] {
			return nil, fmt.Errorf("operand dimension %d has size %d, want 1 or %d (result dimension %d)", d, n, a.Shape[rd], rd)
		}
	}
	t := TensorOf(x.Type.DType, slices.Clone(a.Shape)...)
	if !t.IsStatic() {
		return nil, fmt.Errorf("shape %v is not static", a.Shape)
	}
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	cp := sxNewCopier(out, x)
	xs := Strides(x.Type.Shape)
	src := make([]int, x.Type.Rank())
	i := 0
	sxEach(t.Shape, func(idx []int) error {
		for d, rd := range a.Dims {
			if x.Type.Shape[d] == 1 {
				src[d] = 0
			} else {
				src[d] = idx[rd]
			}
		}
		cp.copy(i, sxOffset(src, xs))
		i++
		return nil
	})
	return []*Literal{out}, nil
}

func evalReshape(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[ReshapeAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	t := TensorOf(x.Type.DType, slices.Clone(a.Shape)...)
	if !t.IsStatic() {
		return nil, fmt.Errorf("shape %v is not static", a.Shape)
	}
	if t.NumElements() != x.Type.NumElements() {
		return nil, fmt.Errorf("cannot reshape %v (%d elements) to %v (%d elements)", x.Type, x.Type.NumElements(), t, t.NumElements())
	}
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := x.Clone()
	out.Type = t
	return []*Literal{out}, nil
}

func evalTranspose(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[TransposeAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	r := x.Type.Rank()
	if len(a.Perm) != r {
		return nil, fmt.Errorf("perm %v has %d entries for an operand of rank %d", a.Perm, len(a.Perm), r)
	}
	if err := sxDimsOK("perm", a.Perm, r); err != nil {
		return nil, err
	}
	shape := make([]int, r)
	for i, p := range a.Perm {
		shape[i] = x.Type.Shape[p]
	}
	t := TensorOf(x.Type.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	cp := sxNewCopier(out, x)
	xs := Strides(x.Type.Shape)
	src := make([]int, r)
	i := 0
	sxEach(shape, func(idx []int) error {
		for k, p := range a.Perm {
			src[p] = idx[k]
		}
		cp.copy(i, sxOffset(src, xs))
		i++
		return nil
	})
	return []*Literal{out}, nil
}

func evalSlice(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[SliceAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	r := x.Type.Rank()
	if len(a.Start) != r || len(a.Limit) != r || len(a.Stride) != r {
		return nil, fmt.Errorf("start %v, limit %v and stride %v must have %d entries", a.Start, a.Limit, a.Stride, r)
	}
	stride := a.Stride
	shape := make([]int, r)
	for d := range r {
		if a.Start[d] < 0 || a.Start[d] > a.Limit[d] || a.Limit[d] > x.Type.Shape[d] {
			return nil, fmt.Errorf("dimension %d: want 0 <= start %d <= limit %d <= %d", d, a.Start[d], a.Limit[d], x.Type.Shape[d])
		}
		if stride[d] < 1 {
			return nil, fmt.Errorf("dimension %d: stride %d, want at least 1", d, stride[d])
		}
		shape[d] = (a.Limit[d] - a.Start[d] + stride[d] - 1) / stride[d]
	}
	t := TensorOf(x.Type.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	cp := sxNewCopier(out, x)
	xs := Strides(x.Type.Shape)
	src := make([]int, r)
	i := 0
	sxEach(shape, func(idx []int) error {
		for d := range r {
			src[d] = a.Start[d] + idx[d]*stride[d]
		}
		cp.copy(i, sxOffset(src, xs))
		i++
		return nil
	})
	return []*Literal{out}, nil
}

// sxStarts reads one scalar start index per dimension and clamps it so
// that a window of the given sizes fits: StableHLO clamps start indices of
// dynamic_slice and dynamic_update_slice into [0, dim - size] rather than
// failing, since they are run-time values.
func sxStarts(starts []*Literal, dims, sizes []int) ([]int, error) {
	if len(starts) != len(dims) {
		return nil, fmt.Errorf("%d start indices for an operand of rank %d", len(starts), len(dims))
	}
	out := make([]int, len(dims))
	for d, s := range starts {
		v, err := sxScalarIndex(fmt.Sprintf("start index #%d", d), s)
		if err != nil {
			return nil, err
		}
		out[d] = sxClamp(v, 0, dims[d]-sizes[d])
	}
	return out, nil
}

func evalDynamicSlice(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[DynamicSliceAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	r := x.Type.Rank()
	if len(a.Sizes) != r {
		return nil, fmt.Errorf("sizes %v has %d entries for an operand of rank %d", a.Sizes, len(a.Sizes), r)
	}
	for d, s := range a.Sizes {
		if s < 0 || s > x.Type.Shape[d] {
			return nil, fmt.Errorf("size %d of dimension %d is not in [0, %d]", s, d, x.Type.Shape[d])
		}
	}
	start, err := sxStarts(args[1:], x.Type.Shape, a.Sizes)
	if err != nil {
		return nil, err
	}
	t := TensorOf(x.Type.DType, slices.Clone(a.Sizes)...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	cp := sxNewCopier(out, x)
	xs := Strides(x.Type.Shape)
	src := make([]int, r)
	i := 0
	sxEach(t.Shape, func(idx []int) error {
		for d := range r {
			src[d] = start[d] + idx[d]
		}
		cp.copy(i, sxOffset(src, xs))
		i++
		return nil
	})
	return []*Literal{out}, nil
}

func evalDynamicUpdateSlice(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	if err := sxArgs(args, 2); err != nil {
		return nil, err
	}
	x, u := args[0], args[1]
	r := x.Type.Rank()
	if u.Type.DType != x.Type.DType || u.Type.Rank() != r {
		return nil, fmt.Errorf("update type %v does not fit operand type %v", u.Type, x.Type)
	}
	for d := range r {
		if u.Type.Shape[d] > x.Type.Shape[d] {
			return nil, fmt.Errorf("update type %v does not fit operand type %v", u.Type, x.Type)
		}
	}
	start, err := sxStarts(args[2:], x.Type.Shape, u.Type.Shape)
	if err != nil {
		return nil, err
	}
	if err := sxCheckResult(in, 0, x.Type); err != nil {
		return nil, err
	}
	out := x.Clone()
	cp := sxNewCopier(out, u)
	xs := Strides(x.Type.Shape)
	dst := make([]int, r)
	i := 0
	sxEach(u.Type.Shape, func(idx []int) error {
		for d := range r {
			dst[d] = start[d] + idx[d]
		}
		cp.copy(sxOffset(dst, xs), i)
		i++
		return nil
	})
	return []*Literal{out}, nil
}

func evalConcatenate(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[ConcatenateAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	first := args[0].Type
	r := first.Rank()
	if a.Dim < 0 || a.Dim >= r {
		return nil, fmt.Errorf("dim %d out of range for rank %d", a.Dim, r)
	}
	shape := slices.Clone(first.Shape)
	shape[a.Dim] = 0
	for i, x := range args {
		xt := x.Type
		ok := xt.DType == first.DType && xt.Rank() == r
		for d := 0; ok && d < r; d++ {
			ok = d == a.Dim || xt.Shape[d] == first.Shape[d]
		}
		if !ok {
			return nil, fmt.Errorf("operand #%d has type %v, which does not match %v outside dimension %d", i, xt, first, a.Dim)
		}
		shape[a.Dim] += xt.Shape[a.Dim]
	}
	t := TensorOf(first.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	os := Strides(shape)
	dst := make([]int, r)
	base := 0
	for _, x := range args {
		cp := sxNewCopier(out, x)
		i := 0
		sxEach(x.Type.Shape, func(idx []int) error {
			copy(dst, idx)
			dst[a.Dim] += base
			cp.copy(sxOffset(dst, os), i)
			i++
			return nil
		})
		base += x.Type.Shape[a.Dim]
	}
	return []*Literal{out}, nil
}

func evalPad(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[PadAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 2); err != nil {
		return nil, err
	}
	x, pv := args[0], args[1]
	if !pv.Type.Equal(Scalar(x.Type.DType)) {
		return nil, fmt.Errorf("padding value has type %v, want %v", pv.Type, Scalar(x.Type.DType))
	}
	r := x.Type.Rank()
	if len(a.Low) != r || len(a.High) != r || len(a.Interior) != r {
		return nil, fmt.Errorf("low %v, high %v and interior %v must have %d entries", a.Low, a.High, a.Interior, r)
	}
	shape := make([]int, r)
	for d, n := range x.Type.Shape {
		if a.Interior[d] < 0 {
			return nil, fmt.Errorf("interior padding %v is negative", a.Interior)
		}
		dilated := 0
		if n > 0 {
			dilated = n + (n-1)*a.Interior[d]
		}
		shape[d] = a.Low[d] + dilated + a.High[d]
		if shape[d] < 0 {
			return nil, fmt.Errorf("dimension %d has negative size %d after padding", d, shape[d])
		}
	}
	t := TensorOf(x.Type.DType, shape...)
	if err := sxCheckResult(in, 0, t); err != nil {
		return nil, err
	}
	out := Zeros(t)
	cp := sxNewCopier(out, x)
	fill := sxNewCopier(out, pv)
	xs := Strides(x.Type.Shape)
	src := make([]int, r)
	i := 0
	// result[low + k*(interior+1)] = operand[k]; everything else is padding.
	// Negative low or high crops, which the same mapping handles.
	sxEach(shape, func(idx []int) error {
		inside := true
		for d := range r {
			q := idx[d] - a.Low[d]
			step := a.Interior[d] + 1
			if q < 0 || q%step != 0 || q/step >= x.Type.Shape[d] {
				inside = false
				break
			}
			src[d] = q / step
		}
		if inside {
			cp.copy(i, sxOffset(src, xs))
		} else {
			fill.copy(i, 0)
		}
		i++
		return nil
	})
	return []*Literal{out}, nil
}

func evalReverse(in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	a, err := sxAttr[ReverseAttr](in)
	if err != nil {
		return nil, err
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	r := x.Type.Rank()
	if err := sxDimsOK("dims", a.Dims, r); err != nil {
		return nil, err
	}
	if err := sxCheckResult(in, 0, x.Type); err != nil {
		return nil, err
	}
	out := Zeros(x.Type)
	cp := sxNewCopier(out, x)
	xs := Strides(x.Type.Shape)
	src := make([]int, r)
	i := 0
	sxEach(x.Type.Shape, func(idx []int) error {
		copy(src, idx)
		for _, d := range a.Dims {
			src[d] = x.Type.Shape[d] - 1 - idx[d]
		}
		cp.copy(i, sxOffset(src, xs))
		i++
		return nil
	})
	return []*Literal{out}, nil
}
