package tensor

import (
	binenc "encoding/binary"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/runtime"
)

// Fused eager mode (docs/runtime.md, "Fused eager mode"). In plain eager
// mode every op on concrete tensors runs at once, as a one-op program. In
// fused mode (STELA_EAGER=fused, or SetEagerMode(EagerFused)) an op on
// concrete tensors is recorded into a short lazy window instead, and its
// results are concrete tensors whose buffer (a *lazyBuf) is filled in
// when the window is flushed: at a host read of one of them (Literal,
// Float32s, Err, String, ...), when the window holds fusedMaxOps ops or
// fusedMaxBytes bytes of results, at a control-flow boundary (an op with
// regions: While, Cond, Switch; a jit-compiled function's call, which
// reads its arguments' buffers), when an input of the window is freed,
// when an op runs on another device, at Flush, and when fused mode is
// turned off. A flush compiles the window as one program through the
// default passes (fusion included) and the device's compiler, cached by
// the window's program: the ops, their attributes, operand types and
// which operand is which value, and which values are results. A loop that
// records the same window every iteration compiles it once.
//
// The window's results are its values that no later op of the window
// uses (its leaves), plus the value being read. An intermediate value
// that is read later (a tensor held across the flush and used again) is
// computed then by a program of its own from the window's inputs, which
// the window keeps while such a tensor lives; the numbers are the same,
// since both programs compute the same ops.
//
// Semantics stay eager: each op's result type is inferred and checked as
// it is recorded, so a shape or type error panics at the op's own Go
// line, as in plain mode. Errors that only the execution finds (a failed
// allocation, a check op) surface at the host read that flushed the
// window, naming the op in the window program; in plain mode they name
// the op's Go line (recording that line costs more than a fused op).

// EagerMode is how ops on concrete tensors run: EagerPlain, each at once;
// EagerFused, recorded and run in fused windows.
type EagerMode int32

const (
	// EagerPlain runs each eager op at once, as a one-op program.
	EagerPlain EagerMode = iota
	// EagerFused records eager ops into a lazy window that runs as one
	// compiled program.
	EagerFused
)

func (m EagerMode) String() string {
	switch m {
	case EagerPlain:
		return "plain"
	case EagerFused:
		return "fused"
	}
	return fmt.Sprintf("EagerMode(%d)", int32(m))
}

// EagerEnv is the environment variable that sets the initial eager mode:
// "plain" (or unset) or "fused".
const EagerEnv = "STELA_EAGER"

var (
	eagerMode atomic.Int32
	// eagerEnvErr is a bad $STELA_EAGER, which every eager op panics with
	// (never guessed at, as internal/env's switches).
	eagerEnvErr error
)

func init() {
	switch v := os.Getenv(EagerEnv); v {
	case "", "plain":
	case "fused":
		eagerMode.Store(int32(EagerFused))
	default:
		eagerEnvErr = fmt.Errorf("%s=%q: want plain or fused", EagerEnv, v)
	}
}

// SetEagerMode sets the eager mode for the whole process and returns the
// previous one. Leaving fused mode flushes the open window.
func SetEagerMode(m EagerMode) EagerMode {
	if m != EagerPlain && m != EagerFused {
		panic(fmt.Sprintf("tensor.SetEagerMode: unknown mode %d", int32(m)))
	}
	old := EagerMode(eagerMode.Swap(int32(m)))
	if old == EagerFused && m != EagerFused {
		Flush()
	}
	return old
}

// CurrentEagerMode returns the eager mode.
func CurrentEagerMode() EagerMode { return EagerMode(eagerMode.Load()) }

// WithEagerMode runs fn in eager mode m and restores the previous mode
// after it, flushing the window if that leaves fused mode.
func WithEagerMode(m EagerMode, fn func()) {
	old := SetEagerMode(m)
	defer SetEagerMode(old)
	fn()
}

// Flush runs the open fused window, if any: its results are computed (or
// being computed, asynchronously) when Flush returns.
func Flush() {
	fusedMu.Lock()
	defer fusedMu.Unlock()
	if fusedCur != nil {
		fusedCur.flush(-1)
	}
}

