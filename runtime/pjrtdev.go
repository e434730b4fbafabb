package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// pjrtDevice is one addressable device of a PJRT platform.
type pjrtDevice struct {
	p    *platform
	dev  *pjrt.Device
	name string

	// slab is where the device's next small results go (resultSlab).
	slabMu   sync.Mutex
	slab     weak.Pointer[resultSlab]
	slabNext int
	// slabBytes is the size of the results made in slabs since
	// allocated last counted them (noteAlloc): they are counted a slab
	// at a time, not one locked add per eager op.
	slabBytes int64
}

// Small results are made in slabs: slabLen result objects in one
// allocation, whose PJRT buffers share one cleanup (pjrt.BufferGroup).
// A cleanup per result was most of the Go runtime's cost of an eager op
// (registering it, and the collector's and sweeper's work on it). A
// slab, and every buffer in it not freed, goes when none of its results
// is reachable: one live result keeps at most slabLen-1 others of at most
// slabMaxBytes each. The device holds its current slab weakly, so a slab
// never filled does not keep its results.
const (
	slabLen      = 32
	slabMaxBytes = 1024
)

type resultSlab struct {
	bufs  [slabLen]pjrtBuffer
	group *pjrt.BufferGroup
}

// newResult returns a zero result object for an execution's result of
// type *t on d, from d's slab if t is small. t is kept: it points into
// the compiled program's result types, which never change.
func (d *pjrtDevice) newResult(t *ir.Type) *pjrtBuffer {
	var b *pjrtBuffer
	if n := bufferBytes(*t); n > slabMaxBytes {
		b = new(pjrtBuffer)
	} else {
		var counted int64
		d.slabMu.Lock()
		s := d.slab.Value()
		if s == nil || d.slabNext == slabLen {
			s = new(resultSlab)
			s.group = pjrt.NewBufferGroup(d.p.client, s, slabLen)
			d.slab = weak.Make(s)
			d.slabNext = 0
			counted, d.slabBytes = d.slabBytes, 0
		}
		i := d.slabNext
		d.slabNext++
		d.slabBytes += n
		d.slabMu.Unlock()
		if counted > 0 {
			noteAllocBytes(counted)
		}
		b = &s.bufs[i]
		b.own.Place(s.group, i)
	}
	b.typ, b.dev = t, d
	b.pb = &b.own
	return b
}

// compiled is a program compiled by a platform's plugin (driver.go):
// portable, so that it runs on any one of the platform's devices, or, for
// a multiExec, compiled for a device assignment.
type compiled struct {
	le      *pjrt.LoadedExecutable
	hash    string
	name    string // the function's name
	what    string // "@name", for errors
	results []ir.Type
	params  []ir.Type
}

// boundExec is a compiled program and the device it runs on.
type boundExec struct {
	c *compiled
	d *pjrtDevice
}

// pjrtBuffer is an array on a PJRT device. It may not be computed yet
// (dispatch does not wait); reading it waits. A buffer whose computation
// failed (or one of whose inputs had) holds the located error instead of
// device memory, and reads return that error.
type pjrtBuffer struct {
	typ   *ir.Type // not nil; shared with the program's result types
	dev   *pjrtDevice
	pb    *pjrt.Buffer // &own for results of executions
	err   error
	freed atomic.Bool
	// donated is set, before freed, when the buffer was given to an
	// execution (RunDonated): uses report it.
	donated atomic.Pointer[DonatedError]
	// own is the PJRT buffer of an execution's result, made in place
	// (pjrt.LoadedExecutable.ExecuteOneInto): one allocation per eager
	// result instead of two.
	own pjrt.Buffer
}

func (d *pjrtDevice) Name() string { return d.name }

func (d *pjrtDevice) Put(l *ir.Literal) (Buffer, error) {
	if l == nil {
		return nil, fmt.Errorf("%s: nil literal", d.name)
	}
	pb, err := d.p.client.BufferFromLiteral(l, d.dev)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.name, err)
	}
	return d.newBuffer(l.Type, pb), nil
}

