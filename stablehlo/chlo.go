package stablehlo

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The chlo ops that are compositions of StableHLO ops: LowerChlo rewrites
// chlo.scan, chlo.ragged_dot, chlo.constant and chlo.constant_like into
// StableHLO, in place, before the importer (lowering.Import, whose Stela
// IR the reference evaluator runs) and the CPU plugin's code generator
// read a module.

// chloRewritten are the ops LowerChlo rewrites.
var chloRewritten = map[string]bool{"chlo.scan": true, "chlo.ragged_dot": true, "chlo.constant": true, "chlo.constant_like": true}

// LowerChlo rewrites the chlo ops that are compositions of StableHLO ops
// into those ops:
//
//   - chlo.scan (XLA's Scan: body(inputs[i], carries) → (outputs[i],
//     carries) for i along `dimension`, backwards when is_reverse) into a
//     stablehlo.while over i that slices the inputs with dynamic_slice and
//     writes the outputs with dynamic_update_slice;
//   - chlo.ragged_dot into a mask (the group of each index of the lhs
//     ragged dimension, from the running sums of group_sizes) selected
//     into the lhs and a dot_general: mode 1 (ragged non-contracting
//     dimension, rhs group dimension) contracts the group dimension with
//     the rhs's; mode 2 (ragged contracting dimension) keeps the group as
//     the result's first dimension; mode 3 (ragged batch dimension) zeroes
//     the rows past the last group. Rows of the ragged dimension that no
//     group covers give zeros;
//   - chlo.constant into stablehlo.constant, chlo.constant_like into a
//     constant of the result type broadcast to the operand's shape;
//   - and stablehlo.bitcast_convert between i1 and a wider type (i1 has 1
//     bit: the spec's shape rule makes an N-bit element N i1 elements along
//     a new last dimension, and back): bit j of the element, least
//     significant first (as the spec's reference interpreter orders the
//     parts), is element j; i1 is stored a byte per element, so these are
//     computed with shifts rather than reinterpreted memory;
//   - and stablehlo.batch_norm_inference, batch_norm_training and
//     batch_norm_grad into the spec's reductions and arithmetic
//     (batchnorm.go).
func (m *Module) LowerChlo() error {
	for _, f := range m.Funcs {
		if f.Body == nil {
			continue
		}
		if err := lowerChloRegion(f.Body); err != nil {
			return fmt.Errorf("@%s: %w", f.Name, err)
		}
	}
	return nil
}

func lowerChloRegion(r *Region) error {
	subst := map[*Value]*Value{}
	for _, blk := range r.Blocks {
		var out []*Op
		for _, op := range blk.Ops {
			remap(op, subst)
			for _, rr := range op.Regions {
				if err := lowerChloRegion(rr); err != nil {
					return err
				}
			}
			if !chloRewritten[op.Name] && !isBitcastI1(op) && batchNormOps[op.Name] == 0 {
				out = append(out, op)
				continue
			}
			emit := &Block{}
			b := NewBuilder(emit, "stablehlo.return")
			b.Loc = op.Loc
			res, err := lowerChloOp(b, op)
			if err != nil {
				at := ""
				if op.Line > 0 {
					at = " (line " + strconv.Itoa(op.Line) + ")"
				}
				return fmt.Errorf("%s%s: %w", op.Name, at, err)
			}
			if len(res) != len(op.Results) {
				return fmt.Errorf("%s: internal error: %d results for %d", op.Name, len(res), len(op.Results))
			}
			for _, o := range emit.Ops {
				o.Line = op.Line
			}
			out = append(out, emit.Ops...)
			for i, v := range op.Results {
				subst[v] = res[i]
			}
		}
		blk.Ops = out
	}
	return nil
}

func lowerChloOp(b *Builder, op *Op) ([]*Value, error) {
	switch op.Name {
	case "chlo.constant":
		d, ok := op.Attr("value").(*DenseElements)
		if !ok || len(op.Results) != 1 || !TypesEqual(d.Type, op.Results[0].Type) {
			return nil, fmt.Errorf("want a dense value of the result type")
		}
		return []*Value{b.Constant(d)}, nil
	case "chlo.constant_like":
		return lowerConstantLike(b, op)
	case "chlo.scan":
		return lowerScan(b, op)
	case "chlo.ragged_dot":
		return lowerRaggedDot(b, op)
	case "stablehlo.bitcast_convert":
		return lowerBitcastI1(b, op)
	case "stablehlo.batch_norm_inference", "stablehlo.batch_norm_training", "stablehlo.batch_norm_grad":
		return lowerBatchNorm(b, op)
	}
	return nil, fmt.Errorf("not a rewritten chlo op")
}

