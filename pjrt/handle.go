package pjrt

import (
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

// useAll is use for several handles, each locked once even if it appears
// more than once (read-locking one RWMutex twice can deadlock against a
// waiting writer). On error nothing stays locked.
func useAll(op string, hs []*handle) (release func(), err error) {
	seen := make(map[*handle]bool, len(hs))
	var locked []*handle
	release = func() {
		for _, h := range locked {
			h.done()
		}
	}
	for _, h := range hs {
		if seen[h] {
			continue
		}
		seen[h] = true
		if _, err := h.use(op); err != nil {
			release()
			return nil, err
		}
		locked = append(locked, h)
	}
	return release, nil
}
