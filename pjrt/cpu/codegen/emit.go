package codegen

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Target facts. Without the triple and the data layout LLVM's loop
// vectorizer has no cost model and leaves loops scalar (codegen-notes.md,
// trap 2).
const (
	TargetTriple = "x86_64-pc-linux-gnu"
	DataLayout   = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
)

// emitter builds the LLVM module of a Program.
type emitter struct {
	m      *ir.Module
	prog   *Program
	decls  map[string]*ir.Func
	consts map[*tval]*ir.Global
	strs   map[string]*ir.Global
	nk     int
	// usesV3 is set once a kernel reads the fields of version 3 of the
	// runtime table (collective.go); usesColl once one calls
	// coll_exchange or coll_barrier; collID numbers those collectives.
	usesV3, usesColl bool
	// usesCancel is set once a kernel reads the cancellation flag of
	// version 4 of the runtime table (a while loop's back-edge).
	usesCancel bool
	// usesV6 is set once a kernel calls a version 6 entry of the runtime
	// table: sgemm_batch, attention_f32 (dot.go, attention.go) or
	// gemm_bf16 (dot.go).
	usesV6 bool
	// usesFFT is set once a kernel calls rt->fft (version 7, fft.go).
	usesFFT bool
	collID  int
	// fams are the functions each kernel's emission added, by node
	// (dedupe.go).
	fams []kernelFamily
}

// LLVM emits the program as an LLVM 14 IR module (text), with one copy
// of each distinct kernel (dedupe.go).
func (p *Program) LLVM() (text []byte, err error) {
	text, err = p.llvm(true)
	if errors.Is(err, errDangling) {
		// A removed copy is still referenced from where the dedupe does
		// not look (a constant expression): emit every copy.
		return p.llvm(false)
	}
	return text, err
}

func (p *Program) llvm(dedupe bool) (text []byte, err error) {
	defer func() {
		// llir panics on some malformed constructions (a bug here, never
		// the user's program): report it as an error.
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: code generator: %v", ErrInternal, r)
		}
	}()
	e := &emitter{
		m:      ir.NewModule(),
		prog:   p,
		decls:  map[string]*ir.Func{},
		consts: map[*tval]*ir.Global{},
		strs:   map[string]*ir.Global{},
	}
	e.m.SourceFilename = "stela"
	e.m.TargetTriple = TargetTriple
	e.m.DataLayout = DataLayout
	if err := e.entry(); err != nil {
		return nil, err
	}
	var removed []string
	if dedupe {
		removed = dedupeKernels(e.m, e.fams)
	}
	text = []byte(e.m.String())
	for _, name := range removed {
		if bytes.Contains(text, []byte("@"+name+"(")) || bytes.Contains(text, []byte("@"+name+",")) ||
			bytes.Contains(text, []byte("@"+name+" ")) || bytes.Contains(text, []byte("@"+name+")")) {
			return nil, errDangling
		}
	}
	return text, nil
}

// decl returns the declaration of an external function (libm, libc, an
// LLVM intrinsic), adding it on first use.
func (e *emitter) decl(name string, ret types.Type, params ...types.Type) *ir.Func {
	if f, ok := e.decls[name]; ok {
		return f
	}
	var ps []*ir.Param
	for _, t := range params {
		ps = append(ps, ir.NewParam("", t))
	}
	f := e.m.NewFunc(name, ret, ps...)
	e.decls[name] = f
	return f
}

// pure marks a declaration as having no side effects we care about
// (libm's errno is not observed), so that calls may be hoisted and merged.
func pure(f *ir.Func) *ir.Func {
	if len(f.FuncAttrs) == 0 {
		f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrReadNone)
	}
	return f
}