// FusedStats counts fused eager mode's work, for tests and benchmarks.
type FusedStats struct {
	Ops      int64 // ops recorded
	Windows  int64 // windows run (flushes with at least one op)
	Compiles int64 // window programs compiled: cache misses
	Hits     int64 // windows whose program was in the cache
	Reruns   int64 // programs run for an intermediate value read after its window
}

// FusedEagerStats returns the counts since the process started.
func FusedEagerStats() FusedStats {
	fusedMu.Lock()
	defer fusedMu.Unlock()
	return fusedStats
}

// The window limits: a window is flushed when it has this many ops, or
// its results this many bytes.
const (
	fusedMaxOps   = 1024
	fusedMaxBytes = 1 << 30
)

var (
	// fusedMu guards the open window, every window's state, the lazy
	// buffers' windows, the caches and the stats.
	fusedMu  sync.Mutex
	fusedCur *fusedWindow
	// fusedOpen is fusedCur != nil, for the checks made without fusedMu.
	fusedOpen  atomic.Bool
	fusedStats FusedStats
	// fusedTypes caches the result types of an op by its one-op key
	// (appendOpKey): recording checks types without building IR.
	fusedTypes = map[string][]ir.Type{}
	// fusedProgs caches the compiled windows by window key.
	fusedProgs = map[string]*fusedProg{}
	// fusedKept lists, for each device buffer, the windows that ran on it
	// and have intermediate values (weakly: a window lives as long as one
	// of its intermediates does); fusedKeptN is its size, for Free's
	// check without fusedMu.
	fusedKept  = map[Buffer][]weak.Pointer[fusedWindow]{}
	fusedKeptN atomic.Int64
)

// fusedSizes is how large a window's slices grew; fusedLast is the last
// window's, which a new window starts with.
type fusedSizes struct{ ops, vals, key, args int }

var fusedLast = fusedSizes{ops: 64, vals: 64, key: 256, args: 128}

// fusedMaxProgs bounds fusedProgs (when full it starts again).
const fusedMaxProgs = 512

// fusedOp is one recorded op. args are value refs: i >= 0 is the window's
// value i, ^p the window's parameter p.
//
// A fusedOp, as a fusedValue, holds no pointers (its attributes and
// regions are in side slices of the window), so that the collector need
// not scan a window's records.
type fusedOp struct {
	op ir.Op
	// args are w.args[arg:arg+nargs]; attr, the attributes, are
	// w.attrs[attr] if attr >= 0; regions, a reduction's or sort's
	// bodies (closed functions), are w.regions[reg] if reg >= 0.
	arg, nargs int32
	attr       int32
	reg        int32
	first      int32 // its first result's value index
	nres       int32
}

type fusedValue struct {
	uses int32 // ops of the window that use it
	// chunk and slot locate a small result's tensor in the window's
	// chunks; a large one, allocated alone, has chunk -1 and is the
	// window's large[slot] (largeWeak[slot] once the window ran).
	chunk int32
	slot  int32
	freed bool // freed before the flush: not a result
}

// Small results (up to fusedSlabBytes of data) are allocated in chunks of
// a window, fusedChunkMin to fusedChunkMax results each: an op then makes
// no allocation of its own. A window knows its chunks weakly once it has
// run, one weak pointer a chunk, and not each intermediate value (a weak
// pointer a value cost more than the rest of recording an op): freeing an
// input of the window computes every uncomputed intermediate of a chunk
// that is still alive. A large result has a weak pointer of its own, so
// that only the live ones are computed then.
const (
	fusedSlabBytes = 4096
	fusedChunkMin  = 8
	fusedChunkMax  = 128
)

// fusedChunk is a chunk of a window that ran: a weak pointer to its first
// result, and its length.
type fusedChunk struct {
	first weak.Pointer[fusedResult]
	n     int32
}

// results returns the chunk's results, or nil once it was collected.
func (c fusedChunk) results() []fusedResult {
	p := c.first.Value()
	if p == nil {
		return nil
	}
	return unsafe.Slice(p, c.n)
}