func tensorOf(v *Value) (TensorType, error) {
	t, ok := v.Type.(TensorType)
	if !ok || t.NumElements() < 0 {
		return TensorType{}, fmt.Errorf("type %s is not a static tensor", v.Type)
	}
	return t, nil
}

// scalarConst is a constant scalar of element type e holding v (a
// float64, int64 or bool).
func scalarConst(b *Builder, e ElementType, v any) (*Value, error) {
	t := TensorType{Elem: e}
	var d *DenseElements
	var err error
	if e.IsQuantized() {
		// The stored integer of the real value, per-tensor parameters.
		q, err := ParseQuant(e)
		if err != nil {
			return nil, err
		}
		if q.Axis >= 0 {
			return nil, fmt.Errorf("a constant of the per-axis quantized type %s", e)
		}
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case int64:
			f = float64(x)
		default:
			return nil, fmt.Errorf("value %v for %s", v, e)
		}
		stored := int64(math.RoundToEven(f/q.Scales[0])) + q.ZeroPoints[0]
		stored = min(max(stored, q.StorageMin), q.StorageMax)
		if d, err = DenseFromInt64s(TensorType{Elem: q.Storage}, []int64{stored}); err != nil {
			return nil, err
		}
		return b.Op1("stablehlo.constant", nil, t, NA("value", d)), nil
	}
	switch x := v.(type) {
	case float64:
		switch {
		case e.IsComplex():
			d, err = DenseFromComplex128s(t, []complex128{complex(x, 0)})
		case e.IsFloat():
			d, err = DenseFromFloat64s(t, []float64{x})
		case e.IsBool():
			d, err = DenseFromBools(t, []bool{x != 0})
		case e.IsUnsigned():
			d, err = DenseFromUint64s(t, []uint64{uint64(x)})
		default:
			d, err = DenseFromInt64s(t, []int64{int64(x)})
		}
	case int64:
		switch {
		case e.IsComplex():
			d, err = DenseFromComplex128s(t, []complex128{complex(float64(x), 0)})
		case e.IsFloat():
			d, err = DenseFromFloat64s(t, []float64{float64(x)})
		case e.IsBool():
			d, err = DenseFromBools(t, []bool{x != 0})
		case e.IsUnsigned():
			d, err = DenseFromUint64s(t, []uint64{uint64(x)})
		default:
			d, err = DenseFromInt64s(t, []int64{x})
		}
	case bool:
		if !e.IsBool() {
			return nil, fmt.Errorf("a bool value for %s", e)
		}
		d, err = DenseFromBools(t, []bool{x})
	default:
		return nil, fmt.Errorf("value %v", v)
	}
	if err != nil {
		return nil, err
	}
	return b.Constant(d), nil
}

// splat broadcasts the scalar s to type t.
func splat(b *Builder, s *Value, t TensorType) *Value {
	if len(t.Shape) == 0 {
		return s
	}
	return b.Op1("stablehlo.broadcast_in_dim", []*Value{s}, t, NA("broadcast_dimensions", I64Array()))
}

func lowerConstantLike(b *Builder, op *Op) ([]*Value, error) {
	if len(op.Operands) != 1 || len(op.Results) != 1 {
		return nil, fmt.Errorf("want 1 operand and 1 result")
	}
	xt, err := tensorOf(op.Operands[0])
	if err != nil {
		return nil, err
	}
	rt, err := tensorOf(op.Results[0])
	if err != nil {
		return nil, err
	}
	if !shapesEqual(xt.Shape, rt.Shape) {
		return nil, fmt.Errorf("result shape %s differs from the operand's %s", rt, xt)
	}
	var v any
	switch a := op.Attr("value").(type) {
	case FloatAttr:
		v = a.Value
	case IntAttr:
		v = a.Value
	case BoolAttr:
		v = bool(a)
	case *DenseElements:
		if a.Type.NumElements() != 1 || !TypesEqual(a.Type.Elem, rt.Elem) {
			return nil, fmt.Errorf("value %s is not a scalar of the result's element type", a)
		}
		if rt.Elem.IsQuantized() {
			// Stored integers (Module.LowerQuant reads them).
			return []*Value{splat(b, b.Op1("stablehlo.constant", nil, TensorType{Elem: rt.Elem}, NA("value", a)), rt)}, nil
		}
		d, err := NewDense(TensorType{Elem: rt.Elem}, a.Bytes())
		if err != nil {
			return nil, err
		}
		return []*Value{splat(b, b.Constant(d), rt)}, nil
	default:
		return nil, fmt.Errorf("value attribute %v: want an integer, float or bool", op.Attr("value"))
	}
	s, err := scalarConst(b, rt.Elem, v)
	if err != nil {
		return nil, err
	}
	return []*Value{splat(b, s, rt)}, nil
}

func shapesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func intAttrOf(a Attr) (int64, bool) {
	switch a := a.(type) {
	case IntAttr:
		return a.Value, true
	}
	return 0, false
}

func boolAttrOf(a Attr) bool {
	switch a := a.(type) {
	case BoolAttr:
		return bool(a)
	case UnitAttr:
		return true
	}
	return false
}

// scanSegments returns the numbers of inputs and inits of a chlo.scan.
func scanSegments(op *Op) (int, int, error) {
	seg, ok := op.Attr("operandSegmentSizes").(DenseArray)
	if !ok || len(seg.Ints) != 2 || seg.Ints[0] < 0 || seg.Ints[1] < 0 || int(seg.Ints[0]+seg.Ints[1]) != len(op.Operands) {
		return 0, 0, fmt.Errorf("operandSegmentSizes missing or not [inputs, inits] of its %d operands", len(op.Operands))
	}
	return int(seg.Ints[0]), int(seg.Ints[1]), nil
}

func lowerScan(b *Builder, op *Op) ([]*Value, error) {
	nIn, nInit, err := scanSegments(op)
	if err != nil {
		return nil, err
	}
	nOut := len(op.Results) - nInit
	if nOut < 0 {
		return nil, fmt.Errorf("has %d results, fewer than its %d inits", len(op.Results), nInit)
	}
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return nil, fmt.Errorf("want one region of one block")
	}
	body := op.Regions[0].Blocks[0]
	if len(body.Args) != nIn+nInit || len(body.Ops) == 0 {
		return nil, fmt.Errorf("body has %d arguments, want %d (inputs, then carries)", len(body.Args), nIn+nInit)
	}
	ret := body.Ops[len(body.Ops)-1]
	if !isTerminator(ret.Name) || len(ret.Operands) != nOut+nInit {
		return nil, fmt.Errorf("body returns %d values, want %d (outputs, then carries)", len(ret.Operands), nOut+nInit)
	}
	d, ok := intAttrOf(op.Attr("dimension"))
	if !ok {
		return nil, fmt.Errorf("dimension missing")
	}
	rev := boolAttrOf(op.Attr("is_reverse"))
	n := int64(-1)
	if s, ok := intAttrOf(op.Attr("scan_dim_size")); ok {
		n = s
	}
	var ins, outs []TensorType
	for _, x := range op.Operands[:nIn] {
		t, err := tensorOf(x)
		if err != nil {
			return nil, err
		}
		ins = append(ins, t)
	}
	for _, r := range op.Results[:nOut] {
		t, err := tensorOf(r)
		if err != nil {
			return nil, err
		}
		outs = append(outs, t)
	}
	for _, t := range append(append([]TensorType{}, ins...), outs...) {
		if d < 0 || int(d) >= len(t.Shape) {
			return nil, fmt.Errorf("dimension %d is out of range for %s", d, t)
		}
		if n < 0 {
			n = t.Shape[d]
		}
		if t.Shape[d] != n {
			return nil, fmt.Errorf("%s has %d elements along dimension %d, want %d", t, t.Shape[d], d, n)
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no input or output gives the length of the scan (and no scan_dim_size)")
	}
	// The body's argument and result types are the slices (dimension d
	// removed) of the inputs and outputs, and the carries' types.
	drop := func(t TensorType) TensorType {
		s := append(append([]int64{}, t.Shape[:d]...), t.Shape[d+1:]...)
		return TensorType{Shape: s, Elem: t.Elem}
	}
	for i, t := range ins {
		if !TypesEqual(body.Args[i].Type, drop(t)) {
			return nil, fmt.Errorf("body argument #%d has type %s, want %s", i, body.Args[i].Type, drop(t))
		}
	}
	for i, t := range outs {
		if !TypesEqual(ret.Operands[i].Type, drop(t)) {
			return nil, fmt.Errorf("body result #%d has type %s, want %s", i, ret.Operands[i].Type, drop(t))
		}
	}
	for i := range nInit {
		ct := op.Operands[nIn+i].Type
		if !TypesEqual(body.Args[nIn+i].Type, ct) || !TypesEqual(ret.Operands[nOut+i].Type, ct) || !TypesEqual(op.Results[nOut+i].Type, ct) {
			return nil, fmt.Errorf("carry #%d: init, body argument, body result and result types differ", i)
		}
	}
	idx := TensorType{Elem: I64}
	i0, err := scalarConst(b, I64, int64(0))
	if err != nil {
		return nil, err
	}
	operands := []*Value{i0}
	types := []Type{idx}
	for i := range nInit {
		operands = append(operands, op.Operands[nIn+i])
		types = append(types, op.Operands[nIn+i].Type)
	}
	for _, t := range outs {
		z, err := scalarConst(b, t.Elem, int64(0))
		if err != nil {
			return nil, err
		}
		operands = append(operands, splat(b, z, t))
		types = append(types, t)
	}
	w := b.Op("stablehlo.while", operands, types)
	cb := w.NewRegion(types...)
	cb.Loc = b.Loc
	nC, _ := scalarConst(cb, I64, n)
	lt := cb.Op1("stablehlo.compare", []*Value{cb.Arg(0), nC}, TensorType{Elem: I1},
		NA("comparison_direction", ComparisonDirection("LT")), NA("compare_type", ComparisonType("SIGNED")))
	cb.Return(lt)
	bb := w.NewRegion(types...)
	bb.Loc = b.Loc
	i := bb.Arg(0)
	at := i
	if rev {
		last, _ := scalarConst(bb, I64, n-1)
		at = bb.Op1("stablehlo.subtract", []*Value{last, i}, idx)
	}
	zero, _ := scalarConst(bb, I64, int64(0))
	starts := func(rank int) []*Value {
		s := make([]*Value, rank)
		for k := range s {
			s[k] = zero
		}
		s[d] = at
		return s
	}
	one := func(t TensorType) TensorType {
		s := append([]int64{}, t.Shape...)
		s[d] = 1
		return TensorType{Shape: s, Elem: t.Elem}
	}
	env := map[*Value]*Value{}
	for k, x := range op.Operands[:nIn] {
		st := one(ins[k])
		sl := bb.Op1("stablehlo.dynamic_slice", append([]*Value{x}, starts(len(st.Shape))...), st, NA("slice_sizes", I64Array(st.Shape...)))
		env[body.Args[k]] = bb.Op1("stablehlo.reshape", []*Value{sl}, drop(ins[k]))
	}
	for k := range nInit {
		env[body.Args[nIn+k]] = bb.Arg(1 + k)
	}
	for _, o := range body.Ops[:len(body.Ops)-1] {
		bb.blk.Ops = append(bb.blk.Ops, cloneOp(o, env))
	}
	vals := make([]*Value, len(ret.Operands))
	for k, v := range ret.Operands {
		vals[k] = lookup(env, v)
	}
	next := []*Value{nil}
	oneI, _ := scalarConst(bb, I64, int64(1))
	next[0] = bb.Op1("stablehlo.add", []*Value{i, oneI}, idx)
	next = append(next, vals[nOut:]...)
	for k, t := range outs {
		u := bb.Op1("stablehlo.reshape", []*Value{vals[k]}, one(t))
		acc := bb.Arg(1 + nInit + k)
		next = append(next, bb.Op1("stablehlo.dynamic_update_slice", append([]*Value{acc, u}, starts(len(t.Shape))...), t))
	}
	bb.Return(next...)
	res := append([]*Value{}, w.Results[1+nInit:]...)
	return append(res, w.Results[1:1+nInit]...), nil
}

