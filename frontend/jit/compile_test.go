package jit_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

func affine(x, w, b *tensor.Tensor) *tensor.Tensor {
	return tensor.Tanh(tensor.Add(tensor.MatMul(x, w), b))
}

func TestCompileMatchesEager(t *testing.T) {
	x := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	w := tensor.FromSlice([]float32{0.1, -0.2, 0.3, 0.4, -0.5, 0.6}, 3, 2)
	b := tensor.FromSlice([]float32{0.01, -0.02}, 2)
	f := jit.Compile(affine)
	got, want := f(x, w, b), affine(x, w, b)
	if got.Device() != x.Device() {
		t.Errorf("result on %s, want %s", got.Device(), x.Device())
	}
	if err := ir.LiteralsAllClose(got.Literal(), want.Literal(), 1e-6, 1e-6); err != nil {
		t.Errorf("compiled vs eager: %v\n%v\n%v", err, got, want)
	}
	host := affine(x.To("host"), w.To("host"), b.To("host"))
	if err := ir.LiteralsAllClose(got.Literal(), host.Literal(), 1e-6, 1e-6); err != nil {
		t.Errorf("compiled vs reference evaluator: %v", err)
	}
}

func TestCompileCacheAndRecompileLog(t *testing.T) {
	var log bytes.Buffer
	jit.LogOutput = &log
	defer func() { jit.LogOutput = nil }()
	envtest.Setenv(t, "STELA_LOG", "recompile")

	scale := func(x *tensor.Tensor, k float64) *tensor.Tensor { return tensor.Mul(x, tensor.ScalarLike(x, k)) }
	f := jit.Compile(scale, jit.WithName("scale"))
	before := jit.CacheStats()
	x2 := tensor.FromSlice([]float32{1, 2}, 2)
	x3 := tensor.FromSlice([]float32{1, 2, 3}, 3)
	f(x2, 2)
	f(tensor.FromSlice([]float32{5, 6}, 2), 2) // same signature: a hit
	f(x3, 2)                                   // new shape
	got := f(x2, 3)                            // new static value
	if v := got.Float32s(); v[0] != 3 || v[1] != 6 {
		t.Errorf("static argument 3: got %v", v)
	}
	after := jit.CacheStats()
	if hits, misses := after.Hits-before.Hits, after.Misses-before.Misses; hits != 1 || misses != 3 {
		t.Errorf("hits %d misses %d, want 1 and 3", hits, misses)
	}
	out := log.String()
	for _, re := range []string{
		`jit @scale: compiling at compile_test\.go:\d+: first call`,
		`jit @scale: recompiling at compile_test\.go:\d+ \(1 cached signatures\): argument #0 is f32\[3\] on cpu:0, was f32\[2\] on cpu:0`,
		`jit @scale: recompiling at compile_test\.go:\d+ \(2 cached signatures\): argument #1 is static float64 3, was static float64 2`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("recompile log lacks %q:\n%s", re, out)
		}
	}
}

func TestCompileCapturesClosedOverTensors(t *testing.T) {
	w := tensor.FromSlice(make([]float32, 64*64), 64, 64)
	f := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.MatMul(x, w) }, jit.WithName("capture"))
	dir := t.TempDir()
	t.Setenv("STELA_DUMP", dir)
	f(tensor.FromSlice(make([]float32, 64), 1, 64))
	after, err := os.ReadFile(filepath.Join(dir, "capture.1.after.sir"))
	if err != nil {
		t.Fatal(err)
	}
	// w is a parameter of the compiled function, not a 4096-element constant.
	if !strings.Contains(string(after), "f32[64,64]") || strings.Contains(string(after), "constant") {
		t.Errorf("closed-over tensor should be a parameter:\n%s", after)
	}
	for _, name := range []string{"capture.1.before.sir", "capture.1.mlir"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("STELA_DUMP: %v", err)
		}
	}
	mlir, _ := os.ReadFile(filepath.Join(dir, "capture.1.mlir"))
	if !strings.Contains(string(mlir), "stablehlo.dot_general") {
		t.Errorf("dumped StableHLO lacks the dot:\n%s", mlir)
	}
}

