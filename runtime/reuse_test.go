package runtime_test

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// TestResultReuse: the CPU plugin keeps the memory of freed large
// buffers (buffer.c's cache: W2 of docs/performance.md runs without
// faulting in fresh pages) and gives it to new results, but never memory
// that is still referenced or that it does not own. A result of the
// size of a freed one takes its block; a live result, an argument whose
// buffer a result shares (an identity program), and a view of host
// memory (released to its owner, never to the cache) keep their
// contents through many executions after them.
func TestResultReuse(t *testing.T) {
	cpu := lookup(t, "cpu:0")
	const n = 1 << 16 // 256 KiB: above the cache's 64 KiB floor
	typ := ir.TensorOf(ir.F32, n)
	compile := func(name string, body func(f *ir.Func) *ir.Value) runtime.Executable {
		t.Helper()
		f := ir.NewFunc(name, typ)
		f.Return(body(f))
		exe, err := cpu.(runtime.Compiler).Compile(f)
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	double := compile("double", func(f *ir.Func) *ir.Value {
		v, err := f.Emit1(ir.UnknownLoc, ir.OpAdd, []*ir.Value{f.Params[0], f.Params[0]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	})
	identity := compile("identity", func(f *ir.Func) *ir.Value { return f.Params[0] })
	run := func(exe runtime.Executable, x runtime.Buffer) runtime.Buffer {
		t.Helper()
		out, err := exe.Run([]runtime.Buffer{x}, ir.UnknownLoc)
		if err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	filled := func(v float32) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(v) + float64(i%97)
		}
		return xs
	}
	put := func(v float32) runtime.Buffer {
		t.Helper()
		b, err := cpu.Put(ir.LiteralFromFloat64s(typ, filled(v)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	check := func(what string, b runtime.Buffer, v, scale float32) {
		t.Helper()
		for i, x := range read(t, b) {
			if want := scale * (v + float32(i%97)); x != want {
				t.Fatalf("%s: element %d is %v, want %v", what, i, x, want)
			}
		}
	}
	addr := func(b runtime.Buffer) uintptr {
		t.Helper()
		p, err := runtime.DataPointer(b)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	free := func(b runtime.Buffer) { b.(runtime.Freer).Free() }

	// A freed result's block goes to the next buffer of its size (an
	// argument put or a result); the live result is untouched.
	x := put(1)
	live := run(double, x)
	freed := run(double, x)
	was := addr(freed)
	free(freed)
	reused := false
	for k := range 8 {
		y := put(float32(10 + k))
		r := run(double, y)
		reused = reused || addr(r) == was || addr(y) == was
		check("a result after a freed one", r, float32(10+k), 2)
		check("the live result", live, 1, 2)
		free(r)
		free(y)
	}
	if !reused {
		t.Error("no buffer took the freed result's memory: the plugin's cache of freed buffers is not used")
	}

	// An identity program's result may share its argument's memory:
	// freeing the argument must not give that memory to the next results.
	a := put(3)
	same := run(identity, a)
	free(a)
	for k := range 8 {
		y := put(float32(20 + k))
		r := run(double, y)
		if addr(r) == addr(same) {
			t.Fatal("a new result took the memory of an identity result that is still live")
		}
		check("a result after freeing the argument", r, float32(20+k), 2)
		free(r)
		free(y)
	}
	check("the identity result after its argument was freed", same, 3, 1)

	// A view of host memory goes back to its owner, never to the cache:
	// no result may be written into it after the view is freed.
	mem, err := syscall.Mmap(-1, 0, 4*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	floats := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), n)
	for i := range floats {
		floats[i] = 5 + float32(i%97)
	}
	view, err := runtime.ViewHostMemory(cpu, typ, mem, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("double of the view", run(double, view), 5, 2)
	free(view)
	lo, hi := uintptr(unsafe.Pointer(&mem[0])), uintptr(unsafe.Pointer(&mem[0]))+uintptr(len(mem))
	for k := range 8 {
		y := put(float32(30 + k))
		r := run(double, y)
		if p := addr(r); p >= lo && p < hi {
			t.Fatal("a result was placed in the memory of a freed view of host memory")
		}
		check("a result after freeing the view", r, float32(30+k), 2)
		free(r)
		free(y)
	}
	for i, v := range floats {
		if want := 5 + float32(i%97); v != want {
			t.Fatalf("host memory under a freed view changed: element %d is %v, want %v", i, v, want)
		}
	}
}
