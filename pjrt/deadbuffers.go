package pjrt

/*
#include <stdlib.h>
#include "pjrt_cgo.h"
*/
import "C"

import (
	"sync"
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
// A client that stops executing does not keep its dead buffers: the
// cleanup registrar destroys them when it finds no new buffers, and in
// every round those of a client no execution took any from since its
// last round (a full queue is destroyed by whoever fills it).

// deadCap is the number of dead buffers a client queues (a C array each
// of two).
const deadCap = 16384

type deadQueue struct {
	mu    sync.Mutex
	cur   unsafe.Pointer // C array of deadCap PJRT_Buffer*; nil until used
	n     int
	spare unsafe.Pointer // the other array, nil while a full queue or a flush destroys the first
	// takes counts executions that took dead buffers; seen is its value
	// at the registrar's last look (flushStaleDead).
	takes, seen uint64
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
	q.mu.Lock()
	if q.cur == nil {
		q.cur = newDeadArray()
		q.spare = newDeadArray()
	}
	if q.n == deadCap { // full: destroy the batch here
		list, n := q.swapOut()
		q.mu.Unlock()
		core.destroyDead(list, n)
		q.mu.Lock()
		q.giveBack(list)
		// This buffer's reference keeps the client (and q) alive.
		core.refs.Add(-int64(n))
	}
	unsafe.Slice((*unsafe.Pointer)(q.cur), deadCap)[q.n] = ptr
	q.n++
	first := q.n == 1
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

func newDeadArray() unsafe.Pointer {
	return C.malloc(deadCap * C.size_t(unsafe.Sizeof(uintptr(0))))
}

// swapOut takes the queued buffers out (q.mu held, q.n > 0).
func (q *deadQueue) swapOut() (unsafe.Pointer, int) {
	list, n := q.cur, q.n
	if q.spare != nil {
		q.cur, q.spare = q.spare, nil
	} else {
		q.cur = newDeadArray()
	}
	q.n = 0
	return list, n
}

// giveBack keeps an emptied array as the spare (q.mu held).
func (q *deadQueue) giveBack(list unsafe.Pointer) {
	if q.spare == nil {
		q.spare = list
	} else {
		C.free(list)
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
	if !q.mu.TryLock() {
		return 0
	}
	k := min(q.n, len(dst))
	if k > 0 {
		cur := unsafe.Slice((*unsafe.Pointer)(q.cur), deadCap)
		copy(dst, cur[q.n-k:q.n])
		q.n -= k
		q.takes++
	}
	q.mu.Unlock()
	return k
}

// free releases the arrays of a client that is gone (no buffers, so no
// dead ones either).
func (q *deadQueue) free() {
	q.mu.Lock()
	C.free(q.cur)
	C.free(q.spare)
	q.cur, q.spare = nil, nil
	q.mu.Unlock()
}

// destroyDead destroys the n buffers of list; the caller gives the array
// back, then drops the buffers' client references (the last of which
// frees the arrays).
func (c *clientCore) destroyDead(list unsafe.Pointer, n int) {
	C.stela_destroy_buffers(c.plugin.api, (**C.PJRT_Buffer)(list), C.size_t(n))
}

// flushDead destroys every queued dead buffer of every client.
func flushDead() { flushDeadWhere(false) }

// flushStaleDead destroys the queued dead buffers of the clients no
// execution took any from since the last call: a program that makes
// buffers without executing anything (a loop of transfers) must not keep
// its dead ones until the queue is full. The cleanup registrar calls it
// every round.
func flushStaleDead() { flushDeadWhere(true) }

func flushDeadWhere(staleOnly bool) {
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
		stale := q.takes == q.seen
		q.seen = q.takes
		if q.n == 0 || staleOnly && !stale {
			q.mu.Unlock()
			continue
		}
		list, n := q.swapOut()
		q.mu.Unlock()
		c.destroyDead(list, n)
		q.mu.Lock()
		q.giveBack(list)
		q.mu.Unlock()
		c.releaseN(n)
	}
}