// RaggedDotDims is the #chlo.ragged_dot attribute.
type RaggedDotDims struct {
	DotDims
	LhsRaggedDims, RhsGroupDims []int64
}

var raggedField = regexp.MustCompile(`(\w+)\s*=\s*\[([^\]]*)\]`)

// ParseRaggedDotDims reads the ragged_dot_dimension_numbers attribute
// (`#chlo.ragged_dot<lhs_batching_dimensions = [0], ...>`).
func ParseRaggedDotDims(a Attr) (RaggedDotDims, error) {
	var r RaggedDotDims
	o, ok := a.(OpaqueAttr)
	if !ok || !strings.HasPrefix(o.Text, "#chlo.ragged_dot<") {
		return r, fmt.Errorf("ragged_dot_dimension_numbers missing or not #chlo.ragged_dot<...>")
	}
	body := strings.TrimSuffix(strings.TrimPrefix(o.Text, "#chlo.ragged_dot<"), ">")
	for _, m := range raggedField.FindAllStringSubmatch(body, -1) {
		var list []int64
		for _, f := range strings.Split(m[2], ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return r, fmt.Errorf("field %s: %v", m[1], err)
			}
			list = append(list, v)
		}
		switch m[1] {
		case "lhs_batching_dimensions":
			r.LhsBatchingDims = list
		case "rhs_batching_dimensions":
			r.RhsBatchingDims = list
		case "lhs_contracting_dimensions":
			r.LhsContractingDims = list
		case "rhs_contracting_dimensions":
			r.RhsContractingDims = list
		case "lhs_ragged_dimensions":
			r.LhsRaggedDims = list
		case "rhs_group_dimensions":
			r.RhsGroupDims = list
		default:
			return r, fmt.Errorf("unknown field %s", m[1])
		}
	}
	return r, nil
}