// cstring returns an i8* to a NUL-terminated private constant string.
func (e *emitter) cstring(s string) constant.Constant {
	g, ok := e.strs[s]
	if !ok {
		g = e.m.NewGlobalDef(fmt.Sprintf(".str%d", len(e.strs)), constant.NewCharArrayFromString(s+"\x00"))
		g.Immutable = true
		g.Linkage = enum.LinkagePrivate
		g.UnnamedAddr = enum.UnnamedAddrUnnamedAddr
		e.strs[s] = g
	}
	zero := constant.NewInt(types.I64, 0)
	return constant.NewGetElementPtr(g.ContentType, g, zero, zero)
}

// fb builds the body of one function.
type fb struct {
	e   *emitter
	f   *ir.Func
	cur *ir.Block
}

func (e *emitter) newFunc(name string, ret types.Type, params ...*ir.Param) *fb {
	f := e.m.NewFunc(name, ret, params...)
	b := &fb{e: e, f: f}
	b.cur = f.NewBlock("entry")
	return b
}

// kernelParam makes a noalias pointer parameter for the bytes of v: 64-byte
// aligned, as the buffer planner places values, except for an argument of
// the program (of the entry or of a region), which may be a view of caller
// memory at any address aligned to its element size (a tensor inside a
// memory-mapped safetensors file): the object exports
// stela_args_any_align, and the plugin passes such views without copying
// them.
func kernelParam(name string, v *tval) *ir.Param {
	k := v.t.elem
	p := ir.NewParam(name, types.NewPointer(k.mem()))
	align := bufAlign
	if v.root().st == stArg {
		align = int(k.size())
	}
	p.Attrs = append(p.Attrs, enum.ParamAttrNoAlias, ir.Align(align))
	return p
}

// newKernel starts an internal void function taking one pointer per
// output then per input. Kernels stay out of line (noinline): each is
// optimized on its own, which keeps opt's time linear in their number.
func (e *emitter) newKernel(n *node, outs, ins []*tval) (*fb, []value.Value, []value.Value) {
	var ps []*ir.Param
	for i, o := range outs {
		ps = append(ps, kernelParam(fmt.Sprintf("out%d", i), o))
	}
	for i, x := range ins {
		ps = append(ps, kernelParam(fmt.Sprintf("in%d", i), x))
	}
	e.nk++
	name := fmt.Sprintf("k%d.%s", e.nk, shortName(n.name))
	b := e.newFunc(name, types.Void, ps...)
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoInline, enum.FuncAttrNoUnwind)
	var o, in []value.Value
	for i := range outs {
		o = append(o, b.f.Params[i])
	}
	for i := range ins {
		in = append(in, b.f.Params[len(outs)+i])
	}
	return b, o, b.aliasIns(n, o, in)
}

func shortName(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[i+1:]
		}
	}
	return name
}

func i64(v int64) *constant.Int { return constant.NewInt(types.I64, v) }
func i32(v int64) *constant.Int { return constant.NewInt(types.I32, v) }

// scalarConst returns the constant of kind k whose memory image is the
// low k.size() bytes of bits (little-endian).
func scalarConst(k elemKind, bits uint64) constant.Constant {
	if c, ok := scalarConstExt(k, bits); ok {
		return c
	}
	switch k {
	case kBool:
		return constant.NewBool(bits&0xff != 0)
	case kI32:
		return constant.NewInt(types.I32, int64(int32(uint32(bits))))
	case kI64:
		return constant.NewInt(types.I64, int64(bits))
	case kF32:
		f := math.Float32frombits(uint32(bits))
		if f != f {
			// llir prints every NaN as the canonical one; keep the payload.
			return constant.NewBitCast(constant.NewInt(types.I32, int64(int32(uint32(bits)))), types.Float)
		}
		return constant.NewFloat(types.Float, float64(f))
	}
	f := math.Float64frombits(bits)
	if f != f {
		return constant.NewBitCast(constant.NewInt(types.I64, int64(bits)), types.Double)
	}
	return constant.NewFloat(types.Double, f)
}