func TestCompileErrors(t *testing.T) {
	bad := func(x, y *tensor.Tensor) (*tensor.Tensor, error) {
		return tensor.Add(x, y), nil // operand shapes differ
	}
	f := jit.Compile(bad)
	_, err := f(tensor.FromSlice([]float32{1, 2}, 2), tensor.FromSlice([]float32{1, 2, 3}, 3))
	var e *ir.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "compile_test.go:") || !strings.Contains(err.Error(), "add") {
		t.Errorf("want a located add error, got %v", err)
	}

	// Failures of the call itself are located at the call and prefixed
	// once with the function's name.
	g := jit.Compile(func(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, y) })
	one := tensor.FromSlice([]float32{1}, 1)
	for _, tc := range []struct {
		call func()
		want string
	}{
		{func() { g(one.To("cpu:0"), one.To("cpu:1")) }, // committed to two devices
			`^compile_test\.go:\d+: jit @TestCompileErrors_closure2: argument #0 is committed to device cpu:0 and argument #1 to device cpu:1: copy one to the other's device with To$`},
		{func() { g(one, nil) },
			`^compile_test\.go:\d+: jit @TestCompileErrors_closure2: argument #1 is nil$`},
		{func() { jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return nil })(one) },
			`^compile_test\.go:\d+: jit @TestCompileErrors_closure[\d_]+: result #0 is nil$`},
	} {
		err := tensor.Catch(tc.call)
		if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}

	// A user error from fn comes back as it is.
	boom := errors.New("boom")
	u := jit.Compile(func(x *tensor.Tensor) (*tensor.Tensor, error) { return x, boom })
	if _, err := u(one); err != boom {
		t.Errorf("user error: %v", err)
	}
	// Also when it returns nil tensors or zero trees beside the error, as
	// a function that fails does (not "result #0 is nil").
	type pair struct{ A, B *tensor.Tensor }
	n := jit.Compile(func(x *tensor.Tensor) (*tensor.Tensor, pair, error) { return nil, pair{}, boom })
	if _, _, err := n(one); err != boom {
		t.Errorf("user error beside a nil result: %v", err)
	}
}

// An error the plugin's compiler finds (here the CPU plugin's code
// generator, which has no custom_call target stela.nope though the IR
// accepts any) names the user's line of the op, through the locations in
// the program the plugin compiles.
func TestCompileErrorNamesTheOpLine(t *testing.T) {
	f := jit.Compile(func(x *tensor.Tensor) (*tensor.Tensor, error) {
		y := tensor.Exp(x)
		return tensor.CustomCall(ir.CustomCallAttr{Target: "stela.nope", ResultTypes: []ir.Type{y.Type()}}, y)[0], nil // the op's line
	})
	_, err := f(tensor.FromSlice([]float32{1, 2}, 2))
	src, _ := os.ReadFile("compile_test.go")
	line := 1 + slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.HasSuffix(l, "// the op's line") })
	var e *ir.Error
	if !errors.As(err, &e) || filepath.Base(e.Loc.File) != "compile_test.go" || e.Loc.Line != line {
		t.Fatalf("want an error located at compile_test.go:%d, got %v", line, err)
	}
	want := fmt.Sprintf(`^compile_test\.go:%d: custom_call: compile @TestCompileErrorNamesTheOpLine_closure1 on cpu: .*unsupported: stablehlo\.custom_call @stela\.nope \(in @main at ".*/frontend/jit/compile_test\.go":%d:0\)$`, line, line)
	if !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestCompileOnOtherDevice(t *testing.T) {
	f := jit.Compile(func(xs []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{tensor.Add(xs[0], xs[1]), tensor.Mul(xs[0], xs[1])}
	})
	a := tensor.FromSlice([]float32{1, 2}, 2).To("cpu:1")
	b := tensor.FromSlice([]float32{3, 4}, 2).To("cpu:1")
	out := f([]*tensor.Tensor{a, b})
	if len(out) != 2 || out[0].Device() != "cpu:1" {
		t.Fatalf("results %v", out)
	}
	if v := out[1].Float32s(); v[0] != 3 || v[1] != 8 {
		t.Errorf("mul: %v", v)
	}
}

func TestCompileInsideTrace(t *testing.T) {
	inner := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Exp(x) })
	before := jit.CacheStats().Inlined
	fn, err := jit.Trace(func(x *tensor.Tensor) *tensor.Tensor { return inner(inner(x)) }, ir.TensorOf(ir.F32, 3))
	if err != nil {
		t.Fatal(err)
	}
	if n := jit.CacheStats().Inlined - before; n != 2 {
		t.Errorf("inlined %d calls, want 2", n)
	}
	if got := strings.Count(fn.String(), "exponential"); got != 2 {
		t.Errorf("want two exponentials in the outer trace:\n%s", fn)
	}
}