func shift(xs []int64, by int64) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = x + by
	}
	return out
}

func iotaList(from, to int64) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func lowerRaggedDot(b *Builder, op *Op) ([]*Value, error) {
	if len(op.Operands) != 3 || len(op.Results) != 1 {
		return nil, fmt.Errorf("want 3 operands (lhs, rhs, group_sizes) and 1 result")
	}
	dn, err := ParseRaggedDotDims(op.Attr("ragged_dot_dimension_numbers"))
	if err != nil {
		return nil, err
	}
	lhs, rhs, gs := op.Operands[0], op.Operands[1], op.Operands[2]
	lt, err := tensorOf(lhs)
	if err != nil {
		return nil, err
	}
	rt, err := tensorOf(rhs)
	if err != nil {
		return nil, err
	}
	gt, err := tensorOf(gs)
	if err != nil {
		return nil, err
	}
	res, err := tensorOf(op.Results[0])
	if err != nil {
		return nil, err
	}
	if !gt.Elem.IsInteger() || gt.Elem.IsBool() || len(gt.Shape) == 0 {
		return nil, fmt.Errorf("group_sizes %s: want an integer tensor of rank 1 or more", gt)
	}
	if len(dn.LhsRaggedDims) != 1 {
		return nil, fmt.Errorf("want exactly one lhs ragged dimension, have %v", dn.LhsRaggedDims)
	}
	rd := dn.LhsRaggedDims[0]
	if rd < 0 || int(rd) >= len(lt.Shape) {
		return nil, fmt.Errorf("lhs ragged dimension %d is out of range for %s", rd, lt)
	}
	g := gt.Shape[len(gt.Shape)-1]
	prefix := gt.Shape[:len(gt.Shape)-1]
	r := int64(len(prefix))
	if r > rd || !shapesEqual(prefix, lt.Shape[:r]) {
		return nil, fmt.Errorf("group_sizes %s: want [g] or the lhs dimensions before the ragged dimension %d, then [g]", gt, rd)
	}
	mode := 1
	switch {
	case containsDim(dn.LhsContractingDims, rd):
		mode = 2
	case containsDim(dn.LhsBatchingDims, rd):
		mode = 3
	}
	if mode == 1 && len(dn.RhsGroupDims) != 1 {
		return nil, fmt.Errorf("a ragged non-contracting dimension needs one rhs group dimension, have %v", dn.RhsGroupDims)
	}
	if mode != 1 && len(dn.RhsGroupDims) != 0 {
		return nil, fmt.Errorf("a ragged contracting or batch dimension takes no rhs group dimension, have %v", dn.RhsGroupDims)
	}
	if mode == 1 {
		gd := dn.RhsGroupDims[0]
		if gd < 0 || int(gd) >= len(rt.Shape) || rt.Shape[gd] != g {
			return nil, fmt.Errorf("rhs group dimension %d of %s does not have the %d groups of group_sizes", gd, rt, g)
		}
	}
	if err := checkRaggedShapes(dn, lt, rt, res, mode, g); err != nil {
		return nil, err
	}
	// ends = running sums of group_sizes along its last dimension (a
	// product with the upper triangular matrix of ones).
	tri := make([]int64, g*g)
	for i := range g {
		for j := i; j < g; j++ {
			tri[i*g+j] = 1
		}
	}
	triT := TensorType{Shape: []int64{g, g}, Elem: gt.Elem}
	var triD *DenseElements
	if gt.Elem.IsUnsigned() {
		u := make([]uint64, len(tri))
		for i, v := range tri {
			u[i] = uint64(v)
		}
		triD, err = DenseFromUint64s(triT, u)
	} else {
		triD, err = DenseFromInt64s(triT, tri)
	}
	if err != nil {
		return nil, err
	}
	ends := b.Op1("stablehlo.dot_general", []*Value{gs, b.Constant(triD)}, gt,
		NA("dot_dimension_numbers", DotDims{LhsContractingDims: []int64{r}, RhsContractingDims: []int64{0}}))
	ct := ComparisonType("SIGNED")
	if gt.Elem.IsUnsigned() {
		ct = ComparisonType("UNSIGNED")
	}
	cmp := func(dir string, x, y *Value, t TensorType) *Value {
		return b.Op1("stablehlo.compare", []*Value{x, y}, TensorType{Shape: t.Shape, Elem: I1},
			NA("comparison_direction", ComparisonDirection(dir)), NA("compare_type", ct))
	}
	lz, err := scalarConst(b, lt.Elem, int64(0))
	if err != nil {
		return nil, err
	}
	dims := DotDims{LhsBatchingDims: dn.LhsBatchingDims, RhsBatchingDims: dn.RhsBatchingDims,
		LhsContractingDims: dn.LhsContractingDims, RhsContractingDims: dn.RhsContractingDims}
	if mode == 3 {
		// Rows of the ragged batch dimension past the last group are 0.
		lastT := TensorType{Shape: append(append([]int64{}, prefix...), 1), Elem: gt.Elem}
		start := make([]int64, len(gt.Shape))
		start[r] = g - 1
		total := b.Op1("stablehlo.slice", []*Value{ends}, lastT, NA("start_indices", I64Array(start...)),
			NA("limit_indices", I64Array(gt.Shape...)), NA("strides", I64Array(ones(len(gt.Shape))...)))
		totalP := b.Op1("stablehlo.reshape", []*Value{total}, TensorType{Shape: prefix, Elem: gt.Elem})
		posT := TensorType{Shape: lt.Shape, Elem: gt.Elem}
		tot := b.Op1("stablehlo.broadcast_in_dim", []*Value{totalP}, posT, NA("broadcast_dimensions", I64Array(iotaList(0, r)...)))
		pos := b.Op1("stablehlo.iota", nil, posT, NA("iota_dimension", I64Attr(rd)))
		mask := cmp("LT", pos, tot, posT)
		lm := b.Op1("stablehlo.select", []*Value{mask, lhs, splat(b, lz, lt)}, lt)
		return []*Value{b.Op1("stablehlo.dot_general", []*Value{lm, rhs}, res, NA("dot_dimension_numbers", dims))}, nil
	}
	// The mask over [g] ++ lhs shape: start_j <= index along the ragged
	// dimension < end_j.
	mt := TensorType{Shape: append([]int64{g}, lt.Shape...), Elem: gt.Elem}
	perm := append([]int64{r}, iotaList(0, r)...)
	gfirst := TensorType{Shape: append([]int64{g}, prefix...), Elem: gt.Elem}
	starts := b.Op1("stablehlo.subtract", []*Value{ends, gs}, gt)
	bcast := func(v *Value) *Value {
		tv := b.Op1("stablehlo.transpose", []*Value{v}, gfirst, NA("permutation", I64Array(perm...)))
		return b.Op1("stablehlo.broadcast_in_dim", []*Value{tv}, mt, NA("broadcast_dimensions", I64Array(iotaList(0, r+1)...)))
	}
	pos := b.Op1("stablehlo.iota", nil, mt, NA("iota_dimension", I64Attr(rd+1)))
	boolT := TensorType{Shape: mt.Shape, Elem: I1}
	mask := b.Op1("stablehlo.and", []*Value{cmp("LE", bcast(starts), pos, mt), cmp("LT", pos, bcast(ends), mt)}, boolT)
	lmT := TensorType{Shape: mt.Shape, Elem: lt.Elem}
	lb := b.Op1("stablehlo.broadcast_in_dim", []*Value{lhs}, lmT, NA("broadcast_dimensions", I64Array(iotaList(1, int64(len(lt.Shape))+1)...)))
	lm := b.Op1("stablehlo.select", []*Value{mask, lb, splat(b, lz, lmT)}, lmT)
	if mode == 1 {
		d := DotDims{LhsBatchingDims: shift(dims.LhsBatchingDims, 1), RhsBatchingDims: dims.RhsBatchingDims,
			LhsContractingDims: append([]int64{0}, shift(dims.LhsContractingDims, 1)...),
			RhsContractingDims: append([]int64{dn.RhsGroupDims[0]}, dims.RhsContractingDims...)}
		return []*Value{b.Op1("stablehlo.dot_general", []*Value{lm, rhs}, res, NA("dot_dimension_numbers", d))}, nil
	}
	// Mode 2: the group is a free lhs dimension, the first after the
	// batch dimensions in dot_general's result; move it to the front.
	d := DotDims{LhsBatchingDims: shift(dims.LhsBatchingDims, 1), RhsBatchingDims: dims.RhsBatchingDims,
		LhsContractingDims: shift(dims.LhsContractingDims, 1), RhsContractingDims: dims.RhsContractingDims}
	nb := int64(len(dims.LhsBatchingDims))
	if len(res.Shape) < int(nb)+1 || res.Shape[0] != g {
		return nil, fmt.Errorf("result %s: a ragged contracting dimension gives the %d groups as the first dimension", res, g)
	}
	dt := append([]int64{}, res.Shape[1:nb+1]...)
	dt = append(dt, g)
	dt = append(dt, res.Shape[nb+1:]...)
	dg := b.Op1("stablehlo.dot_general", []*Value{lm, rhs}, TensorType{Shape: dt, Elem: res.Elem}, NA("dot_dimension_numbers", d))
	p := append([]int64{nb}, iotaList(0, nb)...)
	p = append(p, iotaList(nb+1, int64(len(dt)))...)
	return []*Value{b.Op1("stablehlo.transpose", []*Value{dg}, res, NA("permutation", I64Array(p...)))}, nil
}

