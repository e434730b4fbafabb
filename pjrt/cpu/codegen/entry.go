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
//	const int  stela_rt_uses;    // what of the runtime table it calls
//	const int  stela_args_any_align; // 1: arguments need only element alignment (kernelParam)
//	const char stela_aliases[];  // only when some result is aliased (alias.go)
//	const char stela_optimized_program[]; // only for rewritten programs (Options.OptimizedProgram)
//	int stela_entry(void *const *args, void *const *results, char err[256],
//	                const stela_rt *rt);
//
// stela_entry loads the buffer pointers, takes the arena, calls the
// kernels in program order, copies results that are not computed in
// place, gives the arena back and returns 0, 1 (run-time error, message
// in err) or 2 (an expectation failed, message in err). stela_aliases
// lists `<result> <argument>` pairs, one a line, for which the caller
// passes the same buffer as results[result] and args[argument].
//
// rt is the plugin's runtime table (ABI version 2, stela_rt.h in
// pjrt/cpu/internal/rt): thread pool and GEMM. Kernels that use it take it
// as their first parameter (newKernelRT) and the entry passes it down;
// entries may run concurrently (one per device), so it is never kept in a
// global. When some kernel uses it, the entry first checks that rt is not
// NULL and its version is at least 2 (else it returns 1 with a message).
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
	if p.optimized != "" {
		g := e.m.NewGlobalDef("stela_optimized_program", constant.NewCharArrayFromString(p.optimized+"\x00"))
		g.Immutable = true
	}
	if al := p.Aliases(); al != "" {
		g := e.m.NewGlobalDef("stela_aliases", constant.NewCharArrayFromString(al+"\x00"))
		g.Immutable = true
	}

	// Kernels first: the entry checks the runtime table only if one of
	// them uses it.
	kernels := make([]*ir.Func, len(p.nodes))
	needRT := false
	uses := int64(0)
	nk := 0
	for i, n := range p.nodes {
		before := len(e.m.Funcs)
		k, err := e.kernel(n)
		if err != nil {
			return err
		}
		var fam kernelFamily
		for _, f := range e.m.Funcs[before:] {
			if familyNamed.MatchString(f.Name()) && len(f.Blocks) > 0 {
				fam = append(fam, f)
			}
		}
		e.fams = append(e.fams, fam)
		kernels[i] = k
		if k != nil {
			nk++
		}
		needRT = needRT || (k != nil && e.takesRT(k))
		if n.kind == kDot && n.gemm != nil {
			uses |= rtUsesGEMM
		}
	}
	// What of the table the program calls, so that the plugin can get it
	// ready before the first call (stela_rt.h, STELA_RT_USES_*).
	if e.usesColl {
		uses |= rtUsesCollectives
	}
	ru := e.m.NewGlobalDef("stela_rt_uses", constant.NewInt(types.I32, uses))
	ru.Immutable = true
	// The kernels read arguments at any element-aligned address
	// (kernelParam), so the plugin passes views of caller memory in place.
	aa := e.m.NewGlobalDef("stela_args_any_align", constant.NewInt(types.I32, 1))
	aa.Immutable = true

	i8pp := types.NewPointer(types.I8Ptr)
	b := e.newFunc("stela_entry", types.I32,
		ir.NewParam("args", i8pp), ir.NewParam("results", i8pp), ir.NewParam("err", types.I8Ptr),
		ir.NewParam("rt", types.NewPointer(e.rtType())))
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoUnwind)
	argsP, resP, errP, rtP := b.f.Params[0], b.f.Params[1], b.f.Params[2], b.f.Params[3]
	status := b.cur.NewAlloca(types.I32)
	b.cur.NewStore(i32(0), status)
	// With several kernels the entry looks at the cancellation flag
	// before each but the first (version 4).
	betweenChecks := cancelChecks && nk >= 2
	needRT = needRT || betweenChecks
	var flag value.Value
	if needRT {
		// Version 3 when a kernel reads its fields (collectives,
		// replica_id), 4 when the program reads the cancellation flag.
		want := int64(2)
		if e.usesV3 {
			want = 3
		}
		if e.usesCancel || betweenChecks {
			want = 4
		}
		if e.usesColl {
			want = 5 // coll_exchange_sized
		}
		if e.usesV6 {
			want = 6 // sgemm_batch, attention_f32, gemm_bf16
		}
		if e.usesFFT {
			want = 7 // fft
		}
		bad := b.f.NewBlock("bad_rt")
		checkVersion := b.f.NewBlock("check_rt")
		ok := b.f.NewBlock("rt_ok")
		b.cur.NewCondBr(b.cur.NewICmp(enum.IPredEQ, rtP, constant.NewNull(types.NewPointer(e.rtType()))), bad, checkVersion)
		b.cur = checkVersion
		v := b.rtField(rtP, rtVersion)
		b.cur.NewCondBr(b.cur.NewICmp(enum.IPredSGE, v, i64(want)), ok, bad)
		b.cur = bad
		b.call(e.snprintf(), errP, i64(errSize), e.cstring(fmt.Sprintf("stela_entry: the plugin passed no runtime table of version %d or later (a plugin older than this program)", want)))
		bad.NewRet(i32(1))
		b.cur = ok
		if e.usesColl {
			// The collectives' tables are for the devices the program was
			// compiled for.
			n := p.dev.n()
			wrong := b.f.NewBlock("wrong_devices")
			right := b.f.NewBlock("devices_ok")
			b.cur.NewCondBr(b.cur.NewICmp(enum.IPredEQ, b.rtField(rtP, rtNumDevices), i64(n)), right, wrong)
			b.cur = wrong
			b.call(e.snprintf(), errP, i64(errSize), e.cstring(fmt.Sprintf("stela_entry: the program was compiled for %d devices (%d replicas × %d partitions) and runs on %%lld", n, p.dev.replicas, p.dev.partitions)),
				b.rtField(rtP, rtNumDevices))
			wrong.NewRet(i32(1))
			b.cur = right
		}
		if betweenChecks {
			flag = b.cancelFlag(rtP)
		}
	}

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
	var give *ir.Func
	if p.arenaSize > 0 {
		var take *ir.Func
		take, give = e.arenaFuncs(p.arenaSize)
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

	// A kernel that fails (a collective aborted) ends the call: the arena
	// goes back, the entry returns 1 (the kernel wrote the message).
	var failed, cancelled *ir.Block
	first := true
	for i, n := range p.nodes {
		k := kernels[i]
		if k == nil {
			continue
		}
		if !first && flag != nil {
			if cancelled == nil {
				cancelled = b.f.NewBlock("cancelled")
				cancelled.NewCall(e.snprintf(), errP, i64(errSize), e.cstring("stela_entry: cancelled"))
				if give != nil {
					cancelled.NewCall(give, arena)
				}
				cancelled.NewRet(i32(rtCancelled))
			}
			next := b.f.NewBlock("")
			b.cur.NewCondBr(b.isCancelled(flag), cancelled, next)
			b.cur = next
		}
		first = false
		var callArgs []value.Value
		if e.takesRT(k) {
			callArgs = append(callArgs, rtP)
		}
		if e.fails(k) {
			callArgs = append(callArgs, errP)
			for _, o := range n.out {
				callArgs = append(callArgs, typed(o))
			}
			for _, x := range n.in {
				callArgs = append(callArgs, typed(x))
			}
			rc := b.call(k, callArgs...)
			if failed == nil {
				failed = b.f.NewBlock("failed")
				if give != nil {
					failed.NewCall(give, arena)
				}
				failed.NewRet(i32(1))
			}
			next := b.f.NewBlock("")
			b.cur.NewCondBr(b.cur.NewICmp(enum.IPredNE, rc, i32(0)), failed, next)
			b.cur = next
			continue
		}
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
			dst := value.Value(nil)
			if c.to != nil {
				dst = ptr(c.to) // staging (alias.go)
			} else {
				dst = results[c.res]
			}
			b.call(memcpy, dst, ptr(c.src), i64(n), constant.False)
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

// --- the runtime table (ABI version 2)

// Bits of stela_rt_uses.
const (
	rtUsesGEMM        = 1 // STELA_RT_USES_GEMM: sgemm or dgemm
	rtUsesCollectives = 2 // STELA_RT_USES_COLLECTIVES: coll_exchange or coll_barrier
)

// Field indexes of stela_rt.
const (
	rtVersion     = 0 // i64
	rtNumThreads  = 1 // i64
	rtParallelFor = 2 // void (i8* ctx, void (i8*, i64, i64)* fn, i64 n, i64 grain)*
	rtSgemm       = 3 // void (i32 ta, i32 tb, i64 M, i64 N, i64 K, float alpha, float* A, i64 lda, float* B, i64 ldb, float beta, float* C, i64 ldc)*
	rtDgemm       = 4 // the same in double
	// Version 3 (collective.go).
	rtNumDevices    = 5  // i64
	rtDeviceIndex   = 6  // i64
	rtNumReplicas   = 7  // i64
	rtNumPartitions = 8  // i64
	rtReplicaID     = 9  // i64
	rtPartitionID   = 10 // i64
	rtRendezvous    = 11 // i8*
	rtCollExchange  = 12 // i32 (i8* rv, i64 self, i64 op_id, i8* op, i64* members, i64 n, i8** mine, i64 k, i8** peers, i8* err)*
	rtCollBarrier   = 13 // i32 (i8* rv, i64 self, i64 op_id, i8* op, i64* members, i64 n, i8* err)*
	// Version 4: the execution's cancellation flag (never NULL).
	rtCancel = 14 // i32*
	// Version 5: coll_exchange with the buffers' sizes (collectives
	// across processes).
	rtCollExchangeSized = 15 // i32 (i8* rv, i64 self, i64 op_id, i8* op, i64* members, i64 n, i8** mine, i64* sizes, i64 k, i8** peers, i8* err)*
	// Version 6: batched products (dot.go), fused attention
	// (attention.go) and GEMM with bf16 operands (dot.go).
	rtSgemmBatch = 16 // void (i32 ta, i32 tb, i64 batch, i64 M, i64 N, i64 K, float alpha, float* A, i64 lda, i64 strideA, float* B, i64 ldb, i64 strideB, float beta, float* C, i64 ldc, i64 strideC)*
	rtAttention  = 17 // void (i64 batch, i64 M, i64 L, i64 D, i64 Dv, float* Q, i32 tq, i64 ldq, i64 sq, float* K, i32 tk, i64 ldk, i64 sk, float* V, i32 tv, i64 ldv, i64 sv, float scale, i8* mask, i64 maskDiv, float fill, float* O)* (attention.go)
	rtGemmBF16   = 18 // void (i32 ta, i32 tb, i32 bf16A, i32 bf16B, i64 M, i64 N, i64 K, float alpha, i8* A, i64 lda, i8* B, i64 ldb, float beta, float* C, i64 ldc)*
	// Version 7: FFT (fft.go).
	rtFFT = 19 // i32 (i8* rt, i32 type, i32 f64, i64 batch, i64 rank, i64 n0, i64 n1, i64 n2, i8* in, i8* out, i8* err)*
)

// cancelChecks says whether programs look at the cancellation flag (at
// while back-edges, between kernels); false only in benchmarks that
// measure what the checks cost (export_test.go).
var cancelChecks = true

// rtCancelled is what stela_entry returns when the cancellation flag was
// set (STELA_RT_CANCELLED).
const rtCancelled = 3

// rtType returns %stela_rt, the type of the runtime table, defining it on
// first use.
func (e *emitter) rtType() types.Type {
	for _, t := range e.m.TypeDefs {
		if t.Name() == "stela_rt" {
			return t
		}
	}
	gemm := func(f types.Type) types.Type {
		fp := types.NewPointer(f)
		return types.NewPointer(types.NewFunc(types.Void, types.I32, types.I32, types.I64, types.I64, types.I64,
			f, fp, types.I64, fp, types.I64, f, fp, types.I64))
	}
	i64p, i8pp := types.NewPointer(types.I64), types.NewPointer(types.I8Ptr)
	fp32 := types.NewPointer(types.Float)
	return e.m.NewTypeDef("stela_rt", types.NewStruct(types.I64, types.I64,
		types.NewPointer(types.NewFunc(types.Void, types.I8Ptr, types.NewPointer(parallelBodyType()), types.I64, types.I64)),
		gemm(types.Float), gemm(types.Double),
		types.I64, types.I64, types.I64, types.I64, types.I64, types.I64, types.I8Ptr,
		types.NewPointer(types.NewFunc(types.I32, types.I8Ptr, types.I64, types.I64, types.I8Ptr, i64p, types.I64, i8pp, types.I64, i8pp, types.I8Ptr)),
		types.NewPointer(types.NewFunc(types.I32, types.I8Ptr, types.I64, types.I64, types.I8Ptr, i64p, types.I64, types.I8Ptr)),
		types.NewPointer(types.I32),
		types.NewPointer(types.NewFunc(types.I32, types.I8Ptr, types.I64, types.I64, types.I8Ptr, i64p, types.I64, i8pp, i64p, types.I64, i8pp, types.I8Ptr)),
		types.NewPointer(types.NewFunc(types.Void, types.I32, types.I32, types.I64, types.I64, types.I64, types.I64,
			types.Float, fp32, types.I64, types.I64, fp32, types.I64, types.I64, types.Float, fp32, types.I64, types.I64)),
		types.NewPointer(types.NewFunc(types.Void, types.I64, types.I64, types.I64, types.I64, types.I64,
			fp32, types.I32, types.I64, types.I64, fp32, types.I32, types.I64, types.I64, fp32, types.I32, types.I64, types.I64,
			types.Float, types.I8Ptr, types.I64, types.Float, fp32)),
		types.NewPointer(types.NewFunc(types.Void, types.I32, types.I32, types.I32, types.I32, types.I64, types.I64, types.I64,
			types.Float, types.I8Ptr, types.I64, types.I8Ptr, types.I64, types.Float, fp32, types.I64)),
		types.NewPointer(types.NewFunc(types.I32, types.I8Ptr, types.I32, types.I32, types.I64, types.I64, types.I64, types.I64,
			types.I64, types.I8Ptr, types.I8Ptr, types.I8Ptr))))
}

// cancelFlag loads the address of the execution's cancellation flag from
// the runtime table (version 4).
func (b *fb) cancelFlag(rt value.Value) value.Value {
	b.e.usesCancel = true
	return b.rtField(rt, rtCancel)
}

// isCancelled loads the cancellation flag (a relaxed atomic load: another
// thread sets it) and returns whether it is set, as an i1.
func (b *fb) isCancelled(flag value.Value) value.Value {
	ld := b.cur.NewLoad(types.I32, flag)
	ld.Atomic = true
	ld.Ordering = enum.AtomicOrderingMonotonic
	ld.Align = 4
	return b.cur.NewICmp(enum.IPredNE, ld, i32(0))
}

// parallelBodyType is the type of a parallel_for body: void (i8* ctx, i64
// begin, i64 end).
func parallelBodyType() *types.FuncType {
	return types.NewFunc(types.Void, types.I8Ptr, types.I64, types.I64)
}

// fails reports whether kernel k may fail at run time: it then returns
// an i32 status (0, or 1 with a message in its err parameter, which
// follows the runtime table) that its caller must pass on.
func (e *emitter) fails(k *ir.Func) bool {
	return k.Sig.RetType.Equal(types.I32)
}

// newKernelFallible is newKernelRT for a kernel that may fail: its
// parameters are the runtime table, the entry's err buffer (i8*, 256
// bytes), then one pointer per output and per input; it returns an i32
// status (fails).
func (e *emitter) newKernelFallible(n *node, outs, ins []*tval) (b *fb, rt value.Value, o, in []value.Value) {
	rtParam := ir.NewParam("rt", types.NewPointer(e.rtType()))
	rtParam.Attrs = append(rtParam.Attrs, enum.ParamAttrNoCapture, enum.ParamAttrReadOnly)
	ps := []*ir.Param{rtParam, ir.NewParam("err", types.I8Ptr)}
	for i, x := range outs {
		ps = append(ps, kernelParam(fmt.Sprintf("out%d", i), x))
	}
	for i, x := range ins {
		ps = append(ps, kernelParam(fmt.Sprintf("in%d", i), x))
	}
	e.nk++
	b = e.newFunc(fmt.Sprintf("k%d.%s", e.nk, shortName(n.name)), types.I32, ps...)
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoInline, enum.FuncAttrNoUnwind)
	for i := range outs {
		o = append(o, b.f.Params[2+i])
	}
	for i := range ins {
		in = append(in, b.f.Params[2+len(outs)+i])
	}
	return b, b.f.Params[0], o, b.aliasIns(n, o, in)
}

// takesRT reports whether kernel k takes the runtime table (as its first
// parameter).
func (e *emitter) takesRT(k *ir.Func) bool {
	if len(k.Params) == 0 {
		return false
	}
	pt, ok := k.Params[0].Typ.(*types.PointerType)
	return ok && pt.ElemType == e.rtType()
}

// newKernelRT is newKernel for a kernel that uses the runtime table: rt
// is its first parameter (the entry passes it), then one pointer per
// output and per input.
func (e *emitter) newKernelRT(n *node, outs, ins []*tval) (b *fb, rt value.Value, o, in []value.Value) {
	rtParam := ir.NewParam("rt", types.NewPointer(e.rtType()))
	rtParam.Attrs = append(rtParam.Attrs, enum.ParamAttrNoCapture, enum.ParamAttrReadOnly)
	ps := []*ir.Param{rtParam}
	for i, x := range outs {
		ps = append(ps, kernelParam(fmt.Sprintf("out%d", i), x))
	}
	for i, x := range ins {
		ps = append(ps, kernelParam(fmt.Sprintf("in%d", i), x))
	}
	e.nk++
	b = e.newFunc(fmt.Sprintf("k%d.%s", e.nk, shortName(n.name)), types.Void, ps...)
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoInline, enum.FuncAttrNoUnwind)
	for i := range outs {
		o = append(o, b.f.Params[1+i])
	}
	for i := range ins {
		in = append(in, b.f.Params[1+len(outs)+i])
	}
	return b, b.f.Params[0], o, b.aliasIns(n, o, in)
}