func (d *pjrtDevice) newBuffer(t ir.Type, pb *pjrt.Buffer) *pjrtBuffer {
	noteAlloc(t)
	return &pjrtBuffer{typ: &t, dev: d, pb: pb}
}

// Run compiles f (through the platform's cache) and runs it.
func (d *pjrtDevice) Run(f *ir.Func, args []Buffer) ([]Buffer, error) {
	e, err := d.Compile(f)
	if err != nil {
		return nil, err
	}
	return e.Run(args, ir.CallerLoc())
}

// Compile lowers f to StableHLO and compiles it, or finds it in the
// platform's cache by program hash.
func (d *pjrtDevice) Compile(f *ir.Func) (Executable, error) {
	return d.CompileAliased(f, nil)
}

// CompileAliased is Compile with f's parameters paired with results
// (AliasingCompiler): the pairs become tf.aliasing_output attributes of
// the program's @main, which every PJRT plugin that honours donation
// reads (XLA's turn them into its input_output_alias; Stela's CPU plugin
// writes the result into the donated buffer), and a part of its hash.
func (d *pjrtDevice) CompileAliased(f *ir.Func, aliases []int) (Executable, error) {
	c, err := d.p.compileAliased(f, aliases)
	if err != nil {
		return nil, err
	}
	return &boundExec{c: c, d: d}, nil
}

// RunOp runs the one-op program compiled for key, if any.
func (d *pjrtDevice) RunOp(key []byte, args []Buffer, loc ir.Loc) ([]Buffer, bool, error) {
	return d.runOpTo(nil, key, args, loc)
}

// opsHotSize is the number of entries of a platform's hot op cache.
const opsHotSize = 64

// hotOp is an entry of a platform's hot op cache (platform.opsHot): the
// one-op programs an eager loop runs, found by a hash of their key and
// one atomic load, without the op cache's lock and LRU list. A hit does
// not refresh the program's place in the LRU: a program evicted from the
// op cache while its entry here still hits keeps running (evicted
// programs are never destroyed, only dropped); once its entry is
// overwritten, a miss compiles it again through the program cache.
type hotOp struct {
	key string
	c   *compiled
}

// opsHotSlot is key's slot in the hot op cache (FNV-1a).
func opsHotSlot(key []byte) uint32 {
	h := uint32(2166136261)
	for _, b := range key {
		h = (h ^ uint32(b)) * 16777619
	}
	return (h ^ h>>16) % opsHotSize
}

// lookupOp finds the one-op program for key: in the hot op cache, else
// in the op cache (and then puts it in the hot one).
func (p *platform) lookupOp(key []byte) *compiled {
	slot := &p.opsHot[opsHotSlot(key)]
	if h := slot.Load(); h != nil && h.key == string(key) {
		return h.c
	}
	c := p.ops.getBytes(key)
	if c != nil {
		slot.Store(&hotOp{key: string(key), c: c})
	}
	return c
}

// runOpTo is RunOp appending the results to dst.
func (d *pjrtDevice) runOpTo(dst []Buffer, key []byte, args []Buffer, loc ir.Loc) ([]Buffer, bool, error) {
	c := d.p.lookupOp(key)
	if c == nil {
		stats.opMisses.Add(1)
		return dst, false, nil
	}
	stats.opHits.Add(1)
	outs, err := d.runTo(dst, c, args, loc)
	return outs, true, err
}

// AddOp compiles the one-op program f for key.
func (d *pjrtDevice) AddOp(key []byte, f *ir.Func) error {
	c, err := d.p.compile(f)
	if err != nil {
		return err
	}
	d.p.ops.put(string(key), c)
	return nil
}

func (e *boundExec) Hash() string { return e.c.hash }

func (e *boundExec) Run(args []Buffer, loc ir.Loc) ([]Buffer, error) {
	return e.d.runTo(nil, e.c, args, loc)
}

// RunContext is Run under ctx (ContextRunner).
func (e *boundExec) RunContext(ctx context.Context, args []Buffer, loc ir.Loc) ([]Buffer, error) {
	return e.d.runCtx(ctx, nil, e.c, args, loc, nil)
}

