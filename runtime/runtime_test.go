package runtime_test

import (
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu"
	"github.com/stela-ml/stela/runtime"
)

func lookup(t *testing.T, name string) runtime.Device {
	t.Helper()
	d, err := runtime.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestLookup(t *testing.T) {
	c0, c00, c1 := lookup(t, "cpu"), lookup(t, "cpu:0"), lookup(t, "cpu:1")
	if c0 != c00 || c0 == c1 || c0.Name() != "cpu:0" || c1.Name() != "cpu:1" {
		t.Errorf("cpu=%s cpu:0=%s cpu:1=%s", c0.Name(), c00.Name(), c1.Name())
	}
	if lookup(t, "host") != runtime.Host() {
		t.Errorf("host is not the reference device")
	}
	for name, want := range map[string]string{
		"cpu:99":  "platform cpu has 8 device(s) (set STELA_CPU_DEVICES to have more)",
		"nowhere": `unknown device "nowhere": not registered (host`,
		"cpu:x":   `want PLATFORM or PLATFORM:ID`,
	} {
		if _, err := runtime.Lookup(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(%q) = %v, want %q", name, err, want)
		}
	}
	// A full path always works; Stela's plugin by path gets this program
	// as its compile worker.
	path, err := cpu.PluginPath()
	if err != nil {
		t.Fatal(err)
	}
	d := lookup(t, path)
	if d.Name() != path+":0" {
		t.Errorf("device by path is named %q", d.Name())
	}
	x := tensor.FromSlice([]float32{1, 2}, 2).To(d.Name())
	if got := tensor.Add(x, x).Float32s(); got[0] != 2 || got[1] != 4 {
		t.Errorf("add on the plugin by path: %v", got)
	}
}

func addFunc(n int) *ir.Func {
	f := ir.NewFunc("twice")
	p := f.AddParam(ir.TensorOf(ir.F32, n), ir.UnknownLoc)
	s, err := f.Emit(ir.UnknownLoc, ir.OpAdd, []*ir.Value{p, p}, nil)
	if err != nil {
		panic(err)
	}
	f.Return(s...)
	return f
}

func TestProgramCache(t *testing.T) {
	d := lookup(t, "cpu:2")
	text1, err := runtime.StableHLO(addFunc(3))
	if err != nil {
		t.Fatal(err)
	}
	text2, _ := runtime.StableHLO(addFunc(3))
	if text1 != text2 {
		t.Fatalf("lowering is not deterministic")
	}
	comp := d.(runtime.Compiler)
	e1, err := comp.Compile(addFunc(3))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.CacheStats()
	e2, err := comp.Compile(addFunc(3))
	if err != nil {
		t.Fatal(err)
	}
	after := runtime.CacheStats()
	if e1.Hash() != e2.Hash() || len(e1.Hash()) != 64 {
		t.Errorf("hashes %q %q", e1.Hash(), e2.Hash())
	}
	if after.ProgramHits != before.ProgramHits+1 || after.Compiles != before.Compiles {
		t.Errorf("second compile of the same program: %+v -> %+v", before, after)
	}
	if h, err := runtime.HashOf("cpu:2", addFunc(3)); err != nil || h != e1.Hash() {
		t.Errorf("HashOf = %q, %v; the cache used %q", h, err, e1.Hash())
	}
	e3, _ := comp.Compile(addFunc(4))
	if e3.Hash() == e1.Hash() {
		t.Errorf("different programs share a hash")
	}
	b, err := d.Put(ir.MustLiteral(ir.TensorOf(ir.F32, 3), []float32{1, 2, 3}))
	if err != nil {
		t.Fatal(err)
	}
	out, err := e2.Run([]runtime.Buffer{b}, ir.UnknownLoc)
	if err != nil {
		t.Fatal(err)
	}
	l, err := out[0].Literal()
	if err != nil || l.Data.([]float32)[2] != 6 {
		t.Errorf("run: %v %v", l, err)
	}
	if _, err := e3.Run([]runtime.Buffer{b}, ir.UnknownLoc); err == nil || !strings.Contains(err.Error(), "argument #0 has type f32[3], want f32[4]") {
		t.Errorf("wrong argument type: %v", err)
	}
}

// opFunc is op on an f32[3] parameter, made at loc.
func opFunc(op ir.Op, attr any, loc ir.Loc) *ir.Func {
	f := ir.NewFunc("located")
	p := f.AddParam(ir.TensorOf(ir.F32, 3), loc)
	s, err := f.Emit(loc, op, []*ir.Value{p}, attr)
	if err != nil {
		panic(err)
	}
	f.Return(s...)
	return f
}

// The plugin compiles the program with its Go locations, but the cache
// key leaves them out: the same program written on another line is found.
func TestProgramCacheIgnoresLocations(t *testing.T) {
	comp := lookup(t, "cpu:1").(runtime.Compiler)
	at := func(file string, line int) *ir.Func {
		return opFunc(ir.OpExp, nil, ir.Loc{File: "/src/" + file, Line: line})
	}
	e1, err := comp.Compile(at("a.go", 10))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.CacheStats()
	e2, err := comp.Compile(at("b.go", 20))
	if err != nil {
		t.Fatal(err)
	}
	after := runtime.CacheStats()
	if e1.Hash() != e2.Hash() || after.ProgramHits != before.ProgramHits+1 || after.Compiles != before.Compiles {
		t.Errorf("the program on another line: hashes %.8s %.8s, stats %+v -> %+v", e1.Hash(), e2.Hash(), before, after)
	}
	text, err := runtime.StableHLOLocated(at("a.go", 10))
	if err != nil || !strings.Contains(text, `loc("/src/a.go":10:0)`) {
		t.Errorf("located text: %v\n%s", err, text)
	}
}

// The runtime finds a program compiled before by its IR, without
// lowering it: the same function built again is a cache hit, and one that
// differs only in a constant's value is another program.
func TestProgramCacheByIR(t *testing.T) {
	comp := lookup(t, "cpu").(runtime.Compiler)
	plus := func(c float32) *ir.Func {
		f := ir.NewFunc("plus")
		x := f.AddParam(ir.TensorOf(ir.F32, 2), ir.UnknownLoc)
		k, _ := f.Emit(ir.UnknownLoc, ir.OpConstant, nil, ir.ConstantAttr{Value: ir.MustLiteral(ir.TensorOf(ir.F32, 2), []float32{c, c})})
		s, _ := f.Emit(ir.UnknownLoc, ir.OpAdd, []*ir.Value{x, k[0]}, nil)
		f.Return(s...)
		return f
	}
	e1, err := comp.Compile(plus(1.5))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.CacheStats()
	e2, err := comp.Compile(plus(1.5))
	if err != nil {
		t.Fatal(err)
	}
	after := runtime.CacheStats()
	if e1.Hash() != e2.Hash() || after.ProgramHits != before.ProgramHits+1 || after.Compiles != before.Compiles {
		t.Errorf("the same function again: hashes %.8s %.8s, stats %+v -> %+v", e1.Hash(), e2.Hash(), before, after)
	}
	e3, err := comp.Compile(plus(2.5))
	if err != nil {
		t.Fatal(err)
	}
	if e3.Hash() == e1.Hash() {
		t.Fatalf("x+2.5 got x+1.5's program %.8s", e1.Hash())
	}
	in := tensor.FromSlice([]float32{1, 2}, 2)
	for _, c := range []struct {
		e    runtime.Executable
		want float32
	}{{e1, 2.5}, {e2, 2.5}, {e3, 3.5}} {
		rs, err := c.e.Run([]runtime.Buffer{in.Buffer()}, ir.UnknownLoc)
		if err != nil {
			t.Fatal(err)
		}
		l, err := rs[0].Literal()
		if err != nil || l.Data.([]float32)[0] != c.want {
			t.Errorf("program %.8s: %v %v, want %v first", c.e.Hash(), l, err, c.want)
		}
	}
}

// A compile error of the plugin that names an op's location is located
// at that op.
func TestCompileErrorsAtTheOp(t *testing.T) {
	loc := ir.Loc{File: "/src/model.go", Line: 42}
	f := opFunc(ir.OpCustomCall, ir.CustomCallAttr{Target: "stela.nope", ResultTypes: []ir.Type{ir.TensorOf(ir.F32, 3)}}, loc)
	_, err := lookup(t, "cpu").(runtime.Compiler).Compile(f)
	var e *ir.Error
	if !errors.As(err, &e) || !e.Loc.Equal(loc) || e.Op != "custom_call" ||
		!strings.Contains(err.Error(), `unsupported: stablehlo.custom_call @stela.nope (in @main at "/src/model.go":42:0)`) {
		t.Errorf("got %v, want an error at model.go:42 naming the location", err)
	}
	// Located, the plugin's error keeps its type and code.
	var pe *pjrt.Error
	if !errors.As(err, &pe) {
		t.Errorf("errors.As(%v, *pjrt.Error) = false: the located error lost the plugin's error", err)
	}
}

// A failing execution does not fail the dispatch: its error surfaces when
// a result (or a result computed from it) is read, located at the op.
func TestDeviceErrorsSurfaceAtReads(t *testing.T) {
	f := ir.NewFunc("checked")
	x := f.AddParam(ir.TensorOf(ir.F32, 2), ir.UnknownLoc)
	one, _ := f.Emit(ir.UnknownLoc, ir.OpConstant, nil, ir.ConstantAttr{Value: ir.MustLiteral(ir.TensorOf(ir.F32, 2), []float32{1, 1})})
	loc := ir.Loc{File: "/src/model.go", Line: 42}
	if _, err := f.Emit(loc, ir.OpCustomCall, []*ir.Value{x, one[0]}, ir.CustomCallAttr{Target: "check.expect_eq", HasSideEffect: true}); err != nil {
		t.Fatal(err)
	}
	f.Return(x)
	in := tensor.FromSlice([]float32{1, 2}, 2)
	outs, err := tensor.Run(f, in)
	if err != nil {
		t.Fatalf("dispatch failed at once: %v", err)
	}
	later := tensor.Add(outs[0], in) // runs nothing: its input failed
	for _, r := range []*tensor.Tensor{outs[0], later} {
		err := tensor.Catch(func() { r.Float32s() })
		if err == nil || !strings.Contains(err.Error(), "check failed") {
			t.Errorf("read: %v", err)
		}
		if r.Err() == nil {
			t.Errorf("Err() is nil")
		}
	}
}

func live(t *testing.T) int64 {
	t.Helper()
	n, ok := runtime.LiveBuffers("cpu")
	if !ok {
		t.Fatal("the CPU plugin does not count live buffers")
	}
	return n
}

// settleLive collects garbage until the CPU plugin's live-buffer count
// stops moving, and returns it. pjrt registers buffer cleanups shortly
// after the buffers are made, and destroys the buffers whose cleanups ran
// later too (pjrt/cleanups.go, pjrt/deadbuffers.go): it flushes both
// around each collection.
func settleLive(t *testing.T) int64 {
	t.Helper()
	n := int64(-1)
	for range 20 {
		pjrt.FlushCleanups()
		goruntime.GC()
		time.Sleep(time.Millisecond)
		pjrt.FlushCleanups()
		m := live(t)
		if m == n {
			break
		}
		n = m
	}
	return n
}

func TestFree(t *testing.T) {
	x := tensor.FromSlice([]float32{1, 2, 3}, 3)
	n := live(t)
	x.Free()
	if m := live(t); m != n-1 {
		t.Errorf("live buffers %d -> %d after Free, want one fewer", n, m)
	}
	if err := tensor.Catch(func() { x.Float32s() }); err == nil || !strings.Contains(err.Error(), "freed") {
		t.Errorf("read after Free: %v", err)
	}
	x.Free() // idempotent
}

// A million eager ops leave no buffers behind: intermediate results are
// freed by their cleanups once unreachable.
func TestEagerOpsDoNotLeak(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 50_000
	}
	b := tensor.FromSlice([]float32{1, 1, 1, 1}, 4)
	x := tensor.FromSlice([]float32{0, 0, 0, 0}, 4)
	x = tensor.Add(x, b) // compile outside the measurement
	settle := func() int64 { return settleLive(t) }
	before := settle()
	for range n {
		x = tensor.Add(x, b)
	}
	if got := x.Float32s()[0]; got != float32(n+1) {
		t.Fatalf("x = %v after %d adds", got, n)
	}
	after := settle()
	goruntime.KeepAlive(b)
	t.Logf("%d eager ops: live buffers %d before, %d after", n, before, after)
	if after > before+16 {
		t.Errorf("live buffers grew from %d to %d over %d eager ops", before, after, n)
	}
}

