package pjrt

/*
#include "pjrt_cgo.h"

// stela_execute1 runs a portable executable on one device in one cgo call:
// the nested argument and output tables and the options live on this C
// stack, so Go passes only flat arrays of C pointers. event may be NULL
// (no completion event wanted: the outputs' own readiness still holds).
static inline PJRT_Error* stela_execute1(const PJRT_Api* api, PJRT_LoadedExecutable* exe,
    PJRT_Device* device, PJRT_Buffer** args, size_t nargs, PJRT_Buffer** outs,
    PJRT_Event** event) {
  PJRT_ExecuteOptions opts;
  memset(&opts, 0, sizeof opts);
  opts.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  PJRT_Buffer* none = NULL;
  PJRT_Buffer** arg_list = nargs > 0 ? args : &none;
  PJRT_Buffer* const* const* arg_lists = (PJRT_Buffer* const* const*)&arg_list;
  PJRT_Buffer** out_list = outs;
  PJRT_LoadedExecutable_Execute_Args a;
  memset(&a, 0, sizeof a);
  a.struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE;
  a.executable = exe;
  a.options = &opts;
  a.argument_lists = arg_lists;
  a.num_devices = 1;
  a.num_args = nargs;
  a.output_lists = &out_list;
  a.device_complete_events = event;
  a.execute_device = device;
  return api->PJRT_LoadedExecutable_Execute(&a);
}
*/
import "C"

import "unsafe"

// ExecuteOne launches a portable executable on dev (nil: the device of
// args[0], else the client's first device) without waiting: the outputs
// may be used at once, and reading them waits for the execution (and
// returns its error, for plugins that report failures asynchronously). It
// is Launch for the common case of one device, in a single C call and
// without a completion event: the eager-dispatch path.
func (e *LoadedExecutable) ExecuteOne(dev *Device, args ...*Buffer) ([]*Buffer, error) {
	const op = "LoadedExecutable.Execute"
	c := e.client
	if !e.portable {
		return e.Execute(args...)
	}
	if !c.plugin.slots[slotLoadedExecutableExecute] {
		return nil, c.plugin.missing(slotLoadedExecutableExecute)
	}
	var first *Buffer
	if len(args) > 0 {
		first = args[0]
	}
	dev, err := e.portableDevice(op, dev, first)
	if err != nil {
		return nil, err
	}
	if _, err := e.h.use(op); err != nil {
		return nil, err
	}
	defer e.h.done()
	// The argument and output tables live in C memory that the executable
	// keeps for this (Go memory passed to C escapes to the heap: two
	// allocations per eager op); a concurrent call makes its own.
	n := len(args) + max(e.numOutputs, 1)
	var table unsafe.Pointer
	if sc := e.scratch; sc.mu.TryLock() {
		if sc.n < n {
			C.free(sc.ptr)
			sc.ptr = C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
			sc.n = n
		}
		table = sc.ptr
		defer sc.mu.Unlock()
	} else {
		table = C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		defer C.free(table)
	}
	cargs := unsafe.Slice((**C.PJRT_Buffer)(table), n)[:0:len(args)]
	couts := unsafe.Slice((**C.PJRT_Buffer)(table), n)[len(args):n]
	for i, b := range args {
		if b == nil {
			return nil, errorf(op, CodeInvalidArgument, "argument %d is nil", i)
		}
		if b.client.core != c.core {
			return nil, errorf(op, CodeInvalidArgument, "argument %d belongs to another client", i)
		}
		ptr, err := b.h.use(op)
		if err != nil {
			for _, prev := range args[:i] {
				prev.h.done()
			}
			return nil, err
		}
		cargs = append(cargs, (*C.PJRT_Buffer)(ptr))
	}
	defer func() {
		for _, b := range args {
			b.h.done()
		}
	}()
	for i := range couts {
		couts[i] = nil
	}
	var argp **C.PJRT_Buffer
	if len(cargs) > 0 {
		argp = &cargs[0]
	}
	perr := C.stela_execute1(c.plugin.api, (*C.PJRT_LoadedExecutable)(e.h.ptr), dev.ptr,
		argp, C.size_t(len(cargs)), &couts[0], nil)
	if err := c.plugin.check("LoadedExecutable_Execute", perr); err != nil {
		return nil, err
	}
	outs := make([]*Buffer, e.numOutputs)
	for i := range outs {
		if couts[i] == nil {
			for _, b := range outs[:i] {
				b.Destroy()
			}
			return nil, errorf(op, CodeInternal, "plugin returned no output %d and no error", i)
		}
		outs[i] = c.newBuffer(couts[i])
		outs[i].device = dev
	}
	return outs, nil
}
