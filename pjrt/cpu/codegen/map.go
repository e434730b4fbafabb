package codegen

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/stablehlo"
)

// mapOp plans stablehlo.map by applying its body's ops to the whole
// operands: each elementwise op of the body becomes that op on the
// result's shape (so fusion makes one loop of them), a scalar constant a
// broadcast of it. The body may hold elementwise ops and constants only;
// dimensions must be every dimension in order (the spec's C3). The
// importer (lowering/import_map.go) does the same for the evaluator.
func (p *planner) mapOp(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(outs) != 1 || len(ins) == 0 {
		return nil, fmt.Errorf("has %d operands and %d results, want at least 1 and 1", len(ins), len(outs))
	}
	r := outs[0]
	dims, ok := intArray(op.Attr("dimensions"))
	if !ok || len(dims) != r.rank() {
		return nil, fmt.Errorf("dimensions %v, want every dimension of %s in order", op.Attr("dimensions"), r)
	}
	for i, d := range dims {
		if d != int64(i) {
			return nil, fmt.Errorf("dimensions %v, want every dimension of %s in order", dims, r)
		}
	}
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return nil, fmt.Errorf("want one region of one block")
	}
	blk := op.Regions[0].Blocks[0]
	if len(blk.Args) != len(ins) {
		return nil, fmt.Errorf("the body takes %d arguments for %d operands", len(blk.Args), len(ins))
	}
	env := map[*stablehlo.Value]*tval{}
	for i, a := range blk.Args {
		at, err := tensorType(a.Type)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(ins[i].t.shape, r.shape) || at.rank() != 0 || at.elem != ins[i].t.elem {
			return nil, fmt.Errorf("operand #%d %s and body argument %s do not fit the result %s", i, ins[i].t, at, r)
		}
		env[a] = ins[i]
	}
	for _, o := range blk.Ops {
		if o.Name == "stablehlo.return" {
			if len(o.Operands) != 1 {
				return nil, fmt.Errorf("the body returns %d values, want 1", len(o.Operands))
			}
			v := env[o.Operands[0]]
			if v == nil || !v.t.equal(r) {
				return nil, fmt.Errorf("the body's result does not fit %s", r)
			}
			return []*tval{v}, nil
		}
		d, known := stablehlo.LookupOp(o.Name)
		if o.Name != "stablehlo.constant" && (!known || !d.Has(stablehlo.Elementwise)) || len(o.Regions) > 0 || len(o.Results) != 1 {
			return nil, unsupportedf("%s in the body of stablehlo.map", o.Name)
		}
		var args []*tval
		for _, x := range o.Operands {
			v := env[x]
			if v == nil {
				return nil, unsupportedf("a value from outside the body of stablehlo.map used in %s", o.Name)
			}
			args = append(args, v)
		}
		t, err := tensorType(o.Results[0].Type)
		if err != nil {
			return nil, err
		}
		if t.rank() != 0 {
			return nil, fmt.Errorf("%s in the body: result %s, want a scalar", o.Name, t)
		}
		full := *o
		full.Results = []*stablehlo.Value{{Type: stablehlo.TensorType{Shape: slices.Clone(r.shape), Elem: o.Results[0].Type.(stablehlo.TensorType).Elem}}}
		if o.Name == "stablehlo.constant" {
			c, err := p.op(o, n.fn, nil)
			if err != nil {
				return nil, inContext(o.Name+opLoc(o), err)
			}
			bn := &node{name: "stablehlo.broadcast_in_dim", src: o, fn: n.fn, in: c, kind: kBroadcast, dims: []int64{}}
			env[o.Results[0]] = p.add(bn, ttype{elem: t.elem, shape: slices.Clone(r.shape)})[0]
			continue
		}
		v, err := p.op(&full, n.fn, args)
		if err != nil {
			return nil, inContext(o.Name+opLoc(o), err)
		}
		env[o.Results[0]] = v[0]
	}
	return nil, fmt.Errorf("the body does not end with stablehlo.return")
}

// linalgOp plans cholesky and triangular_solve as the while loops
// stablehlo.ExpandCholesky and ExpandTriangularSolve give.
func (p *planner) linalgOp(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	expand := stablehlo.ExpandCholesky
	if op.Name == "stablehlo.triangular_solve" {
		expand = stablehlo.ExpandTriangularSolve
	}
	blk, err := expand(op)
	if err != nil {
		return nil, err
	}
	return p.expanded(n, op, blk, ins)
}

// expanded plans the ops of blk, an expansion of op (its arguments are
// op's operands ins), in op's place and returns what blk returns.
func (p *planner) expanded(n *node, op *stablehlo.Op, blk *stablehlo.Block, ins []*tval) ([]*tval, error) {
	if len(blk.Args) != len(ins) {
		return nil, fmt.Errorf("has %d operands, want %d", len(ins), len(blk.Args))
	}
	env := map[*stablehlo.Value]*tval{}
	for i, a := range blk.Args {
		env[a] = ins[i]
	}
	restore := p.scopeOf(env)
	defer restore()
	for _, o := range blk.Ops {
		var args []*tval
		for _, x := range o.Operands {
			args = append(args, env[x])
		}
		if o.Name == "stablehlo.return" {
			return args, nil
		}
		outs, err := p.op(o, n.fn, args)
		if err != nil {
			return nil, fmt.Errorf("expanded as %s: %w", o.Name, err)
		}
		for i, r := range o.Results {
			env[r] = outs[i]
		}
	}
	return nil, fmt.Errorf("internal error: the expansion of %s has no return", op.Name)
}
