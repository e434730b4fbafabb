package codegen

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// The exported symbols (docs/cpu-plugin.md):
//
//	const char stela_signature[];
//	const int  stela_num_checks;
//	int stela_entry(void *const *args, void *const *results, char err[256]);
//
// stela_entry loads the buffer pointers, takes the arena, calls the
// kernels in program order, copies results that are not computed in
// place, gives the arena back and returns 0, 1 (run-time error, message
// in err) or 2 (an expectation failed, message in err).
//
// The arena (scratch memory for intermediate values) is allocated once
// and kept in a one-slot cache between calls: the first write to freshly
// mapped pages is slow on these machines, so reusing them matters.
// Concurrent calls (one per device thread) each get their own: a call
// takes the cached block with an atomic exchange (or allocates when
// there is none) and puts it back the same way, freeing whatever block it
// displaces. A destructor frees the cached block when the object is
// unloaded.

func (e *emitter) entry() error {
	p := e.prog
	sig := e.m.NewGlobalDef("stela_signature", constant.NewCharArrayFromString(p.Signature()+"\x00"))
	sig.Immutable = true
	nc := e.m.NewGlobalDef("stela_num_checks", constant.NewInt(types.I32, int64(p.checks)))
	nc.Immutable = true

	i8pp := types.NewPointer(types.I8Ptr)
	b := e.newFunc("stela_entry", types.I32,
		ir.NewParam("args", i8pp), ir.NewParam("results", i8pp), ir.NewParam("err", types.I8Ptr))
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoUnwind)
	argsP, resP, errP := b.f.Params[0], b.f.Params[1], b.f.Params[2]
	status := b.cur.NewAlloca(types.I32)
	b.cur.NewStore(i32(0), status)

	ptrAt := func(base value.Value, i int) value.Value {
		g := b.cur.NewGetElementPtr(types.I8Ptr, base, i64(int64(i)))
		g.InBounds = true
		return b.cur.NewLoad(types.I8Ptr, g)
	}
	args := make([]value.Value, len(p.args))
	for i := range p.args {
		args[i] = ptrAt(argsP, i)
	}
	results := make([]value.Value, len(p.results))
	for j := range p.results {
		results[j] = ptrAt(resP, j)
	}
	var arena value.Value
	if p.arenaSize > 0 {
		take, give := e.arenaFuncs(p.arenaSize)
		arena = b.call(take)
		oom := b.f.NewBlock("oom")
		run := b.f.NewBlock("run")
		b.cur.NewCondBr(b.cur.NewICmp(enum.IPredEQ, arena, constant.NewNull(types.I8Ptr)), oom, run)
		b.cur = oom
		b.call(e.snprintf(), errP, i64(errSize), e.cstring(fmt.Sprintf("stela_entry: out of memory (arena of %d bytes)", p.arenaSize)))
		oom.NewRet(i32(1))
		b.cur = run
		defer func() {
			b.call(give, arena)
			b.cur.NewRet(b.cur.NewLoad(types.I32, status))
		}()
	} else {
		defer func() { b.cur.NewRet(b.cur.NewLoad(types.I32, status)) }()
	}

	// ptr returns an i8* to the bytes of v.
	ptr := func(v *tval) value.Value {
		r := v.root()
		switch r.st {
		case stArg:
			return args[r.idx]
		case stResult:
			return results[r.idx]
		case stConst:
			g := e.constGlobal(r)
			zero := i64(0)
			return constant.NewGetElementPtr(g.ContentType, g, zero, zero)
		case stArena:
			if r.off == 0 || arena == nil {
				if arena == nil {
					return constant.NewNull(types.I8Ptr)
				}
				return arena
			}
			g := b.cur.NewGetElementPtr(types.I8, arena, i64(r.off))
			g.InBounds = true
			return g
		}
		panic(fmt.Sprintf("value of %s has no storage", v.t))
	}
	typed := func(v *tval) value.Value {
		return b.cur.NewBitCast(ptr(v), types.NewPointer(v.t.elem.mem()))
	}

	for _, n := range p.nodes {
		k, err := e.kernel(n)
		if err != nil {
			return err
		}
		if k == nil {
			continue
		}
		var callArgs []value.Value
		if n.kind == kCheck {
			callArgs = append(callArgs, status, errP)
		}
		for _, o := range n.out {
			callArgs = append(callArgs, typed(o))
		}
		for _, x := range n.in {
			callArgs = append(callArgs, typed(x))
		}
		b.call(k, callArgs...)
	}
	memcpy := e.decl("llvm.memcpy.p0i8.p0i8.i64", types.Void, types.I8Ptr, types.I8Ptr, types.I64, types.I1)
	for _, c := range p.copies {
		if n := c.src.t.bytes(); n > 0 {
			b.call(memcpy, results[c.res], ptr(c.src), i64(n), constant.False)
		}
	}
	return nil
}

