package lowering

import (
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// importMap imports stablehlo.map, whose body computes one element of the
// result from one element of each operand, by applying the body's ops to
// the whole tensors: each elementwise op of the body becomes that op on
// the operands' shape, a scalar constant a broadcast of it. The body may
// hold elementwise ops and constants only (what a per-element computation
// needs); dimensions must be every dimension in order (the spec's C3,
// the only form it allows).
func importMap(c *opCtx) ([]*ir.Value, error) {
	if err := c.only("dimensions"); err != nil {
		return nil, err
	}
	if err := c.wantResults(1); err != nil {
		return nil, err
	}
	rt := c.types[0]
	dims, err := c.ints("dimensions", true)
	if err != nil {
		return nil, err
	}
	ok := len(dims) == len(rt.Shape)
	for i, d := range dims {
		ok = ok && d == i
	}
	if !ok {
		return nil, c.errorf("dimensions %v, want every dimension in order (%d of them)", dims, len(rt.Shape))
	}
	if len(c.o.Regions) != 1 || len(c.o.Regions[0].Blocks) != 1 {
		return nil, c.errorf("want one region of one block")
	}
	blk := c.o.Regions[0].Blocks[0]
	if len(blk.Args) != len(c.args) || len(c.args) == 0 {
		return nil, c.errorf("the body takes %d arguments for %d operands", len(blk.Args), len(c.args))
	}
	env := map[*stablehlo.Value]*ir.Value{}
	for i, a := range blk.Args {
		x := c.args[i]
		if !slices.Equal(x.Type.Shape, rt.Shape) {
			return nil, c.errorf("operand #%d has shape %v, the result %v", i, x.Type.Shape, rt.Shape)
		}
		at, err := irType(a.Type)
		if err != nil || len(at.Shape) != 0 || at.DType != x.Type.DType {
			return nil, c.errorf("body argument #%d has type %s, want a scalar of operand #%d's element type", i, a.Type, i)
		}
		env[a] = x
	}
	full := func(d ir.DType) ir.Type { return ir.Type{DType: d, Shape: slices.Clone(rt.Shape)} }
	for _, o := range blk.Ops {
		if o.Name == "stablehlo.return" {
			if len(o.Operands) != 1 {
				return nil, c.errorf("the body returns %d values, want 1", len(o.Operands))
			}
			v, ok := env[o.Operands[0]]
			if !ok || !v.Type.Equal(rt) {
				return nil, c.errorf("the body's result does not fit the result type %v", rt)
			}
			return []*ir.Value{v}, nil
		}
		d, known := stablehlo.LookupOp(o.Name)
		rule := importRules[o.Name]
		if o.Name != "stablehlo.constant" && (!known || !d.Has(stablehlo.Elementwise) || rule == nil) || len(o.Regions) > 0 || len(o.Results) != 1 {
			return nil, c.errorf("%s in the body of stablehlo.map: only elementwise ops and constants are supported there", o.Name)
		}
		sub := &opCtx{s: c.s, o: o, loc: importLoc(o.Loc)}
		for _, a := range o.Attrs {
			if !c.s.im.ignore[a.Name] {
				sub.attrs = append(sub.attrs, a)
			}
		}
		for _, x := range o.Operands {
			v, ok := env[x]
			if !ok {
				return nil, c.errorf("%s in the body of stablehlo.map uses a value from outside the body", o.Name)
			}
			sub.args = append(sub.args, v)
		}
		t, err := irType(o.Results[0].Type)
		if err != nil || len(t.Shape) != 0 {
			return nil, c.errorf("%s in the body of stablehlo.map: result type %s, want a scalar", o.Name, o.Results[0].Type)
		}
		if o.Name == "stablehlo.constant" {
			sub.types = []ir.Type{t}
			v, err := importConstant(sub)
			if err != nil {
				return nil, err
			}
			b, err := c.emit(ir.OpBroadcastInDim, v, ir.BroadcastInDimAttr{Shape: slices.Clone(rt.Shape), Dims: []int{}})
			if err != nil {
				return nil, err
			}
			env[o.Results[0]] = b[0]
			continue
		}
		sub.types = []ir.Type{full(t.DType)}
		v, err := rule(sub)
		if err != nil {
			return nil, err
		}
		env[o.Results[0]] = v[0]
	}
	return nil, c.errorf("the body does not end with stablehlo.return")
}
