package codegen

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Control flow: stablehlo.while, stablehlo.case and stablehlo.if (and
// mhlo.if, which old producers print).
//
// Each region is planned like a function body into a sub-program of its
// own (nodes, dead-code elimination, buffer assignment): its parameters
// and the values it uses from outside (StableHLO regions may capture) are
// its arguments, its results go to result buffers, and its intermediate
// values live in an arena of its own. The while or case node is then one
// kernel like any other: its outputs are the op's results plus a scratch
// buffer that holds the regions' arenas (regions that never run at the
// same time share it), its inputs are the op's operands plus the captured
// values. The kernel runs the regions' kernels in real loops and
// branches:
//
//   - while: the loop-carried values live in the result buffers. The
//     operands are copied in; each iteration runs cond (its i1 result
//     lands in scratch), then body, whose results are written to
//     next-state buffers in scratch and copied over the state at the end
//     of the iteration (the body reads the state until its last kernel).
//     A body result that is its own parameter unchanged is not copied.
//   - case: the index (out of range: the last branch) selects a branch
//     with a switch; the branch writes its results straight into the
//     result buffers. if is a case on a predicate: true is branch 0.
//
// Expectations (check.*) inside regions are rejected: they are judged
// once per program run, on the host.

// ctlPlan is the plan of a while or case node.
type ctlPlan struct {
	regions []*subProg // while: cond, body; case: the branches
	nops    int        // operands of the op before the captured values
	// Scratch layout: the regions' arena at offset 0, then (while) the
	// next-state buffers and the predicate.
	arena int64
	next  []int64
	pred  int64
	isIf  bool // the operand is an i1 predicate (if)
}

// subProg is a region planned like a function body. Its arguments are
// the region's parameters then the captured values.
type subProg struct {
	prog    *Program
	nparams int
	pass    []bool // while body: result i is parameter i unchanged
}

// captures collects the values from outside that the regions of one op
// use; each gets a stand-in argument of the regions' sub-programs.
type captures struct {
	parent func(*stablehlo.Value) (*tval, bool)
	base   int // argument index of the first captured value
	outer  []*tval
	inner  map[*tval]*tval
}

func (c *captures) get(o *tval) *tval {
	if x, ok := c.inner[o]; ok {
		return x
	}
	x := &tval{t: o.t, arg: c.base + len(c.outer)}
	c.inner[o] = x
	c.outer = append(c.outer, o)
	return x
}

// region plans one region of an op: params are the types of its block
// arguments, want the types it must return.
func (p *planner) region(r *stablehlo.Region, what string, params, want []ttype, caps *captures, fn string) (*subProg, error) {
	if r == nil || len(r.Blocks) != 1 {
		return nil, fmt.Errorf("%s: want one region with one block", what)
	}
	blk := r.Blocks[0]
	if len(blk.Args) != len(params) {
		return nil, fmt.Errorf("%s takes %d arguments, want %d", what, len(blk.Args), len(params))
	}
	sub := &planner{mod: p.mod, prog: &Program{dev: p.dev}, dev: p.dev}
	env := map[*stablehlo.Value]*tval{}
	var args []*tval
	for i, a := range blk.Args {
		t, err := tensorType(a.Type)
		if err != nil {
			return nil, inContext(fmt.Sprintf("%s argument #%d", what, i), err)
		}
		if !t.equal(params[i]) {
			return nil, fmt.Errorf("%s argument #%d has type %s, want %s", what, i, t, params[i])
		}
		x := &tval{t: t, arg: i}
		env[a] = x
		args = append(args, x)
	}
	sub.lookup = func(v *stablehlo.Value) (*tval, bool) {
		if x, ok := env[v]; ok {
			return x, true
		}
		if caps.parent == nil {
			return nil, false
		}
		o, ok := caps.parent(v)
		if !ok {
			return nil, false
		}
		return caps.get(o), true
	}
	var results []*tval
	for _, op := range blk.Ops {
		ins := make([]*tval, len(op.Operands))
		for i, o := range op.Operands {
			v, ok := sub.lookup(o)
			if !ok {
				return nil, fmt.Errorf("%s: %s: operand #%d is not defined before its use", what, op.Name, i)
			}
			ins[i] = v
		}
		ctx := op.Name + " in @" + fn + opLoc(op)
		if isCheckOp(op) {
			return nil, &UnsupportedError{What: "check op inside the region of " + what, Context: ctx}
		}
		var outs []*tval
		var err error
		switch op.Name {
		case "stablehlo.return", "mhlo.return", "func.return", "return":
			results = ins
		case "func.call", "call", "stablehlo.composite":
			outs, err = sub.call(op, ins)
		default:
			outs, err = sub.op(op, fn, ins)
		}
		if results != nil {
			break
		}
		if err != nil {
			return nil, inContext(ctx, err)
		}
		if len(outs) != len(op.Results) {
			return nil, fmt.Errorf("%s: internal error: %d results planned for %d", ctx, len(outs), len(op.Results))
		}
		for i, r := range op.Results {
			env[r] = outs[i]
		}
	}
	if results == nil && len(want) > 0 {
		return nil, fmt.Errorf("%s does not end with stablehlo.return", what)
	}
	if len(results) != len(want) {
		return nil, fmt.Errorf("%s returns %d values, want %d", what, len(results), len(want))
	}
	for i, r := range results {
		if !r.t.equal(want[i]) {
			return nil, fmt.Errorf("%s result #%d has type %s, want %s", what, i, r.t, want[i])
		}
	}
	// The captured values known so far are arguments too (their indexes
	// follow the parameters); later regions of the same op may add more,
	// which this one does not use.
	for _, o := range caps.outer {
		args = append(args, caps.inner[o])
	}
	sub.prog.args = args
	sub.prog.results = results
	sub.prog.nodes = sub.nodes
	sub.dce()
	if !nofusionEnv() {
		sub.fuse()
	}
	sub.assignBuffers()
	return &subProg{prog: sub.prog, nparams: len(params)}, nil
}

// call inlines a func.call or composite met inside a region (the callee
// is isolated, so plain inlining works).
func (p *planner) call(op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	callee, ok := op.Attr(calleeAttr(op.Name)).(stablehlo.SymbolRefAttr)
	if !ok || len(callee.Nested) > 0 {
		return nil, fmt.Errorf("missing or nested %s", calleeAttr(op.Name))
	}
	g := p.mod.Func(callee.Name)
	if g == nil || g.Body == nil {
		return nil, fmt.Errorf("no function @%s with a body", callee.Name)
	}
	outs, err := p.inline(g, ins, nil)
	if err != nil {
		return nil, err
	}
	if len(outs) != len(op.Results) {
		return nil, fmt.Errorf("@%s returns %d values, the call has %d results", callee.Name, len(outs), len(op.Results))
	}
	for i, r := range op.Results {
		t, err := tensorType(r.Type)
		if err != nil {
			return nil, err
		}
		if !t.equal(outs[i].t) {
			return nil, fmt.Errorf("result #%d has type %s, @%s returns %s", i, t, callee.Name, outs[i].t)
		}
	}
	return outs, nil
}

func isCheckOp(op *stablehlo.Op) bool {
	if strings.HasPrefix(op.Name, "check.") {
		return true
	}
	if op.Name == "stablehlo.custom_call" {
		t, _ := op.Attr("call_target_name").(stablehlo.StringAttr)
		return strings.HasPrefix(string(t), "check.")
	}
	return false
}

// scratchType is the type of a node's scratch output of size bytes.
func scratchType(size int64) ttype { return ttype{elem: kBool, shape: []int64{size}} }

func (p *planner) whileOp(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(outs) != len(ins) {
		return nil, fmt.Errorf("has %d operands and %d results", len(ins), len(outs))
	}
	for i := range ins {
		if !ins[i].t.equal(outs[i]) {
			return nil, fmt.Errorf("result #%d has type %s, operand %s", i, outs[i], ins[i].t)
		}
	}
	if len(op.Regions) != 2 {
		return nil, fmt.Errorf("has %d regions, want cond and body", len(op.Regions))
	}
	caps := &captures{parent: p.lookup, base: len(ins), inner: map[*tval]*tval{}}
	cond, err := p.region(op.Regions[0], "while cond", outs, []ttype{{elem: kBool}}, caps, n.fn)
	if err != nil {
		return nil, err
	}
	body, err := p.region(op.Regions[1], "while body", outs, outs, caps, n.fn)
	if err != nil {
		return nil, err
	}
	// A body result that is its own parameter needs no copy.
	body.pass = make([]bool, len(outs))
	var copies []resultCopy
	for _, c := range body.prog.copies {
		if r := c.src.root(); r.st == stArg && r.idx == c.res && r.def == nil {
			body.pass[c.res] = true
			continue
		}
		copies = append(copies, c)
	}
	body.prog.copies = copies
	pl := &ctlPlan{regions: []*subProg{cond, body}, nops: len(ins)}
	pl.arena = alignUp(max(cond.prog.arenaSize, body.prog.arenaSize))
	size := pl.arena
	for _, t := range outs {
		pl.next = append(pl.next, size)
		size += alignUp(t.bytes())
	}
	pl.pred = size
	size += bufAlign
	n.kind, n.plan = kWhile, pl
	n.in = append(append([]*tval{}, ins...), caps.outer...)
	return p.add(n, append(outs, scratchType(size))...)[:len(outs)], nil
}

// caseOp plans stablehlo.case (an integer index selects a branch) and
// if (an i1 predicate: true runs the first region).
func (p *planner) caseOp(n *node, op *stablehlo.Op, ins []*tval, isIf bool) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	if len(ins) != 1 || ins[0].t.rank() != 0 {
		return nil, fmt.Errorf("want one scalar operand")
	}
	k := ins[0].t.elem
	switch {
	case isIf && k != kBool:
		return nil, fmt.Errorf("predicate has type %s, want tensor<i1>", ins[0].t)
	case isIf && len(op.Regions) != 2:
		return nil, fmt.Errorf("has %d regions, want 2", len(op.Regions))
	case !isIf && (k == kBool || k.isFloat()):
		return nil, fmt.Errorf("index has type %s, want an integer scalar", ins[0].t)
	case len(op.Regions) == 0:
		return nil, fmt.Errorf("has no branches")
	}
	caps := &captures{parent: p.lookup, base: 0, inner: map[*tval]*tval{}}
	pl := &ctlPlan{nops: 1, isIf: isIf}
	for i, r := range op.Regions {
		sp, err := p.region(r, fmt.Sprintf("branch %d", i), nil, outs, caps, n.fn)
		if err != nil {
			return nil, err
		}
		pl.regions = append(pl.regions, sp)
		pl.arena = max(pl.arena, alignUp(sp.prog.arenaSize))
	}
	n.kind, n.plan = kCase, pl
	n.in = append([]*tval{ins[0]}, caps.outer...)
	return p.add(n, append(outs, scratchType(pl.arena))...)[:len(outs)], nil
}

