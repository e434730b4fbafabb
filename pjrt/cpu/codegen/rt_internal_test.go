package codegen

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/pjrt/cpu/codegen/internal/dl"
)

// TestRuntimeHelpers builds, with the helpers kernels use to reach the
// runtime table (newKernelRT, packCtx, newParallelBody, unpackCtx,
// parallelFor), a program whose kernel fills out[i] = 3i through
// rt->parallel_for, compiles it with opt, llc and cc, and runs it on the
// plugin's runtime (package rt, through dl).
func TestRuntimeHelpers(t *testing.T) {
	for _, tool := range []string{"opt", "llc", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	const n = 100000
	e := &emitter{m: ir.NewModule(), decls: map[string]*ir.Func{}, consts: map[*tval]*ir.Global{}, strs: map[string]*ir.Global{}}
	e.m.TargetTriple, e.m.DataLayout = TargetTriple, DataLayout
	out := &tval{t: ttype{elem: kF32, shape: []int64{n}}}
	nd := &node{name: "test.fill", out: []*tval{out}}

	k, rt, outs, _ := e.newKernelRT(nd, nd.out, nil)
	ctx, st := k.packCtx(outs[0], i64(3))
	body, bctx, begin, end := e.newParallelBody("fill")
	vals := body.unpackCtx(bctx, st)
	// for i := begin; i < end; i++ { out[i] = float(i * scale) }
	pre := body.cur
	head, exit := body.f.NewBlock("head"), body.f.NewBlock("exit")
	pre.NewCondBr(pre.NewICmp(enum.IPredSLT, begin, end), head, exit)
	i := head.NewPhi(ir.NewIncoming(begin, pre))
	body.cur = head
	v := body.cur.NewSIToFP(body.cur.NewMul(i, vals[1]), types.Float)
	body.store(kF32, vals[0], i, v)
	next := body.cur.NewAdd(i, i64(1))
	i.Incs = append(i.Incs, ir.NewIncoming(next, body.cur))
	body.cur.NewCondBr(body.cur.NewICmp(enum.IPredSLT, next, end), head, exit)
	exit.NewRet(nil)
	k.parallelFor(rt, ctx, body.f, i64(n), i64(1000))
	k.cur.NewRet(nil)

	sig := e.m.NewGlobalDef("stela_signature", constant.NewCharArrayFromString("res f32 100000\n\x00"))
	sig.Immutable = true
	nc := e.m.NewGlobalDef("stela_num_checks", constant.NewInt(types.I32, 0))
	nc.Immutable = true
	i8pp := types.NewPointer(types.I8Ptr)
	en := e.newFunc("stela_entry", types.I32, ir.NewParam("args", i8pp), ir.NewParam("results", i8pp),
		ir.NewParam("err", types.I8Ptr), ir.NewParam("rt", types.NewPointer(e.rtType())))
	res := en.cur.NewLoad(types.I8Ptr, en.f.Params[1])
	var outPtr value.Value = en.cur.NewBitCast(res, types.NewPointer(types.Float))
	en.cur.NewCall(k.f, en.f.Params[3], outPtr)
	en.cur.NewRet(i32(0))

	dir := t.TempDir()
	ll, bc, obj, so := filepath.Join(dir, "p.ll"), filepath.Join(dir, "p.bc"), filepath.Join(dir, "p.o"), filepath.Join(dir, "p.so")
	if err := os.WriteFile(ll, []byte(e.m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"opt", "-O2", ll, "-o", bc},
		{"llc", "-O2", "-filetype=obj", "-relocation-model=pic", bc, "-o", obj},
		{"cc", "-shared", "-o", so, obj},
	} {
		if msg, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s\n%s", c, err, msg, e.m.String())
		}
	}
	lib, err := dl.Open(so)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	got, rc, msg := lib.Call(nil, []int{4 * n})
	if rc != 0 {
		t.Fatal(msg)
	}
	for i := range n {
		if v := math.Float32frombits(binary.LittleEndian.Uint32(got[0][4*i:])); v != float32(3*i) {
			t.Fatalf("out[%d] = %v, want %v", i, v, 3*i)
		}
	}
}
