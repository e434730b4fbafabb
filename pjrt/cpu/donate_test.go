package cpu

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// Buffer donation through the plugin (execute.c, "Donation"): a program
// whose argument carries tf.aliasing_output writes that result into the
// argument's own memory when the caller donates the argument, and into a
// fresh buffer (the argument copied first, left intact) when it does not.

// realWorkerClient is a client that compiles with the real worker (this
// test binary, as in TestRealWorker) into a fresh cache.
func realWorkerClient(t *testing.T, devices int, opts ...pjrt.NamedValue) *pjrt.Client {
	t.Helper()
	for _, tool := range []string{"opt", "llc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: apt-get install llvm-14", tool)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadPlugin(t).NewClient(append([]pjrt.NamedValue{
		{Name: "cpu_device_count", Value: int64(devices)},
		{Name: "stela_worker", Value: exe},
		{Name: "stela_cache_dir", Value: t.TempDir()}}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Destroy)
	return c
}

// sgdProgram is w - lr*g, with w's buffer aliased to the update, and
// sum(g) as a second result.
const sgdProgram = `module @jit_sgd {
  func.func public @main(%w: tensor<256x1024xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<256x1024xf32>, %lr: tensor<f32>) -> (tensor<256x1024xf32>, tensor<f32>) {
    %0 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %1 = stablehlo.multiply %0, %g : tensor<256x1024xf32>
    %2 = stablehlo.subtract %w, %1 : tensor<256x1024xf32>
    %3 = stablehlo.constant dense<0.0> : tensor<f32>
    %4 = stablehlo.reduce(%g init: %3) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<f32>
    return %2, %4 : tensor<256x1024xf32>, tensor<f32>
  }
}
`

// transposeProgram's aliased result reads its argument out of order:
// the program computes it aside and copies it in.
const transposeProgram = `module @jit_tr {
  func.func public @main(%w: tensor<3x3xf32> {tf.aliasing_output = 0 : i32}) -> tensor<3x3xf32> {
    %0 = stablehlo.transpose %w, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
    return %0 : tensor<3x3xf32>
  }
}
`

func pointer(t *testing.T, b *pjrt.Buffer) uintptr {
	t.Helper()
	p, err := b.UnsafePointer()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func floats(t *testing.T, b *pjrt.Buffer) []float32 {
	t.Helper()
	l, err := b.ToLiteral()
	if err != nil {
		t.Fatal(err)
	}
	return l.Data.([]float32)
}

func TestDonation(t *testing.T) {
	c := realWorkerClient(t, 2)
	exe, err := c.Compile(sgdProgram, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	live, ok := exe.Client().Plugin().Int64Func("stela_cpu_live_bytes")
	if !ok {
		t.Fatal("the plugin does not export stela_cpu_live_bytes")
	}
	dev := c.AddressableDevices()[1]
	const n = 256 * 1024
	ws, gs := make([]float32, n), make([]float32, n)
	for i := range ws {
		ws[i], gs[i] = float32(i%97), float32(i%13)
	}
	put := func(vals []float32, shape ...int) *pjrt.Buffer {
		t.Helper()
		l, err := ir.NewLiteral(ir.TensorOf(ir.F32, shape...), append([]float32(nil), vals...))
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.BufferFromLiteral(l, dev)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	g := put(gs, 256, 1024)
	defer g.Destroy()
	lr := put([]float32{0.5})
	defer lr.Destroy()
	check := func(what string, out []float32, w []float32) {
		t.Helper()
		for i := range out {
			if want := w[i] - 0.5*gs[i]; out[i] != want {
				t.Fatalf("%s: element %d is %v, want %v", what, i, out[i], want)
			}
		}
	}

	// Not donated: a fresh result, the argument intact.
	w := put(ws, 256, 1024)
	outs := []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
	if err := exe.ExecuteOneInto(dev, outs, w, g, lr); err != nil {
		t.Fatal(err)
	}
	if pointer(t, outs[0]) == pointer(t, w) {
		t.Error("a result not donated shares the argument's memory")
	}
	check("not donated", floats(t, outs[0]), ws)
	if got := floats(t, w); fmt.Sprint(got[:5]) != fmt.Sprint(ws[:5]) || got[n-1] != ws[n-1] {
		t.Errorf("the argument changed without donation: %v...", got[:5])
	}
	outs[0].Destroy()
	outs[1].Destroy()

	// Donated: the result is the argument's memory.
	before := live()
	ptr := pointer(t, w)
	outs = []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
	if err := exe.ExecuteOneDonating(dev, outs, []bool{true, false, false}, w, g, lr); err != nil {
		t.Fatal(err)
	}
	if got := pointer(t, outs[0]); got != ptr {
		t.Errorf("donated: result at %#x, the argument was at %#x", got, ptr)
	}
	// 4 bytes for the scalar sum (less if the call destroyed dead
	// buffers of earlier tests first), not the 1 MiB of a new w.
	if grew := live() - before; grew > 4 {
		t.Errorf("a donated run grew the live buffer bytes by %d, want 4 (the scalar sum)", grew)
	}
	if del, err := w.IsDeleted(); err != nil || !del {
		t.Errorf("the donated argument: IsDeleted %v, %v", del, err)
	}
	_, err = w.ToLiteral()
	wantError(t, err, pjrt.CodeInvalidArgument, "deleted or donated")
	check("donated", floats(t, outs[0]), ws)
	s, _ := outs[1].ToLiteral()
	if s.Data.([]float32)[0] == 0 {
		t.Errorf("sum(g) = %v", s.Data)
	}
	w.Destroy()

	// The result donated again: a training loop's step.
	w2 := outs[0]
	outs[1].Destroy()
	outs = []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
	if err := exe.ExecuteOneDonating(dev, outs, []bool{true, false, false}, w2, g, lr); err != nil {
		t.Fatal(err)
	}
	if pointer(t, outs[0]) != ptr {
		t.Error("the second donated step moved the parameters")
	}
	upd := make([]float32, n)
	for i := range upd {
		upd[i] = ws[i] - 0.5*gs[i]
	}
	check("donated twice", floats(t, outs[0]), upd)
	w2.Destroy()
	outs[1].Destroy()
	w3 := outs[0]
	defer w3.Destroy()

	// The same buffer twice (w and g): not donated, nothing clobbered.
	outs = []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
	if err := exe.ExecuteOneDonating(dev, outs, []bool{true, false, false}, w3, w3, lr); err != nil {
		t.Fatal(err)
	}
	if pointer(t, outs[0]) == pointer(t, w3) {
		t.Error("a buffer passed twice was donated")
	}
	w3vals := floats(t, w3)
	out := floats(t, outs[0])
	for i := range out {
		if want := w3vals[i] - 0.5*w3vals[i]; out[i] != want {
			t.Fatalf("w - lr*w: element %d is %v, want %v", i, out[i], want)
		}
	}
	outs[0].Destroy()
	outs[1].Destroy()

	// A bad argument: the error, and the donated buffer given back.
	w4 := put(ws, 256, 1024)
	defer w4.Destroy()
	bad := put([]float32{1, 2}, 2)
	defer bad.Destroy()
	outs = []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
	err = exe.ExecuteOneDonating(dev, outs, []bool{true, false, false}, w4, g, bad)
	wantError(t, err, pjrt.CodeInvalidArgument, "argument 2 of device 0 is F32[2]")
	if del, _ := w4.IsDeleted(); del {
		t.Error("a failed call kept the donated buffer")
	}
	if got := floats(t, w4); got[1] != ws[1] || got[n-1] != ws[n-1] {
		t.Errorf("the buffer given back holds %v ..., want %v ...", got[:3], ws[:3])
	}

	// Launch, the general path, donates the same way.
	ptr = pointer(t, w4)
	x, err := exe.Launch([][]*pjrt.Buffer{{w4, g, lr}}, &pjrt.ExecuteOptions{Donate: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Await(); err != nil {
		t.Fatal(err)
	}
	if pointer(t, x.Outputs[0][0]) != ptr {
		t.Error("Launch with Donate: the result is not the argument's memory")
	}
	check("launched", floats(t, x.Outputs[0][0]), ws)
	for _, b := range x.Outputs[0] {
		b.Destroy()
	}
}

// TestDonationOutOfOrder: an aliased result that reads its argument out
// of order (a transpose) is right donated or not, and the argument not
// donated stays intact.
func TestDonationOutOfOrder(t *testing.T) {
	c := realWorkerClient(t, 1)
	exe, err := c.Compile(transposeProgram, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	for _, donate := range []bool{false, true} {
		w, err := c.BufferFromLiteral(ir.LiteralOf([]int{3, 3}, float32(1), 2, 3, 4, 5, 6, 7, 8, 9), nil)
		if err != nil {
			t.Fatal(err)
		}
		ptr := pointer(t, w)
		outs := []*pjrt.Buffer{new(pjrt.Buffer)}
		if err := exe.ExecuteOneDonating(nil, outs, []bool{donate}, w); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(floats(t, outs[0])); got != "[1 4 7 2 5 8 3 6 9]" {
			t.Errorf("donate %v: transpose = %s", donate, got)
		}
		if same := pointer(t, outs[0]) == ptr; same != donate {
			t.Errorf("donate %v: the result shares the argument's memory: %v", donate, same)
		}
		if !donate {
			if got := fmt.Sprint(floats(t, w)); got != "[1 2 3 4 5 6 7 8 9]" {
				t.Errorf("the argument not donated changed: %s", got)
			}
		}
		w.Destroy()
		outs[0].Destroy()
	}
}

// TestDonationOfARepeatedBuffer: a donated buffer that is also an earlier
// argument of the call is not consumed (its storage is held by then), and
// the result is right.
func TestDonationOfARepeatedBuffer(t *testing.T) {
	c := realWorkerClient(t, 1)
	exe, err := c.Compile(`module @jit_add {
  func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	x, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	outs := []*pjrt.Buffer{new(pjrt.Buffer)}
	if err := exe.ExecuteOneDonating(nil, outs, []bool{false, true}, x, x); err != nil {
		t.Fatal(err)
	}
	defer outs[0].Destroy()
	if got := fmt.Sprint(floats(t, outs[0]), floats(t, x)); got != "[2 4 6 8] [1 2 3 4]" {
		t.Errorf("x + x donating the second x: result and x are %s, want [2 4 6 8] [1 2 3 4]", got)
	}
}
