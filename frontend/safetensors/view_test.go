package safetensors_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// misalignedFile writes tensors to a file whose data region does not
// start at a multiple of 64 bytes (so neither do its tensors' bytes in
// the mapping, which starts on a page), as is usual for files that
// transformers writes.
func misalignedFile(t *testing.T, tensors map[string]*ir.Literal) string {
	t.Helper()
	for pad := 0; pad < 16; pad++ {
		path := filepath.Join(t.TempDir(), "w.safetensors")
		if err := safetensors.WriteFile(path, tensors, map[string]string{"pad": strings.Repeat("x", pad)}); err != nil {
			t.Fatal(err)
		}
		f, err := safetensors.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		info, err := f.Info("W")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if info.Offset%64 != 0 {
			return path
		}
	}
	t.Fatal("no padding of the header misaligned the data")
	return ""
}

// TestViewIsTheMappedFile: on the CPU plugin, View gives a buffer whose
// memory is the file's mapping itself (not 64-byte aligned here), and
// eager ops and a compiled program reading it give the results they give
// on a copy, bit for bit; the mapping outlives Close until the views are
// freed.
func TestViewIsTheMappedFile(t *testing.T) {
	cpu, err := tensor.LookupDevice("cpu")
	if err != nil {
		t.Skipf("no CPU plugin: %v", err)
	}
	w := make([]float32, 37*23)
	for i := range w {
		w[i] = float32(math.Sin(float64(i)*0.37)) * 3
	}
	x := make([]float32, 5*37)
	for i := range x {
		x[i] = float32(i%11) - 4.5
	}
	path := misalignedFile(t, map[string]*ir.Literal{
		"W": ir.MustLiteral(ir.TensorOf(ir.F32, 37, 23), w),
		"x": ir.MustLiteral(ir.TensorOf(ir.F32, 5, 37), x),
		"b": ir.MustLiteral(ir.TensorOf(ir.F64, 3), []float64{1.5, -2, 1e300}),
	})
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	views := map[string]*tensor.Tensor{}
	copies := map[string]*tensor.Tensor{}
	for _, name := range []string{"W", "x", "b"} {
		v, err := f.View(name, cpu)
		if err != nil {
			t.Fatal(err)
		}
		views[name] = v
		l, err := f.Literal(name)
		if err != nil {
			t.Fatal(err)
		}
		copies[name] = tensor.FromLiteral(l).To("cpu")
	}
	info, _ := f.Info("W")
	p, err := runtime.DataPointer(views["W"].Buffer())
	if err != nil {
		t.Fatal(err)
	}
	if p%64 == 0 || p%4 != 0 {
		t.Fatalf("the view of W is at %#x: want the mapping's own bytes, 4- but not 64-byte aligned (file offset %d)", p, info.Offset)
	}
	if err := f.Close(); err != nil { // the views keep the mapping
		t.Fatal(err)
	}
	if _, err := f.Literal("W"); err == nil {
		t.Error("Literal after Close did not fail")
	}
	compiled := jit.Compile(func(w, x *tensor.Tensor) *tensor.Tensor {
		y := tensor.MatMul(x, w)
		s := tensor.SliceAxis(tensor.Reshape(tensor.Sum(tensor.Transpose(w, 1, 0), 1), 1, 23), 1, 0, 23)
		return tensor.Add(tensor.Exp(tensor.Mul(y, tensor.ScalarLike(y, 0.01))), s)
	})
	run := func(m map[string]*tensor.Tensor) []*ir.Literal {
		return []*ir.Literal{
			tensor.MatMul(m["x"], m["W"]).Literal(),
			tensor.Sum(m["W"], 0).Literal(),
			tensor.Transpose(m["W"], 1, 0).Literal(),
			tensor.Exp(m["x"]).Literal(),
			tensor.Mul(m["b"], m["b"]).Literal(),
			compiled(m["W"], m["x"]).Literal(),
		}
	}
	got, want := run(views), run(copies)
	for i := range want {
		if !ir.LiteralEqual(got[i], want[i]) {
			t.Errorf("result %d on the view differs from the copy's:\n%v\n%v", i, got[i], want[i])
		}
	}
	for _, v := range views {
		v.Free()
	}
}

// BenchmarkViewRead: a reduction over a 64 MiB f32 weight, as a view of a
// mapped file (not 64-byte aligned) and as a buffer of the plugin's own.
// A view the plugin copied on every execution would take about twice as
// long.
func BenchmarkViewRead(b *testing.B) {
	cpu, err := tensor.LookupDevice("cpu")
	if err != nil {
		b.Skipf("no CPU plugin: %v", err)
	}
	n := 16 << 20
	w := make([]float32, n)
	for i := range w {
		w[i] = float32(i % 7)
	}
	t := &testing.T{}
	path := misalignedFile(t, map[string]*ir.Literal{"W": ir.MustLiteral(ir.TensorOf(ir.F32, n/1024, 1024), w), "x": ir.MustLiteral(ir.TensorOf(ir.F32, 1), []float32{1})})
	f, err := safetensors.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	view, err := f.View("W", cpu)
	if err != nil {
		b.Fatal(err)
	}
	l, _ := f.Literal("W")
	own := tensor.FromLiteral(l).To("cpu")
	sum := jit.Compile(func(w *tensor.Tensor) *tensor.Tensor { return tensor.Sum(w, 0) })
	for _, c := range []struct {
		name string
		x    *tensor.Tensor
	}{{"view", view}, {"own", own}} {
		b.Run(c.name, func(b *testing.B) {
			sum(c.x).Free()
			b.SetBytes(int64(n * 4))
			for b.Loop() {
				sum(c.x).Free()
			}
		})
	}
}
