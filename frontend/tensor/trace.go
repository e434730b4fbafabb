package tensor

import (
	"fmt"
	"sync/atomic"

	"github.com/stela-ml/stela/ir"
)

// traceSeq orders traces by creation. Nesting follows creation: a region
// (a while body, a case branch) is always traced after the trace that
// encloses it, and a gradient tape after the traces of the tensors it
// differentiates, so among the traces of an op's operands the newest is
// the innermost one, and the op records there.
var traceSeq atomic.Uint64

// traceKind is what a trace records for.
type traceKind uint8

const (
	// rootTrace records a program: jit's traced function.
	rootTrace traceKind = iota
	// regionTrace records the closure of While, Cond or Switch.
	regionTrace
	// tapeTrace records the ops of a function being differentiated and
	// also runs each one at the level below (tape.go).
	tapeTrace
)

// Tracer records the ops applied to its symbolic tensors into an ir.Func.
// jit makes a root tracer per traced function; While, Cond and Switch make
// region tracers for the closures they are given; jit's Grad, VJP and JVP
// make tapes (tape.go). A Tracer is not safe for use by several
// goroutines at once.
//
// Closures: a tensor that an op in the trace uses but that does not belong
// to it is captured as a new trailing parameter of the traced function.
// For a root trace that is a concrete tensor the function closes over: it
// becomes a parameter of the program, not a constant baked into it, and is
// listed by Captured so that callers can pass it in. A region trace or a
// tape captures concrete tensors and values of older traces alike; the op
// that owns a region passes them in as extra operands, and a tape reads
// them as constants of the function it differentiates.
type Tracer struct {
	fn       *ir.Func
	seq      uint64
	kind     traceKind
	done     bool
	declared int       // parameters made by Param, before any capture
	caps     []*Tensor // captured outer tensors, in parameter order
	capParam map[any]*ir.Value
	// primal is, for a tape, the tensor one level below that each value
	// of fn stands for: what the op computed when it ran there.
	primal map[*ir.Value]*Tensor
}

// NewTracer starts a root trace of a function with the given name.
func NewTracer(name string) *Tracer { return newTracer(name, rootTrace) }

func newTracer(name string, kind traceKind) *Tracer {
	tr := &Tracer{
		fn:       ir.NewFunc(name),
		seq:      traceSeq.Add(1),
		kind:     kind,
		capParam: map[any]*ir.Value{},
	}
	if kind == tapeTrace {
		tr.primal = map[*ir.Value]*Tensor{}
	}
	return tr
}

// Name is the traced function's name.
func (tr *Tracer) Name() string { return tr.fn.Name }

// Func returns the function being built.
func (tr *Tracer) Func() *ir.Func { return tr.fn }

// Captured lists the outer tensors captured so far, in the order of the
// trailing parameters they became.
func (tr *Tracer) Captured() []*Tensor { return append([]*Tensor{}, tr.caps...) }

// Done reports whether the trace is finished: its tensors may no longer be
// used in ops.
func (tr *Tracer) Done() bool { return tr.done }

// Param declares the next parameter and returns it as a symbolic tensor.
// All parameters must be declared before the first op runs, because
// captured tensors become the trailing parameters.
func (tr *Tracer) Param(t ir.Type, loc ir.Loc) *Tensor {
	if tr.done {
		panic(fmt.Sprintf("tensor: Param on finished trace @%s", tr.fn.Name))
	}
	if len(tr.caps) > 0 {
		panic(fmt.Sprintf("tensor: Param on trace @%s after it captured a tensor", tr.fn.Name))
	}
	v := tr.fn.AddParam(ir.Type{DType: t.DType, Shape: append([]int{}, t.Shape...)}, loc)
	tr.declared++
	return symbolic(tr, v)
}

// ParamLike is Param of t's type, weak when t is: a weak tensor (a Go
// number, see Scalar) passed to a traced function stays weak in the trace,
// so it still takes the element type of what it meets (with a convert op,
// since its value is not known when tracing).
func (tr *Tracer) ParamLike(t *Tensor, loc ir.Loc) *Tensor {
	p := tr.Param(t.typ, loc)
	p.setWeak(t.weakKind(), nil)
	return p
}

