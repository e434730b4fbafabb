package pjrt

/*
#include "pjrt_cgo.h"

// stela_execute1 runs a portable executable on one device in one cgo call:
// the nested argument and output tables and the options live on this C
// stack, so Go passes only flat arrays of C pointers. It asks for no
// completion event: the outputs' own readiness still holds.
// Pointers come as integers: they are C pointers, which cgo need not check
// (its checks were a twentieth of an eager op).
//
// First it destroys the ndead buffers of dead_, buffers of the same client
// whose Go cleanups ran (deadbuffers.go says why here).
//
// Every argument is listed as non-donatable except those whose byte in
// donate_ (nargs bytes; 0 for none) is set: PJRT lets a plugin consume
// (alias to an output) any argument not listed. nd_ is room for nargs
// int64 indices, for the list. ctx_ is the execute context, or 0.
static inline PJRT_Error* stela_execute1(uintptr_t api_, uintptr_t exe_, uintptr_t device_,
    uintptr_t args_, size_t nargs, uintptr_t outs_, uintptr_t dead_, size_t ndead,
    uintptr_t donate_, uintptr_t nd_, uintptr_t ctx_) {
  const PJRT_Api* api = (const PJRT_Api*)api_;
  stela_destroy_buffers(api, (PJRT_Buffer* const*)dead_, ndead);
  PJRT_LoadedExecutable* exe = (PJRT_LoadedExecutable*)exe_;
  PJRT_Device* device = (PJRT_Device*)device_;
  PJRT_Buffer** args = (PJRT_Buffer**)args_;
  PJRT_Buffer** outs = (PJRT_Buffer**)outs_;
  const unsigned char* donate = (const unsigned char*)donate_;
  int64_t* nd = (int64_t*)nd_;
  size_t nnd = 0;
  for (size_t i = 0; i < nargs; i++)
    if (donate == NULL || !donate[i]) nd[nnd++] = (int64_t)i;
  PJRT_ExecuteOptions opts;
  memset(&opts, 0, sizeof opts);
  opts.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  opts.non_donatable_input_indices = nd;
  opts.num_non_donatable_input_indices = nnd;
  opts.context = (PJRT_ExecuteContext*)ctx_;
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
  a.device_complete_events = NULL;
  a.execute_device = device;
  return api->PJRT_LoadedExecutable_Execute(&a);
}
*/
import "C"

import (
	"context"
	"slices"
	"unsafe"
)

// ExecuteOne launches a portable executable on dev (nil: the device of
// args[0], else the client's first device) without waiting: the outputs
// may be used at once, and reading them waits for the execution (and
// returns its error, for plugins that report failures asynchronously). It
// is Launch for the common case of one device, in a single C call and
// without a completion event: the eager-dispatch path.
func (e *LoadedExecutable) ExecuteOne(dev *Device, args ...*Buffer) ([]*Buffer, error) {
	outs := make([]*Buffer, e.numOutputs)
	for i := range outs {
		outs[i] = new(Buffer)
	}
	if err := e.ExecuteOneInto(dev, outs, args...); err != nil {
		return nil, err
	}
	return outs, nil
}

// ExecuteOneInto is ExecuteOne with the output Buffers given: outs holds
// NumOutputs pointers to zero Buffers, which it makes the outputs in
// place. A Buffer may be a field of a larger object (eager dispatch embeds
// it in the runtime's buffer, one allocation instead of two); its cleanup
// is then attached to that object, which must not be copied. On error the
// Buffers stay zero.
func (e *LoadedExecutable) ExecuteOneInto(dev *Device, outs []*Buffer, args ...*Buffer) error {
	return e.ExecuteOneDonating(dev, outs, nil, args...)
}