// regionPtrs says where a sub-program's arguments and results are.
type regionPtrs struct {
	params  []value.Value
	caps    []value.Value
	results []value.Value
	scratch value.Value // i8*, the arena's base
}

// subPtr returns a typed pointer to v's bytes.
func (b *fb) subPtr(rp *regionPtrs, v *tval) value.Value {
	r := v.root()
	var p value.Value
	switch r.st {
	case stArg:
		if r.idx < len(rp.params) {
			p = rp.params[r.idx]
		} else {
			p = rp.caps[r.idx-len(rp.params)]
		}
	case stResult:
		p = rp.results[r.idx]
	case stArena:
		p = b.byteOffset(rp.scratch, r.off)
	case stConst:
		g := b.e.constGlobal(r)
		p = constant.NewGetElementPtr(g.ContentType, g, i64(0), i64(0))
	default:
		panic(fmt.Sprintf("value of %s has no storage", v.t))
	}
	return b.cur.NewBitCast(p, types.NewPointer(v.t.elem.mem()))
}

// controlKernel emits the kernel of a while or case node. The regions'
// kernels come first: when one of them takes the runtime table (a GEMM,
// a loop split across threads), so does this kernel, to pass it on.
func (e *emitter) controlKernel(n *node) (*ir.Func, error) {
	pl := n.plan.(*ctlPlan)
	ks := map[*node]*ir.Func{}
	needRT, fails := false, false
	for _, sp := range pl.regions {
		for _, sn := range sp.prog.nodes {
			k, err := e.kernel(sn)
			if err != nil {
				return nil, err
			}
			ks[sn] = k
			needRT = needRT || (k != nil && e.takesRT(k))
			fails = fails || (k != nil && e.fails(k))
		}
	}
	// A region kernel that may fail (a collective) makes this kernel one
	// that may fail: it stops at the first failure and returns it.
	// A while loop looks at the execution's cancellation flag at its
	// back-edge, which is in the runtime table.
	if n.kind == kWhile && cancelChecks {
		needRT = true
	}
	var b *fb
	var rt, errP value.Value
	var outs, ins []value.Value
	switch {
	case fails:
		b, rt, outs, ins = e.newKernelFallible(n, n.out, n.in)
		errP = b.f.Params[1]
	case needRT:
		b, rt, outs, ins = e.newKernelRT(n, n.out, n.in)
	default:
		b, outs, ins = e.newKernel(n, n.out, n.in)
	}
	var failed *ir.Block
	run := func(sp *subProg, rp *regionPtrs) {
		for _, sn := range sp.prog.nodes {
			k := ks[sn]
			if k == nil {
				continue
			}
			var args []value.Value
			if e.takesRT(k) {
				args = append(args, rt)
			}
			if e.fails(k) {
				args = append(args, errP)
			}
			for _, o := range sn.out {
				args = append(args, b.subPtr(rp, o))
			}
			for _, x := range sn.in {
				args = append(args, b.subPtr(rp, x))
			}
			rc := b.call(k, args...)
			if e.fails(k) {
				if failed == nil {
					failed = b.f.NewBlock("failed")
					failed.NewRet(i32(1))
				}
				next := b.f.NewBlock("")
				b.cur.NewCondBr(b.cur.NewICmp(enum.IPredNE, rc, i32(0)), failed, next)
				b.cur = next
			}
		}
		for _, c := range sp.prog.copies {
			b.memcpy(rp.results[c.res], b.subPtr(rp, c.src), c.src.t.bytes())
		}
	}
	if n.kind == kWhile {
		b.whileKernel(n, rt, outs, ins, run)
	} else {
		b.caseKernel(n, outs, ins, run)
	}
	if fails {
		b.cur.NewRet(i32(0))
	} else {
		b.cur.NewRet(nil)
	}
	return b.f, nil
}

