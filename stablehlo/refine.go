package stablehlo

import (
	"fmt"
	"slices"
)

// RefineShapes rewrites the dynamic-shape ops whose shape operands are
// known at compile time into their static forms, in place, as StableHLO's
// shape refinement does once constants are folded:
//
//	dynamic_iota              → iota
//	dynamic_broadcast_in_dim  → broadcast_in_dim
//	dynamic_reshape           → reshape
//	dynamic_pad               → pad
//	real_dynamic_slice        → slice
//	dynamic_gather            → gather (slice_sizes as an attribute)
//	dynamic_conv              → convolution (padding as an attribute)
//	get_dimension_size        → a constant (the operand's static size)
//
// A shape operand is known when it folds to integers: a constant, and
// convert, reshape, concatenate, broadcast_in_dim, add, subtract,
// multiply and get_dimension_size of known values. The result types must
// be static and agree with the folded shapes. An op whose shape operand
// does not fold is an error naming it (the program needs shapes that are
// only known when it runs).
func (m *Module) RefineShapes() error { return m.refine(true) }

// RefineKnownShapes is RefineShapes leaving the ops whose shapes do not
// fold as they are (for a consumer that reports them itself).
func (m *Module) RefineKnownShapes() { m.refine(false) }

func (m *Module) refine(strict bool) error {
	for _, f := range m.Funcs {
		if f.Body == nil {
			continue
		}
		if err := refineRegion(f.Body, strict); err != nil {
			return fmt.Errorf("@%s: %w", f.Name, err)
		}
	}
	return nil
}

// Refinable reports whether RefineShapes rewrites the op of that name
// (when its shapes fold).
func Refinable(name string) bool { return refinable[name] }

var refinable = map[string]bool{
	"stablehlo.dynamic_iota": true, "stablehlo.dynamic_broadcast_in_dim": true, "stablehlo.dynamic_reshape": true,
	"stablehlo.dynamic_pad": true, "stablehlo.real_dynamic_slice": true, "stablehlo.dynamic_gather": true,
	"stablehlo.dynamic_conv": true, "stablehlo.get_dimension_size": true,
}

func refineRegion(r *Region, strict bool) error {
	for _, blk := range r.Blocks {
		for _, op := range blk.Ops {
			for _, sub := range op.Regions {
				if err := refineRegion(sub, strict); err != nil {
					return err
				}
			}
			if !refinable[op.Name] {
				continue
			}
			if err := refineOp(op); err != nil && strict {
				line := ""
				if op.Line > 0 {
					line = fmt.Sprintf(" (line %d)", op.Line)
				}
				return fmt.Errorf("%s%s: %w", op.Name, line, err)
			}
		}
	}
	return nil
}

// foldInts returns the integers v folds to, or false.
func foldInts(v *Value, depth int) ([]int64, bool) {
	if v.Def == nil || depth > 32 {
		return nil, false
	}
	op := v.Def
	ins := func() ([][]int64, bool) {
		var out [][]int64
		for _, x := range op.Operands {
			xs, ok := foldInts(x, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, xs)
		}
		return out, true
	}
	switch op.Name {
	case "stablehlo.constant":
		d, ok := op.Attr("value").(*DenseElements)
		if !ok || !d.Type.Elem.IsInteger() || d.Type.Elem.IsBool() {
			return nil, false
		}
		xs, err := d.Int64s()
		return xs, err == nil
	case "stablehlo.convert", "stablehlo.reshape":
		if t, ok := v.Type.(TensorType); !ok || !t.Elem.IsInteger() {
			return nil, false
		}
		xs, ok := ins()
		if !ok || len(xs) != 1 {
			return nil, false
		}
		return xs[0], true
	case "stablehlo.concatenate":
		xs, ok := ins()
		if !ok {
			return nil, false
		}
		return slices.Concat(xs...), true
	case "stablehlo.broadcast_in_dim":
		xs, ok := ins()
		t, tok := v.Type.(TensorType)
		if !ok || !tok || len(xs[0]) != 1 || !t.IsStatic() {
			return nil, false
		}
		return slices.Repeat(xs[0], int(t.NumElements())), true
	case "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply":
		xs, ok := ins()
		if !ok || len(xs) != 2 || len(xs[0]) != len(xs[1]) {
			return nil, false
		}
		out := make([]int64, len(xs[0]))
		for i := range out {
			a, b := xs[0][i], xs[1][i]
			out[i] = map[string]int64{"stablehlo.add": a + b, "stablehlo.subtract": a - b, "stablehlo.multiply": a * b}[op.Name]
		}
		return out, true
	case "stablehlo.get_dimension_size":
		t, ok := op.Operands[0].Type.(TensorType)
		d, dok := op.Attr("dimension").(IntAttr)
		if !ok || !dok || d.Value < 0 || int(d.Value) >= t.Rank() || t.Shape[d.Value] < 0 {
			return nil, false
		}
		return []int64{t.Shape[d.Value]}, true
	}
	return nil, false
}