// ExecuteOneDonating is ExecuteOneInto that donates the arguments whose
// donate entry is true (donate is nil or has one entry per argument):
// the plugin may consume their buffers, writing the outputs the program
// aliases to them (tf.aliasing_output) in place. A donated argument must
// not be used afterwards except to Destroy it, whether the plugin
// consumed it or not (IsDeleted tells); the caller destroys it. The
// other arguments are passed as non-donatable, so the plugin leaves them
// intact even where the program aliases them.
func (e *LoadedExecutable) ExecuteOneDonating(dev *Device, outs []*Buffer, donate []bool, args ...*Buffer) error {
	return e.ExecuteOneContext(nil, dev, outs, donate, args...)
}

// ExecuteOneContext is ExecuteOneDonating under ctx: when ctx is done
// before the execution ends, a plugin that can cancel executions (Stela's
// CPU plugin; ExecuteContext) stops it, and the call fails with an *Error
// of code CodeDeadlineExceeded (ctx's deadline passed) or CodeCancelled,
// which errors.Is matches with context.DeadlineExceeded and
// context.Canceled. A ctx done before the call runs nothing. ctx nil, or
// one that is never done, is ExecuteOneDonating.
func (e *LoadedExecutable) ExecuteOneContext(ctx context.Context, dev *Device, outs []*Buffer, donate []bool, args ...*Buffer) error {
	const op = "LoadedExecutable.Execute"
	if ctx == nil && donate == nil && e.portable && len(outs) == e.numOutputs && len(args) <= leanMax &&
		e.numOutputs <= leanMax {
		if p := e.client.plugin; p.leanFn != nil && !p.leanOff.Load() {
			return e.executeLean(op, p.leanFn, dev, outs, args)
		}
	}
	return e.client.plugin.withContext(op, ctx, func(x *ExecuteContext) error {
		return e.executeOneDonating(op, x, dev, outs, donate, args)
	})
}

func (e *LoadedExecutable) executeOneDonating(op string, x *ExecuteContext, dev *Device, outs []*Buffer, donate []bool, args []*Buffer) error {
	c := e.client
	if len(outs) != e.numOutputs {
		return errorf(op, CodeInvalidArgument, "%d output buffers for %d outputs", len(outs), e.numOutputs)
	}
	if donate != nil && len(donate) != len(args) {
		return errorf(op, CodeInvalidArgument, "%d donate flags for %d arguments", len(donate), len(args))
	}
	if !e.portable {
		opts := ExecuteOptions{Context: x}
		for i, d := range donate {
			if d {
				opts.Donate = append(opts.Donate, i)
			}
		}
		lists, err := e.run([][]*Buffer{args}, &opts)
		if err != nil {
			return err
		}
		for i, b := range lists[0] {
			outs[i].adopt(b)
		}
		return nil
	}
	if !c.plugin.slots[slotLoadedExecutableExecute] {
		return c.plugin.missing(slotLoadedExecutableExecute)
	}
	var first *Buffer
	if len(args) > 0 {
		first = args[0]
	}
	dev, err := e.portableDevice(op, dev, first)
	if err != nil {
		return err
	}
	if _, err := e.h.use(op); err != nil {
		return err
	}
	err = e.executeOne(op, x, dev, outs, args, donate)
	e.h.done()
	return err
}

