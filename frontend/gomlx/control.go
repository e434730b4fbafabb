package gomlx

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
)

// While is while: the loop state is the initial state and then the
// parent values the closures capture (passed through by the body).
func (fn *Function) While(cond, body compute.Function, initial ...compute.Value) ([]compute.Value, error) {
	c, err := fn.closureArg(cond, "While cond")
	if err != nil {
		return nil, err
	}
	bd, err := fn.closureArg(body, "While body")
	if err != nil {
		return nil, err
	}
	outs, err := fn.build("While", initial, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		if len(c.params) != len(a) || len(bd.params) != len(a) {
			return nil, errors.Errorf("cond takes %d and body %d parameters for %d state values", len(c.params), len(bd.params), len(a))
		}
		if len(c.f.Results) != 1 || len(bd.f.Results) != len(a) {
			return nil, errors.Errorf("cond returns %d values (want 1) and body %d (want %d)", len(c.f.Results), len(bd.f.Results), len(a))
		}
		u := captureUnion(c, bd)
		cr := regionFor(c, u, false, nil)
		br := regionFor(bd, u, true, nil)
		rs := b.Emit(ir.OpWhile, append(slices.Clone(a), u...), nil, cr, br)
		return rs[:len(a)], nil
	})
	return outs, err
}

// If is case on the predicate (branch 0 when true); the branches take
// the parent values they capture as operands.
func (fn *Function) If(pred compute.Value, trueBranch, falseBranch compute.Function) ([]compute.Value, error) {
	t, err := fn.closureArg(trueBranch, "If true branch")
	if err != nil {
		return nil, err
	}
	f, err := fn.closureArg(falseBranch, "If false branch")
	if err != nil {
		return nil, err
	}
	return fn.build("If", []compute.Value{pred}, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		p := a[0]
		if p.Type.DType != ir.Bool || p.Type.Rank() != 0 {
			return nil, errors.Errorf("predicate is %s, want a boolean scalar", fn.shapeOf(p))
		}
		if len(t.params) > 0 || len(f.params) > 0 {
			return nil, errors.New("branches take no parameters")
		}
		u := captureUnion(t, f)
		tr := regionFor(t, u, false, nil)
		fr := regionFor(f, u, false, nil)
		idx := b.Convert(b.Unary(ir.OpNot, p), ir.S32)
		return b.Emit(ir.OpCase, append([]*ir.Value{idx}, u...), nil, tr, fr), nil
	})
}

// Sort is sort with the comparator as region. GoMLX's comparator takes
// (lhs_0, rhs_0, lhs_1, rhs_1, ...) as the IR region does (GoMLX's graph
// package and Go backend; compute's interface comment says otherwise).
// The comparator may use constants of its parents, not other values.
func (fn *Function) Sort(comparator compute.Function, axis int, stable bool, inputs ...compute.Value) ([]compute.Value, error) {
	c, err := fn.closureArg(comparator, "Sort comparator")
	if err != nil {
		return nil, err
	}
	return fn.build("Sort", inputs, func(b *ir.Builder, a []*ir.Value) ([]*ir.Value, error) {
		n := len(a)
		if n == 0 {
			return nil, errors.New("no inputs")
		}
		if len(c.captured) > 0 {
			return nil, errors.New("the comparator uses values of its parent function other than constants")
		}
		if len(c.params) != 2*n {
			return nil, errors.Errorf("comparator takes %d parameters, want %d for %d inputs", len(c.params), 2*n, n)
		}
		return b.Emit(ir.OpSort, a, ir.SortAttr{Dim: axis, IsStable: stable}, regionFor(c, nil, false, nil)), nil
	})
}
