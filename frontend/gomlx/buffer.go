package gomlx

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Buffer is a runtime buffer on one of the backend's devices.
type Buffer struct {
	b     *Backend
	dev   compute.DeviceNum
	shape shapes.Shape
	mu    sync.Mutex
	buf   runtime.Buffer // nil once finalized or donated
	// shared: Go holds a slice over the buffer's memory (NewSharedBuffer,
	// Data), so executions that read it must end before Execute returns.
	shared atomic.Bool
}

var _ compute.Buffer = (*Buffer)(nil)

// Runtime returns the runtime buffer (nil after Finalize or donation).
func (x *Buffer) Runtime() runtime.Buffer {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.buf
}

// Backend is the buffer's backend.
func (x *Buffer) Backend() compute.Backend { return x.b }

// Finalize releases the device memory now (a buffer already donated or
// finalized is left alone).
func (x *Buffer) Finalize() error {
	x.mu.Lock()
	buf := x.buf
	x.buf = nil
	x.mu.Unlock()
	if f, ok := buf.(runtime.Freer); ok && !f.Freed() {
		f.Free()
	}
	return nil
}

// Shape is the buffer's shape.
func (x *Buffer) Shape() (shapes.Shape, error) { return x.shape, nil }

// DeviceNum is the buffer's device.
func (x *Buffer) DeviceNum() (compute.DeviceNum, error) { return x.dev, nil }

// ToFlatData copies the buffer into flat, a slice of the dtype's Go type
// with exactly the buffer's number of elements.
func (x *Buffer) ToFlatData(flat any) error {
	buf := x.Runtime()
	if buf == nil {
		return x.goneErr()
	}
	l, err := buf.Literal()
	if err != nil {
		return errors.Wrap(err, "stela backend: reading a buffer")
	}
	dst := reflect.ValueOf(flat)
	if dst.Kind() != reflect.Slice {
		return errors.Errorf("stela backend: ToFlatData given %T, want a slice", flat)
	}
	want := x.shape.DType.GoType()
	if dst.Type().Elem() != want {
		return errors.Errorf("stela backend: ToFlatData given %T for a buffer of %s, want []%s", flat, x.shape, want)
	}
	n := x.shape.Size()
	if isSubByte(x.shape.DType) {
		n = x.shape.DType.SizeForDimensions(x.shape.Dimensions...)
	}
	if dst.Len() != n {
		return errors.Errorf("stela backend: ToFlatData given %d elements for a buffer of %s", dst.Len(), x.shape)
	}
	src := fromLiteralData(l)
	reflect.Copy(dst, reflect.ValueOf(src))
	return nil
}

func (x *Buffer) goneErr() error {
	return errors.Errorf("stela backend: buffer %s was finalized or donated", x.shape)
}

// Data is a slice over the buffer's memory (after the computation that
// makes it has finished), on backends whose devices keep buffers in host
// memory (HasSharedBuffers); it is valid until the buffer is finalized or
// donated. Writes through it must not overlap an execution that reads the
// buffer (GoMLX's rule for shared buffers; Execute returns only when the
// executions reading a shared buffer have ended).
func (x *Buffer) Data() (any, error) {
	if !x.b.HasSharedBuffers() {
		return nil, errors.Wrapf(compute.ErrNotImplemented, "stela backend: no shared buffers on %s (its buffers are not in host memory)", x.b.Description())
	}
	buf := x.Runtime()
	if buf == nil {
		return nil, x.goneErr()
	}
	if w, ok := buf.(interface{ Err() error }); ok {
		if err := w.Err(); err != nil { // waits for the computation
			return nil, errors.Wrap(err, "stela backend: Data")
		}
	}
	flat, err := hostSlice(buf, x.shape)
	if err != nil {
		return nil, err
	}
	x.shared.Store(true)
	return flat, nil
}

// hostSlice is a slice of shape's Go type over buf's host memory (the
// packed bytes for the sub-byte types).
func hostSlice(buf runtime.Buffer, shape shapes.Shape) (any, error) {
	n := shape.Size()
	if isSubByte(shape.DType) {
		n = shape.DType.SizeForDimensions(shape.Dimensions...)
	}
	goType := shape.DType.GoType()
	if n == 0 {
		return reflect.MakeSlice(reflect.SliceOf(goType), 0, 0).Interface(), nil
	}
	ptr, err := runtime.DataPointer(buf)
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: the address of a buffer")
	}
	if ptr == 0 {
		return nil, errors.Errorf("stela backend: buffer %s has no address", shape)
	}
	// The memory is the plugin's (C memory), not Go's: a uintptr to it
	// is a valid pointer for as long as the buffer lives.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&ptr))
	return reflect.SliceAt(goType, p, n).Interface(), nil
}

// CopyToDevice copies the buffer to another device of the backend (via
// the host: the runtime has no device-to-device copy).
func (x *Buffer) CopyToDevice(deviceNum compute.DeviceNum) (compute.Buffer, error) {
	buf := x.Runtime()
	if buf == nil {
		return nil, x.goneErr()
	}
	d, err := x.b.device(deviceNum)
	if err != nil {
		return nil, err
	}
	l, err := buf.Literal()
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: CopyToDevice")
	}
	nb, err := d.Put(l)
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: CopyToDevice")
	}
	return &Buffer{b: x.b, dev: deviceNum, shape: x.shape, buf: nb}, nil
}