// executeOne is ExecuteOneInto's call, with the executable held.
func (e *LoadedExecutable) executeOne(op string, x *ExecuteContext, dev *Device, outs, args []*Buffer, donate []bool) error {
	c := e.client
	// The argument and output tables live in C memory that the executable
	// keeps for this (Go memory passed to C escapes to the heap: two
	// allocations per eager op); a concurrent call makes its own.
	// After the arguments and outputs: room for the dead buffers this
	// call destroys (deadbuffers.go), for the non-donatable argument list
	// (one int64 per argument) and for the donate flags (a byte each).
	nio := len(args) + max(e.numOutputs, 1)
	nflags := 0
	if donate != nil {
		nflags = (len(args) + 7) / 8
	}
	n := nio + deadTake + len(args) + nflags
	var table unsafe.Pointer
	sc := e.scratch
	locked := sc.mu.TryLock()
	if locked {
		if sc.n < n {
			C.free(sc.ptr)
			sc.ptr = C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
			sc.n = n
		}
		table = sc.ptr
	} else {
		table = C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
	}
	defer func() {
		if locked {
			sc.mu.Unlock()
		} else {
			C.free(table)
		}
	}()
	cargs := unsafe.Slice((*unsafe.Pointer)(table), n)[:len(args)]
	couts := unsafe.Slice((*unsafe.Pointer)(table), n)[len(args):nio]
	// Hold each argument against Destroy for the call, once each (read-
	// locking one RWMutex twice deadlocks against a writer waiting in
	// between: x + x while another goroutine frees x), in address order,
	// and a donated one exclusively: its storage is taken, and the lean
	// entry reads its arguments' storage without a lock (handle.go).
	for i, b := range args {
		if b == nil {
			return errorf(op, CodeInvalidArgument, "argument %d is nil", i)
		}
		if b.client.core != c.core {
			return errorf(op, CodeInvalidArgument, "argument %d belongs to another client", i)
		}
	}
	var ordArr [16]int32
	ord := ordArr[:0]
	if len(args) > len(ordArr) {
		ord = make([]int32, 0, len(args))
	}
	ord = bufferOrder(ord, args)
	if err := holdBuffers(op, args, donate, ord, cargs); err != nil {
		return err
	}
	release := func() { releaseBuffers(args, donate, ord) }
	for i, b := range args {
		if j := slices.Index(args[:i], b); j >= 0 {
			cargs[i] = cargs[j]
		}
	}
	clear(couts)
	var argp uintptr
	if len(cargs) > 0 {
		argp = uintptr(unsafe.Pointer(&cargs[0]))
	}
	dead := unsafe.Slice((*unsafe.Pointer)(table), n)[nio : nio+deadTake]
	ndead := c.core.dead.take(dead)
	nd := unsafe.Add(table, (nio+deadTake)*int(unsafe.Sizeof(uintptr(0))))
	var flags uintptr
	if donate != nil {
		fp := unsafe.Add(nd, len(args)*8)
		fs := unsafe.Slice((*byte)(fp), len(args))
		for i, d := range donate {
			fs[i] = 0
			if d {
				fs[i] = 1
			}
		}
		flags = uintptr(fp)
	}
	var ctxp uintptr
	if x != nil {
		ctxp = uintptr(unsafe.Pointer(x.ptr))
	}
	perr := C.stela_execute1(C.uintptr_t(uintptr(unsafe.Pointer(c.plugin.api))), C.uintptr_t(uintptr(e.h.ptr)), C.uintptr_t(uintptr(unsafe.Pointer(dev.ptr))),
		C.uintptr_t(argp), C.size_t(len(cargs)), C.uintptr_t(uintptr(unsafe.Pointer(&couts[0]))),
		C.uintptr_t(uintptr(unsafe.Pointer(&dead[0]))), C.size_t(ndead), C.uintptr_t(flags), C.uintptr_t(uintptr(nd)), C.uintptr_t(ctxp))
	c.core.releaseN(ndead)
	release()
	if err := c.plugin.check("LoadedExecutable_Execute", perr); err != nil {
		return err
	}
	return e.adoptOutputs(op, outs, couts)
}

// adoptOutputs makes outs the buffers of the plugin's couts, all or
// none: an output the plugin left NULL fails the call.
func (e *LoadedExecutable) adoptOutputs(op string, outs []*Buffer, couts []unsafe.Pointer) error {
	c := e.client
	for i := range e.numOutputs {
		if couts[i] == nil {
			for _, b := range outs[:i] {
				b.Destroy()
			}
			for _, p := range couts[i:e.numOutputs] {
				if p != nil {
					c.plugin.destroyBuffer(p)
				}
			}
			return errorf(op, CodeInternal, "plugin returned no output %d and no error", i)
		}
		// The device is not cached here: Device asks the plugin the
		// first time it is called, which the eager path never does, and
		// the atomic store was a locked instruction (a dozen nanoseconds)
		// of every eager result.
		c.initBuffer(outs[i], (*C.PJRT_Buffer)(couts[i]))
	}
	return nil
}