func containsDim(xs []int64, d int64) bool {
	for _, x := range xs {
		if x == d {
			return true
		}
	}
	return false
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// parseChloScan reads `chlo.scan(%in, ...) inits (%c, ...) dimension=0
// attributes {...} {body} : (T, ...) -> (R, ...)`.
func parseChloScan(p *parser, o *Op, nres int) {
	list := func() []*Value {
		p.expect("(")
		var vs []*Value
		if p.try(")") {
			return nil
		}
		for {
			vs = append(vs, p.operand())
			if p.try(")") {
				return vs
			}
			p.expect(",")
		}
	}
	ins := list()
	p.expectKw("inits")
	inits := list()
	p.expectKw("dimension")
	p.expect("=")
	dim := p.int64Lit()
	o.Operands = append(ins, inits...)
	o.Attrs = append(o.Attrs, NA("dimension", I64Attr(dim)),
		NA("operandSegmentSizes", DenseArray{Elem: I32, Ints: []int64{int64(len(ins)), int64(len(inits))}}))
	for _, a := range p.optAttrDictWithKeyword() {
		if LookupAttr(o.Attrs, a.Name) != nil {
			p.fail("%s: duplicate attribute %q", o.Name, a.Name)
		}
		o.Attrs = append(o.Attrs, a)
	}
	o.Regions = append(o.Regions, p.region(nil))
	p.expect(":")
	at := p.here()
	p.checkOperandTypes(o, p.typeListParen(), at)
	p.expect("->")
	rts := p.resultTypes()
	setResults(o, rts)
	if nOut := len(rts) - len(inits); nOut >= 0 && LookupAttr(o.Attrs, "resultSegmentSizes") == nil {
		o.Attrs = append(o.Attrs, NA("resultSegmentSizes", DenseArray{Elem: I32, Ints: []int64{int64(nOut), int64(len(inits))}}))
	}
	_ = nres
}

// isBitcastI1 reports whether op is a bitcast_convert between i1 and a
// type of another width.
func isBitcastI1(op *Op) bool {
	if op.Name != "stablehlo.bitcast_convert" || len(op.Operands) != 1 || len(op.Results) != 1 {
		return false
	}
	x, ok1 := op.Operands[0].Type.(TensorType)
	r, ok2 := op.Results[0].Type.(TensorType)
	return ok1 && ok2 && (x.Elem == I1) != (r.Elem == I1)
}

// bitWidth is the spec's num_bits of e, or 0.
func bitWidth(e ElementType) int {
	if bits, _, ok := e.intWidth(); ok {
		return bits
	}
	return 8 * elemSize(e)
}

func lowerBitcastI1(b *Builder, op *Op) ([]*Value, error) {
	xt, err := tensorOf(op.Operands[0])
	if err != nil {
		return nil, err
	}
	rt, err := tensorOf(op.Results[0])
	if err != nil {
		return nil, err
	}
	wide := xt.Elem
	if wide == I1 {
		wide = rt.Elem
	}
	if wide.IsComplex() || wide.IsQuantized() {
		return nil, fmt.Errorf("bitcast between i1 and %s is not allowed", wide)
	}
	w := bitWidth(wide)
	if w == 0 || w > 64 || w%8 != 0 {
		return nil, fmt.Errorf("bitcast between i1 and %s (%d bits) is not supported", wide, w)
	}
	ut := ElementType("ui" + strconv.Itoa(w))
	with := func(shape []int64, e ElementType) TensorType { return TensorType{Shape: shape, Elem: e} }
	zero, err := scalarConst(b, ut, int64(0))
	if err != nil {
		return nil, err
	}
	R := len(xt.Shape)
	if xt.Elem == I1 {
		// Many to one: the last dimension (of size w) packs into one
		// element.
		if R == 0 || xt.Shape[R-1] != int64(w) || !shapesEqual(xt.Shape[:R-1], rt.Shape) {
			return nil, fmt.Errorf("operand %s: converting to %s needs shape %v x %d", xt, rt, rt.Shape, w)
		}
		conv := b.Op1("stablehlo.convert", []*Value{op.Operands[0]}, with(xt.Shape, ut))
		io := b.Op1("stablehlo.iota", nil, with(xt.Shape, ut), NA("iota_dimension", I64Attr(int64(R-1))))
		sh := b.Op1("stablehlo.shift_left", []*Value{conv, io}, with(xt.Shape, ut))
		red := b.Op("stablehlo.reduce", []*Value{sh, zero}, []Type{with(rt.Shape, ut)}, NA("dimensions", I64Array(int64(R-1))))
		rb := red.NewRegion(with(nil, ut), with(nil, ut))
		rb.Loc = b.Loc
		rb.Return(rb.Op1("stablehlo.or", []*Value{rb.Arg(0), rb.Arg(1)}, with(nil, ut)))
		v := red.Results[0]
		if rt.Elem != ut {
			v = b.Op1("stablehlo.bitcast_convert", []*Value{v}, rt)
		}
		return []*Value{v}, nil
	}
	// One to many: element j of the new last dimension is bit j.
	want := append(append([]int64{}, xt.Shape...), int64(w))
	if !shapesEqual(rt.Shape, want) {
		return nil, fmt.Errorf("result %s: converting %s to i1 gives shape %v", rt, xt, want)
	}
	x := op.Operands[0]
	if xt.Elem != ut {
		x = b.Op1("stablehlo.bitcast_convert", []*Value{x}, with(xt.Shape, ut))
	}
	xb := b.Op1("stablehlo.broadcast_in_dim", []*Value{x}, with(want, ut), NA("broadcast_dimensions", I64Array(iotaList(0, int64(R))...)))
	io := b.Op1("stablehlo.iota", nil, with(want, ut), NA("iota_dimension", I64Attr(int64(R))))
	sh := b.Op1("stablehlo.shift_right_logical", []*Value{xb, io}, with(want, ut))
	one, err := scalarConst(b, ut, int64(1))
	if err != nil {
		return nil, err
	}
	bit := b.Op1("stablehlo.and", []*Value{sh, splat(b, one, with(want, ut))}, with(want, ut))
	r := b.Op1("stablehlo.compare", []*Value{bit, splat(b, zero, with(want, ut))}, rt,
		NA("comparison_direction", ComparisonDirection("NE")), NA("compare_type", ComparisonType("UNSIGNED")))
	return []*Value{r}, nil
}

// checkRaggedShapes checks the dimension numbers against the operand
// shapes and the result shape against the mode's: batch, lhs free and rhs
// free dimensions (the rhs group dimension excluded), with the groups in
// front in mode 2.
func checkRaggedShapes(dn RaggedDotDims, lt, rt, res TensorType, mode int, g int64) error {
	if len(dn.LhsBatchingDims) != len(dn.RhsBatchingDims) || len(dn.LhsContractingDims) != len(dn.RhsContractingDims) {
		return fmt.Errorf("lhs and rhs batching or contracting dimension lists differ in length")
	}
	used := func(rank int, lists ...[]int64) ([]bool, error) {
		u := make([]bool, rank)
		for _, l := range lists {
			for _, d := range l {
				if d < 0 || int(d) >= rank || u[d] {
					return nil, fmt.Errorf("dimension %d is out of range or used twice (rank %d)", d, rank)
				}
				u[d] = true
			}
		}
		return u, nil
	}
	lu, err := used(len(lt.Shape), dn.LhsBatchingDims, dn.LhsContractingDims)
	if err != nil {
		return fmt.Errorf("lhs %s: %v", lt, err)
	}
	ru, err := used(len(rt.Shape), dn.RhsBatchingDims, dn.RhsContractingDims, dn.RhsGroupDims)
	if err != nil {
		return fmt.Errorf("rhs %s: %v", rt, err)
	}
	var want []int64
	if mode == 2 {
		want = append(want, g)
	}
	for i, d := range dn.LhsBatchingDims {
		if lt.Shape[d] != rt.Shape[dn.RhsBatchingDims[i]] {
			return fmt.Errorf("batching dimensions %d of %s and %d of %s differ in size", d, lt, dn.RhsBatchingDims[i], rt)
		}
		want = append(want, lt.Shape[d])
	}
	for i, d := range dn.LhsContractingDims {
		if lt.Shape[d] != rt.Shape[dn.RhsContractingDims[i]] {
			return fmt.Errorf("contracting dimensions %d of %s and %d of %s differ in size", d, lt, dn.RhsContractingDims[i], rt)
		}
	}
	for d, u := range lu {
		if !u {
			want = append(want, lt.Shape[d])
		}
	}
	for d, u := range ru {
		if !u {
			want = append(want, rt.Shape[d])
		}
	}
	if !shapesEqual(res.Shape, want) {
		return fmt.Errorf("result %s: mode %d gives shape %v", res, mode, want)
	}
	return nil
}
