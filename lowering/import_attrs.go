package lowering

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// Attribute readers of the import rules. Each returns a located error
// naming the op and the attribute when the value has the wrong kind.

// maxDim bounds the magnitude of an imported dimension number or size,
// far above any real tensor, so that no type rule sees absurd values.
const maxDim = 1 << 40

// toInt converts an integer of attribute name.
func (c *opCtx) toInt(name string, v int64) (int, error) {
	if v > maxDim || v < -maxDim {
		return 0, c.errorf("%s: %d is out of range", name, v)
	}
	return int(v), nil
}

// intList converts a list of integers of attribute name (nil stays nil).
func (c *opCtx) intList(name string, v []int64) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	out := make([]int, len(v))
	for i, x := range v {
		n, err := c.toInt(name, x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// intAttr reads an integer attribute (0 when absent and not required).
func (c *opCtx) intAttr(name string, required bool) (int, error) {
	switch v := c.attr(name).(type) {
	case nil:
		if required {
			return 0, c.errorf("has no %s", name)
		}
		return 0, nil
	case stablehlo.IntAttr:
		return c.toInt(name, v.Value)
	default:
		return 0, c.errorf("%s = %v is not an integer", name, v)
	}
}

// ints reads a list of integers: array<i64: ...> (or another integer
// width), dense<[...]> : tensor<Nxi64>, or [1, 2] of integer attributes.
// Absent, it is nil (an error if required).
func (c *opCtx) ints(name string, required bool) ([]int, error) {
	v := c.attr(name)
	if v == nil {
		if required {
			return nil, c.errorf("has no %s", name)
		}
		return nil, nil
	}
	l, err := intsOf(v)
	if err != nil {
		return nil, c.errorf("%s = %v: %v", name, v, err)
	}
	out, err := c.intList(name, l)
	if out == nil && err == nil {
		out = []int{}
	}
	return out, err
}

// intsOf reads a list of integers from an attribute.
func intsOf(v stablehlo.Attr) ([]int64, error) {
	switch x := v.(type) {
	case stablehlo.DenseArray:
		if !x.Elem.IsInteger() || x.Elem == stablehlo.I1 {
			return nil, fmt.Errorf("not an integer array")
		}
		return x.Ints, nil
	case *stablehlo.DenseElements:
		if x == nil || !x.Type.Elem.IsInteger() || x.Type.Elem == stablehlo.I1 || x.Type.Rank() > 1 {
			return nil, fmt.Errorf("not a list of integers")
		}
		if n := x.NumElements(); n < 0 || n > maxDim {
			return nil, fmt.Errorf("not a list of integers")
		}
		return x.Int64s()
	case stablehlo.ArrayAttr:
		out := make([]int64, len(x))
		for i, e := range x {
			n, ok := e.(stablehlo.IntAttr)
			if !ok {
				return nil, fmt.Errorf("element #%d is not an integer", i)
			}
			out[i] = n.Value
		}
		return out, nil
	}
	return nil, fmt.Errorf("not a list of integers")
}

// bools reads a list of booleans: array<i1: ...> or dense<...> :
// tensor<Nxi1>; nil when absent.
func (c *opCtx) bools(name string) ([]bool, error) {
	switch x := c.attr(name).(type) {
	case nil:
		return nil, nil
	case stablehlo.DenseArray:
		if x.Elem == stablehlo.I1 {
			out := make([]bool, len(x.Ints))
			for i, b := range x.Ints {
				out[i] = b != 0
			}
			return out, nil
		}
	case *stablehlo.DenseElements:
		if x != nil && x.Type.Elem == stablehlo.I1 && x.Type.Rank() == 1 && x.NumElements() <= maxDim {
			return x.Bools()
		}
	}
	return nil, c.errorf("%s = %v is not a list of booleans", name, c.attr(name))
}

// flag reads a boolean attribute: true, false, or a unit attribute
// (present means true); false when absent.
func (c *opCtx) flag(name string) (bool, error) {
	switch x := c.attr(name).(type) {
	case nil:
		return false, nil
	case stablehlo.BoolAttr:
		return bool(x), nil
	case stablehlo.UnitAttr:
		return true, nil
	}
	return false, c.errorf("%s = %v is not a boolean", name, c.attr(name))
}

// enum reads #stablehlo<kind VALUE> (chlo's spelling too); "" when absent
// and not required.
func (c *opCtx) enum(name, kind string, required bool) (string, error) {
	switch x := c.attr(name).(type) {
	case nil:
		if required {
			return "", c.errorf("has no %s", name)
		}
		return "", nil
	case stablehlo.EnumAttr:
		if (x.Dialect == "stablehlo" || x.Dialect == "chlo") && x.Kind == kind {
			return x.Value, nil
		}
	}
	return "", c.errorf("%s = %v is not a #stablehlo<%s ...>", name, c.attr(name), kind)
}

// precision reads precision_config (nil when absent).
func (c *opCtx) precision() ([]ir.Precision, error) {
	v := c.attr("precision_config")
	if v == nil {
		return nil, nil
	}
	arr, ok := v.(stablehlo.ArrayAttr)
	if !ok {
		return nil, c.errorf("precision_config = %v is not a list", v)
	}
	out := make([]ir.Precision, len(arr))
	for i, e := range arr {
		en, ok := e.(stablehlo.EnumAttr)
		j := -1
		if ok && en.Kind == "precision" {
			j = slices.Index(ir.Precision(0).EnumNames(), en.Value)
		}
		if j < 0 {
			return nil, c.errorf("precision_config element %v is not a precision (DEFAULT, HIGH, HIGHEST)", e)
		}
		out[i] = ir.Precision(j)
	}
	return out, nil
}

// padding reads dense<[[lo, hi], ...]> : tensor<Nx2xi64> (nil when
// absent).
func (c *opCtx) padding(name string) ([][2]int, error) {
	v := c.attr(name)
	if v == nil {
		return nil, nil
	}
	rows, err := c.matrix(name, v, 2)
	if err != nil {
		return nil, err
	}
	out := make([][2]int, len(rows))
	for i, r := range rows {
		for j := range 2 {
			if out[i][j], err = c.toInt(name, r[j]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// matrix reads a rank-2 integer dense attribute with cols columns (any
// number when cols < 0) as its rows.
func (c *opCtx) matrix(name string, v stablehlo.Attr, cols int) ([][]int64, error) {
	d, ok := v.(*stablehlo.DenseElements)
	if !ok || d == nil || !d.Type.Elem.IsInteger() || d.Type.Elem == stablehlo.I1 || d.Type.Rank() != 2 ||
		cols >= 0 && d.Type.Shape[1] != int64(cols) {
		want := "rank-2 integer dense elements"
		if cols >= 0 {
			want = fmt.Sprintf("dense elements of type tensor<Nx%dxi64>", cols)
		}
		return nil, c.errorf("%s = %v: want %s", name, v, want)
	}
	if n := d.NumElements(); n < 0 || n > maxDim {
		return nil, c.errorf("%s = %v is too large", name, v)
	}
	flat, err := d.Int64s()
	if err != nil {
		return nil, c.errorf("%s = %v: %v", name, v, err)
	}
	r, k := int(d.Type.Shape[0]), int(d.Type.Shape[1])
	if k == 0 {
		return nil, nil // rows without elements
	}
	rows := make([][]int64, r)
	for i := range rows {
		rows[i] = flat[i*k : (i+1)*k]
	}
	return rows, nil
}

// groups reads replica_groups (dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>;
// -1 pads groups shorter than the longest; no elements means one group of
// all), channel_handle and use_global_device_ids.
func (c *opCtx) groups() (groups [][]int64, channel int64, global bool, err error) {
	if v := c.attr("replica_groups"); v != nil {
		rows, err := c.matrix("replica_groups", v, -1)
		if err != nil {
			return nil, 0, false, err
		}
		for _, r := range rows {
			var g []int64
			for _, id := range r {
				if id != -1 {
					g = append(g, id)
				}
			}
			if len(g) > 0 {
				groups = append(groups, g)
			}
		}
	}
	if channel, err = c.channel(); err != nil {
		return nil, 0, false, err
	}
	if global, err = c.flag("use_global_device_ids"); err != nil {
		return nil, 0, false, err
	}
	return groups, channel, global, nil
}

// channel reads channel_handle's handle (0 when absent). Only
// device-to-device channels (type 0 or 1) have an IR form.
func (c *opCtx) channel() (int64, error) {
	v := c.attr("channel_handle")
	if v == nil {
		return 0, nil
	}
	h, ok := v.(stablehlo.ChannelHandle)
	if !ok {
		return 0, c.errorf("channel_handle = %v is not #stablehlo.channel_handle<...>", v)
	}
	if h.Type != 0 && h.Type != 1 {
		return 0, c.errorf("channel_handle = %v: only device-to-device channels (type 1) are supported", v)
	}
	return h.Handle, nil
}

// pairs reads source_target_pairs (dense<[[0, 1], ...]> :
// tensor<Nx2xi64>).
func (c *opCtx) pairs() ([][2]int64, error) {
	v := c.attr("source_target_pairs")
	if v == nil {
		return nil, c.errorf("has no source_target_pairs")
	}
	rows, err := c.matrix("source_target_pairs", v, 2)
	if err != nil {
		return nil, err
	}
	out := make([][2]int64, len(rows))
	for i, r := range rows {
		out[i] = [2]int64{r[0], r[1]}
	}
	return out, nil
}