// RunDonated runs with the arguments whose donate entry is set given to
// the execution (Donator).
func (e *boundExec) RunDonated(args []Buffer, donate []bool, by string, loc ir.Loc) ([]Buffer, error) {
	if len(donate) != len(args) {
		return nil, fmt.Errorf("%s: %d donate flags for %d arguments", e.c.what, len(donate), len(args))
	}
	if by == "" {
		by = e.c.what
	}
	if !loc.IsKnown() {
		loc = ir.CallerLoc()
	}
	return e.d.run(nil, e.c, args, loc, &donation{mask: donate, by: by})
}

// donation is what RunDonated adds to a run: which arguments it gives
// away, and how their later users are told.
type donation struct {
	mask []bool
	by   string
}

// runTo executes c on d and appends the results to dst. Argument
// mistakes are errors now; a failure of the execution itself (or a failed
// input) is recorded in the results and surfaces when they are read.
func (d *pjrtDevice) runTo(dst []Buffer, c *compiled, args []Buffer, loc ir.Loc) ([]Buffer, error) {
	return d.run(dst, c, args, loc, nil)
}

// run is runTo that donates the arguments don marks (don may be nil).
func (d *pjrtDevice) run(dst []Buffer, c *compiled, args []Buffer, loc ir.Loc, don *donation) ([]Buffer, error) {
	return d.runCtx(nil, dst, c, args, loc, don)
}

// runCtx is run under ctx (nil: none), and under $STELA_EXEC_TIMEOUT when
// that is set and ctx has no earlier deadline.
func (d *pjrtDevice) runCtx(ctx context.Context, dst []Buffer, c *compiled, args []Buffer, loc ir.Loc, don *donation) ([]Buffer, error) {
	what := c.what
	limit, err := execTimeout()
	if err != nil {
		return nil, err
	}
	if limit > 0 {
		if ctx == nil {
			ctx = context.Background()
		}
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > limit {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, limit)
			defer cancel()
		}
	}
	if len(args) != len(c.params) {
		return nil, fmt.Errorf("%s: %d arguments, want %d", what, len(args), len(c.params))
	}
	var pbArr [4]*pjrt.Buffer
	pbs := pbArr[:0]
	if len(args) > len(pbArr) {
		pbs = make([]*pjrt.Buffer, 0, len(args))
	}
	var inErr error
	for i, a := range args {
		b, ok := a.(*pjrtBuffer)
		if !ok || b == nil || b.dev != d {
			if isNilBuffer(a) {
				return nil, fmt.Errorf("%s: argument #%d is nil", what, i)
			}
			return nil, fmt.Errorf("%s: argument #%d is on device %s, not %s", what, i, argDevice(a), d.name)
		}
		if !b.typ.Equal(c.params[i]) {
			return nil, fmt.Errorf("%s: argument #%d has type %v, want %v", what, i, *b.typ, c.params[i])
		}
		if b.freed.Load() {
			if de := b.donated.Load(); de != nil {
				return nil, fmt.Errorf("%s: argument #%d: %w", what, i, de)
			}
			return nil, fmt.Errorf("%s: argument #%d was freed", what, i)
		}
		if b.err != nil && inErr == nil {
			inErr = b.err
		}
		pbs = append(pbs, b.pb)
	}
	if don != nil {
		for i, give := range don.mask {
			if !give {
				continue
			}
			for k, a := range args {
				if k != i && a == args[i] {
					return nil, fmt.Errorf("%s: argument #%d is donated and also passed as argument #%d: a donated buffer cannot be used twice in one call", what, i, k)
				}
			}
		}
		// Whatever happens from here, the donated buffers are the
		// execution's.
		defer don.consume(args, loc)
	}
	if inErr != nil {
		for i := range c.results {
			dst = append(dst, &pjrtBuffer{typ: &c.results[i], dev: d, err: inErr})
		}
		return dst, nil
	}
	var resArr [2]*pjrtBuffer
	var ownArr [2]*pjrt.Buffer
	res, owns := resArr[:0], ownArr[:0]
	for i := range c.results {
		b := d.newResult(&c.results[i])
		res = append(res, b)
		owns = append(owns, b.pb)
	}
	var mask []bool
	if don != nil {
		mask = don.mask
	}
	if err := c.le.ExecuteOneContext(ctx, d.dev, owns, mask, pbs...); err != nil {
		if !loc.IsKnown() {
			loc = ir.CallerLoc()
		}
		if limit > 0 && errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("%w (the time limit is %v: %s)", err, limit, env.ExecTimeoutVar)
		}
		le := ir.Errorf(loc, what, "%w", err)
		for _, b := range res {
			b.pb, b.err = nil, le
			dst = append(dst, b)
		}
		return dst, nil
	}
	for _, b := range res {
		if n := bufferBytes(*b.typ); n > slabMaxBytes { // else counted by newResult
			noteAllocBytes(n)
		}
		dst = append(dst, b)
	}
	return dst, nil
}

