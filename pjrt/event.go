package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Event is a PJRT_Event: the completion of an asynchronous operation
// (an execution on one device, a buffer becoming ready). Destroy it, or
// let it be collected.
type Event struct {
	client *Client
	h      *handle
}

// newEvent wraps an event the plugin returned; the caller holds a client
// reference.
func (c *Client) newEvent(ev *C.PJRT_Event) *Event {
	p := c.plugin
	e := &Event{client: c, h: newHandle(c.core, unsafe.Pointer(ev), func(ptr unsafe.Pointer) {
		p.destroyEvent((*C.PJRT_Event)(ptr))
	})}
	runtime.AddCleanup(e, (*handle).destroy, e.h)
	return e
}

func (p *Plugin) destroyEvent(ev *C.PJRT_Event) {
	if ev == nil {
		return
	}
	var a C.PJRT_Event_Destroy_Args
	a.event = ev
	_ = p.callEventDestroy(&a)
}

// await blocks until ev completes and returns its error, then destroys it.
// ev may be nil (nothing to wait for).
func (p *Plugin) await(ev *C.PJRT_Event) error {
	if ev == nil {
		return nil
	}
	defer p.destroyEvent(ev)
	var a C.PJRT_Event_Await_Args
	a.event = ev
	return p.callEventAwait(&a)
}

// Await blocks until the event completes and returns the operation's
// error, if any. It may be called more than once.
func (e *Event) Await() error {
	ptr, err := e.h.use("Event.Await")
	if err != nil {
		return err
	}
	defer e.h.done()
	var a C.PJRT_Event_Await_Args
	a.event = (*C.PJRT_Event)(ptr)
	return e.client.plugin.callEventAwait(&a)
}

// IsReady reports whether the event has completed (with or without an
// error).
func (e *Event) IsReady() (bool, error) {
	ptr, err := e.h.use("Event.IsReady")
	if err != nil {
		return false, err
	}
	defer e.h.done()
	var a C.PJRT_Event_IsReady_Args
	a.event = (*C.PJRT_Event)(ptr)
	if err := e.client.plugin.callEventIsReady(&a); err != nil {
		return false, err
	}
	return bool(a.is_ready), nil
}

// Destroy frees the event. It is idempotent.
func (e *Event) Destroy() { e.h.destroy() }
