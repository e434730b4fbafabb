package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Buffers whose cleanup ran are destroyed by the next execution on their
// client, in the same C call, rather than by the cleanup.
//
// Go runs cleanups on a goroutine of its own, usually on another core
// than the one dispatching eager ops. A buffer destroyed there puts its
// memory (the plugin's structs and data, recycled by the plugin) in that
// core's cache, and the dispatching core's next allocations then miss on
// every line: the plugin's part of an eager op took twice as long as with
// everything on one core. Destroyed by the dispatcher, a batch of dead
// buffers frees memory that its next ops reuse while it is still in cache.
// An execution copies the dead pointers into its own C table under a
// TryLock, so the dispatching goroutine never waits for the goroutine
// that queues them.
//
// A client that stops executing does not keep its dead buffers: in every
// round, the cleanup registrar destroys those of a client on which no
// execution ran since its last round, and it keeps making rounds while
// any are queued (a full queue is destroyed by whoever fills it). It
// leaves the others alone: destroyed on the registrar's core, they were
// the cross-core traffic this queue exists to avoid.

// deadCap is the most dead buffers a client queues; a full queue is
// destroyed by the cleanup that fills it.
const deadCap = 16384

// deadQueue holds a client's dead buffers: C pointers in a Go slice
// (nothing for the collector to follow), newest last.
type deadQueue struct {
	mu   sync.Mutex
	bufs []unsafe.Pointer
	// n is len(bufs), for executions to see an empty queue without the
	// lock: most find it empty, and the lock was two locked instructions
	// of every eager op.
	n atomic.Int64
	// active is set by an execution that looked at the queue since the
	// registrar's last look (flushStaleDead), which clears it. A set
	// flag is only read again, not stored.
	active atomic.Bool
}

// deadCores are the clients with queued dead buffers (each holding client
// references, so all of them are alive).
var deadCores struct {
	sync.Mutex
	m map[*clientCore]struct{}
}

// bufferRef is a buffer's cleanup argument.
type bufferRef struct {
	ptr  unsafe.Pointer
	core *clientCore
}

func (r bufferRef) release() { r.core.dead.push(r.core, r.ptr) }

func (q *deadQueue) push(core *clientCore, ptr unsafe.Pointer) {
	q.pushN(core, []unsafe.Pointer{ptr})
}

// pushN is push of every buffer of ptrs, under one hold of the lock (a
// group's cleanup queues its buffers at once).
func (q *deadQueue) pushN(core *clientCore, ptrs []unsafe.Pointer) {
	if len(ptrs) == 0 {
		return
	}
	q.mu.Lock()
	if len(q.bufs)+len(ptrs) > deadCap { // full: destroy them here
		list := q.bufs
		q.bufs = nil
		q.n.Store(0)
		q.mu.Unlock()
		// The pushed buffers' references keep the client alive.
		core.destroyDead(list)
		q.mu.Lock()
	}
	first := len(q.bufs) == 0
	q.bufs = append(q.bufs, ptrs...)
	q.n.Store(int64(len(q.bufs)))
	q.mu.Unlock()
	if first {
		deadCores.Lock()
		if deadCores.m == nil {
			deadCores.m = map[*clientCore]struct{}{}
		}
		deadCores.m[core] = struct{}{}
		deadCores.Unlock()
		wakeRegistrar()
	}
}

// An execution destroys up to deadTake dead buffers, the newest: the
// memory they free is reused by the next few ops while it is still in
// cache (a garbage collection finds thousands dead at once; destroying
// them all in one call would push each one's memory out of cache before
// its reuse).
const deadTake = 64

// take moves up to len(dst) of the queued dead buffers, the newest, to
// dst (the execution's own C table) and returns how many; the caller
// destroys them and drops their client references. It never waits: a
// busy queue gives none.
func (q *deadQueue) take(dst []unsafe.Pointer) int {
	if !q.active.Load() {
		q.active.Store(true)
	}
	if q.n.Load() == 0 || !q.mu.TryLock() {
		return 0
	}
	n := len(q.bufs)
	k := min(n, len(dst))
	if k > 0 {
		copy(dst, q.bufs[n-k:])
		q.bufs = q.bufs[:n-k]
		q.n.Store(int64(n - k))
	}
	q.mu.Unlock()
	return k
}

// destroyDead destroys the buffers of list and drops their client
// references.
func (c *clientCore) destroyDead(list []unsafe.Pointer) {
	if len(list) == 0 {
		return
	}
	C.stela_destroy_buffers(c.plugin.api, (**C.PJRT_Buffer)(unsafe.Pointer(&list[0])), C.size_t(len(list)))
	c.releaseN(len(list))
}

// flushDead destroys every queued dead buffer of every client.
func flushDead() { flushDeadWhere(false) }

// flushStaleDead destroys the queued dead buffers of the clients on which
// no execution ran since the last call: a program that makes buffers
// without executing anything (a loop of transfers), or stops, must not
// keep its dead ones until the queue is full. It reports whether dead
// buffers are still queued (for executions to take). The cleanup
// registrar calls it every round.
func flushStaleDead() bool { return flushDeadWhere(true) }

func flushDeadWhere(staleOnly bool) (left bool) {
	deadCores.Lock()
	cores := make([]*clientCore, 0, len(deadCores.m))
	for c := range deadCores.m {
		cores = append(cores, c)
	}
	if !staleOnly {
		clear(deadCores.m)
	}
	deadCores.Unlock()
	for _, c := range cores {
		q := &c.dead
		q.mu.Lock()
		stale := !q.active.Swap(false)
		list := q.bufs
		if len(list) == 0 || staleOnly && !stale {
			left = left || len(list) > 0
			q.mu.Unlock()
			continue
		}
		q.bufs = nil
		q.n.Store(0)
		q.mu.Unlock()
		c.destroyDead(list)
	}
	return left
}
