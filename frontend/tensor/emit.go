package tensor

import (
	binenc "encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// emit is the one place where op functions make instructions. It records
// the user's call site, picks where the op goes (the newest trace among the
// operands, else eager), and either appends the instruction to that trace
// or builds a one-op function of it and runs it where Placement says (the
// committed operands' device, copying the uncommitted ones there): eager
// execution is a graph of one op, on the same path as a traced program.
// like, which may be nil, places ops without operands (constants, iota) in
// the trace or on the device of that tensor.
//
// Failures panic with a located *ir.Error; Catch and jit turn them into
// errors.
func emit(like *Tensor, op ir.Op, args []*Tensor, attr any, regions ...*ir.Func) []*Tensor {
	return emitTo(nil, like, op, args, attr, regions...)
}

// emit1 is emit for an op with one result, operands, and no regions
// (the elementwise ops): a cached eager op then makes no slices.
func emit1(op ir.Op, args []*Tensor, attr any) *Tensor {
	var out [1]*Tensor
	return emitTo(out[:0], nil, op, args, attr)[0]
}

// emitTo is emit appending the results to dst.
func emitTo(dst []*Tensor, like *Tensor, op ir.Op, args []*Tensor, attr any, regions ...*ir.Func) []*Tensor {
	return emitAt(dst, like, ir.Loc{}, op, args, attr, regions...)
}

// emitAt is emitTo at a known location: the op's user call site, which an
// unknown loc asks emitAt to find (ir.CallerLoc) when it needs it. Ops a
// gradient tape runs at the level below, and instructions Apply runs,
// come with the location of the user call they stand for.
func emitAt(dst []*Tensor, like *Tensor, loc ir.Loc, op ir.Op, args []*Tensor, attr any, regions ...*ir.Func) []*Tensor {
	here := func() ir.Loc {
		if loc.IsKnown() {
			return loc
		}
		return ir.CallerLoc()
	}
	for i, a := range args {
		if a == nil {
			panic(ir.Errorf(here(), op.String(), "operand #%d is nil", i))
		}
	}
	tr, err := pickTracer(like, args)
	if err != nil {
		panic(ir.Errorf(here(), op.String(), "%v", err))
	}
	if tr != nil {
		if tr.kind == tapeTrace {
			// A slice of its own: dst passed down would escape (the tape
			// calls back into emitAt), and cost every eager op an
			// allocation.
			return append(dst, tr.recordTape(like, here(), op, args, attr, regions)...)
		}
		outs := record(tr, here(), op, args, attr, regions)
		for _, v := range outs {
			dst = append(dst, symbolic(tr, v))
		}
		return dst
	}
	if op == ir.OpConstant {
		// A constant made eagerly is a buffer where like is, no program.
		return append(dst, put(like, attr.(ir.ConstantAttr).Value.Clone()))
	}
	dev, committed, args, err := eagerPlace(like, args)
	if err != nil {
		panic(ir.Errorf(here(), op.String(), "%v", err))
	}
	if eagerMode.Load() != int32(EagerPlain) || eagerEnvErr != nil {
		if eagerEnvErr != nil {
			panic(ir.Errorf(here(), op.String(), "%v", eagerEnvErr))
		}
		// Custom calls run at once: their targets are opaque, and one
		// that does not compile fails at its own line. While and Case are
		// control flow; other ops with regions (a reduction's body, a
		// sort's comparator) record like any op.
		if op != ir.OpCustomCall && op != ir.OpWhile && op != ir.OpCase && !debugNaNs() {
			var ok bool
			if dst, ok = fusedRecord(dst, dev, loc, op, args, attr, regions, committed); ok {
				return dst
			}
		}
		// A control-flow boundary, or an op that runs at once: the
		// window runs first, in program order.
		fusedFlushAll()
	}
	if r, ok := dev.(runtime.OpRunner); ok && len(regions) == 0 {
		// The eager fast path finds the call site only if something fails:
		// unwinding the stack would cost more than a cached dispatch.
		n := len(dst)
		dst = eagerFast(dst, dev, r, loc, op, args, attr, committed)
		if debugNaNs() {
			checkNaNs(here(), op, args, dst[n:])
		}
		return dst
	}
	loc = here()
	name := op.String()
	g := newTracer(name, rootTrace)
	outs := record(g, loc, op, args, attr, regions)
	g.fn.Return(outs...)
	g.done = true
	bufs := make([]Buffer, len(g.caps))
	for i, c := range g.caps {
		bufs[i] = c.dbuf()
	}
	rs, err := dev.Run(g.fn, bufs)
	if err != nil {
		if de := donatedOperand(name, args); de != nil {
			panic(de)
		}
		panic(located(err, loc, name))
	}
	if len(rs) != len(outs) {
		panic(ir.Errorf(loc, name, "internal error: device %s returned %d results, want %d", dev.Name(), len(rs), len(outs)))
	}
	n := len(dst)
	for i, b := range rs {
		if !b.Type().Equal(outs[i].Type) {
			panic(ir.Errorf(loc, name, "internal error: device %s returned %v for result #%d, want %v", dev.Name(), b.Type(), i, outs[i].Type))
		}
		dst = append(dst, FromResult(b, committed))
	}
	if debugNaNs() {
		checkNaNs(loc, op, args, dst[n:])
	}
	return dst
}

// eagerFast dispatches an eager op through the device's one-op program
// cache: the key (op, attributes, operand types) is all a cache hit costs;
// the one-op function is built only on a miss. The operands are the
// function's parameters in order, so the cached program fits any call
// with the same key.
func eagerFast(dst []*Tensor, dev Device, r runtime.OpRunner, loc ir.Loc, op ir.Op, args []*Tensor, attr any, committed bool) []*Tensor {
	var kb [128]byte
	key := appendOpKey(kb[:0], op, attr, args)
	var bufArr [4]Buffer
	bufs := bufArr[:0]
	for _, a := range args {
		bufs = append(bufs, deviceBuffer(a.buf))
	}
	var rsArr [2]Buffer
	// A zero location asks the device to find the call site itself if the
	// op fails (it is still on this stack then).
	rs, found, err := runtime.RunOp(dev, key, bufs, loc, rsArr[:0])
	if err == nil && !found {
		var f *ir.Func
		floc := loc
		if !floc.IsKnown() {
			floc = ir.CallerLoc()
		}
		if f, err = oneOpFunc(floc, op, typesOf(args), attr); err == nil {
			// A copy: what an interface method is given escapes, and key
			// should stay on the stack on the path that hits the cache.
			if err = r.AddOp(slices.Clone(key), f); err == nil {
				rs, found, err = runtime.RunOp(dev, key, bufs, loc, rsArr[:0])
			}
		}
		if err == nil && !found {
			err = fmt.Errorf("internal error: device lost the program it compiled")
		}
	}
	if err != nil {
		if de := donatedOperand(op.String(), args); de != nil {
			panic(de)
		}
		if !loc.IsKnown() {
			loc = ir.CallerLoc()
		}
		panic(located(err, loc, op.String()))
	}
	for _, b := range rs {
		dst = append(dst, FromResult(b, committed))
	}
	return dst
}

// oneOpFunc is op as a function of its operands, one parameter of each
// type in order.
func oneOpFunc(loc ir.Loc, op ir.Op, types []ir.Type, attr any, regions ...*ir.Func) (*ir.Func, error) {
	f := ir.NewFunc(op.String())
	vals := make([]*ir.Value, len(types))
	for i, t := range types {
		vals[i] = f.AddParam(t, loc)
	}
	outs, err := f.Emit(loc, op, vals, attr, regions...)
	if err != nil {
		return nil, err
	}
	f.Return(outs...)
	return f, nil
}

// appendOpKey encodes what determines a one-op program: the op, its
// attributes and the operand types.
func appendOpKey(key []byte, op ir.Op, attr any, args []*Tensor) []byte {
	key = append(key, byte(op), byte(op>>8), byte(len(args)))
	for _, a := range args {
		key = append(key, byte(a.typ.DType), byte(len(a.typ.Shape)))
		for _, d := range a.typ.Shape {
			key = binenc.AppendUvarint(key, uint64(d))
		}
	}
	if attr != nil {
		key = fmt.Appendf(key, "%+v", attr)
	}
	return key
}

// record appends one instruction to tr's function; operands that are not
// values of tr are captured as parameters.
func record(tr *Tracer, loc ir.Loc, op ir.Op, args []*Tensor, attr any, regions []*ir.Func) []*ir.Value {
	vals := make([]*ir.Value, len(args))
	for i, a := range args {
		v, err := tr.valueOf(a, loc)
		if err != nil {
			panic(ir.Errorf(loc, op.String(), "operand #%d: %v", i, err))
		}
		vals[i] = v
	}
	outs, err := tr.fn.Emit(loc, op, vals, attr, regions...)
	if err != nil {
		panic(located(err, loc, op.String()))
	}
	return outs
}

// located returns err as a located error: itself if it is one, else a new
// one at loc.
func located(err error, loc ir.Loc, op string) *ir.Error {
	var e *ir.Error
	if errors.As(err, &e) {
		return e
	}
	return ir.Errorf(loc, op, "%v", err)
}

// fail makes a located error at the user's call site, for checks that op
// functions make before emitting.
func fail(op, format string, args ...any) *ir.Error {
	return ir.Errorf(ir.CallerLoc(), op, format, args...)
}

// Catch runs fn and returns the located error that an op inside it
// panicked with (*ir.Error or ir.ErrorList), or nil. Other panics go on.
func Catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *ir.Error:
				err = e
			case ir.ErrorList:
				err = e
			default:
				panic(r)
			}
		}
	}()
	fn()
	return nil
}