// rtField loads field i (rtVersion ...) of the runtime table rt.
func (b *fb) rtField(rt value.Value, i int) value.Value {
	st := b.e.rtType().(*types.StructType)
	g := b.cur.NewGetElementPtr(st, rt, i32(0), i32(int64(i)))
	g.InBounds = true
	return b.cur.NewLoad(st.Fields[i], g)
}

// newParallelBody starts an internal function void (i8* ctx, i64 begin,
// i64 end) for rt->parallel_for; the caller emits the body (typically a
// loop over [begin, end)) and the return.
func (e *emitter) newParallelBody(name string) (b *fb, ctx, begin, end value.Value) {
	e.nk++
	b = e.newFunc(fmt.Sprintf("p%d.%s", e.nk, name), types.Void,
		ir.NewParam("ctx", types.I8Ptr), ir.NewParam("begin", types.I64), ir.NewParam("end", types.I64))
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoUnwind)
	return b, b.f.Params[0], b.f.Params[1], b.f.Params[2]
}

// packCtx stores vals in a stack struct and returns it as an i8* context
// for a parallel body, with the struct's type for unpackCtx.
func (b *fb) packCtx(vals ...value.Value) (ctx value.Value, t *types.StructType) {
	fields := make([]types.Type, len(vals))
	for i, v := range vals {
		fields[i] = v.Type()
	}
	t = types.NewStruct(fields...)
	// The alloca goes into the entry block, so that it is not repeated in
	// a loop.
	entry := b.f.Blocks[0]
	a := ir.NewAlloca(t)
	entry.Insts = append([]ir.Instruction{a}, entry.Insts...)
	for i, v := range vals {
		g := b.cur.NewGetElementPtr(t, a, i32(0), i32(int64(i)))
		g.InBounds = true
		b.cur.NewStore(v, g)
	}
	return b.cur.NewBitCast(a, types.I8Ptr), t
}

// unpackCtx loads the values packCtx stored.
func (b *fb) unpackCtx(ctx value.Value, t *types.StructType) []value.Value {
	p := b.cur.NewBitCast(ctx, types.NewPointer(t))
	vals := make([]value.Value, len(t.Fields))
	for i, f := range t.Fields {
		g := b.cur.NewGetElementPtr(t, p, i32(0), i32(int64(i)))
		g.InBounds = true
		vals[i] = b.cur.NewLoad(f, g)
	}
	return vals
}

// parallelFor emits rt->parallel_for(ctx, body, n, grain).
func (b *fb) parallelFor(rt, ctx value.Value, body *ir.Func, n, grain value.Value) {
	pf := b.rtField(rt, rtParallelFor)
	b.cur.NewCall(pf, ctx, body, n, grain)
}