// Finish sets the function's results and ends the trace. Results that are
// not values of the trace (a concrete tensor, an input returned as is
// counts as a value) are captured like any operand. It returns the
// function and the concrete tensors captured as its trailing parameters.
func (tr *Tracer) Finish(results ...*Tensor) (*ir.Func, []*Tensor, error) {
	if tr.done {
		return nil, nil, fmt.Errorf("trace @%s: already finished", tr.fn.Name)
	}
	loc := ir.CallerLoc()
	err := Catch(func() { tr.setResults(loc, results) })
	tr.done = true
	if err != nil {
		return nil, nil, err
	}
	return tr.fn, tr.Captured(), nil
}

// Discard ends the trace without results, after a failure.
func (tr *Tracer) Discard() { tr.done = true }

func (tr *Tracer) setResults(loc ir.Loc, results []*Tensor) {
	vals := make([]*ir.Value, len(results))
	for i, r := range results {
		if r == nil {
			panic(ir.Errorf(loc, "return", "result #%d of @%s is nil", i, tr.fn.Name))
		}
		v, err := tr.valueOf(r, loc)
		if err != nil {
			panic(ir.Errorf(loc, "return", "result #%d: %v", i, err))
		}
		vals[i] = v
	}
	tr.fn.Return(vals...)
}

// valueOf returns the value that stands for t in this trace: t's own value,
// or the parameter that captures it.
func (tr *Tracer) valueOf(t *Tensor, loc ir.Loc) (*ir.Value, error) {
	if t.Tracer() == tr {
		return t.Value(), nil
	}
	if t.Tracer() != nil {
		if t.Tracer().done {
			return nil, fmt.Errorf("tensor %v belongs to trace @%s, which has finished (a traced tensor escaped its function)", t.typ, t.Tracer().Name())
		}
		if tr.kind == rootTrace {
			return nil, fmt.Errorf("tensor %v belongs to trace @%s, but this op records into trace @%s: tensors of two traces cannot be mixed", t.typ, t.Tracer().Name(), tr.Name())
		}
	}
	k := t.key()
	if p, ok := tr.capParam[k]; ok {
		return p, nil
	}
	p := tr.fn.AddParam(t.Type(), loc)
	tr.caps = append(tr.caps, t)
	tr.capParam[k] = p
	if tr.primal != nil {
		tr.primal[p] = t
	}
	return p, nil
}

// pickTracer chooses where an op records: the newest of the traces of its
// operands (and like's, for ops without operands), or nil to run eagerly
// when there is none. The trace travels with the tensors, as JAX's
// tracers carry their trace: nesting (a region inside a traced function,
// a gradient tape inside a jit trace) is the order in which traces were
// opened, never a property of the calling goroutine, so eager ops pay
// nothing for traces that other code has open. Operands of another root
// trace are an error that names both.
func pickTracer(like *Tensor, args []*Tensor) (*Tracer, error) {
	var best *Tracer
	// consider names the tensor (the reference tensor for i < 0) only when
	// it fails: this runs on every eager op.
	consider := func(t *Tensor, i int) error {
		if t == nil || t.sym == nil {
			return nil
		}
		tr := t.sym.tr
		if tr.done {
			what := "the reference tensor"
			if i >= 0 {
				what = fmt.Sprintf("operand #%d", i)
			}
			return fmt.Errorf("%s belongs to trace @%s, which has finished (a traced tensor escaped its function)", what, tr.Name())
		}
		if best == nil || tr.seq > best.seq {
			best = tr
		}
		return nil
	}
	if err := consider(like, -1); err != nil {
		return nil, err
	}
	for i, a := range args {
		if err := consider(a, i); err != nil {
			return nil, err
		}
	}
	if best == nil || best.kind != rootTrace {
		// A region or a tape captures what is not its own; enclosing
		// traces check the captured tensors when the region's op (or the
		// tape's lower-level op) records into them.
		return best, nil
	}
	for i, a := range args {
		if a.Tracer() != nil && a.Tracer() != best {
			j := firstOf(args, best)
			return nil, fmt.Errorf("operand #%d belongs to trace @%s and operand #%d to trace @%s: tensors of two traces cannot be mixed", i, a.Tracer().Name(), j, best.Name())
		}
	}
	return best, nil
}

func firstOf(args []*Tensor, tr *Tracer) int {
	for i, a := range args {
		if a.Tracer() == tr {
			return i
		}
	}
	return -1
}
