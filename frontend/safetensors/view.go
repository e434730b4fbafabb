package safetensors

import (
	"unsafe"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Viewer is a Reader that can also place a tensor on a device without
// copying it (File and Sharded are both).
type Viewer interface {
	Reader
	View(name string, dev tensor.Device) (*tensor.Tensor, error)
}

var (
	_ Viewer = (*File)(nil)
	_ Viewer = (*Sharded)(nil)
)

// View puts the named tensor on dev. Where it can, the tensor's buffer is
// the mapped file's own bytes (runtime.ViewHostMemory), with no copy: the
// file is memory-mapped, dev keeps its buffers in host memory (Stela's
// CPU plugin), the machine is little-endian, the dtype's bytes are
// Stela's (not BOOL, whose bytes must be checked to be 0 or 1) and the
// data is aligned to its element size (safetensors writers order tensors
// so that it is). Otherwise it copies, as Literal then Put do. The
// mapping stays until Close and the last view are both gone.
//
// A view reads the file's pages as the program runs: a file truncated or
// rewritten in place by another process while its views live changes or
// faults what they read (a truncated mapping is a SIGBUS in the process),
// as with any memory-mapped model. Write new weights to a new file and
// rename it (WriteFile and Save do), or copy with Literal.
func (f *File) View(name string, dev tensor.Device) (*tensor.Tensor, error) {
	e, ok := f.tensors[name]
	if !ok {
		return nil, f.missing(name)
	}
	if e.dtype.elem == ir.InvalidDType {
		return nil, f.errorf("tensor %q has dtype %s, which Stela has no element type for", name, e.dtype.name)
	}
	if dev == nil {
		dev = tensor.DefaultDevice()
	}
	t := ir.TensorOf(e.dtype.elem, e.shape...)
	if mem, release := f.acquire(e); mem != nil {
		if !runtime.HostMemory(dev) {
			release()
		} else if b, err := runtime.ViewHostMemory(dev, t, mem, release); err != nil {
			release()
			return nil, f.errorf("tensor %q: viewing it on %s: %v", name, dev.Name(), err)
		} else {
			return tensor.FromResult(b, true), nil
		}
	}
	l, err := f.Literal(name)
	if err != nil {
		return nil, err
	}
	b, err := dev.Put(l)
	if err != nil {
		return nil, f.errorf("tensor %q: putting it on %s: %v", name, dev.Name(), err)
	}
	return tensor.FromResult(b, true), nil
}

// acquire returns the bytes of e in the mapping and a release that must be
// called once, when nothing reads them any more; nil when e cannot be
// viewed in place (see View).
func (f *File) acquire(e *entry) ([]byte, func()) {
	if !littleEndian || e.dtype.elem == ir.Bool || e.end == e.begin {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || f.unmap == nil {
		return nil, nil
	}
	mem := f.data[f.base+e.begin : f.base+e.end]
	if uintptr(unsafe.Pointer(unsafe.SliceData(mem)))%uintptr(e.dtype.elem.Size()) != 0 {
		return nil, nil
	}
	f.views++
	return mem, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.views--
		if f.closed && f.views == 0 {
			f.unmapNow()
		}
	}
}

// View is File.View on the shard that holds the tensor.
func (s *Sharded) View(name string, dev tensor.Device) (*tensor.Tensor, error) {
	f, err := s.shard(name)
	if err != nil {
		return nil, err
	}
	return f.View(name, dev)
}