// Eager ops from many goroutines share one cached program: its execution
// tables are taken by one call at a time and made afresh for the others.
func TestConcurrentEagerOps(t *testing.T) {
	b := tensor.FromSlice([]float32{1, 2, 3, 4}, 4)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := tensor.FromSlice([]float32{float32(g), 0, 0, 0}, 4)
			for range 2000 {
				x = tensor.Add(x, b)
			}
			if got := x.Float32s(); got[0] != float32(g)+2000 || got[3] != 8000 {
				errs <- fmt.Errorf("goroutine %d: %v", g, got)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestParsePJRTOptions(t *testing.T) {
	got, err := runtime.ParsePJRTOptions("preallocate=false, memory_fraction=0.5,allocator=bfc,visible_devices=[0, 2],node_id=3")
	if err != nil {
		t.Fatal(err)
	}
	want := []pjrt.NamedValue{
		{Name: "preallocate", Value: false},
		{Name: "memory_fraction", Value: float32(0.5)},
		{Name: "allocator", Value: "bfc"},
		{Name: "visible_devices", Value: []int64{0, 2}},
		{Name: "node_id", Value: int64(3)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParsePJRTOptions (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"preallocate", "=1", "visible_devices=[0,1"} {
		if _, err := runtime.ParsePJRTOptions(bad); err == nil {
			t.Errorf("ParsePJRTOptions(%q): no error", bad)
		}
	}
}

// Buffers made and dropped without any execution on their client (a loop
// of transfers) are freed too: the dead ones are not left for an
// execution that never comes.
func TestTransfersDoNotLeak(t *testing.T) {
	data := make([]float32, 1024)
	before := live(t)
	for i := range 20_000 {
		_ = tensor.FromSlice(data, len(data))
		if i%2000 == 0 {
			goruntime.GC()
		}
	}
	var n int64
	for range 100 {
		goruntime.GC()
		time.Sleep(2 * time.Millisecond)
		if n = live(t); n <= before+64 {
			break
		}
	}
	if n > before+64 {
		t.Errorf("live buffers %d after 20000 dropped transfers, %d before", n, before)
	}
}

// Eager ops on sizes across the plugin's small-block classes (an inline
// storage up to 4032 bytes, a separate block up to 4096, the large-block
// cache above 64 KiB), from two goroutines on two devices, with results
// dropped and freed: every value stays right and nothing leaks.
func TestEagerSizesAcrossAllocatorClasses(t *testing.T) {
	sizes := []int{1, 16, 100, 1000, 1008, 1024, 4096, 20000}
	before := live(t)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for g, dev := range []string{"cpu:0", "cpu:1"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range sizes {
				one := make([]float32, n)
				for i := range one {
					one[i] = 1
				}
				y := tensor.FromSlice(one, n).To(dev)
				x := tensor.FromSlice(make([]float32, n), n).To(dev)
				ops := 3000
				for i := range ops {
					x = tensor.Add(x, y)
					if i%7 == 0 {
						x2 := tensor.Add(x, y)
						x2.Free()
					}
				}
				got := x.Float32s()
				for i, v := range got {
					if v != float32(ops) {
						errs <- fmt.Errorf("goroutine %d, f32[%d]: element %d is %v after %d adds, want %v", g, n, i, v, ops, float32(ops))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int64
	for range 100 {
		pjrt.FlushCleanups()
		goruntime.GC()
		time.Sleep(2 * time.Millisecond)
		pjrt.FlushCleanups()
		if n = live(t); n <= before+8 {
			break
		}
	}
	if n > before+8 {
		t.Errorf("live buffers %d after the loops, %d before", n, before)
	}
}

// Small eager results are made in slabs whose buffers share one cleanup
// (pjrtdev.go's resultSlab): a reachable result keeps at most its slab's
// other results, a freed one is not freed again when its slab goes, and
// large results are not in slabs.
func TestResultSlabs(t *testing.T) {
	settle := func() int64 { return settleLive(t) }
	const slabLen = 32 // pjrtdev.go
	for _, n := range []int{16, 1024} {
		small := n*4 <= 1024
		y := tensor.FromSlice(make([]float32, n), n)
		x := tensor.FromSlice(make([]float32, n), n)
		_ = tensor.Add(x, y).Float32s() // compile before counting
		before := settle()

		// One result kept: its slab's others stay until it goes.
		var kept *tensor.Tensor
		for i := range 100 {
			z := tensor.Add(x, y)
			if i == 40 {
				kept = z
			}
		}
		held := settle() - before
		if small && (held < 1 || held > slabLen) || !small && held != 1 {
			t.Errorf("f32[%d]: %d live buffers with one result kept, want %s", n, held, map[bool]string{true: "1 to 32", false: "1"}[small])
		}
		if got := kept.Float32s(); got[0] != 0 {
			t.Errorf("f32[%d]: kept result %v", n, got[0])
		}
		kept = nil
		if got := settle() - before; got != 0 {
			t.Errorf("f32[%d]: %d live buffers after dropping every result, want 0", n, got)
		}

		// Freed results are not freed again when their slab is collected
		// (a second destroy would take the count below its start).
		for i := range 3 * slabLen {
			z := tensor.Add(x, y)
			if i%2 == 0 {
				z.Free()
			}
		}
		if got := settle() - before; got != 0 {
			t.Errorf("f32[%d]: %d live buffers after freeing half the results and dropping the rest, want 0", n, got)
		}
		goruntime.KeepAlive(x)
		goruntime.KeepAlive(y)
	}
}

// TestSwitchErrorFailsOperations: with an unknown word in STELA_LOG (or
// STELA_DEBUG), opening a device and compiling fail with the error that
// names it, instead of running with the word ignored.
func TestSwitchErrorFailsOperations(t *testing.T) {
	d := lookup(t, "cpu")
	envtest.Setenv(t, "STELA_LOG", "compile,recompil")
	want := `STELA_LOG=compile,recompil: unknown word "recompil" (valid: all, compile, recompile, remarks, sharding`
	if _, err := runtime.Lookup("host"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Lookup: %v, want %s", err, want)
	}
	if _, _, err := runtime.OpenClient("cpu"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("OpenClient: %v, want %s", err, want)
	}
	if _, err := d.(runtime.Compiler).Compile(addFunc(5)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Compile: %v, want %s", err, want)
	}
	envtest.Setenv(t, "STELA_LOG", "")
	if _, err := d.(runtime.Compiler).Compile(addFunc(5)); err != nil {
		t.Errorf("Compile with STELA_LOG unset: %v", err)
	}
}

// TestMachineBound: the CPU plugin's bounds (`stela bench`) measure
// something: a copy rate and an FMA rate, positive and finite, at sizes
// small enough for a test. Their values are the bench's business.
func TestMachineBound(t *testing.T) {
	for _, c := range []struct {
		what string
		arg  int64
	}{{"copy", 1 << 20}, {"fma", 10000}} {
		v, ok := runtime.MachineBound("cpu", c.what, c.arg)
		if !ok || !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("MachineBound(cpu, %s, %d) = %v, %v; want a positive rate", c.what, c.arg, v, ok)
		}
	}
	if _, ok := runtime.MachineBound("cpu", "nothing", 1); ok {
		t.Error("MachineBound(cpu, nothing): ok, want no such bound")
	}
	if _, ok := runtime.MachineBound("host", "fma", 1); ok {
		t.Error("MachineBound(host, fma): ok, want none (not a plugin)")
	}
}
