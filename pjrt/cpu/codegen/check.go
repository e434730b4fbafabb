package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Expectations (check.* ops and custom_call @check.*), as
// check-contract.md defines them. A check kernel compares actual with
// expected element by element and stops at the first mismatch. If no
// expectation failed before, it writes the message into the entry's err
// buffer and sets the entry's status to statusCheckFailed; the program
// still runs to the end (results are complete), later checks still
// compute their i1 results but report nothing. The message reads
//
//	check failed: check.expect_eq in @main: at index [1, 2] of tensor<2x3xf32>: actual 1.5, expected 2.5
//
// Element rules (a = actual, e = expected):
//
//	exact   integers and i1 equal; floats ==, or both NaN
//	almost  a == e, or both NaN, or |a-e| <= tolerance (in f64)
//	close   ULP distance d in [min, max]: distance of the bit patterns of
//	        |a| and |e|, summed across zero when the signs differ; both
//	        NaN is 0; any other non-finite pair must be bitwise equal
//	        (then 0); integers |a-e|, i1 0 or 1

// statusCheckFailed is what stela_entry returns when an expectation
// failed (1 is any other run-time error).
const statusCheckFailed = 2

// errSize is the size of the entry's err buffer.
const errSize = 256

func (e *emitter) snprintf() *ir.Func {
	f := e.decl("snprintf", types.I32, types.I8Ptr, types.I64, types.I8Ptr)
	f.Sig.Variadic = true
	return f
}

// checkKernel: void(i32* status, i8* err, [i8* result], actual, expected).
func (e *emitter) checkKernel(n *node) (*ir.Func, error) {
	k := n.in[0].t.elem
	t := n.in[0].t
	params := []*ir.Param{ir.NewParam("status", types.NewPointer(types.I32)), ir.NewParam("err", types.I8Ptr)}
	if n.check.result {
		params = append(params, kernelParam("res", n.out[0]))
	}
	params = append(params, kernelParam("actual", n.in[0]), kernelParam("expected", n.in[1]))
	e.nk++
	b := e.newFunc(fmt.Sprintf("k%d.check", e.nk), types.Void, params...)
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoInline, enum.FuncAttrNoUnwind)
	status, errBuf := b.f.Params[0], b.f.Params[1]
	var res value.Value
	act, exp := b.f.Params[len(params)-2], b.f.Params[len(params)-1]
	if n.check.result {
		res = b.f.Params[2]
	}
	total := t.numElems()

	pass := b.f.NewBlock("pass")
	fail := b.f.NewBlock("fail")
	if total == 0 {
		b.cur.NewBr(pass)
	} else {
		pre := b.cur
		head := b.f.NewBlock("")
		pre.NewBr(head)
		b.cur = head
		i := head.NewPhi(ir.NewIncoming(i64(0), pre))
		a := b.load(k, act, i)
		x := b.load(k, exp, i)
		ok := b.elementOK(n.check, k, a, x)
		latch := b.f.NewBlock("")
		b.cur.NewCondBr(ok, latch, fail)
		failFrom := b.cur
		next := latch.NewAdd(i, i64(1))
		latch.NewCondBr(latch.NewICmp(enum.IPredULT, next, i64(total)), head, pass)
		i.Incs = append(i.Incs, ir.NewIncoming(next, latch))

		// fail: the first mismatch is at i.
		b.cur = fail
		fi := fail.NewPhi(ir.NewIncoming(i, failFrom))
		fa := fail.NewPhi(ir.NewIncoming(a, failFrom))
		fx := fail.NewPhi(ir.NewIncoming(x, failFrom))
		if res != nil {
			b.store(kBool, res, i64(0), constant.False)
		}
		report := b.f.NewBlock("report")
		done := b.f.NewBlock("done")
		st := fail.NewLoad(types.I32, status)
		fail.NewCondBr(fail.NewICmp(enum.IPredEQ, st, i32(0)), report, done)
		b.cur = report
		b.reportMismatch(n, t, errBuf, fi, fa, fx)
		report.NewStore(i32(statusCheckFailed), status)
		report.NewBr(done)
		done.NewRet(nil)
	}
	b.cur = pass
	if res != nil {
		b.store(kBool, res, i64(0), constant.True)
	}
	pass.NewRet(nil)
	if total == 0 {
		// fail is unreachable.
		fail.NewUnreachable()
	}
	return b.f, nil
}

// toF64 widens a float register value to double.
func (b *fb) toF64(k elemKind, v value.Value) value.Value {
	switch {
	case k.isHalf():
		return b.cur.NewFPExt(b.halfToF32(k, v), types.Double)
	case k.isUnsigned():
		return b.cur.NewUIToFP(v, types.Double)
	}
	switch k {
	case kF32:
		return b.cur.NewFPExt(v, types.Double)
	case kF64:
		return v
	case kBool:
		return b.cur.NewUIToFP(v, types.Double)
	}
	return b.cur.NewSIToFP(v, types.Double)
}

