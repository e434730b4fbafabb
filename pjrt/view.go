package pjrt

/*
#include <stdlib.h>
#include "pjrt_cgo.h"
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"unsafe"

	"github.com/stela-ml/stela/ir"
)

// ViewOfHostMemory makes a buffer on dev (nil: the client's first
// addressable device) whose memory is mem itself, without a copy
// (PJRT_Client_CreateViewOfDeviceBuffer): a dense row-major array of
// dims elements of type dt at the start of mem. It is for plugins whose
// device memory is host memory (platform "cpu"): another plugin would
// take the address for one of its device's. mem must stay valid, and
// must not be written while an execution reads the buffer, until the
// plugin no longer needs it: then release (which may be nil) is called,
// once, possibly on a plugin thread. That is after the buffer is
// destroyed and the executions that read it have ended, or never when
// the call fails.
//
// mem must not be memory Go's collector manages (the plugin keeps the
// pointer): memory from syscall.Mmap, or C memory. Stela's CPU plugin
// reads a view whose address is not 64-byte aligned through an aligned
// copy per execution, and does not reuse a view's memory for results
// when it is donated.
func (c *Client) ViewOfHostMemory(mem []byte, dt ir.DType, dims []int, dev *Device, release func()) (*Buffer, error) {
	const op = "Client.ViewOfHostMemory"
	bt, err := BufferTypeOf(dt)
	if err != nil {
		return nil, err
	}
	size, err := byteSize(op, dims, dt.Size())
	if err != nil {
		return nil, err
	}
	if len(mem) < size {
		return nil, errorf(op, CodeInvalidArgument, "%d bytes of memory for a %v%v array of %d bytes", len(mem), dt, dims, size)
	}
	if dev == nil {
		if len(c.addressable) == 0 {
			return nil, errorf(op, CodeFailedPrecondition, "client has no addressable device")
		}
		dev = c.addressable[0]
	}
	if dev.client.core != c.core {
		return nil, errorf(op, CodeInvalidArgument, "device of another client")
	}
	client, err := c.core.acquire(op)
	if err != nil {
		return nil, err
	}
	defer c.core.release()
	rank := len(dims)
	cdims := (*C.int64_t)(C.calloc(C.size_t(max(rank, 1)), 8))
	defer C.free(unsafe.Pointer(cdims))
	for i, d := range dims {
		unsafe.Slice(cdims, rank)[i] = C.int64_t(d)
	}
	var args C.PJRT_Client_CreateViewOfDeviceBuffer_Args
	args.client = (*C.PJRT_Client)(client)
	if size > 0 {
		args.device_buffer_ptr = unsafe.Pointer(unsafe.SliceData(mem))
	}
	args.dims = cdims
	args.num_dims = C.size_t(rank)
	args.element_type = C.PJRT_Buffer_Type(bt)
	args.device = dev.ptr
	// The release function travels as a cgo.Handle in C memory.
	user := (*C.uintptr_t)(C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
	*user = C.uintptr_t(cgo.NewHandle(viewRelease{release}))
	C.stela_view_set(&args, unsafe.Pointer(user))
	if err := c.plugin.callClientCreateViewOfDeviceBuffer(&args); err != nil {
		cgo.Handle(*user).Delete()
		C.free(unsafe.Pointer(user))
		return nil, err
	}
	if args.buffer == nil {
		cgo.Handle(*user).Delete()
		C.free(unsafe.Pointer(user))
		return nil, errorf(op, CodeInternal, "plugin returned no buffer and no error")
	}
	buf := c.newBuffer(args.buffer)
	buf.shapeOf.Store(&bufShape{bt, append([]int{}, dims...)})
	buf.device.Store(dev)
	runtime.KeepAlive(mem)
	return buf, nil
}

type viewRelease struct{ f func() }

//export stelaViewDeleted
func stelaViewDeleted(_ unsafe.Pointer, user unsafe.Pointer) {
	u := (*C.uintptr_t)(user)
	h := cgo.Handle(*u)
	r := h.Value().(viewRelease)
	h.Delete()
	C.free(user)
	if r.f != nil {
		r.f()
	}
}
