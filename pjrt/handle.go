package pjrt

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Lifetimes. Every C object the client hands out (buffer, loaded
// executable, event) is owned by a handle. A handle frees its object
// exactly once, when Destroy is called or when the Go object that holds it
// is collected (runtime.AddCleanup), whichever comes first, and only after
// every call in flight on the object has returned (calls hold the read
// lock, destroy takes the write lock).
//
// The C client must outlive every object made from it, whatever order Go
// frees them in: clientCore counts references (the Client itself, each live
// handle, each call in flight) and calls PJRT_Client_Destroy when the last
// one goes. Client.Destroy only drops the Client's own reference and stops
// new objects being made from it.
//
// Cleanup arguments (a *handle, a *clientCore) never point back at the Go
// object they are attached to, or it would never be collected.

// clientCore is the part of a Client its objects keep alive.
type clientCore struct {
	plugin *Plugin
	mu     sync.Mutex
	ptr    unsafe.Pointer // *C.PJRT_Client; nil once destroyed
	refs   atomic.Int64
	closed bool
	dead   deadQueue // buffers whose cleanup ran, for the next execution
}

// acquire takes a reference for a call that needs the client open (one
// that makes new objects from the client itself).
func (c *clientCore) acquire(op string) (unsafe.Pointer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.ptr == nil {
		return nil, destroyedError(op)
	}
	c.refs.Add(1)
	return c.ptr, nil
}

// retain takes a reference on behalf of an object that already holds one
// (an executable making output buffers), which is allowed after close. It
// is an atomic add: eager dispatch retains once per result buffer.
func (c *clientCore) retain() {
	c.refs.Add(1)
}

// release drops a reference, destroying the C client with the last one.
// The count reaches zero only after close (the Client's own reference is
// the last to go while it is open), and acquire, which must not revive a
// dead core, checks closed under mu.
func (c *clientCore) release() { c.releaseN(1) }

// releaseN drops n references.
func (c *clientCore) releaseN(n int) {
	if n == 0 || c.refs.Add(-int64(n)) != 0 {
		return
	}
	c.mu.Lock()
	ptr := c.ptr
	c.ptr = nil
	c.mu.Unlock()
	if ptr != nil {
		c.plugin.destroyClient(ptr)
	}
}

// close drops the Client's own reference, once.
func (c *clientCore) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.release()
}

// handle owns one C object made from a client.
type handle struct {
	mu   sync.RWMutex
	ptr  unsafe.Pointer // nil once destroyed
	free func(unsafe.Pointer)
	core *clientCore
}

// newHandle wraps ptr, taking a client reference for it. The caller must
// itself hold a reference (a call in flight) so that the count cannot reach
// zero in between.
func newHandle(core *clientCore, ptr unsafe.Pointer, free func(unsafe.Pointer)) *handle {
	h := new(handle)
	initHandle(h, core, ptr, free)
	return h
}

// initHandle is newHandle for a handle that is a field of the object it
// belongs to (a Buffer: one allocation fewer per eager result).
func initHandle(h *handle, core *clientCore, ptr unsafe.Pointer, free func(unsafe.Pointer)) {
	core.retain()
	h.ptr, h.free, h.core = ptr, free, core
}

// use returns the object and holds it against destruction until done.
func (h *handle) use(op string) (unsafe.Pointer, error) {
	h.mu.RLock()
	if h.ptr == nil {
		h.mu.RUnlock()
		return nil, destroyedError(op)
	}
	return h.ptr, nil
}

func (h *handle) done() { h.mu.RUnlock() }

// destroy frees the object (once) and drops its client reference.
func (h *handle) destroy() {
	h.mu.Lock()
	ptr := h.ptr
	h.ptr = nil
	h.mu.Unlock()
	if ptr != nil {
		h.free(ptr)
		h.core.release()
	}
}

// alive reports whether the object has not been destroyed.
func (h *handle) alive() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.ptr != nil
}

// useExcl is use that excludes every other use too (a write lock): for
// calls that change what the object holds (Buffer.Delete, and a donation,
// which takes a buffer's storage), so that the plugin's lean execute entry
// may read its arguments' storage without a lock of its own.
func (h *handle) useExcl(op string) (unsafe.Pointer, error) {
	h.mu.Lock()
	if h.ptr == nil {
		h.mu.Unlock()
		return nil, destroyedError(op)
	}
	return h.ptr, nil
}

// Lock order. A call that holds several handles takes its executable's
// first, then its buffers' in address order, each once: once a donation
// holds a buffer exclusively while it waits for another, calls that took
// them in argument order could wait on each other in a cycle (Go's
// RWMutex also makes a reader wait behind a waiting writer).

// bufferOrder appends to ord the indexes of the distinct buffers of bufs
// (the first occurrence of each), in address order, and returns it.
func bufferOrder(ord []int32, bufs []*Buffer) []int32 {
	for i, b := range bufs {
		if slices.Index(bufs[:i], b) < 0 {
			ord = append(ord, int32(i))
		}
	}
	// Insertion sort: a call has a few arguments.
	for k := 1; k < len(ord); k++ {
		for j := k; j > 0 && uintptr(unsafe.Pointer(bufs[ord[j]])) < uintptr(unsafe.Pointer(bufs[ord[j-1]])); j-- {
			ord[j], ord[j-1] = ord[j-1], ord[j]
		}
	}
	return ord
}

// holdBuffers holds the buffers of bufs at the indexes ord (bufferOrder),
// in that order: exclusively those whose buffer excl marks at any of its
// indexes (excl may be nil), else shared. ptrs[i] is set for every i of
// ord. It holds all of them, or on error none.
func holdBuffers(op string, bufs []*Buffer, excl []bool, ord []int32, ptrs []unsafe.Pointer) error {
	for k, i := range ord {
		var err error
		if exclusive(bufs, excl, int(i)) {
			ptrs[i], err = bufs[i].h.useExcl(op)
		} else {
			ptrs[i], err = bufs[i].h.use(op)
		}
		if err != nil {
			releaseBuffers(bufs, excl, ord[:k])
			return err
		}
	}
	return nil
}

// releaseBuffers drops holdBuffers' holds.
func releaseBuffers(bufs []*Buffer, excl []bool, ord []int32) {
	for _, i := range ord {
		if exclusive(bufs, excl, int(i)) {
			bufs[i].h.mu.Unlock()
		} else {
			bufs[i].h.done()
		}
	}
}

// exclusive reports whether excl marks bufs[i]'s buffer at any index.
func exclusive(bufs []*Buffer, excl []bool, i int) bool {
	if excl == nil {
		return false
	}
	for j, b := range bufs {
		if b == bufs[i] && j < len(excl) && excl[j] {
			return true
		}
	}
	return false
}