// fusedWindow is one window of recorded ops on one device.
type fusedWindow struct {
	dev     Device
	ops     []fusedOp
	vals    []fusedValue
	params  []Buffer         // the concrete inputs, in parameter order
	paramOf map[Buffer]int32 // params' indexes, once there are many
	key     []byte           // the ops' part of the program key
	bytes   int64
	args    []int32 // the ops' operands (fusedOp.arg)
	attrs   []any
	regions [][]*ir.Func
	// chunk is the chunk that small results are allocated from, and
	// chunks all of them, until the window runs; weak its chunks after.
	chunk  []fusedResult
	chunks [][]fusedResult
	weak   []fusedChunk
	// large are the results allocated alone, until the window runs;
	// largeWeak the intermediate ones after.
	large     []*fusedResult
	largeWeak []weak.Pointer[lazyBuf]
	done      bool
}

// lazyOf returns value i's lazy buffer, before the window runs.
func (w *fusedWindow) lazyOf(i int32) *lazyBuf {
	v := w.vals[i]
	if v.chunk < 0 {
		return &w.large[v.slot].lb
	}
	return &w.chunks[v.chunk][v.slot].lb
}

// fusedParamMap is how many parameters a window finds by a linear search
// before it makes a map of them.
const fusedParamMap = 8

// param returns b's parameter index, adding it as a parameter if new.
func (w *fusedWindow) param(b Buffer) int32 {
	if w.paramOf == nil {
		for i, p := range w.params {
			if p == b {
				return int32(i)
			}
		}
		w.params = append(w.params, b)
		if len(w.params) > fusedParamMap {
			w.paramOf = make(map[Buffer]int32, 2*len(w.params))
			for i, p := range w.params {
				w.paramOf[p] = int32(i)
			}
		}
		return int32(len(w.params) - 1)
	}
	p, seen := w.paramOf[b]
	if !seen {
		p = int32(len(w.params))
		w.params = append(w.params, b)
		w.paramOf[b] = p
	}
	return p
}

// hasParam reports whether b is one of the window's parameters.
func (w *fusedWindow) hasParam(b Buffer) bool {
	if w.paramOf != nil {
		_, ok := w.paramOf[b]
		return ok
	}
	return slices.Contains(w.params, b)
}

// newResult returns a fresh result of n bytes (if sized): from the
// window's chunk when it is small.
func (w *fusedWindow) newResult(n int64, sized bool) (*fusedResult, int32, int32) {
	if !sized || n > fusedSlabBytes {
		r := &fusedResult{}
		w.large = append(w.large, r)
		return r, -1, int32(len(w.large) - 1)
	}
	if len(w.chunk) == cap(w.chunk) {
		size := fusedChunkMin
		if len(w.chunks) > 0 {
			size = min(2*cap(w.chunks[len(w.chunks)-1]), fusedChunkMax)
		}
		w.chunk = make([]fusedResult, 0, size)
		w.chunks = append(w.chunks, w.chunk)
	}
	slot := int32(len(w.chunk))
	w.chunk = w.chunk[:slot+1]
	w.chunks[len(w.chunks)-1] = w.chunk
	return &w.chunk[slot], int32(len(w.chunks) - 1), slot
}

// fusedProg is a compiled window program.
type fusedProg struct {
	exe runtime.Executable // nil on a device that does not compile
	fn  *ir.Func           // the program, for such a device's Run
	err error
}

// lazyBuf is the buffer of a fused op's result. Its window and value
// index are read and written under fusedMu; done, once set, holds the
// buffer (or why there is none). It is always the lb of a fusedResult,
// whose tensor has its type.
type lazyBuf struct {
	dev   Device
	w     *fusedWindow // nil once done
	idx   int32
	done  atomic.Pointer[lazyResult]
	freed atomic.Bool
}

// fusedResult is a fused op's result tensor and its buffer, allocated
// together.
type fusedResult struct {
	t  Tensor
	lb lazyBuf
}

type lazyResult struct {
	b   Buffer
	err error
}

// Type is the type of the tensor lb is the buffer of.
func (lb *lazyBuf) Type() ir.Type {
	r := (*fusedResult)(unsafe.Add(unsafe.Pointer(lb), -int(unsafe.Offsetof(fusedResult{}.lb))))
	return r.t.typ
}
func (lb *lazyBuf) Device() Device { return lb.dev }

