package pjrt

/*
#include "pjrt_cgo.h"

// stela_call_lean calls the Stela CPU plugin's lean execute entry
// (stela_cpu_execute_lean, docs/cpu-plugin.md) through its address.
// Pointers come as integers, as in stela_execute1: C pointers, which cgo
// need not check.
static inline PJRT_Error* stela_call_lean(uintptr_t fn_, uintptr_t exe, uintptr_t dev, uintptr_t args, size_t nargs,
                                          uintptr_t outs, size_t nouts, uintptr_t dead, size_t ndead) {
  PJRT_Error* (*fn)(PJRT_LoadedExecutable*, PJRT_Device*, PJRT_Buffer* const*, size_t, PJRT_Buffer**, size_t,
                    PJRT_Buffer* const*, size_t);
  void* p = (void*)fn_;
  memcpy(&fn, &p, sizeof fn);
  return fn((PJRT_LoadedExecutable*)exe, (PJRT_Device*)dev, (PJRT_Buffer* const*)args, nargs, (PJRT_Buffer**)outs,
            nouts, (PJRT_Buffer* const*)dead, ndead);
}

static inline void* stela_dlsym_lean(void* handle) { return dlsym(handle, "stela_cpu_execute_lean"); }
*/
import "C"

import (
	"slices"
	"unsafe"

	"github.com/stela-ml/stela/internal/env"
)

// The lean execute entry: Stela's CPU plugin exports, next to
// GetPjrtApi, a function that runs an executable on one device from flat
// arrays of buffers, without PJRT_LoadedExecutable_Execute's nested
// argument and output lists, options and events:
//
//	PJRT_Error* stela_cpu_execute_lean(PJRT_LoadedExecutable* exe, PJRT_Device* dev,
//	    PJRT_Buffer* const* args, size_t nargs, PJRT_Buffer** outs, size_t nouts,
//	    PJRT_Buffer* const* dead, size_t ndead);
//
// It first destroys the ndead buffers of dead (the buffers whose Go
// cleanups ran, deadbuffers.go), then checks and runs as Execute does.
// ExecuteOne and its variants take it for a portable executable when
// nothing is donated, no context can cancel the call, and the call has
// at most leanMax arguments and results; every other call, and every
// other plugin, goes through PJRT_LoadedExecutable_Execute. STELA_DEBUG=nolean
// (or SetLeanExecute(false)) sends every call there too.
const (
	leanSymbol = "stela_cpu_execute_lean"
	leanMax    = 16 // the plugin's STELA_LEAN_MAX
)

// lookupLean is the plugin's lean execute entry, or nil.
func lookupLean(handle unsafe.Pointer) unsafe.Pointer {
	return C.stela_dlsym_lean(handle)
}

// callLean calls the lean entry fn: args, outs and dead are C arrays of
// buffer pointers.
func callLean(fn, exe, dev unsafe.Pointer, args uintptr, nargs int, outs uintptr, nouts int, dead uintptr, ndead int) *C.PJRT_Error {
	return C.stela_call_lean(C.uintptr_t(uintptr(fn)), C.uintptr_t(uintptr(exe)), C.uintptr_t(uintptr(dev)),
		C.uintptr_t(args), C.size_t(nargs), C.uintptr_t(outs), C.size_t(nouts), C.uintptr_t(dead), C.size_t(ndead))
}

// initLean reads STELA_DEBUG's nolean.
func (p *Plugin) initLean() {
	p.leanOff.Store(env.Debug().NoLean)
}

// LeanExecute reports whether one-device executions use the plugin's lean
// execute entry: the plugin exports one and it is not turned off.
func (p *Plugin) LeanExecute() bool {
	return p.leanFn != nil && !p.leanOff.Load()
}

// SetLeanExecute turns the use of the plugin's lean execute entry on or
// off (STELA_DEBUG=nolean starts it off) and returns whether it was on.
// Turning it on has no effect on a plugin that exports none.
func (p *Plugin) SetLeanExecute(on bool) (was bool) {
	was = p.LeanExecute()
	p.leanOff.Store(!on)
	return was
}

// executeLean is ExecuteOneContext through the lean entry fn: a portable
// executable, outs of NumOutputs zero Buffers, nothing donated, no
// context, at most leanMax arguments and results. Go checks what it
// needs for its own state (nil arguments, other clients, destroyed
// buffers); the plugin checks the rest, as Execute would.
func (e *LoadedExecutable) executeLean(op string, fn unsafe.Pointer, dev *Device, outs, args []*Buffer) error {
	c := e.client
	var first *Buffer
	if len(args) > 0 {
		first = args[0]
	}
	var err error
	if dev == nil || dev.client.core != c.core {
		if dev, err = e.portableDevice(op, dev, first); err != nil {
			return err
		}
	}
	// A pinned executable is never destroyed while reachable: its
	// pointer needs no hold.
	pinned := e.pinned.Load()
	exe := e.h.ptr
	if pinned && exe == nil {
		return destroyedError(op)
	}
	if !pinned {
		if exe, err = e.h.use(op); err != nil {
			return err
		}
	}
	// The C table: arguments, outputs, then room for the dead buffers
	// this call destroys (deadbuffers.go); the executable's scratch
	// memory when free, else its own (a concurrent call).
	n := len(args) + len(outs) + deadTake
	const word = int(unsafe.Sizeof(uintptr(0)))
	sc := e.scratch
	var table unsafe.Pointer
	locked := sc.mu.TryLock()
	if locked {
		if sc.n < n {
			C.free(sc.ptr)
			sc.ptr = C.malloc(C.size_t(n * word))
			sc.n = n
		}
		table = sc.ptr
	} else {
		table = C.malloc(C.size_t(n * word))
	}
	all := unsafe.Slice((*unsafe.Pointer)(table), n)
	cargs, couts, dead := all[:len(args)], all[len(args):len(args)+len(outs)], all[len(args)+len(outs):]
	// Hold each argument against Destroy, Delete and donation for the
	// call, once each, in address order (handle.go): the plugin reads
	// their storage without locks of its own (docs/cpu-plugin.md).
	var ordArr [leanMax]int32
	var ord []int32
	for i, b := range args {
		if b == nil {
			err = errorf(op, CodeInvalidArgument, "argument %d is nil", i)
			break
		}
		if b.client == nil || b.client.core != c.core {
			err = errorf(op, CodeInvalidArgument, "argument %d belongs to another client", i)
			break
		}
	}
	if err == nil {
		ord = bufferOrder(ordArr[:0], args)
		if err = holdBuffers(op, args, nil, ord, cargs); err != nil {
			ord = nil
		}
	}
	if err == nil {
		for i, b := range args {
			if j := slices.Index(args[:i], b); j >= 0 {
				cargs[i] = cargs[j]
			}
		}
		ndead := c.core.dead.take(dead)
		perr := callLean(fn, exe, unsafe.Pointer(dev.ptr), uintptr(table), len(args),
			uintptr(unsafe.Pointer(unsafe.SliceData(couts))), len(outs), uintptr(unsafe.Pointer(unsafe.SliceData(dead))), ndead)
		c.core.releaseN(ndead)
		err = c.plugin.check(leanSymbol, perr)
	}
	releaseBuffers(args, nil, ord)
	if !pinned {
		e.h.done()
	}
	if err == nil {
		err = e.adoptOutputs(op, outs, couts)
	}
	if locked {
		sc.mu.Unlock()
	} else {
		C.free(table)
	}
	return err
}