// whileKernel emits the loop of a while node. At the back-edge it looks
// at the execution's cancellation flag (rt->cancel) and leaves the loop
// when it is set: the entry then returns STELA_RT_CANCELLED at its next
// check, and the plugin reports the cancellation (the loop's results are
// then meaningless, but every access stays in bounds: indices are
// clamped wherever a loop-carried value is used as one).
func (b *fb) whileKernel(n *node, rt value.Value, outs, ins []value.Value, run func(*subProg, *regionPtrs)) {
	pl := n.plan.(*ctlPlan)
	ns := pl.nops
	scratch := b.bytes(outs[ns])
	for i := range ns {
		b.memcpy(outs[i], ins[i], n.out[i].t.bytes())
	}
	caps := ins[ns:]
	pred := b.byteOffset(scratch, pl.pred)
	next := make([]value.Value, ns)
	for i := range ns {
		next[i] = b.cur.NewBitCast(b.byteOffset(scratch, pl.next[i]), types.NewPointer(n.out[i].t.elem.mem()))
	}
	stop := func() value.Value { return constant.False }
	if cancelChecks {
		flag := b.cancelFlag(rt)
		stop = func() value.Value { return b.isCancelled(flag) }
	}
	b.whileLoopStop(func() value.Value {
		run(pl.regions[0], &regionPtrs{params: outs[:ns], caps: caps, results: []value.Value{pred}, scratch: scratch})
		return b.load(kBool, pred, i64(0))
	}, stop, func() {
		body := pl.regions[1]
		run(body, &regionPtrs{params: outs[:ns], caps: caps, results: next, scratch: scratch})
		for i := range ns {
			if !body.pass[i] {
				b.memcpy(outs[i], next[i], n.out[i].t.bytes())
			}
		}
	})
}