// The README's example: a closed-over weight made without naming a device
// follows the computation to the device its argument was put on.
func TestCompilePlacement(t *testing.T) {
	x := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	w := tensor.FromSlice([]float32{1, 0, 0, 1, 1, 1}, 3, 2)
	want := tensor.Tanh(tensor.MatMul(x, w)).Float32s()
	f := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Tanh(tensor.MatMul(x, w)) })

	before := jit.CacheStats().Copies
	x1 := x.To("cpu:1")
	for range 3 {
		y := f(x1)
		if y.Device() != "cpu:1" || !y.Committed() || !slices.Equal(y.Float32s(), want) {
			t.Errorf("on cpu:1: %v (committed %v), want %v", y, y.Committed(), want)
		}
	}
	if n := jit.CacheStats().Copies - before; n != 1 {
		t.Errorf("%d copies for three calls, want w copied once", n)
	}

	// Uncommitted everywhere: it runs where the tensors are, and the
	// result follows further computations too.
	if y := f(x); y.Device() != "cpu:0" || y.Committed() {
		t.Errorf("uncommitted: result on %s, committed %v", y.Device(), y.Committed())
	}

	// A committed capture decides the device; an uncommitted argument
	// is copied there at every call.
	w2 := w.To("cpu:2")
	g := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.MatMul(x, w2) })
	before = jit.CacheStats().Copies
	for range 2 {
		if y := g(x); y.Device() != "cpu:2" || !y.Committed() {
			t.Errorf("committed capture: result on %s, committed %v", y.Device(), y.Committed())
		}
	}
	if n := jit.CacheStats().Copies - before; n != 2 {
		t.Errorf("%d copies for two calls, want the argument copied each time", n)
	}
	err := tensor.Catch(func() { g(x1) })
	want2 := `^compile_test\.go:\d+: jit @TestCompilePlacement_closure2: argument #0 is committed to device cpu:1 and captured tensor #0 \(f32\[3,2\]\) to device cpu:2: copy one to the other's device with To$`
	if err == nil || !regexp.MustCompile(want2).MatchString(err.Error()) {
		t.Errorf("committed on two devices: %v\nwant %s", err, want2)
	}
}

// Freeing a tensor a compiled function closed over makes later calls
// fail, whether it ran on the tensor's device or on a copy.
func TestCompileFreedCapture(t *testing.T) {
	for _, dev := range []string{"cpu:0", "cpu:3"} {
		w := tensor.FromSlice([]float32{1, 2}, 2)
		f := jit.Compile(func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Mul(x, w), nil })
		x := tensor.FromSlice([]float32{3, 4}, 2).To(dev)
		if y, err := f(x); err != nil || !slices.Equal(y.Float32s(), []float32{3, 8}) {
			t.Fatalf("on %s: %v, %v", dev, y, err)
		}
		w.Free()
		_, err := f(x)
		if err == nil || !regexp.MustCompile(`^compile_test\.go:\d+: jit @TestCompileFreedCapture_closure1: captured tensor #0 \(f32\[2\]\) was freed$`).MatchString(err.Error()) {
			t.Errorf("on %s after Free: %v", dev, err)
		}
	}
}

// A Go number in a traced function is a constant of the type it meets:
// no parameter, no convert op. Passed as an argument, it stays weak and
// converts in the program.
func TestCompileWeakScalars(t *testing.T) {
	for _, dt := range []ir.DType{ir.F32, ir.BF16, ir.F16, ir.F64} {
		f, err := jit.Trace(func(x *tensor.Tensor) *tensor.Tensor {
			return tensor.Mul(tensor.Add(x, tensor.Scalar(0.5)), tensor.Scalar(2))
		}, ir.TensorOf(dt, 3))
		if err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		text := f.String()
		if len(f.Params) != 1 || strings.Contains(text, "convert") ||
			!strings.Contains(text, fmt.Sprintf("dense<0.5> : %v[]", dt)) || !strings.Contains(text, fmt.Sprintf("dense<2.0> : %v[]", dt)) {
			t.Errorf("%v: want two constants of %v and no convert:\n%s", dt, dt, text)
		}
	}
	fi, err := jit.Trace(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, tensor.Scalar(2)) }, ir.TensorOf(ir.S32, 3))
	if err != nil || strings.Contains(fi.String(), "convert") || !strings.Contains(fi.String(), "dense<2> : si32[]") {
		t.Errorf("si32 + 2: %v\n%v", err, fi)
	}
	_, err = jit.Trace(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, tensor.Scalar(2.5)) }, ir.TensorOf(ir.S32, 3))
	if err == nil || !regexp.MustCompile(`^compile_test\.go:\d+: add: float constant 2\.5 meets an si32 operand`).MatchString(err.Error()) {
		t.Errorf("si32 + 2.5 traced: %v", err)
	}

	// Compiled and run: f32 + 3.0 is an f32 program with an f32 constant.
	dir := t.TempDir()
	t.Setenv("STELA_DUMP", dir)
	add3 := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, tensor.Scalar(3.0)) }, jit.WithName("add3"))
	if y := add3(tensor.FromSlice([]float32{1, 2}, 2)); y.DType() != ir.F32 || !slices.Equal(y.Float32s(), []float32{4, 5}) {
		t.Errorf("compiled f32 + 3.0: %v", y)
	}
	after, err := os.ReadFile(filepath.Join(dir, "add3.1.after.sir"))
	if err != nil || strings.Contains(string(after), "convert") || !strings.Contains(string(after), "dense<3.0> : f32[") {
		t.Errorf("compiled f32 + 3.0: %v\n%s", err, after)
	}
	t.Setenv("STELA_DUMP", "")

	scale := jit.Compile(func(x, k *tensor.Tensor) *tensor.Tensor { return tensor.Mul(x, k) })
	x := tensor.FromSlice([]float32{1, 2}, 2)
	if y := scale(x, tensor.Scalar(1.5)); y.DType() != ir.F32 || !slices.Equal(y.Float32s(), []float32{1.5, 3}) {
		t.Errorf("weak argument: %v", y)
	}
	err = tensor.Catch(func() { scale(tensor.FromSlice([]int32{1}, 1), tensor.Scalar(1.5)) })
	if err == nil || !strings.Contains(err.Error(), "multiply: weak float tensor meets an si32 operand") {
		t.Errorf("weak float argument with si32: %v", err)
	}
}

