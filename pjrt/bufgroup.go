package pjrt

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// A BufferGroup gives the Buffers placed in it one cleanup between them,
// attached to the Go object that holds them all, instead of one each.
//
// A cleanup per buffer was most of what Go's runtime spent on an eager op
// besides the op itself: registering it allocates a record and inserts it
// into its span's list under a lock, and every collection walks those
// lists and every sweep frees the records. Eager dispatch makes its small
// results in slabs (an array of result objects in one allocation) and
// gives each slab a group: one cleanup per slab.
//
// The price is retention: a group's buffers that were not destroyed go
// together, when the holder (the whole allocation) is unreachable, so one
// reachable buffer keeps the others of its group. Groups are for small
// buffers; Destroy frees a member at once, as for any Buffer.
type BufferGroup struct {
	ref *groupRef
}

// groupRef is the group's cleanup argument: the members' C objects (nil
// once destroyed). It does not point at the holder.
type groupRef struct {
	core *clientCore
	ptrs []atomic.Pointer[byte]
}

// NewBufferGroup makes a group of n slots on c's buffers whose cleanup
// runs when holder is unreachable. holder must point to the allocation
// that contains every Buffer that will be placed in the group (Go
// collects whole allocations, so a pointer to a field keeps all of it).
func NewBufferGroup[T any](c *Client, holder *T, n int) *BufferGroup {
	r := &groupRef{core: c.core, ptrs: make([]atomic.Pointer[byte], n)}
	runtime.AddCleanup(holder, (*groupRef).release, r)
	return &BufferGroup{ref: r}
}

// Place makes the zero Buffer b a member of g in slot i, for an execution
// to make it (LoadedExecutable.ExecuteOneInto): it then gets no cleanup
// of its own. b must be in the allocation of g's holder, and each slot
// takes one Buffer. A buffer of another client than g's gets its own
// cleanup as usual.
func (b *Buffer) Place(g *BufferGroup, i int) {
	if i < 0 || i >= len(g.ref.ptrs) {
		panic("pjrt: Buffer.Place: slot out of range")
	}
	b.group, b.slot = g.ref, int32(i)
}

// release destroys the members not destroyed yet, through the dead-buffer
// queue of their client (deadbuffers.go).
func (r *groupRef) release() {
	var list [64]unsafe.Pointer
	n := 0
	for i := range r.ptrs {
		if p := r.ptrs[i].Swap(nil); p != nil {
			if n == len(list) {
				r.core.dead.pushN(r.core, list[:n])
				n = 0
			}
			list[n] = unsafe.Pointer(p)
			n++
		}
	}
	r.core.dead.pushN(r.core, list[:n])
}

// join records b's new C object in its group, or, if it has none (or
// one of another client), queues its own cleanup.
func (b *Buffer) join() {
	if g := b.group; g != nil {
		if g.core == b.h.core {
			g.ptrs[b.slot].Store((*byte)(b.h.ptr))
			return
		}
		b.group = nil
	}
	addCleanupLater(b)
}

// leave takes b out of its group (Destroy, adopt): its C object is no
// longer the group's to free. Called with b.h.mu held.
func (b *Buffer) leave() {
	if b.group != nil {
		b.group.ptrs[b.slot].Store(nil)
	}
}