// BufferFromFlatData copies flat (a slice of shape's dtype's Go type) to
// the device. GoMLX's sub-byte types are stored as their packed bytes
// (ui8), which a program cannot take as a parameter (subbyte.go).
func (b *Backend) BufferFromFlatData(deviceNum compute.DeviceNum, flat any, shape shapes.Shape) (compute.Buffer, error) {
	d, err := b.device(deviceNum)
	if err != nil {
		return nil, err
	}
	var t ir.Type
	n := shape.Size()
	if isSubByte(shape.DType) {
		n = shape.DType.SizeForDimensions(shape.Dimensions...)
		t = ir.TensorOf(ir.U8, n)
	} else if t, err = irType(shape); err != nil {
		return nil, err
	}
	if flat == nil && n == 0 {
		flat = reflect.MakeSlice(reflect.SliceOf(shape.DType.GoType()), 0, 0).Interface()
	}
	v := reflect.ValueOf(flat)
	if v.Kind() != reflect.Slice || v.Type().Elem() != shape.DType.GoType() {
		return nil, errors.Errorf("stela backend: BufferFromFlatData given %T for shape %s, want []%s", flat, shape, shape.DType.GoType())
	}
	if v.Len() != n {
		return nil, errors.Errorf("stela backend: BufferFromFlatData given %d elements for shape %s (%d elements)", v.Len(), shape, n)
	}
	l, err := ir.NewLiteral(t, toLiteralData(flat, true))
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: BufferFromFlatData")
	}
	rb, err := d.Put(l)
	if err != nil {
		return nil, errors.Wrap(err, "stela backend: BufferFromFlatData")
	}
	return &Buffer{b: b, dev: deviceNum, shape: shape.Clone(), buf: rb}, nil
}

// HasSharedBuffers is true when every device of the backend keeps its
// buffers in host memory (runtime.HostMemory: Stela's CPU plugin), so
// Go and the compiled programs address the same memory; docs/gomlx.md
// ("Shared buffers").
func (b *Backend) HasSharedBuffers() bool { return b.hostMemory }

// NewSharedBuffer makes a zeroed buffer on the device and returns it with
// a slice over its memory (Data), which the caller may read and write
// between executions.
func (b *Backend) NewSharedBuffer(deviceNum compute.DeviceNum, shape shapes.Shape) (compute.Buffer, any, error) {
	if !b.hostMemory {
		return nil, nil, errors.Wrapf(compute.ErrNotImplemented, "stela backend: no shared buffers on %s (its buffers are not in host memory)", b.Description())
	}
	d, err := b.device(deviceNum)
	if err != nil {
		return nil, nil, err
	}
	var t ir.Type
	if isSubByte(shape.DType) {
		t = ir.TensorOf(ir.U8, shape.DType.SizeForDimensions(shape.Dimensions...))
	} else if t, err = irType(shape); err != nil {
		return nil, nil, err
	}
	n := t.NumElements()
	l, err := ir.NewLiteral(t, reflect.MakeSlice(reflect.SliceOf(ir.GoElemType(t.DType)), n, n).Interface())
	if err != nil {
		return nil, nil, errors.Wrap(err, "stela backend: NewSharedBuffer")
	}
	rb, err := d.Put(l)
	if err != nil {
		return nil, nil, errors.Wrap(err, "stela backend: NewSharedBuffer")
	}
	x := &Buffer{b: b, dev: deviceNum, shape: shape.Clone(), buf: rb}
	flat, err := x.Data()
	if err != nil {
		_ = x.Finalize()
		return nil, nil, err
	}
	return x, flat, nil
}

// toLiteralData converts a GoMLX flat slice to the Go slice a Literal
// holds (the same except for the half floats, whose Go types differ but
// whose bits agree); copy makes a fresh slice even where they agree.
func toLiteralData(flat any, copyData bool) any {
	switch f := flat.(type) {
	case []float16.Float16:
		out := make([]ir.Float16, len(f))
		if len(f) > 0 {
			copy(unsafe.Slice((*uint16)(unsafe.Pointer(&out[0])), len(f)), unsafe.Slice((*uint16)(unsafe.Pointer(&f[0])), len(f)))
		}
		return out
	case []bfloat16.BFloat16:
		out := make([]ir.BFloat16, len(f))
		for i, v := range f {
			out[i] = ir.BFloat16(v)
		}
		return out
	case []int: // GoMLX's Int64 (dtypes.FromGoType)
		out := make([]int64, len(f))
		for i, v := range f {
			out[i] = int64(v)
		}
		return out
	case []uint:
		out := make([]uint64, len(f))
		for i, v := range f {
			out[i] = uint64(v)
		}
		return out
	}
	if !copyData {
		return flat
	}
	v := reflect.ValueOf(flat)
	out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(out, v)
	return out.Interface()
}

// fromLiteralData is the GoMLX flat slice of a Literal's data (shared
// with it except for the half floats).
func fromLiteralData(l *ir.Literal) any {
	switch f := l.Data.(type) {
	case []ir.Float16:
		out := make([]float16.Float16, len(f))
		if len(f) > 0 {
			copy(unsafe.Slice((*uint16)(unsafe.Pointer(&out[0])), len(f)), unsafe.Slice((*uint16)(unsafe.Pointer(&f[0])), len(f)))
		}
		return out
	case []ir.BFloat16:
		out := make([]bfloat16.BFloat16, len(f))
		for i, v := range f {
			out[i] = bfloat16.BFloat16(v)
		}
		return out
	}
	return l.Data
}