func (b *fb) caseKernel(n *node, outs, ins []value.Value, run func(*subProg, *regionPtrs)) {
	pl := n.plan.(*ctlPlan)
	nb := int64(len(pl.regions))
	scratch := b.bytes(outs[len(outs)-1])
	k := n.in[0].t.elem
	x := b.load(k, ins[0], i64(0))
	var idx value.Value
	if pl.isIf {
		idx = b.cur.NewSelect(x, i64(0), i64(1))
	} else {
		idx = b.indexI64(k, x)
	}
	exit := b.f.NewBlock("")
	blocks := make([]*ir.Block, nb)
	for i := range blocks {
		blocks[i] = b.f.NewBlock("")
	}
	var cases []*ir.Case
	for i := range nb - 1 {
		cases = append(cases, ir.NewCase(i64(i), blocks[i]))
	}
	// Out of range (negative or too large) runs the last branch.
	b.cur.NewSwitch(idx, blocks[nb-1], cases...)
	rp := &regionPtrs{caps: ins[1:], results: outs[:len(outs)-1], scratch: scratch}
	for i, sp := range pl.regions {
		b.cur = blocks[i]
		run(sp, rp)
		b.cur.NewBr(exit)
	}
	b.cur = exit
}

// --- helpers for kernels with run-time control flow