func (b *fb) toI64(k elemKind, v value.Value) value.Value {
	switch k {
	case kBool:
		return b.cur.NewZExt(v, types.I64)
	case kI8, kI16, kI32, kI2, kI4:
		return b.cur.NewSExt(v, types.I64)
	case kU8, kU16, kU32, kU2, kU4:
		return b.cur.NewZExt(v, types.I64)
	}
	return v
}

func (b *fb) elementOK(c checkPlan, k elemKind, a, x value.Value) value.Value {
	if k.isHalf() || k.isComplex() {
		return b.elementOKExt(c, k, a, x) // types_ext.go
	}
	cur := b.cur
	bothNaN := func() value.Value { return cur.NewAnd(b.isNaN(a), b.isNaN(x)) }
	switch c.mode {
	case checkExact:
		if !k.isFloat() {
			return cur.NewICmp(enum.IPredEQ, a, x)
		}
		return cur.NewOr(cur.NewFCmp(enum.FPredOEQ, a, x), bothNaN())
	case checkAlmost:
		da, dx := b.toF64(k, a), b.toF64(k, x)
		diff := b.intrinsic1("fabs", kF64, cur.NewFSub(da, dx))
		ok := cur.NewOr(cur.NewFCmp(enum.FPredOEQ, da, dx), cur.NewFCmp(enum.FPredOLE, diff, floatConst(kF64, c.tol)))
		if k.isFloat() {
			ok = cur.NewOr(ok, bothNaN())
		}
		return ok
	}
	// checkClose
	inRange := func(d value.Value) value.Value {
		lo := cur.NewICmp(enum.IPredUGE, d, i64(c.minULP))
		hi := cur.NewICmp(enum.IPredULE, d, i64(c.maxULP))
		if c.minULP <= 0 {
			lo = nil
		}
		if c.maxULP < 0 {
			return constant.False
		}
		if lo == nil {
			return hi
		}
		return cur.NewAnd(lo, hi)
	}
	if !k.isFloat() {
		ia, ix := b.toI64(k, a), b.toI64(k, x)
		d := cur.NewSelect(cur.NewICmp(enum.IPredSGE, ia, ix), cur.NewSub(ia, ix), cur.NewSub(ix, ia))
		return inRange(d)
	}
	it := k.intOfSameWidth()
	mask := constant.NewInt(it, int64(^uint64(0)>>(65-k.bits())))
	ba, bx := cur.NewBitCast(a, it), cur.NewBitCast(x, it)
	ma, mx := b.toI64(kI64, cur.NewAnd(ba, mask)), b.toI64(kI64, cur.NewAnd(bx, mask))
	if k == kF32 {
		ma, mx = cur.NewZExt(cur.NewAnd(ba, mask), types.I64), cur.NewZExt(cur.NewAnd(bx, mask), types.I64)
	}
	sameSign := cur.NewICmp(enum.IPredSGE, cur.NewXor(ba, bx), constant.NewInt(it, 0))
	dSame := cur.NewSelect(cur.NewICmp(enum.IPredUGE, ma, mx), cur.NewSub(ma, mx), cur.NewSub(mx, ma))
	d := cur.NewSelect(sameSign, dSame, cur.NewAdd(ma, mx))
	inf := floatConst(k, math.Inf(1))
	finite := cur.NewAnd(
		cur.NewFCmp(enum.FPredONE, b.intrinsic1("fabs", k, a), inf),
		cur.NewFCmp(enum.FPredONE, b.intrinsic1("fabs", k, x), inf))
	zeroOK := inRange(i64(0))
	nonFinite := cur.NewSelect(cur.NewICmp(enum.IPredEQ, ba, bx), zeroOK, constant.False)
	return cur.NewSelect(bothNaN(), zeroOK, cur.NewSelect(finite, inRange(d), nonFinite))
}

// reportMismatch writes the failure message for element i into err.
func (b *fb) reportMismatch(n *node, t ttype, errBuf, i, a, x value.Value) {
	esc := func(s string) string { return strings.ReplaceAll(s, "%", "%%") }
	var sb strings.Builder
	sb.WriteString("check failed: ")
	sb.WriteString(esc(n.check.label))
	if n.fn != "" {
		sb.WriteString(" in @" + esc(n.fn))
	}
	var args []value.Value
	if t.rank() > 0 {
		sb.WriteString(": at index [")
		st := strides(t.shape)
		for d := range t.shape {
			if d > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("%lld")
			v := b.cur.NewUDiv(i, i64(st[d]))
			args = append(args, b.cur.NewURem(v, i64(t.shape[d])))
		}
		sb.WriteString("] of " + t.String())
	}
	k := t.elem
	vf, vals := b.mismatchValues(k, a, x) // types_ext.go
	sb.WriteString(": actual " + vf + ", expected " + vf)
	args = append(args, vals...)
	switch n.check.mode {
	case checkAlmost:
		sb.WriteString(esc(fmt.Sprintf(" (tolerance %g)", n.check.tol)))
	case checkClose:
		sb.WriteString(fmt.Sprintf(" (ULP distance not in [%d, %d])", n.check.minULP, n.check.maxULP))
	}
	all := append([]value.Value{errBuf, i64(errSize), b.e.cstring(sb.String())}, args...)
	b.call(b.e.snprintf(), all...)
}
