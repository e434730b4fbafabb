package tensor

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
)

// The current trace of a goroutine. While a traced function or a region's
// closure runs, its trace is current on that goroutine: every op the
// goroutine runs records there, even one whose operands all come from
// enclosing traces or are concrete. Without it, an op in a Cond branch
// that uses only outer tensors would be recorded outside the branch and
// computed whichever branch is taken. This is JAX's dynamic trace
// context; Go has no goroutine-local storage, so the stacks are kept in a
// map keyed by goroutine id, consulted only while some trace is current.
var (
	openTraces atomic.Int64
	stacks     sync.Map // goroutine id → *[]*Tracer
)

// Within runs fn with tr as the current trace of the calling goroutine:
// ops that fn runs record into tr, whatever their operands (operands of
// other traces are captured, or rejected for a root trace). jit uses it
// for the traced function; While, Cond and Switch for their closures.
func (tr *Tracer) Within(fn func()) {
	if tr.done {
		panic("tensor: Within on finished trace @" + tr.fn.Name)
	}
	id := goid()
	v, _ := stacks.LoadOrStore(id, &[]*Tracer{})
	st := v.(*[]*Tracer)
	*st = append(*st, tr)
	openTraces.Add(1)
	defer func() {
		openTraces.Add(-1)
		*st = (*st)[:len(*st)-1]
		if len(*st) == 0 {
			stacks.Delete(id)
		}
	}()
	fn()
}

// currentTracer returns the calling goroutine's current trace, or nil.
func currentTracer() *Tracer {
	if openTraces.Load() == 0 {
		return nil
	}
	v, ok := stacks.Load(goid())
	if !ok {
		return nil
	}
	st := *v.(*[]*Tracer)
	if len(st) == 0 {
		return nil
	}
	return st[len(st)-1]
}

// goid parses the calling goroutine's id from the header of its stack
// trace ("goroutine 42 [running]:").
func goid() uint64 {
	var buf [40]byte
	n := goruntime.Stack(buf[:], false)
	var id uint64
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
