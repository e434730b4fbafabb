package pjrt

/*
#include "pjrt_cgo.h"

// stela_destroy_buffer is PJRT_Buffer_Destroy with its arguments on the C
// stack and the buffer as an integer: every eager result ends here, and a
// Go argument struct would be a heap allocation and a cgo pointer check.
static inline PJRT_Error* stela_destroy_buffer(const PJRT_Api* api, uintptr_t buffer) {
  PJRT_Buffer_Destroy_Args a;
  memset(&a, 0, sizeof a);
  a.struct_size = PJRT_Buffer_Destroy_Args_STRUCT_SIZE;
  a.buffer = (PJRT_Buffer*)buffer;
  return api->PJRT_Buffer_Destroy(&a);
}
*/
import "C"

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/stela-ml/stela/ir"
)

// Buffer is an array on a device (PJRT_Buffer). Destroy it, or let it be
// collected. It is safe for concurrent use; Destroy waits for calls in
// flight.
type Buffer struct {
	client *Client
	h      handle
	// cleanup frees the buffer if Destroy is never called. It is
	// registered shortly after the buffer is made, off the caller's path
	// (cleanups.go); h.mu guards it and registered (next to slot, to
	// share its word).
	cleanup runtime.Cleanup
	// group, if not nil, frees the buffer instead of a cleanup of its
	// own (bufgroup.go); slot is its place there.
	group      *groupRef
	slot       int32
	registered bool

	// The element type and dimensions, once known, and the device:
	// cached without a lock of their own, so that the many small results
	// of eager dispatch are 40 bytes smaller.
	shapeOf atomic.Pointer[bufShape]
	device  atomic.Pointer[Device]
}

// bufShape is a buffer's element type and dimensions.
type bufShape struct {
	btype BufferType
	dims  []int
}

// newBuffer wraps a buffer the plugin returned; the caller holds a client
// reference.
func (c *Client) newBuffer(b *C.PJRT_Buffer) *Buffer {
	buf := new(Buffer)
	c.initBuffer(buf, b)
	return buf
}

// initBuffer makes the zero Buffer buf own b.
func (c *Client) initBuffer(buf *Buffer, b *C.PJRT_Buffer) {
	buf.client = c
	initHandle(&buf.h, c.core, unsafe.Pointer(b), c.plugin.destroyBuffer)
	buf.join()
}

// adopt moves the buffer src owns into the zero Buffer dst; src is left
// destroyed (its cleanup will find nothing to free).
func (dst *Buffer) adopt(src *Buffer) {
	src.h.mu.Lock()
	ptr := src.h.ptr
	src.h.ptr = nil
	if src.registered {
		src.cleanup.Stop()
	}
	src.leave()
	device := src.device.Load()
	src.h.mu.Unlock()
	dst.client = src.client
	// src's client reference passes to dst.
	dst.h.ptr, dst.h.free, dst.h.core = ptr, src.h.free, src.h.core
	dst.device.Store(device)
	dst.join()
}

// destroyBufferPtr frees a PJRT_Buffer: the free function of every buffer
// handle (one method value per plugin, not a closure per buffer: eager
// dispatch makes a buffer per op).
func (p *Plugin) destroyBufferPtr(ptr unsafe.Pointer) {
	if !p.slots[slotBufferDestroy] {
		return
	}
	_ = p.check("Buffer_Destroy", C.stela_destroy_buffer(p.api, C.uintptr_t(uintptr(ptr))))
}

// HostArray is an array in host memory, the source of BufferFromHost.
type HostArray struct {
	DType ir.DType
	Dims  []int
	// Data holds the elements: dense and row-major unless ByteStrides is
	// set. Bool elements are one byte each, 0 or 1.
	Data []byte
	// ByteStrides, if not nil, gives for each dimension the distance in
	// bytes between consecutive elements along it; strides may be negative
	// or zero (broadcast).
	ByteStrides []int
	// Offset is the position in Data of element [0, ..., 0] (non-zero with
	// negative strides, or for a view into a larger array).
	Offset int
}