// Run executes a whole function on concrete tensors and returns its
// results. It runs where Placement says (the committed arguments' device,
// else the arguments' common device, else the default device), copying
// arguments that are elsewhere; the results are committed when an argument
// was. This is what a traced function's compiled form does.
func Run(f *ir.Func, args ...*Tensor) ([]*Tensor, error) {
	if len(args) != len(f.Params) {
		return nil, fmt.Errorf("run @%s: %d arguments, want %d", f.Name, len(args), len(f.Params))
	}
	for i, a := range args {
		if a == nil {
			return nil, fmt.Errorf("run @%s: argument #%d is nil", f.Name, i)
		}
		if a.buf == nil {
			return nil, fmt.Errorf("run @%s: argument #%d is traced in @%s; Run needs concrete tensors", f.Name, i, a.Tracer().Name())
		}
		if !a.typ.Equal(f.Params[i].Type) {
			return nil, fmt.Errorf("run @%s: argument #%d has type %v, want %v", f.Name, i, a.typ, f.Params[i].Type)
		}
	}
	name := func(i int) string { return fmt.Sprintf("argument #%d", i) }
	dev, committed, err := Placement(args, name)
	if err != nil {
		return nil, fmt.Errorf("run @%s: %v", f.Name, err)
	}
	moved, err := MoveTo(args, dev, name)
	if err != nil {
		return nil, fmt.Errorf("run @%s: %v", f.Name, err)
	}
	bufs := make([]Buffer, len(moved))
	for i, a := range moved {
		bufs[i] = a.buf
	}
	rs, err := dev.Run(f, bufs)
	if err != nil {
		return nil, err
	}
	out := make([]*Tensor, len(rs))
	for i, b := range rs {
		out[i] = FromResult(b, committed)
	}
	return out, nil
}

// Emit applies one op of the op table to args, as the op functions do:
// recorded into the newest trace among them, or run eagerly on their
// device. It is for packages that add ops of their own (sharding's
// constraints and collectives); errors panic as the op functions' do.
func Emit(op ir.Op, attr any, args []*Tensor, regions ...*ir.Func) []*Tensor {
	var like *Tensor
	if len(args) > 0 {
		like = args[0]
	}
	return emitAt(nil, like, ir.CallerLoc(), op, args, attr, regions...)
}