// floatConst returns v (which must be exact in k) as a constant of float
// kind k.
func floatConst(k elemKind, v float64) constant.Constant {
	if k == kF32 {
		return scalarConst(k, uint64(math.Float32bits(float32(v))))
	}
	return scalarConst(k, math.Float64bits(v))
}

func leBits(b []byte) uint64 {
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	return u
}

// --- control flow

// loop emits `for i := 0; i < n; i++ { body(i) }` in the rotated form
// LLVM's loop passes expect; n is a compile-time constant.
func (b *fb) loop(n int64, body func(i value.Value)) {
	switch {
	case n <= 0:
		return
	case n == 1:
		body(i64(0))
		return
	}
	pre := b.cur
	head := b.f.NewBlock("")
	pre.NewBr(head)
	b.cur = head
	phi := head.NewPhi(ir.NewIncoming(i64(0), pre))
	body(phi)
	next := b.cur.NewAdd(phi, i64(1))
	next.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNUW, enum.OverflowFlagNSW}
	cond := b.cur.NewICmp(enum.IPredULT, next, i64(n))
	exit := b.f.NewBlock("")
	b.cur.NewCondBr(cond, head, exit)
	phi.Incs = append(phi.Incs, ir.NewIncoming(next, b.cur))
	b.cur = exit
}

// nest emits loops over a shape in row-major order; body gets the index
// of every dimension. A dimension of size 1 gets the constant 0 and no
// loop.
func (b *fb) nest(shape []int64, body func(idx []value.Value)) {
	b.rangedNest(shape, -1, nil, nil, body)
}

// affine returns c + Σ idx[i]*coef[i] as an i64.
func (b *fb) affine(idx []value.Value, coef []int64, c int64) value.Value {
	var acc value.Value
	add := func(v value.Value) {
		if acc == nil {
			acc = v
			return
		}
		a := b.cur.NewAdd(acc, v)
		a.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNUW, enum.OverflowFlagNSW}
		acc = a
	}
	for i, v := range idx {
		switch coef[i] {
		case 0:
		case 1:
			add(v)
		default:
			if ci, ok := v.(*constant.Int); ok {
				c += ci.X.Int64() * coef[i]
				continue
			}
			m := b.cur.NewMul(v, i64(coef[i]))
			m.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNUW, enum.OverflowFlagNSW}
			add(m)
		}
	}
	if acc == nil {
		return i64(c)
	}
	if c != 0 {
		add(i64(c))
	}
	return acc
}

// --- memory

func (b *fb) addr(k elemKind, p value.Value, i value.Value) value.Value {
	if ci, ok := i.(*constant.Int); ok && ci.X.Sign() == 0 {
		return p
	}
	g := b.cur.NewGetElementPtr(k.mem(), p, i)
	g.InBounds = true
	return g
}

// load reads element i of buffer p (kind k) into a register value.
func (b *fb) load(k elemKind, p value.Value, i value.Value) value.Value {
	l := b.cur.NewLoad(k.mem(), b.addr(k, p, i))
	l.Align = ir.Align(k.size())
	switch {
	case k == kBool:
		return b.cur.NewICmp(enum.IPredNE, l, constant.NewInt(types.I8, 0))
	case k.isSubByte():
		return b.subNorm(k, l)
	case k.isMini() && k.miniFormat().Bits < 8:
		return b.cur.NewAnd(l, c8(1<<k.miniFormat().Bits-1))
	}
	return l
}

// store writes register value v to element i of buffer p (kind k).
func (b *fb) store(k elemKind, p value.Value, i value.Value, v value.Value) {
	if k == kBool {
		v = b.cur.NewZExt(v, types.I8)
	}
	if k.isSubByte() {
		v = b.subLow(k, v) // the low bits, as ml_dtypes and XLA store them
	}
	s := b.cur.NewStore(v, b.addr(k, p, i))
	s.Align = ir.Align(k.size())
}

// call calls f with args.
func (b *fb) call(f *ir.Func, args ...value.Value) value.Value {
	return b.cur.NewCall(f, args...)
}