// constGlobal returns the global holding a constant node's bytes.
func (e *emitter) constGlobal(v *tval) *ir.Global {
	if g, ok := e.consts[v]; ok {
		return g
	}
	data := v.def.data
	if len(data) == 0 {
		data = []byte{0} // a zero-size tensor still needs an address
	}
	g := e.m.NewGlobalDef(fmt.Sprintf("const%d", len(e.consts)), constant.NewCharArray(data))
	g.Immutable = true
	g.Linkage = enum.LinkagePrivate
	g.UnnamedAddr = enum.UnnamedAddrUnnamedAddr
	g.Align = bufAlign
	e.consts[v] = g
	return g
}

// arenaFuncs emits the arena's take/give functions and the destructor.
func (e *emitter) arenaFuncs(size int64) (take, give *ir.Func) {
	cache := e.m.NewGlobalDef("stela.arena", constant.NewInt(types.I64, 0))
	cache.Linkage = enum.LinkageInternal
	alloc := e.decl("aligned_alloc", types.I8Ptr, types.I64, types.I64)
	free := e.decl("free", types.Void, types.I8Ptr)

	t := e.newFunc("stela.arena.take", types.I8Ptr)
	t.f.Linkage = enum.LinkageInternal
	old := t.cur.NewAtomicRMW(enum.AtomicOpXChg, cache, i64(0), enum.AtomicOrderingAcquireRelease)
	got := t.f.NewBlock("got")
	fresh := t.f.NewBlock("fresh")
	t.cur.NewCondBr(t.cur.NewICmp(enum.IPredEQ, old, i64(0)), fresh, got)
	got.NewRet(got.NewIntToPtr(old, types.I8Ptr))
	fresh.NewRet(fresh.NewCall(alloc, i64(bufAlign), i64(alignUp(size))))

	put := func(name string, withArg bool) *ir.Func {
		var ps []*ir.Param
		if withArg {
			ps = append(ps, ir.NewParam("p", types.I8Ptr))
		}
		g := e.newFunc(name, types.Void, ps...)
		g.f.Linkage = enum.LinkageInternal
		var nv value.Value = i64(0)
		if withArg {
			nv = g.cur.NewPtrToInt(g.f.Params[0], types.I64)
		}
		prev := g.cur.NewAtomicRMW(enum.AtomicOpXChg, cache, nv, enum.AtomicOrderingAcquireRelease)
		doFree := g.f.NewBlock("free")
		done := g.f.NewBlock("done")
		g.cur.NewCondBr(g.cur.NewICmp(enum.IPredEQ, prev, i64(0)), done, doFree)
		doFree.NewCall(free, doFree.NewIntToPtr(prev, types.I8Ptr))
		doFree.NewBr(done)
		done.NewRet(nil)
		return g.f
	}
	give = put("stela.arena.give", true)
	fini := put("stela.arena.fini", false)

	ctorType := types.NewStruct(types.I32, types.NewPointer(types.NewFunc(types.Void)), types.I8Ptr)
	dtors := e.m.NewGlobalDef("llvm.global_dtors", constant.NewArray(types.NewArray(1, ctorType),
		constant.NewStruct(ctorType, constant.NewInt(types.I32, 65535), fini, constant.NewNull(types.I8Ptr))))
	dtors.Linkage = enum.LinkageAppending
	return t.f, give
}