func (lb *lazyBuf) Literal() (*ir.Literal, error) {
	b, err := lb.sync()
	if err != nil {
		return nil, err
	}
	return b.Literal()
}

// Err waits for the buffer's computation (running its window first) and
// returns its error.
func (lb *lazyBuf) Err() error {
	b, err := lb.sync()
	if err != nil {
		return err
	}
	if e, ok := b.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

func (lb *lazyBuf) Free() {
	if lb.freed.Swap(true) {
		return
	}
	if r := lb.done.Load(); r != nil {
		if f, ok := r.b.(runtime.Freer); ok {
			f.Free()
		}
		return
	}
	fusedMu.Lock()
	defer fusedMu.Unlock()
	if r := lb.done.Load(); r != nil {
		if f, ok := r.b.(runtime.Freer); ok {
			f.Free()
		}
		return
	}
	if w := lb.w; w != nil && !w.done {
		w.vals[lb.idx].freed = true
	}
}

func (lb *lazyBuf) Freed() bool {
	if lb.freed.Load() {
		return true
	}
	if r := lb.done.Load(); r != nil {
		f, ok := r.b.(runtime.Freer)
		return ok && f.Freed()
	}
	return false
}

// materialized returns the device buffer if the window has run, else nil.
func (lb *lazyBuf) materialized() Buffer {
	if r := lb.done.Load(); r != nil {
		return r.b
	}
	return nil
}

// sync returns the device buffer, running the window (or, for an
// intermediate value of a window that ran, a program of its own) first.
func (lb *lazyBuf) sync() (Buffer, error) {
	if r := lb.done.Load(); r != nil {
		return r.b, r.err
	}
	if lb.freed.Load() {
		return nil, fmt.Errorf("tensor %v was freed", lb.Type())
	}
	fusedMu.Lock()
	defer fusedMu.Unlock()
	if r := lb.done.Load(); r == nil {
		w := lb.w
		if !w.done {
			w.flush(lb.idx)
		} else {
			lb.rerun()
		}
	}
	r := lb.done.Load()
	return r.b, r.err
}

// rerun computes an intermediate value of a window that has run: the
// window's program with this value as its one result.
func (lb *lazyBuf) rerun() {
	w := lb.w
	fusedStats.Reruns++
	rs, err := w.run([]int32{lb.idx})
	var b Buffer
	if err == nil {
		b = rs[0]
	}
	lb.done.Store(&lazyResult{b: b, err: err})
	lb.w = nil
}

// deviceBuffer returns the device buffer of a concrete tensor's buffer b:
// b itself, or a lazy buffer's after its window runs. It panics with the
// window's located error.
func deviceBuffer(b Buffer) Buffer {
	lb, ok := b.(*lazyBuf)
	if !ok {
		return b
	}
	d, err := lb.sync()
	if err != nil {
		panic(located(err, ir.CallerLoc(), "fused eager"))
	}
	return d
}

// dbuf is deviceBuffer of t's buffer: what a device runs on.
func (t *Tensor) dbuf() Buffer { return deviceBuffer(t.buf) }

// fusedFlushAll flushes the open window, for a control-flow boundary.
func fusedFlushAll() {
	if fusedOpen.Load() {
		Flush()
	}
}

// fusedFlushFor flushes the open window if it reads b, which is about to
// be freed or given away.
func fusedFlushFor(b Buffer) {
	fusedMu.Lock()
	defer fusedMu.Unlock()
	if w := fusedCur; w != nil {
		if w.hasParam(b) {
			w.flush(-1)
		}
	}
}

// fusedMaxConstant is the most elements of a constant a window holds in
// its program.
const fusedMaxConstant = 64

// fusedConstant records the constant l, made where x is, into the window,
// or returns nil for a constant too large to be part of the program.
func fusedConstant(x *Tensor, l *ir.Literal) *Tensor {
	if l.Type.NumElements() > fusedMaxConstant {
		return nil
	}
	var kb [64]byte
	key := append(kb[:0], 'C', byte(l.Type.DType), byte(len(l.Type.Shape)))
	for _, d := range l.Type.Shape {
		key = binenc.AppendUvarint(key, uint64(d))
	}
	key = append(key, l.Bytes()...)
	var out [1]*Tensor
	r, ok := fusedRecordKey(out[:0], x.buf.Device(), ir.Loc{}, ir.OpConstant, nil, ir.ConstantAttr{Value: l}, nil, x.Committed(), key)
	if !ok {
		return nil
	}
	return r[0]
}

// fusedRecord records op into the open window (opening one on dev) and
// appends its results, lazy tensors, to dst. ok is false when the op
// cannot be recorded (a sharded operand): the caller runs it at once.
func fusedRecord(dst []*Tensor, dev Device, loc ir.Loc, op ir.Op, args []*Tensor, attr any, regions []*ir.Func, committed bool) (_ []*Tensor, ok bool) {
	for _, a := range args {
		if _, sharded := a.buf.(runtime.ShardedBuffer); sharded {
			return dst, false
		}
	}
	var kb [128]byte
	okey := appendOpKey(kb[:0], op, attr, args)
	return fusedRecordKey(dst, dev, loc, op, args, attr, regions, committed, okey)
}

// fusedRecordKey is fusedRecord with the op's key (appendOpKey, or a
// constant's) made.
func fusedRecordKey(dst []*Tensor, dev Device, loc ir.Loc, op ir.Op, args []*Tensor, attr any, regions []*ir.Func, committed bool, okey []byte) (_ []*Tensor, ok bool) {
	for _, r := range regions {
		// A body is made anew by each call (Sum's add, say): its text,
		// not its identity, is what the program depends on.
		var b strings.Builder
		ir.Print(&b, r, ir.PrintOptions{StableNames: true})
		okey = append(append(okey, 0xfe), b.String()...)
	}
	fusedMu.Lock()
	types, known := fusedTypes[string(okey)]
	if !known {
		fusedMu.Unlock()
		// A miss: infer the result types (checking the operands) with
		// the user's frame on the stack, as plain mode's miss does.
		if !loc.IsKnown() {
			loc = ir.CallerLoc()
		}
		f, err := oneOpFunc(loc, op, typesOf(args), attr, regions...)
		if err != nil {
			if de := donatedOperand(op.String(), args); de != nil {
				panic(de)
			}
			panic(located(err, loc, op.String()))
		}
		types = make([]ir.Type, len(f.Results))
		for i, r := range f.Results {
			types[i] = r.Type
		}
		fusedMu.Lock()
		fusedTypes[string(okey)] = types
	}
	defer fusedMu.Unlock()
	w := fusedCur
	if w != nil && w.dev != dev {
		w.flush(-1)
		w = nil
	}
	if w == nil {
		// Sized as the last window was: a loop records the same window
		// again and again.
		w = &fusedWindow{
			dev:  dev,
			ops:  make([]fusedOp, 0, fusedLast.ops),
			vals: make([]fusedValue, 0, fusedLast.vals),
			key:  make([]byte, 0, fusedLast.key),
			args: make([]int32, 0, fusedLast.args),
		}
		fusedCur = w
		fusedOpen.Store(true)
	}
	w.key = append(w.key, okey...)
	arg := int32(len(w.args))
	for i, a := range args {
		ref := int32(-1)
		if lb, isLazy := a.buf.(*lazyBuf); isLazy && lb.w == w {
			ref = lb.idx
			w.vals[ref].uses++
		} else {
			b := a.buf
			if isLazy {
				// A value of a window that ran: its buffer, computed now
				// if it was an intermediate there.
				if lb.freed.Load() {
					panic(ir.Errorf(loc, op.String(), "operand #%d: tensor %v was freed", i, a.typ))
				}
				if lb.done.Load() == nil {
					lb.rerun()
				}
				r := lb.done.Load()
				if r.err != nil {
					panic(located(r.err, loc, op.String()))
				}
				b = r.b
			}
			ref = ^w.param(b)
		}
		w.args = append(w.args, ref)
		w.key = binenc.AppendVarint(w.key, int64(ref))
	}
	first := int32(len(w.vals))
	reg := int32(-1)
	if len(regions) > 0 {
		reg = int32(len(w.regions))
		w.regions = append(w.regions, regions)
	}
	ai := int32(-1)
	if attr != nil {
		ai = int32(len(w.attrs))
		w.attrs = append(w.attrs, attr)
	}
	w.ops = append(w.ops, fusedOp{op: op, attr: ai, arg: arg, nargs: int32(len(args)), reg: reg, first: first, nres: int32(len(types))})
	meta := commitment(committed)
	for i, t := range types {
		// The tensor and its buffer are one allocation, or a slot of a
		// chunk.
		n, sized := t.ByteSize()
		idx := first + int32(i)
		r, chunk, slot := w.newResult(n, sized)
		r.lb = lazyBuf{dev: dev, w: w, idx: idx}
		lb := &r.lb
		r.t = Tensor{typ: t, buf: lb, meta: meta}
		w.vals = append(w.vals, fusedValue{chunk: chunk, slot: slot})
		if sized {
			w.bytes += n
		}
		dst = append(dst, &r.t)
	}
	fusedStats.Ops++
	if len(w.ops) >= fusedMaxOps || w.bytes >= fusedMaxBytes {
		w.flush(-1)
	}
	return dst, true
}

// flush runs the window: its leaves, and the value want if >= 0, become
// its results. Called with fusedMu held.
func (w *fusedWindow) flush(want int32) {
	if fusedCur == w {
		fusedCur = nil
		fusedOpen.Store(false)
	}
	w.done = true
	fusedLast = fusedSizes{ops: len(w.ops), vals: len(w.vals), key: len(w.key), args: len(w.args)}
	var outs []int32
	for i, v := range w.vals {
		if (v.uses == 0 && !v.freed) || int32(i) == want {
			outs = append(outs, int32(i))
		}
	}
	if len(w.ops) > 0 {
		fusedStats.Windows++
	}
	rs, err := w.run(outs)
	for k, i := range outs {
		lb := w.lazyOf(i)
		r := &lazyResult{err: err}
		if err == nil {
			r.b = rs[k]
		}
		lb.done.Store(r)
		lb.w = nil
	}
	// The window no longer needs its lazy buffers; the intermediate ones
	// that live on keep it (and its inputs) for rerun. It knows them
	// weakly, so that freeing one of its inputs can compute them first.
	inter := false
	for i, v := range w.vals {
		if lb := w.lazyOf(int32(i)); lb.done.Load() == nil {
			if v.chunk < 0 {
				if w.largeWeak == nil {
					w.largeWeak = make([]weak.Pointer[lazyBuf], len(w.large))
				}
				w.largeWeak[v.slot] = weak.Make(lb)
			}
			inter = true
		}
	}
	if inter {
		w.weak = make([]fusedChunk, len(w.chunks))
		for i, c := range w.chunks {
			w.weak[i] = fusedChunk{first: weak.Make(&c[0]), n: int32(len(c))}
		}
	}
	w.chunks, w.chunk, w.large = nil, nil, nil
	if inter && len(w.params) > 0 {
		wp := weak.Make(w)
		for _, p := range w.params {
			fusedKept[p] = append(fusedKept[p], wp)
		}
		fusedKeptN.Store(int64(len(fusedKept)))
		goruntime.AddCleanup(w, fusedForget, w.params)
	}
}

// fusedForget drops a collected window's entries from fusedKept.
func fusedForget(params []Buffer) {
	fusedMu.Lock()
	defer fusedMu.Unlock()
	for _, p := range params {
		ws := slices.DeleteFunc(fusedKept[p], func(wp weak.Pointer[fusedWindow]) bool { return wp.Value() == nil })
		if len(ws) == 0 {
			delete(fusedKept, p)
		} else {
			fusedKept[p] = ws
		}
	}
	fusedKeptN.Store(int64(len(fusedKept)))
}

// fusedBeforeFree computes, before the device buffer b is freed, the
// intermediate values that windows which ran on b still have alive and
// unread: after the free they could not be computed any more, and in
// plain mode they were computed long before.
func fusedBeforeFree(b Buffer) {
	if fusedKeptN.Load() == 0 {
		return
	}
	fusedMu.Lock()
	defer fusedMu.Unlock()
	for _, wp := range fusedKept[b] {
		w := wp.Value()
		if w == nil {
			continue
		}
		var outs []int32
		var lbs []*lazyBuf
		chunks := make([][]fusedResult, len(w.weak)) // kept alive until the results are stored
		for i, c := range w.weak {
			chunks[i] = c.results()
		}
		for i := range w.vals {
			v := &w.vals[i]
			var lb *lazyBuf
			if v.chunk < 0 {
				if w.largeWeak != nil {
					lb = w.largeWeak[v.slot].Value()
				}
			} else if c := chunks[v.chunk]; c != nil {
				lb = &c[v.slot].lb
			}
			if lb != nil && lb.done.Load() == nil && !lb.freed.Load() {
				outs = append(outs, int32(i))
				lbs = append(lbs, lb)
			}
		}
		if len(outs) == 0 {
			continue
		}
		fusedStats.Reruns++
		rs, err := w.run(outs)
		for k, lb := range lbs {
			r := &lazyResult{err: err}
			if err == nil {
				r.b = rs[k]
			}
			lb.done.Store(r)
			lb.w = nil
		}
	}
	delete(fusedKept, b)
	fusedKeptN.Store(int64(len(fusedKept)))
}

// run runs the window's program with results outs, compiling it on a
// cache miss.
func (w *fusedWindow) run(outs []int32) ([]Buffer, error) {
	key := append(w.key[:len(w.key):len(w.key)], 0xff)
	for _, o := range outs {
		key = binenc.AppendUvarint(key, uint64(o))
	}
	key = append(key, w.dev.Name()...)
	p := fusedProgs[string(key)]
	if p == nil {
		fusedStats.Compiles++
		p = w.compile(outs)
		if len(fusedProgs) >= fusedMaxProgs {
			clear(fusedProgs)
		}
		fusedProgs[string(key)] = p
	} else {
		fusedStats.Hits++
	}
	if p.err != nil {
		return nil, p.err
	}
	if p.exe != nil {
		return p.exe.Run(w.params, ir.Loc{})
	}
	return w.dev.Run(p.fn, w.params)
}

// compile builds the window's program with results outs, runs the
// default passes on it, and compiles it for the window's device.
func (w *fusedWindow) compile(outs []int32) *fusedProg {
	f := ir.NewFunc("fused_eager")
	params := make([]*ir.Value, len(w.params))
	for i, b := range w.params {
		params[i] = f.AddParam(b.Type(), ir.Loc{})
	}
	vals := make([]*ir.Value, len(w.vals))
	for k, op := range w.ops {
		ins := make([]*ir.Value, 0, op.nargs) // the instruction keeps it
		for _, r := range w.args[op.arg : op.arg+op.nargs] {
			if r < 0 {
				ins = append(ins, params[^r])
			} else {
				ins = append(ins, vals[r])
			}
		}
		var regions []*ir.Func
		for _, r := range w.regionsOf(op) {
			regions = append(regions, ir.CloneFunc(r)) // the passes may rewrite it
		}
		var attr any
		if op.attr >= 0 {
			attr = w.attrs[op.attr]
		}
		rs, err := f.Emit(ir.Loc{}, op.op, ins, attr, regions...)
		if err != nil {
			return &fusedProg{err: fmt.Errorf("fused eager window, op #%d (%v): %w", k, op.op, err)}
		}
		copy(vals[op.first:], rs)
	}
	res := make([]*ir.Value, len(outs))
	for i, o := range outs {
		res[i] = vals[o]
	}
	f.Return(res...)
	m := &ir.Module{Funcs: []*ir.Func{f}}
	if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
		return &fusedProg{err: fmt.Errorf("fused eager window: %w", err)}
	}
	f = m.Funcs[0]
	if comp, ok := w.dev.(runtime.Compiler); ok {
		exe, err := comp.Compile(f)
		if err != nil {
			return &fusedProg{err: fmt.Errorf("fused eager window: %w", err)}
		}
		return &fusedProg{exe: exe}
	}
	return &fusedProg{fn: f}
}

// regionsOf returns op's regions.
func (w *fusedWindow) regionsOf(op fusedOp) []*ir.Func {
	if op.reg < 0 {
		return nil
	}
	return w.regions[op.reg]
}

func isLazy(b Buffer) bool {
	_, ok := b.(*lazyBuf)
	return ok
}
