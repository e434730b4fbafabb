package runtime_test

import (
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// TestViewHostMemory: a view of mmap'd memory on the CPU plugin is that
// memory (its address, and an execution reads what is written there
// between executions), at an aligned and an unaligned address; release
// runs once when the buffer is freed; the host device refuses views.
func TestViewHostMemory(t *testing.T) {
	cpu := lookup(t, "cpu:0")
	if !runtime.HostMemory(cpu) {
		t.Fatal("the CPU plugin's device is not host memory")
	}
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	typ := ir.TensorOf(ir.F32, 4)
	f := ir.NewFunc("neg", typ)
	y, err := f.Emit1(ir.UnknownLoc, ir.OpNegate, []*ir.Value{f.Params[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Return(y)
	exe, err := cpu.(runtime.Compiler).Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []int{0, 4} { // 64-byte aligned (mmap's page), and not
		floats := unsafe.Slice((*float32)(unsafe.Pointer(&mem[off])), 4)
		var released atomic.Int32
		b, err := runtime.ViewHostMemory(cpu, typ, mem[off:off+16], func() { released.Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		if p, err := runtime.DataPointer(b); err != nil || p != uintptr(unsafe.Pointer(&mem[off])) {
			t.Errorf("offset %d: the view's address is %#x, %v; the memory's is %p", off, p, err, &mem[off])
		}
		for _, vals := range [][]float32{{1, 2, 3, 4}, {-5, 6.5, 0, 8}} {
			copy(floats, vals)
			out, err := exe.Run([]runtime.Buffer{b}, ir.UnknownLoc)
			if err != nil {
				t.Fatal(err)
			}
			got := read(t, out[0])
			for i := range vals {
				if got[i] != -vals[i] {
					t.Fatalf("offset %d: Neg of the view holding %v gave %v", off, vals, got)
				}
			}
		}
		if released.Load() != 0 {
			t.Error("released while the buffer lives")
		}
		b.(runtime.Freer).Free()
		if n := released.Load(); n != 1 {
			t.Errorf("offset %d: released %d times after Free, want 1", off, n)
		}
	}
	if _, err := runtime.ViewHostMemory(cpu, typ, mem[:8], nil); err == nil {
		t.Error("a view of 8 bytes as f32[4] did not fail")
	}
	if _, err := runtime.ViewHostMemory(lookup(t, "host"), typ, mem[:16], nil); err == nil {
		t.Error("the host device made a view")
	}
}