// known folds operand i of op or says why it does not.
func known(op *Op, i int, what string) ([]int64, error) {
	if i >= len(op.Operands) {
		return nil, fmt.Errorf("missing operand %s", what)
	}
	xs, ok := foldInts(op.Operands[i], 0)
	if !ok {
		return nil, fmt.Errorf("%s is not known at compile time (it does not fold to a constant); Stela compiles static shapes only", what)
	}
	return xs, nil
}

func refineOp(op *Op) error {
	if len(op.Results) != 1 {
		return fmt.Errorf("want one result")
	}
	rt, ok := op.Results[0].Type.(TensorType)
	if !ok || !rt.IsStatic() {
		return fmt.Errorf("result type %s is not static; Stela compiles static shapes only", op.Results[0].Type)
	}
	shapeIs := func(xs []int64) error {
		if !slices.Equal(xs, rt.Shape) {
			return fmt.Errorf("the shape operand folds to %v, the result type is %s", xs, rt)
		}
		return nil
	}
	keep := func(names ...string) []NamedAttr {
		var out []NamedAttr
		for _, a := range op.Attrs {
			if slices.Contains(names, a.Name) {
				out = append(out, a)
			}
		}
		return out
	}
	switch op.Name {
	case "stablehlo.get_dimension_size":
		xs, ok := foldInts(op.Results[0], 0)
		if !ok {
			return fmt.Errorf("the operand's dimension is not static")
		}
		d, err := DenseFromInt64s(rt, xs)
		if err != nil {
			return err
		}
		op.Name, op.Operands, op.Attrs = "stablehlo.constant", nil, []NamedAttr{NA("value", d)}
	case "stablehlo.dynamic_iota":
		xs, err := known(op, 0, "output_shape")
		if err != nil {
			return err
		}
		if err := shapeIs(xs); err != nil {
			return err
		}
		op.Name, op.Operands, op.Attrs = "stablehlo.iota", nil, keep("iota_dimension")
	case "stablehlo.dynamic_broadcast_in_dim":
		xs, err := known(op, 1, "output_dimensions")
		if err != nil {
			return err
		}
		if err := shapeIs(xs); err != nil {
			return err
		}
		op.Name, op.Operands, op.Attrs = "stablehlo.broadcast_in_dim", op.Operands[:1], keep("broadcast_dimensions")
	case "stablehlo.dynamic_reshape":
		xs, err := known(op, 1, "output_shape")
		if err != nil {
			return err
		}
		if err := shapeIs(xs); err != nil {
			return err
		}
		op.Name, op.Operands, op.Attrs = "stablehlo.reshape", op.Operands[:1], nil
	case "stablehlo.dynamic_pad":
		lo, err := known(op, 2, "edge_padding_low")
		if err != nil {
			return err
		}
		hi, err := known(op, 3, "edge_padding_high")
		if err != nil {
			return err
		}
		in, err := known(op, 4, "interior_padding")
		if err != nil {
			return err
		}
		op.Name, op.Operands = "stablehlo.pad", op.Operands[:2]
		op.Attrs = []NamedAttr{NA("edge_padding_low", I64Array(lo...)), NA("edge_padding_high", I64Array(hi...)), NA("interior_padding", I64Array(in...))}
	case "stablehlo.real_dynamic_slice":
		start, err := known(op, 1, "start_indices")
		if err != nil {
			return err
		}
		limit, err := known(op, 2, "limit_indices")
		if err != nil {
			return err
		}
		strides, err := known(op, 3, "strides")
		if err != nil {
			return err
		}
		op.Name, op.Operands = "stablehlo.slice", op.Operands[:1]
		op.Attrs = []NamedAttr{NA("start_indices", I64Array(start...)), NA("limit_indices", I64Array(limit...)), NA("strides", I64Array(strides...))}
	case "stablehlo.dynamic_gather":
		sizes, err := known(op, 2, "slice_sizes")
		if err != nil {
			return err
		}
		op.Name, op.Operands = "stablehlo.gather", op.Operands[:2]
		op.Attrs = append(keep("dimension_numbers", "indices_are_sorted"), NA("slice_sizes", I64Array(sizes...)))
	case "stablehlo.dynamic_conv":
		pad, err := known(op, 2, "padding")
		if err != nil {
			return err
		}
		pt, _ := op.Operands[2].Type.(TensorType)
		if len(pt.Shape) != 2 || pt.Shape[1] != 2 {
			return fmt.Errorf("padding %s: want a tensor<Nx2>", op.Operands[2].Type)
		}
		d, err := DenseFromInt64s(TensorType{Shape: []int64{pt.Shape[0], 2}, Elem: I64}, pad)
		if err != nil {
			return err
		}
		op.Name, op.Operands = "stablehlo.convolution", op.Operands[:2]
		op.Attrs = append(keep("window_strides", "lhs_dilation", "rhs_dilation", "window_reversal", "dimension_numbers",
			"feature_group_count", "batch_group_count", "precision_config"), NA("padding", d))
	}
	return nil
}
