package jit_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
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

	g := jit.Compile(func(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, y) })
	perr := tensor.Catch(func() { g(tensor.FromSlice([]float32{1}, 1), tensor.FromSlice([]float32{1}, 1).To("cpu:1")) })
	if perr == nil || !strings.Contains(perr.Error(), "device cpu:0 and tensor #1 on device cpu:1") {
		t.Errorf("mixed devices: %v", perr)
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