// numElements is the product of dims, or an error for a negative one or
// a product that overflows an int.
func numElements(op string, dims []int) (int, error) {
	n := 1
	for i, d := range dims {
		if d < 0 {
			return 0, errorf(op, CodeInvalidArgument, "dimension %d is %d", i, d)
		}
	}
	for _, d := range dims {
		if d == 0 {
			return 0, nil
		}
	}
	for _, d := range dims {
		var ok bool
		if n, ok = mulInt(n, d); !ok {
			return 0, errorf(op, CodeInvalidArgument, "dimensions %v: the element count overflows an int", dims)
		}
	}
	return n, nil
}

// byteSize is the byte size of a dense array of dims, or an error when it
// overflows an int.
func byteSize(op string, dims []int, esize int) (int, error) {
	n, err := numElements(op, dims)
	if err != nil {
		return 0, err
	}
	b, ok := mulInt(n, esize)
	if !ok {
		return 0, errorf(op, CodeInvalidArgument, "dimensions %v: the byte size overflows an int", dims)
	}
	return b, nil
}

// mulInt is a*b and whether it did not overflow.
func mulInt(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
		return 0, false
	}
	return p, true
}

// addInt is a+b and whether it did not overflow.
func addInt(a, b int) (int, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// check validates a against its own description: every element it
// addresses must lie within Data. Every size, stride and offset product
// is checked for overflow: a wrapped product could otherwise pass the
// bounds check and send the plugin past the end of Data.
func (a *HostArray) check(op string) (BufferType, int, error) {
	bt, err := BufferTypeOf(a.DType)
	if err != nil {
		return 0, 0, err
	}
	n, err := numElements(op, a.Dims)
	if err != nil {
		return 0, 0, err
	}
	size := a.DType.Size()
	if a.ByteStrides != nil && len(a.ByteStrides) != len(a.Dims) {
		return 0, 0, errorf(op, CodeInvalidArgument, "%d byte strides for %d dimensions", len(a.ByteStrides), len(a.Dims))
	}
	if n == 0 {
		return bt, 0, nil
	}
	if a.Offset < 0 {
		return 0, 0, errorf(op, CodeInvalidArgument, "offset %d is negative", a.Offset)
	}
	overflow := func(what string) error {
		return errorf(op, CodeInvalidArgument, "array %v%v with byte strides %v and offset %d: %s overflows an int",
			a.DType, a.Dims, a.ByteStrides, a.Offset, what)
	}
	lo, hi := 0, size // byte range touched, relative to element [0...0]
	if a.ByteStrides == nil {
		var ok bool
		if hi, ok = mulInt(n, size); !ok {
			return 0, 0, overflow("the byte size")
		}
	} else {
		for i, s := range a.ByteStrides {
			ext, ok := mulInt(a.Dims[i]-1, s)
			if !ok {
				return 0, 0, overflow(fmt.Sprintf("the extent of dimension %d", i))
			}
			if s > 0 {
				hi, ok = addInt(hi, ext)
			} else {
				lo, ok = addInt(lo, ext)
			}
			if !ok {
				return 0, 0, overflow("the byte range")
			}
		}
	}
	first, ok1 := addInt(a.Offset, lo)
	end, ok2 := addInt(a.Offset, hi)
	if !ok1 || !ok2 {
		return 0, 0, overflow("the byte range")
	}
	if first < 0 || end > len(a.Data) {
		return 0, 0, errorf(op, CodeInvalidArgument, "array %v%v addresses bytes [%d, %d) of %d-byte data",
			a.DType, a.Dims, first, end, len(a.Data))
	}
	return bt, n, nil
}

// BufferFromHost copies a to dev (nil: the client's first addressable
// device) and waits until the host data is no longer needed.
func (c *Client) BufferFromHost(a HostArray, dev *Device) (*Buffer, error) {
	return c.bufferFromHost(a, dev, nil)
}

// BufferFromHostToMemory copies a into the memory space mem.
func (c *Client) BufferFromHostToMemory(a HostArray, mem *Memory) (*Buffer, error) {
	if mem == nil {
		return nil, errorf("Client.BufferFromHost", CodeInvalidArgument, "nil memory")
	}
	return c.bufferFromHost(a, nil, mem)
}

func (c *Client) bufferFromHost(a HostArray, dev *Device, mem *Memory) (*Buffer, error) {
	const op = "Client.BufferFromHost"
	bt, n, err := a.check(op)
	if err != nil {
		return nil, err
	}
	if mem == nil && dev == nil {
		if len(c.addressable) == 0 {
			return nil, errorf(op, CodeFailedPrecondition, "client has no addressable device")
		}
		dev = c.addressable[0]
	}
	if (dev != nil && dev.client.core != c.core) || (mem != nil && mem.client.core != c.core) {
		return nil, errorf(op, CodeInvalidArgument, "device or memory of another client")
	}
	client, err := c.core.acquire(op)
	if err != nil {
		return nil, err
	}
	defer c.core.release()

	// dims and strides are copied to C; the data is pinned where it is.
	rank := len(a.Dims)
	cdims := (*C.int64_t)(C.calloc(C.size_t(max(rank, 1)), 8))
	defer C.free(unsafe.Pointer(cdims))
	for i, d := range a.Dims {
		unsafe.Slice(cdims, rank)[i] = C.int64_t(d)
	}
	var args C.PJRT_Client_BufferFromHostBuffer_Args
	if a.ByteStrides != nil && rank > 0 {
		cstrides := (*C.int64_t)(C.calloc(C.size_t(rank), 8))
		defer C.free(unsafe.Pointer(cstrides))
		for i, s := range a.ByteStrides {
			unsafe.Slice(cstrides, rank)[i] = C.int64_t(s)
		}
		args.byte_strides = cstrides
		args.num_byte_strides = C.size_t(rank)
	}
	var pin runtime.Pinner
	defer pin.Unpin() // after done_with_host_buffer has fired
	if n == 0 {
		args.data = C.stela_empty_data()
	} else {
		ptr := unsafe.Pointer(&a.Data[a.Offset])
		pin.Pin(ptr)
		args.data = ptr
	}
	args.client = (*C.PJRT_Client)(client)
	args._type = C.PJRT_Buffer_Type(bt)
	args.dims = cdims
	args.num_dims = C.size_t(rank)
	// The plugin may read the data until done_with_host_buffer fires,
	// which is awaited below; copying during the call is also allowed.
	args.host_buffer_semantics = C.PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes
	if mem != nil {
		args.memory = mem.ptr
	} else {
		args.device = dev.ptr
	}
	if err := c.plugin.callClientBufferFromHostBuffer(&args); err != nil {
		return nil, err
	}
	if args.buffer == nil {
		c.plugin.destroyEvent(args.done_with_host_buffer)
		return nil, errorf("Client_BufferFromHostBuffer", CodeInternal, "plugin returned no buffer and no error")
	}
	buf := c.newBuffer(args.buffer)
	if err := c.plugin.await(args.done_with_host_buffer); err != nil {
		buf.Destroy()
		return nil, err
	}
	buf.shapeOf.Store(&bufShape{bt, append([]int{}, a.Dims...)})
	buf.device.Store(dev)
	runtime.KeepAlive(a.Data)
	return buf, nil
}

// BufferFromLiteral copies a literal to dev (nil: the first addressable
// device).
func (c *Client) BufferFromLiteral(l *ir.Literal, dev *Device) (*Buffer, error) {
	data, err := literalBytes(l)
	if err != nil {
		return nil, err
	}
	buf, err := c.BufferFromHost(HostArray{DType: l.Type.DType, Dims: l.Type.Shape, Data: data}, dev)
	runtime.KeepAlive(l.Data)
	return buf, err
}

// literalBytes views a literal's elements as bytes (no copy).
func literalBytes(l *ir.Literal) ([]byte, error) {
	rv := reflect.ValueOf(l.Data)
	if et := ir.GoElemType(l.Type.DType); et == nil || rv.Kind() != reflect.Slice || rv.Type().Elem() != et {
		return nil, errorf("Client.BufferFromLiteral", CodeInvalidArgument, "literal of %v holds %T", l.Type.DType, l.Data)
	}
	n := rv.Len() * l.Type.DType.Size()
	if n == 0 {
		return nil, nil
	}
	return unsafe.Slice((*byte)(rv.UnsafePointer()), n), nil
}

// shape reads (once) the buffer's element type and dimensions.
func (b *Buffer) shape(op string) (BufferType, []int, error) {
	if s := b.shapeOf.Load(); s != nil {
		return s.btype, s.dims, nil
	}
	ptr, err := b.h.use(op)
	if err != nil {
		return 0, nil, err
	}
	defer b.h.done()
	p := b.client.plugin
	var ta C.PJRT_Buffer_ElementType_Args
	ta.buffer = (*C.PJRT_Buffer)(ptr)
	if err := p.callBufferElementType(&ta); err != nil {
		return 0, nil, err
	}
	var da C.PJRT_Buffer_Dimensions_Args
	da.buffer = (*C.PJRT_Buffer)(ptr)
	if err := p.callBufferDimensions(&da); err != nil {
		return 0, nil, err
	}
	dims := make([]int, int(da.num_dims))
	if len(dims) > 0 {
		for i, d := range unsafe.Slice(da.dims, len(dims)) {
			dims[i] = int(d)
		}
	}
	sh := &bufShape{BufferType(ta._type), dims}
	if !b.shapeOf.CompareAndSwap(nil, sh) {
		sh = b.shapeOf.Load() // another reader's, the same
	}
	return sh.btype, sh.dims, nil
}

// Type is the buffer's PJRT element type.
func (b *Buffer) Type() (BufferType, error) {
	t, _, err := b.shape("Buffer.Type")
	return t, err
}

// DType is the buffer's element type as Stela's; an error for PJRT types
// Stela does not have.
func (b *Buffer) DType() (ir.DType, error) {
	t, _, err := b.shape("Buffer.DType")
	if err != nil {
		return ir.InvalidDType, err
	}
	d, ok := t.DType()
	if !ok {
		return ir.InvalidDType, errorf("Buffer.DType", CodeUnimplemented, "element type %v has no ir.DType", t)
	}
	return d, nil
}

// Dims are the buffer's dimensions (the slice is shared: do not modify).
func (b *Buffer) Dims() ([]int, error) {
	_, d, err := b.shape("Buffer.Dims")
	return d, err
}

// Client is the client the buffer belongs to.
func (b *Buffer) Client() *Client { return b.client }

// Device is the device holding the buffer.
func (b *Buffer) Device() (*Device, error) {
	dev := b.device.Load()
	if dev != nil {
		return dev, nil
	}
	ptr, err := b.h.use("Buffer.Device")
	if err != nil {
		return nil, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_Device_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	if err := b.client.plugin.callBufferDevice(&a); err != nil {
		return nil, err
	}
	if dev, err = b.client.device(a.device); err != nil {
		return nil, err
	}
	b.device.Store(dev)
	return dev, nil
}

// Memory is the memory space holding the buffer.
func (b *Buffer) Memory() (*Memory, error) {
	ptr, err := b.h.use("Buffer.Memory")
	if err != nil {
		return nil, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_Memory_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	if err := b.client.plugin.callBufferMemory(&a); err != nil {
		return nil, err
	}
	if mem := b.client.memoryByPtr[unsafe.Pointer(a.memory)]; mem != nil {
		return mem, nil
	}
	return nil, errorf("Buffer.Memory", CodeInternal, "plugin returned a memory the client did not list")
}

// OnDeviceSize is the buffer's size in device memory, in bytes.
func (b *Buffer) OnDeviceSize() (int, error) {
	ptr, err := b.h.use("Buffer.OnDeviceSize")
	if err != nil {
		return 0, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_OnDeviceSizeInBytes_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	if err := b.client.plugin.callBufferOnDeviceSizeInBytes(&a); err != nil {
		return 0, err
	}
	return int(a.on_device_size_in_bytes), nil
}

// rowMajor is a C Tiled layout [rank-1, ..., 0]; free it with C.free of
// both pointers.
func rowMajorLayout(rank int) (*C.PJRT_Buffer_MemoryLayout, *C.int64_t) {
	l := (*C.PJRT_Buffer_MemoryLayout)(C.calloc(1, C.size_t(unsafe.Sizeof(C.PJRT_Buffer_MemoryLayout{}))))
	m2m := (*C.int64_t)(C.calloc(C.size_t(max(rank, 1)), 8))
	for i := range rank {
		unsafe.Slice(m2m, rank)[i] = C.int64_t(rank - 1 - i)
	}
	C.stela_layout_row_major(l, m2m, C.size_t(rank))
	return l, m2m
}

// HostSize is the number of bytes ToHost writes (asked of the plugin:
// PJRT_Buffer_ToHostBuffer with no destination).
func (b *Buffer) HostSize() (int, error) {
	_, dims, err := b.shape("Buffer.HostSize")
	if err != nil {
		return 0, err
	}
	ptr, err := b.h.use("Buffer.HostSize")
	if err != nil {
		return 0, err
	}
	defer b.h.done()
	layout, m2m := rowMajorLayout(len(dims))
	defer C.free(unsafe.Pointer(layout))
	defer C.free(unsafe.Pointer(m2m))
	var a C.PJRT_Buffer_ToHostBuffer_Args
	a.src = (*C.PJRT_Buffer)(ptr)
	a.host_layout = layout
	if err := b.client.plugin.callBufferToHostBuffer(&a); err != nil {
		return 0, err
	}
	return int(a.dst_size), nil
}

// ToHost copies the buffer into dst, dense and row-major, and waits for
// the copy. dst must hold at least HostSize bytes.
func (b *Buffer) ToHost(dst []byte) error {
	const op = "Buffer.ToHost"
	t, dims, err := b.shape(op)
	if err != nil {
		return err
	}
	var size int
	if d, ok := t.DType(); ok {
		if size, err = byteSize(op, dims, d.Size()); err != nil {
			return err
		}
	} else if size, err = b.HostSize(); err != nil {
		return err
	}
	if len(dst) < size {
		return errorf(op, CodeInvalidArgument, "destination has %d bytes, the %v%v buffer needs %d", len(dst), t, dims, size)
	}
	if size == 0 {
		return nil
	}
	ptr, err := b.h.use(op)
	if err != nil {
		return err
	}
	defer b.h.done()
	layout, m2m := rowMajorLayout(len(dims))
	defer C.free(unsafe.Pointer(layout))
	defer C.free(unsafe.Pointer(m2m))
	var pin runtime.Pinner
	defer pin.Unpin() // after the copy's event
	pin.Pin(&dst[0])
	var a C.PJRT_Buffer_ToHostBuffer_Args
	a.src = (*C.PJRT_Buffer)(ptr)
	a.host_layout = layout
	a.dst = unsafe.Pointer(&dst[0])
	a.dst_size = C.size_t(size)
	if err := b.client.plugin.callBufferToHostBuffer(&a); err != nil {
		return err
	}
	return b.client.plugin.await(a.event)
}

// HostBytes returns the buffer's contents, dense and row-major.
func (b *Buffer) HostBytes() ([]byte, error) {
	t, dims, err := b.shape("Buffer.HostBytes")
	if err != nil {
		return nil, err
	}
	var size int
	if d, ok := t.DType(); ok {
		if size, err = byteSize("Buffer.HostBytes", dims, d.Size()); err != nil {
			return nil, err
		}
	} else if size, err = b.HostSize(); err != nil {
		return nil, err
	}
	dst := make([]byte, size)
	if err := b.ToHost(dst); err != nil {
		return nil, err
	}
	return dst, nil
}

// ToLiteral copies the buffer into a new literal.
func (b *Buffer) ToLiteral() (*ir.Literal, error) {
	d, err := b.DType()
	if err != nil {
		return nil, err
	}
	dims, err := b.Dims()
	if err != nil {
		return nil, err
	}
	t := ir.TensorOf(d, append([]int{}, dims...)...)
	n := t.NumElements()
	if d == ir.Bool {
		// Normalize: a Go bool must be 0 or 1.
		raw := make([]byte, n)
		if err := b.ToHost(raw); err != nil {
			return nil, err
		}
		vals := make([]bool, n)
		for i, v := range raw {
			vals[i] = v != 0
		}
		return ir.NewLiteral(t, vals)
	}
	data := reflect.MakeSlice(reflect.SliceOf(ir.GoElemType(d)), n, n)
	if n > 0 {
		bytes := unsafe.Slice((*byte)(data.UnsafePointer()), n*d.Size())
		if err := b.ToHost(bytes); err != nil {
			return nil, err
		}
	}
	return ir.NewLiteral(t, data.Interface())
}

// CopyToDevice copies the buffer to another device of the same client.
func (b *Buffer) CopyToDevice(dev *Device) (*Buffer, error) {
	const op = "Buffer.CopyToDevice"
	if dev == nil || dev.client.core != b.client.core {
		return nil, errorf(op, CodeInvalidArgument, "device is nil or of another client")
	}
	ptr, err := b.h.use(op)
	if err != nil {
		return nil, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_CopyToDevice_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	a.dst_device = dev.ptr
	if err := b.client.plugin.callBufferCopyToDevice(&a); err != nil {
		return nil, err
	}
	if a.dst_buffer == nil {
		return nil, errorf("Buffer_CopyToDevice", CodeInternal, "plugin returned no buffer and no error")
	}
	out := b.client.newBuffer(a.dst_buffer)
	out.device.Store(dev)
	return out, nil
}

// CopyToMemory copies the buffer to a memory space of the same client.
func (b *Buffer) CopyToMemory(mem *Memory) (*Buffer, error) {
	const op = "Buffer.CopyToMemory"
	if mem == nil || mem.client.core != b.client.core {
		return nil, errorf(op, CodeInvalidArgument, "memory is nil or of another client")
	}
	ptr, err := b.h.use(op)
	if err != nil {
		return nil, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_CopyToMemory_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	a.dst_memory = mem.ptr
	if err := b.client.plugin.callBufferCopyToMemory(&a); err != nil {
		return nil, err
	}
	if a.dst_buffer == nil {
		return nil, errorf("Buffer_CopyToMemory", CodeInternal, "plugin returned no buffer and no error")
	}
	return b.client.newBuffer(a.dst_buffer), nil
}

// ReadyEvent returns an event that fires when the buffer's data is ready
// (or has failed to be computed).
func (b *Buffer) ReadyEvent() (*Event, error) {
	ptr, err := b.h.use("Buffer.ReadyEvent")
	if err != nil {
		return nil, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_ReadyEvent_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	if err := b.client.plugin.callBufferReadyEvent(&a); err != nil {
		return nil, err
	}
	if a.event == nil {
		return nil, errorf("Buffer_ReadyEvent", CodeInternal, "plugin returned no event and no error")
	}
	return b.client.newEvent(a.event), nil
}

// Delete drops the buffer's device memory but keeps the handle: later uses
// fail (in the plugin) and IsDeleted reports true. Destroy still frees it.
func (b *Buffer) Delete() error {
	// Exclusively: an execution in flight reads the storage Delete drops
	// (handle.useExcl).
	ptr, err := b.h.useExcl("Buffer.Delete")
	if err != nil {
		return err
	}
	defer b.h.mu.Unlock()
	var a C.PJRT_Buffer_Delete_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	return b.client.plugin.callBufferDelete(&a)
}

// IsDeleted reports whether the buffer's memory was dropped (Delete, or
// donation to an execution). A destroyed buffer counts as deleted.
func (b *Buffer) IsDeleted() (bool, error) {
	ptr, err := b.h.use("Buffer.IsDeleted")
	if err != nil {
		return true, nil
	}
	defer b.h.done()
	var a C.PJRT_Buffer_IsDeleted_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	if err := b.client.plugin.callBufferIsDeleted(&a); err != nil {
		return false, err
	}
	return bool(a.is_deleted), nil
}

// UnsafePointer is the address of the buffer's device memory, for plugins
// whose memory the host can reach.
func (b *Buffer) UnsafePointer() (uintptr, error) {
	ptr, err := b.h.use("Buffer.UnsafePointer")
	if err != nil {
		return 0, err
	}
	defer b.h.done()
	var a C.PJRT_Buffer_UnsafePointer_Args
	a.buffer = (*C.PJRT_Buffer)(ptr)
	if err := b.client.plugin.callBufferUnsafePointer(&a); err != nil {
		return 0, err
	}
	return uintptr(a.buffer_pointer), nil
}

// Destroy frees the buffer. It is idempotent and waits for calls in flight
// on the buffer. It also unregisters the buffer's cleanup: a registered
// cleanup costs the garbage collector until the buffer is collected, and
// every registration in the same memory span scans the ones before it.
func (b *Buffer) Destroy() {
	b.h.mu.Lock()
	ptr := b.h.ptr
	b.h.ptr = nil
	if ptr != nil {
		if b.registered {
			b.cleanup.Stop()
		}
		b.leave()
	}
	b.h.mu.Unlock()
	if ptr != nil {
		b.h.free(ptr)
		b.h.core.release()
	}
}