// execTimeout is $STELA_EXEC_TIMEOUT, read once.
var execTimeout = sync.OnceValues(env.ExecTimeout)

// consume marks the donated arguments as donated and destroys their
// PJRT buffers (the plugin has deleted those it reused; the others go
// now, as gopjrt destroys donated buffers after the call).
func (don *donation) consume(args []Buffer, loc ir.Loc) {
	for i, give := range don.mask {
		if !give {
			continue
		}
		b := args[i].(*pjrtBuffer)
		b.donated.Store(&DonatedError{To: don.by, At: loc})
		b.Free()
	}
}

func (b *pjrtBuffer) Type() ir.Type  { return *b.typ }
func (b *pjrtBuffer) Device() Device { return b.dev }

// Err waits for the buffer and returns the error of its computation: the
// located error of a failed dispatch, or the plugin's.
func (b *pjrtBuffer) Err() error {
	if b.err != nil {
		return b.err
	}
	if de := b.donated.Load(); de != nil {
		return de
	}
	if b.pb == nil || b.freed.Load() {
		return nil
	}
	ev, err := b.pb.ReadyEvent()
	if err != nil {
		return nil // the plugin has no ready events: its buffers are ready
	}
	defer ev.Destroy()
	return ev.Await()
}

func (b *pjrtBuffer) Literal() (*ir.Literal, error) {
	if b.freed.Load() {
		if de := b.donated.Load(); de != nil {
			return nil, de
		}
		return nil, errors.New("buffer was freed")
	}
	if b.err != nil {
		return nil, b.err
	}
	l, err := b.pb.ToLiteral() // waits for the computation
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.dev.name, err)
	}
	return l, nil
}

// Free releases the device memory now instead of when the buffer is
// collected.
func (b *pjrtBuffer) Free() {
	if b.freed.Swap(true) {
		return
	}
	if b.pb != nil {
		b.pb.Destroy()
	}
}

// Freed reports whether Free was called, or the buffer was donated.
func (b *pjrtBuffer) Freed() bool { return b.freed.Load() }

// Device memory is C memory, which Go's garbage collector does not see: a
// loop that drops large tensors would grow without bound between
// collections. Every gcEvery bytes of new buffers start a collection in
// the background, so that cleanups free what is unreachable.
const gcEvery = 512 << 20

var allocated atomic.Int64

// bufferBytes is the size of an array of type t on a device.
func bufferBytes(t ir.Type) int64 {
	return int64(t.NumElements()) * int64(max(t.DType.Size(), 1))
}

func noteAlloc(t ir.Type) { noteAllocBytes(bufferBytes(t)) }

// noteAllocBytes counts n bytes of new buffers.
func noteAllocBytes(n int64) {
	if allocated.Add(n) > gcEvery {
		allocated.Store(0)
		go goruntime.GC()
	}
}

// LogOutput is where the runtime's STELA_LOG lines (compile) go; nil
// means os.Stderr.
var LogOutput io.Writer

func logOut() io.Writer {
	if LogOutput != nil {
		return LogOutput
	}
	return os.Stderr
}