// A pass that fails comes back located at the call, and still as the
// *passes.PassError it is, for errors.As.
func TestCompilePassErrorKeepsItsType(t *testing.T) {
	boom := errors.New("boom")
	failing := &passes.Pass{Name: "failing", Doc: "always fails", Run: func(*ir.Module, *passes.Context) error { return boom }}
	f := jit.Compile(func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Neg(x), nil },
		jit.WithPipeline([]*passes.Pass{failing}), jit.WithName("passfail"))
	_, err := f(tensor.FromSlice([]float32{1}, 1))
	var pe *passes.PassError
	var le *ir.Error
	if !errors.As(err, &pe) || !errors.Is(err, boom) || !errors.As(err, &le) || !strings.HasPrefix(le.Op, "jit @passfail") {
		t.Errorf("got %v (%T), want a located jit @passfail error wrapping the *passes.PassError", err, err)
	}
}

// TestCacheStatsForgetCollectedFunctions: the entries of compiled
// functions that were garbage-collected leave CacheStats().Entries (it
// counted every entry ever made, 10,000 after 10,000 Compile calls of one
// function).
func TestCacheStatsForgetCollectedFunctions(t *testing.T) {
	double := func(x *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, x) }
	x := tensor.FromSlice([]float32{1, 2}, 2)
	before := jit.CacheStats().Entries
	const n = 200
	func() {
		for range n {
			f := jit.Compile(double)
			f(x)
		}
	}()
	if grew := jit.CacheStats().Entries - before; grew <= 0 || grew > n {
		t.Fatalf("after %d compiled functions ran, Entries grew by %d", n, grew)
	}
	// Cleanups run after a collection, on their own goroutine: collect
	// until they have (a bound on the rounds, not on time).
	var now int64
	for range 100 {
		goruntime.GC()
		if now = jit.CacheStats().Entries; now-before < n/2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if now-before >= n/2 {
		t.Fatalf("after the %d compiled functions were collected, Entries is still %d above where it was", n, now-before)
	}
}

// TestCompileAgainSeesRebinding pins what a second Compile of the same Go
// function must see, which is why nothing caches a trace across Compile
// calls by the function's identity (docs/performance.md, W6): a
// variable the closure captured by reference and that was rebound (a
// tensor, or a Go value that becomes a constant), and new shapes. Below
// the trace, the passes' and the runtime's caches are keyed by the
// traced program, so an unchanged function still skips the work.
func TestCompileAgainSeesRebinding(t *testing.T) {
	w := tensor.FromSlice([]float32{1, 2}, 2)
	scale := float32(1)
	f := func(x *tensor.Tensor) *tensor.Tensor {
		return tensor.Mul(tensor.Add(x, w), tensor.Scalar(scale))
	}
	x := tensor.FromSlice([]float32{10, 20}, 2)
	check := func(what string, got *tensor.Tensor, want ...float32) {
		t.Helper()
		v := got.Float32s()
		if len(v) != len(want) {
			t.Fatalf("%s: %v, want %v", what, v, want)
		}
		for i := range v {
			if v[i] != want[i] {
				t.Errorf("%s: %v, want %v", what, v, want)
				return
			}
		}
	}
	check("first Compile", jit.Compile(f)(x), 11, 22)
	check("same function again", jit.Compile(f)(x), 11, 22)
	w = tensor.FromSlice([]float32{3, 4}, 2)
	check("captured tensor rebound", jit.Compile(f)(x), 13, 24)
	scale = 2
	check("captured Go value changed", jit.Compile(f)(x), 26, 48)
	w = tensor.FromSlice([]float32{1, 1, 1}, 3)
	check("new shapes", jit.Compile(f)(tensor.FromSlice([]float32{1, 2, 3}, 3)), 4, 6, 8)
}