// local returns a new stack variable of type t, allocated in the entry
// block (where LLVM's mem2reg promotes it to registers).
func (b *fb) local(t types.Type) *ir.InstAlloca {
	a := ir.NewAlloca(t)
	entry := b.f.Blocks[0]
	entry.Insts = append([]ir.Instruction{a}, entry.Insts...)
	return a
}

// whileLoop emits `for cond() { body() }`; cond runs at the top of every
// iteration.
func (b *fb) whileLoop(cond func() value.Value, body func()) {
	head := b.f.NewBlock("")
	b.cur.NewBr(head)
	b.cur = head
	c := cond()
	bodyB := b.f.NewBlock("")
	exit := b.f.NewBlock("")
	b.cur.NewCondBr(c, bodyB, exit)
	b.cur = bodyB
	body()
	b.cur.NewBr(head)
	b.cur = exit
}

// whileLoopStop emits `for cond() { body(); if stop() { break } }`.
func (b *fb) whileLoopStop(cond, stop func() value.Value, body func()) {
	head := b.f.NewBlock("")
	b.cur.NewBr(head)
	b.cur = head
	c := cond()
	bodyB := b.f.NewBlock("")
	exit := b.f.NewBlock("")
	b.cur.NewCondBr(c, bodyB, exit)
	b.cur = bodyB
	body()
	b.cur.NewCondBr(stop(), exit, head)
	b.cur = exit
}

// ifThen emits `if c { then() }`.
func (b *fb) ifThen(c value.Value, then func()) {
	tb := b.f.NewBlock("")
	exit := b.f.NewBlock("")
	b.cur.NewCondBr(c, tb, exit)
	b.cur = tb
	then()
	b.cur.NewBr(exit)
	b.cur = exit
}

// bytes casts a pointer to i8*.
func (b *fb) bytes(p value.Value) value.Value {
	if t, ok := p.Type().(*types.PointerType); ok && t.ElemType.Equal(types.I8) {
		return p
	}
	return b.cur.NewBitCast(p, types.I8Ptr)
}

// byteOffset is the i8* p + off bytes.
func (b *fb) byteOffset(p value.Value, off int64) value.Value {
	p = b.bytes(p)
	if off == 0 {
		return p
	}
	g := b.cur.NewGetElementPtr(types.I8, p, i64(off))
	g.InBounds = true
	return g
}

// memcpy copies n bytes (nothing when n is 0).
func (b *fb) memcpy(dst, src value.Value, n int64) {
	if n <= 0 {
		return
	}
	f := b.e.decl("llvm.memcpy.p0i8.p0i8.i64", types.Void, types.I8Ptr, types.I8Ptr, types.I64, types.I1)
	b.call(f, b.bytes(dst), b.bytes(src), i64(n), constant.False)
}

// isUnsigned reports whether k is an unsigned integer kind. The kinds'
// StableHLO spellings say it (ui8 ... ui64), so kinds added later need no
// change here.
func isUnsigned(k elemKind) bool { return strings.HasPrefix(k.mlir(), "ui") }

// indexI64 widens an integer of kind k (an index) to i64: signed kinds
// sign-extend, unsigned ones zero-extend, and unsigned 64-bit values
// beyond the i64 range saturate to its maximum (as ir.Eval reads them).
func (b *fb) indexI64(k elemKind, v value.Value) value.Value {
	bits := k.bits()
	switch {
	case k == kBool:
		return b.cur.NewZExt(v, types.I64)
	case bits == 64 && isUnsigned(k):
		neg := b.cur.NewICmp(enum.IPredSLT, v, i64(0))
		return b.cur.NewSelect(neg, i64(1<<63-1), v)
	case bits == 64:
		return v
	case isUnsigned(k):
		return b.cur.NewZExt(v, types.I64)
	}
	return b.cur.NewSExt(v, types.I64)
}

// clampI64 is max(lo, min(v, hi)) on signed i64 values (hi >= lo).
func (b *fb) clampI64(v value.Value, lo, hi int64) value.Value {
	v = b.cur.NewSelect(b.cur.NewICmp(enum.IPredSGT, v, i64(hi)), i64(hi), v)
	return b.cur.NewSelect(b.cur.NewICmp(enum.IPredSLT, v, i64(lo)), i64(lo), v)
}
