package pjrt

import (
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"
)

// Buffer cleanups are registered in batches by a goroutine of their own,
// not by the call that makes the buffer.
//
// runtime.AddCleanup was the largest single cost of an eager op (about a
// fifth of the dispatching goroutine's time): it allocates the cleanup's
// argument and inserts a record into its memory span's list of specials,
// which is sorted by address and walked from the front, so registering
// buffers in the order they were allocated walks past every earlier
// buffer of the span. The registrar takes the buffers made since its last
// round, registers them in decreasing address order (each insertion then
// lands at the front of the part of the list it adds), and runs on
// another core when one is free. A buffer waiting in the queue is
// reachable from it, so it cannot be collected before its cleanup exists;
// Destroy before registration skips it.

var cleanupQueue struct {
	sync.Mutex
	bufs    []*Buffer
	idle    bool          // the registrar waits on wake
	wake    chan struct{} // capacity 1
	started bool
}

// cleanupPoll is how long the registrar sleeps between rounds while
// buffers keep coming; it blocks (and must be woken) only after a round
// that found none.
const cleanupPoll = 200 * time.Microsecond

// addCleanupLater queues b for cleanup registration.
func addCleanupLater(b *Buffer) { wakeRegistrarWith(b) }

// wakeRegistrar starts the registrar, or wakes it if it waits.
func wakeRegistrar() { wakeRegistrarWith(nil) }

// wakeRegistrarWith is wakeRegistrar queueing b (if not nil) first.
func wakeRegistrarWith(b *Buffer) {
	q := &cleanupQueue
	q.Lock()
	if b != nil {
		q.bufs = append(q.bufs, b)
	}
	if !q.started {
		q.started = true
		q.wake = make(chan struct{}, 1)
		go cleanupRegistrar()
	}
	wake := q.idle
	q.idle = false
	q.Unlock()
	if wake {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
}

func cleanupRegistrar() {
	q := &cleanupQueue
	var batch []*Buffer
	for {
		q.Lock()
		batch, q.bufs = q.bufs, batch[:0]
		if len(batch) == 0 {
			q.idle = true
			q.Unlock()
			// Nothing to register (buffers in groups have no cleanup of
			// their own, so buffers may still be being made). Dead
			// buffers are left to the executions of their client while
			// it runs any; those of a client that has stopped are
			// destroyed here (deadbuffers.go). While some are queued,
			// look again after a poll.
			if flushStaleDead() {
				time.Sleep(cleanupPoll)
				continue
			}
			<-q.wake
			continue
		}
		q.Unlock()
		registerCleanups(batch)
		clear(batch)
		flushStaleDead()
		time.Sleep(cleanupPoll)
	}
}

func registerCleanups(batch []*Buffer) {
	slices.SortFunc(batch, func(a, b *Buffer) int {
		pa, pb := uintptr(unsafe.Pointer(a)), uintptr(unsafe.Pointer(b))
		switch {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	var busy []*Buffer
	for _, b := range batch {
		// A buffer in use (an execution holds it) is left for the next
		// round: waiting here would make the execution's unlock hand its
		// core to this goroutine, and eager ops use the newest buffers.
		if !b.h.mu.TryLock() {
			busy = append(busy, b)
			continue
		}
		if b.h.ptr != nil && !b.registered {
			b.cleanup = runtime.AddCleanup(b, bufferRef.release, bufferRef{ptr: b.h.ptr, core: b.h.core})
			b.registered = true
		}
		b.h.mu.Unlock()
	}
	if len(busy) > 0 {
		q := &cleanupQueue
		q.Lock()
		q.bufs = append(q.bufs, busy...)
		q.Unlock()
	}
}

// FlushCleanups registers the cleanups of every buffer made so far, so
// that a garbage collection that follows can free the unreachable ones,
// and destroys the buffers whose cleanups have run. Tests that count live
// buffers call it (after collecting); programs need not.
func FlushCleanups() {
	q := &cleanupQueue
	q.Lock()
	batch := q.bufs
	q.bufs = nil
	q.Unlock()
	registerCleanups(batch)
	flushDead()
}
