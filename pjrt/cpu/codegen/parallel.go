package codegen

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Multithreaded fused loops. A fused kernel whose work is large runs one
// of its loops through the plugin's thread pool (rt->parallel_for, ABI
// version 2): the loop nest becomes an internal worker function
// w(lo, hi, buffers...) that runs that loop over [lo, hi) and the
// others in full; a trampoline p(ctx, lo, hi) unpacks the buffers from
// a stack context and calls it; the kernel packs the context and calls
// parallel_for(ctx, p, n, grain). The worker's buffer parameters keep
// their noalias and alignment attributes, which the vectorizer needs
// (pointers loaded from the context would have neither).
//
// The split loop is the outermost one, and for a reduce the outermost
// loop over a kept dimension, so that every result element is written
// by one thread only and folds its inputs in the same order as a serial
// run: results are bit-identical whatever the number of threads.
//
// Work is estimated as loop iterations × (1 + loads and operations per
// element, an expensive one counting 1+parWeight, an inline reduction
// its input's cost times its trip count); a kernel below
// 2·parMinWork stays serial, and chunks carry at least parMinWork (a
// thread pool hand-off costs a few microseconds; parMinWork elementwise
// operations take tens).

const (
	parMinWork = 1 << 15
	parWeight  = 16
)

// expensive are the elementwise ops that cost about parWeight simple
// ones (short names): the op table's trait Expensive.
var expensive = func() map[string]bool {
	m := map[string]bool{}
	for _, d := range stablehlo.OpDefs() {
		if d.Has(stablehlo.Expensive) {
			m[d.Short()] = true
		}
	}
	return m
}()

// cost is the estimated work per iteration of the root's loops: one per
// load and per operation, parWeight more per expensive one, an inline
// reduction's input cost times its trip count.
func (rg *rootGraph) cost() int64 {
	seen := map[*fx]bool{}
	var walk func(f *fx) int64
	walk = func(f *fx) int64 {
		if seen[f] {
			return 0
		}
		seen[f] = true
		c := int64(0)
		switch f.kind {
		case fxLeaf:
			c++
		case fxNode:
			c++
			if expensive[shortName(f.n.name)] {
				c += parWeight
			}
		case fxReduce:
			trips := int64(1)
			for _, v := range f.vars {
				trips *= rg.sizes[v]
			}
			return trips*(1+walk(f.args[0])) + walk(f.args[1])
		}
		for _, a := range f.args {
			c += walk(a)
		}
		return c
	}
	c := int64(1)
	for _, f := range rg.out {
		c += walk(f)
	}
	return c
}

// parallelPlan picks the loop to split across threads and its grain (in
// iterations of that loop), or -1.
func (k *fusedLoop) parallelPlan() (int, int64) {
	if k.empty || len(k.shape) == 0 {
		return -1, 0
	}
	p := 0
	if k.n.kind == kReduce {
		p = -1
		for d := range k.shape {
			if k.maps[0][d] != 0 {
				p = d
				break
			}
		}
		if p < 0 {
			return -1, 0
		}
	}
	total := int64(1)
	for _, d := range k.shape {
		total *= d
	}
	work := total * k.rg.cost()
	if work < 2*parMinWork || k.shape[p] < 2 {
		return -1, 0
	}
	per := work / k.shape[p] // work per iteration of loop p
	grain := (parMinWork + per - 1) / per
	if 2*grain > k.shape[p] {
		return -1, 0
	}
	return p, grain
}

// emitFusedLoop emits a fused kernel, serial or through parallel_for.
func (e *emitter) emitFusedLoop(k *fusedLoop) (*ir.Func, error) {
	n := k.n
	generalReduce := n.kind == kReduce && (k.empty || k.acc < 0)
	if k.par < 0 {
		b, outs, ins := e.newKernel(n, n.out, n.in)
		var err error
		if generalReduce {
			err = k.storeInits(b, outs, ins)
		}
		if err == nil && !k.empty {
			err = k.body(b, outs, ins, nil, nil)
		}
		b.cur.NewRet(nil)
		return b.f, err
	}
	b, rt, outs, ins := e.newKernelRT(n, n.out, n.in)
	if generalReduce {
		if err := k.storeInits(b, outs, ins); err != nil {
			return nil, err
		}
	}
	// The worker: loops over [lo, hi) of loop k.par.
	ps := []*ir.Param{ir.NewParam("lo", types.I64), ir.NewParam("hi", types.I64)}
	for i, o := range n.out {
		ps = append(ps, kernelParam(fmt.Sprintf("out%d", i), o))
	}
	for i, x := range n.in {
		ps = append(ps, kernelParam(fmt.Sprintf("in%d", i), x))
	}
	w := e.newFunc(b.f.Name()+".w", types.Void, ps...)
	w.f.Linkage = enum.LinkageInternal
	w.f.FuncAttrs = append(w.f.FuncAttrs, enum.FuncAttrNoUnwind)
	var wouts, wins []value.Value
	for i := range n.out {
		wouts = append(wouts, w.f.Params[2+i])
	}
	for i := range n.in {
		wins = append(wins, w.f.Params[2+len(n.out)+i])
	}
	wins = w.aliasIns(n, wouts, wins)
	if err := k.body(w, wouts, wins, w.f.Params[0], w.f.Params[1]); err != nil {
		return nil, err
	}
	w.cur.NewRet(nil)
	// The trampoline parallel_for calls.
	ctx, st := b.packCtx(append(append([]value.Value{}, outs...), ins...)...)
	t, tctx, lo, hi := e.newParallelBody(shortName(n.name))
	args := append([]value.Value{lo, hi}, t.unpackCtx(tctx, st)...)
	t.cur.NewCall(w.f, args...)
	t.cur.NewRet(nil)
	b.parallelFor(rt, ctx, t.f, i64(k.shape[k.par]), i64(k.grain))
	b.cur.NewRet(nil)
	return b.f, nil
}
