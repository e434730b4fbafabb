package stablehlo

import "fmt"

// InlineRegionCalls replaces every func.call inside a region (the body of
// a reduce, reduce_window, sort, scatter, map, ...: chlo's cumulative ops
// call helper functions from there) by a copy of the callee's body, in
// place. Calls directly in function bodies are left alone (consumers
// inline those themselves). It fails on a call of a declaration, a callee
// of more than one block, or calls nested deeper than 64.
func (m *Module) InlineRegionCalls() error {
	for _, f := range m.Funcs {
		if f.Body == nil {
			continue
		}
		for _, blk := range f.Body.Blocks {
			for _, op := range blk.Ops {
				if err := m.inlineInRegions(op, 0); err != nil {
					return fmt.Errorf("@%s: %w", f.Name, err)
				}
			}
		}
	}
	return nil
}

func (m *Module) inlineInRegions(op *Op, depth int) error {
	for _, r := range op.Regions {
		for _, blk := range r.Blocks {
			if _, err := m.inlineBlock(blk, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// inlineBlock inlines the calls of blk (and of the regions of its ops).
// It returns what the results of the calls it removed became, for the
// values that refer to them from outside blk (a callee's returned
// values, when the call was itself inlined).
func (m *Module) inlineBlock(blk *Block, depth int) (map[*Value]*Value, error) {
	if depth > 64 {
		return nil, fmt.Errorf("calls in regions nested deeper than 64")
	}
	subst := map[*Value]*Value{}
	var out []*Op
	for _, op := range blk.Ops {
		remap(op, subst)
		if op.Name != "func.call" && op.Name != "call" {
			if err := m.inlineInRegions(op, depth); err != nil {
				return nil, err
			}
			out = append(out, op)
			continue
		}
		c, _ := op.Attr("callee").(SymbolRefAttr)
		g := m.Func(c.Name)
		if g == nil || g.Body == nil || len(g.Body.Blocks) != 1 {
			return nil, fmt.Errorf("func.call @%s in a region: the callee must be a function of one block", c.Name)
		}
		body := g.Body.Blocks[0]
		if len(body.Args) != len(op.Operands) {
			return nil, fmt.Errorf("func.call @%s in a region: %d arguments for %d parameters", c.Name, len(op.Operands), len(body.Args))
		}
		env := map[*Value]*Value{}
		for i, a := range body.Args {
			env[a] = op.Operands[i]
		}
		// The callee's ops, copied into a block of their own so that
		// calls they make are inlined in turn.
		tmp := &Block{}
		var rets []*Value
		for _, cop := range body.Ops {
			if cop.Name == "func.return" || cop.Name == "return" {
				for _, x := range cop.Operands {
					rets = append(rets, lookup(env, x))
				}
				break
			}
			tmp.Ops = append(tmp.Ops, cloneOp(cop, env))
		}
		if len(rets) != len(op.Results) {
			return nil, fmt.Errorf("func.call @%s in a region: %d results, the callee returns %d", c.Name, len(op.Results), len(rets))
		}
		inner, err := m.inlineBlock(tmp, depth+1)
		if err != nil {
			return nil, err
		}
		for i, r := range op.Results {
			// A returned value may be the result of a call the callee
			// makes, which inlining tmp replaced.
			subst[r] = lookup(inner, rets[i])
		}
		out = append(out, tmp.Ops...)
	}
	blk.Ops = out
	return subst, nil
}

func lookup(env map[*Value]*Value, v *Value) *Value {
	if w, ok := env[v]; ok {
		return w
	}
	return v
}

// remap replaces the operands of op (and of the ops of its regions) that
// subst maps.
func remap(op *Op, subst map[*Value]*Value) {
	if len(subst) == 0 {
		return
	}
	for i, x := range op.Operands {
		op.Operands[i] = lookup(subst, x)
	}
	for _, r := range op.Regions {
		for _, b := range r.Blocks {
			for _, o := range b.Ops {
				remap(o, subst)
			}
		}
	}
}

// cloneOp copies op with its operands mapped by env, and records its new
// results (and those of the ops of its regions) in env.
func cloneOp(op *Op, env map[*Value]*Value) *Op {
	c := &Op{Name: op.Name, Attrs: append([]NamedAttr(nil), op.Attrs...), Loc: op.Loc, Line: op.Line}
	for _, x := range op.Operands {
		c.Operands = append(c.Operands, lookup(env, x))
	}
	for i, r := range op.Results {
		nr := &Value{Type: r.Type, Def: c, Index: i, Loc: r.Loc}
		c.Results = append(c.Results, nr)
		env[r] = nr
	}
	for _, r := range op.Regions {
		nr := &Region{}
		for _, b := range r.Blocks {
			nb := &Block{}
			for i, a := range b.Args {
				na := &Value{Type: a.Type, Block: nb, Index: i, Loc: a.Loc}
				nb.Args = append(nb.Args, na)
				env[a] = na
			}
			for _, o := range b.Ops {
				nb.Ops = append(nb.Ops, cloneOp(o, env))
			}
			nr.Blocks = append(nr.Blocks, nb)
		}
		c.Regions = append(c.Regions, nr)
	}
	return c
}
