package jit_test

import (
	"fmt"
	"math"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/stela-ml/stela/frontend/internal/wanttest"
	"github.com/stela-ml/stela/frontend/jit"
	T "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// nextLine is the line after the caller's: where the call to test is.
func nextLine() int {
	_, _, line, _ := goruntime.Caller(1)
	return line + 1
}

// catch runs f and returns the located error it panics with.
func catch(f func()) error { return T.Catch(f) }

func sgdStep(w, g *T.Tensor) *T.Tensor { return T.Sub(w, T.Mul(T.Scalar(0.5), g)) }

func liveBytes(t *testing.T) int64 {
	t.Helper()
	n, ok := runtime.LiveBytes("cpu")
	if !ok {
		t.Fatal("the cpu plugin does not count its live bytes")
	}
	return n
}

// TestDonateReusesTheBuffer: a jitted w - lr*g with Donate(0) writes the
// new w into the old one's memory, and the old w can no longer be used.
func TestDonateReusesTheBuffer(t *testing.T) {
	step := jit.Compile(sgdStep, jit.Donate(0), jit.WithName("step"))
	const n = 256 * 1024 // 1 MiB of f32
	ws, gs := make([]float32, n), make([]float32, n)
	for i := range ws {
		ws[i], gs[i] = float32(i%31), float32(i%7)
	}
	w := T.FromSlice(ws, 256, 1024)
	g := T.FromSlice(gs, 256, 1024)
	addr := func(x *T.Tensor) uintptr {
		t.Helper()
		p, err := runtime.DataPointer(x.Buffer())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	at := addr(w)
	line := nextLine()
	w2 := step(w, g)
	if addr(w2) != at {
		t.Errorf("the donated step's result is at %#x, w was at %#x: not the same memory", addr(w2), at)
	}
	got := w2.Float32s()
	for i := range got {
		if want := ws[i] - 0.5*gs[i]; got[i] != want {
			t.Fatalf("w - 0.5 g: element %d is %v, want %v", i, got[i], want)
		}
	}
	if !w.Freed() {
		t.Error("the donated w is not Freed")
	}
	where := fmt.Sprintf("was donated to jit @step at donate_test.go:%d", line)
	for what, f := range map[string]func(){
		"Float32s": func() { w.Float32s() },
		"Literal":  func() { w.Literal() },
		"op":       func() { T.Add(w, g) },
		"compiled": func() { step(w, g) },
	} {
		err := catch(f)
		if err == nil || !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), "donate_test.go:") {
			t.Errorf("%s on the donated tensor: %v, want an error saying it %s", what, err, where)
		}
	}
	if s := w.String(); !strings.Contains(s, "<tensor f32[256,1024] "+where+">") {
		t.Errorf("String of the donated tensor: %q", s)
	}
	// The result steps on, in place.
	w3 := step(w2, g)
	if addr(w3) != at {
		t.Error("the second donated step moved w")
	}
	if v := w3.Float32s()[n-1]; v != ws[n-1]-gs[n-1] {
		t.Errorf("two steps: %v, want %v", v, ws[n-1]-gs[n-1])
	}
	if !w2.Freed() || g.Freed() {
		t.Error("the second step should consume w2 and keep g")
	}
}

// TestDonateErrors: what cannot be donated is refused clearly, at the
// line of the call or of Compile.
func TestDonateErrors(t *testing.T) {
	var errs []error
	call := func(f func()) { errs = append(errs, catch(f)) }
	w := T.FromSlice([]float32{1, 2, 3}, 3)
	step := jit.Compile(sgdStep, jit.Donate(0), jit.WithName("step"))
	call(func() {
		step(w, w) // want `jit @step: argument #0 is donated and argument #1 is the same buffer: a donated tensor cannot also be another argument`
	})
	if w.Freed() {
		t.Fatal("a refused call consumed its argument")
	}
	captured := jit.Compile(func(g *T.Tensor) *T.Tensor { return T.Sub(w, g) }, jit.Donate(0), jit.WithName("cap"))
	call(func() {
		captured(w) // want `jit @cap: argument #0 is donated but fn also closes over it \(captured tensor #0 \(f32\[3\]\)\)`
	})
	if w.Freed() {
		t.Fatal("a refused call consumed its argument")
	}
	w2 := step(w, T.FromSlice([]float32{2, 2, 2}, 3))
	call(func() {
		step(w, w2) // want `jit @step: argument #0 \(f32\[3\]\) was donated to jit @step at donate_test.go:\d+`
	})
	call(func() {
		T.Mul(w, w2) // want `multiply: operand #0: tensor f32\[3\] was donated to jit @step at donate_test.go:\d+`
	})
	other := jit.Compile(func(x *T.Tensor) *T.Tensor { return T.Add(x, w) }, jit.WithName("other"))
	call(func() {
		other(w2) // want `jit @other: captured tensor #0 \(f32\[3\]\) was donated to jit @step`
	})
	wanttest.Check(t, "donate_test.go", errs)

	for _, c := range []struct {
		fn   any
		idx  int
		want string
	}{
		{sgdStep, 2, "Donate(2): fn has 2 parameters"},
		{func(x *T.Tensor, k float64) *T.Tensor { return x }, 1, "Donate(1): parameter #1 is float64: only *tensor.Tensor, []*tensor.Tensor and parameter-tree parameters can be donated"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("Compile with Donate(%d): panic %v, want %q", c.idx, r, c.want)
				}
			}()
			jit.Compile(c.fn, jit.Donate(c.idx))
		}()
	}
}

// TestDonateSlicesAndUnpaired: a []*tensor.Tensor parameter donates all
// its tensors; a donated tensor no result can take is released; a
// tensor that is copied to the call's device donates the copy.
func TestDonateSlicesAndUnpaired(t *testing.T) {
	update := jit.Compile(func(ws, gs []*T.Tensor, lr *T.Tensor) ([]*T.Tensor, *T.Tensor) {
		var out []*T.Tensor
		norm := T.ScalarLike(lr, 0)
		for i := range ws {
			out = append(out, T.Sub(ws[i], T.Mul(lr, gs[i])))
			norm = T.Add(norm, T.Sum(T.Mul(gs[i], gs[i])))
		}
		return out, norm
	}, jit.Donate(0, 2))
	ws := []*T.Tensor{T.FromSlice([]float32{1, 2}, 2), T.FromSlice([]float32{3, 4, 5}, 3)}
	gs := []*T.Tensor{T.FromSlice([]float32{1, 1}, 2), T.FromSlice([]float32{2, 2, 2}, 3)}
	lr := T.FromSlice([]float32{0.5})
	out, norm := update(ws, gs, lr)
	if fmt.Sprint(out[0].Float32s(), out[1].Float32s(), norm.Float32s()) != "[0.5 1.5] [2 3 4] [14]" {
		t.Errorf("update = %v %v %v", out[0], out[1], norm)
	}
	// lr (f32[]) pairs with norm; ws with the outputs; gs stay.
	for i := range ws {
		if !ws[i].Freed() || gs[i].Freed() {
			t.Errorf("tensor %d: ws donated %v (want true), gs donated %v (want false)", i, ws[i].Freed(), gs[i].Freed())
		}
	}
	if !lr.Freed() {
		t.Error("the donated lr was not consumed")
	}

	release := jit.Compile(func(x, y *T.Tensor) *T.Tensor { return T.Sum(T.Mul(x, y)) }, jit.Donate(1))
	x, y := T.FromSlice([]float32{1, 2}, 2), T.FromSlice([]float32{3, 4}, 2)
	if got := release(x, y).Float32s(); got[0] != 11 {
		t.Errorf("sum(x*y) = %v", got)
	}
	if x.Freed() || !y.Freed() {
		t.Errorf("a donated argument without a result is released: x freed %v, y freed %v", x.Freed(), y.Freed())
	}

	// w on cpu:0, uncommitted, follows g, committed to cpu:1: the copy
	// on cpu:1 is donated, w stays.
	step := jit.Compile(sgdStep, jit.Donate(0))
	w := T.FromSlice([]float32{1, 2, 3}, 3)
	g := T.FromSlice([]float32{2, 2, 2}, 3).To("cpu:1")
	w2 := step(w, g)
	if w.Freed() || w2.Device() != "cpu:1" || fmt.Sprint(w.Float32s(), w2.Float32s()) != "[1 2 3] [0 1 2]" {
		t.Errorf("donating a copied argument: w %v (freed %v), w2 %v", w, w.Freed(), w2)
	}
	// On the host reference device nothing is donated.
	wh := T.FromSlice([]float32{1, 2, 3}, 3).To("host")
	if got := step(wh, g.To("host")); wh.Freed() || fmt.Sprint(got.Float32s(), wh.Float32s()) != "[0 1 2] [1 2 3]" {
		t.Errorf("on host: %v, w %v", got, wh)
	}
}

// TestDonatePeakMemory: 100 steps of an MLP-like parameter update with
// momentum (four f32 matrices of 2 MiB and their optimizer state, 16 MiB
// in all) with donation keep the plugin's live buffer bytes flat: each
// step writes the new parameters and state into the old ones. Without
// donation every step would hold both, 16 MiB more at least.
func TestDonatePeakMemory(t *testing.T) {
	shapes := [][]int{{512, 1024}, {1024, 512}, {512, 1024}, {1024, 512}}
	type state struct{ params, moms, grads []*T.Tensor }
	var s state
	var stateBytes int64
	for i, sh := range shapes {
		n := sh[0] * sh[1]
		vals := make([]float32, n)
		for j := range vals {
			vals[j] = float32((j+i)%17) / 16
		}
		s.params = append(s.params, T.FromSlice(vals, sh...))
		s.moms = append(s.moms, T.Zeros(ir.F32, sh...))
		s.grads = append(s.grads, T.FromSlice(vals, sh...))
		stateBytes += 2 * int64(n) * 4
	}
	step := jit.Compile(func(params, moms, grads []*T.Tensor) ([]*T.Tensor, []*T.Tensor, *T.Tensor) {
		var np, nm []*T.Tensor
		loss := T.Scalar(float32(0))
		for i := range params {
			m := T.Add(T.Mul(T.Scalar(0.9), moms[i]), grads[i])
			np = append(np, T.Sub(params[i], T.Mul(T.Scalar(0.01), m)))
			nm = append(nm, m)
			loss = T.Add(loss, T.Mean(T.Mul(params[i], params[i])))
		}
		return np, nm, loss
	}, jit.Donate(0, 1), jit.WithName("train_step"))
	// The first call compiles; measure from the second.
	s.params, s.moms, _ = step(s.params, s.moms, s.grads)
	goruntime.GC()
	base := liveBytes(t)
	peak := base
	var loss *T.Tensor
	for range 100 {
		s.params, s.moms, loss = step(s.params, s.moms, s.grads)
		peak = max(peak, liveBytes(t))
	}
	t.Logf("state %d bytes; live bytes %d before the steps, peak %d (+%d)", stateBytes, base, peak, peak-base)
	if peak-base > stateBytes/8 {
		t.Errorf("100 donated steps grew the live buffer bytes by %d (the parameters and state are %d bytes): donation is not reusing them", peak-base, stateBytes)
	}
	// The values are right: 101 steps of momentum on constant gradients.
	g := s.grads[0].Float32s()[1]
	p0 := float32(1) / 16
	var mom, p float64 = 0, float64(p0)
	for range 101 {
		mom = 0.9*mom + float64(g)
		p -= 0.01 * mom
	}
	if got := s.params[0].Float32s()[1]; math.Abs(float64(got)-p) > 1e-4 {
		t.Errorf("parameter after 101 steps: %v, want %v", got, p)
	}
	if l := loss.Float32s()[0]; !(l > 0) {
		t.Errorf("loss %v", l)
	}
}

// BenchmarkDonatedStep times one momentum step over four f32 matrices of
// 2 MiB (the parameters and their state, 16 MiB): donated (updated in
// place), fresh with the old tensors freed at once (the plugin reuses
// their blocks from its cache of freed memory), and fresh with the old
// tensors dropped (freed when a collection finds them).
func BenchmarkDonatedStep(b *testing.B) {
	shapes := [][]int{{512, 1024}, {1024, 512}, {512, 1024}, {1024, 512}}
	fn := func(params, moms, grads []*T.Tensor) ([]*T.Tensor, []*T.Tensor) {
		var np, nm []*T.Tensor
		for i := range params {
			m := T.Add(T.Mul(T.Scalar(0.9), moms[i]), grads[i])
			np = append(np, T.Sub(params[i], T.Mul(T.Scalar(0.01), m)))
			nm = append(nm, m)
		}
		return np, nm
	}
	for _, mode := range []string{"donated", "fresh-freed", "fresh-dropped"} {
		b.Run(mode, func(b *testing.B) {
			var opts []jit.Option
			if mode == "donated" {
				opts = append(opts, jit.Donate(0, 1))
			}
			step := jit.Compile(fn, opts...)
			var params, moms, grads []*T.Tensor
			for _, sh := range shapes {
				params = append(params, T.Ones(ir.F32, sh...))
				moms = append(moms, T.Zeros(ir.F32, sh...))
				grads = append(grads, T.Ones(ir.F32, sh...))
			}
			params, moms = step(params, moms, grads)
			b.SetBytes(16 << 20)
			faults := minorFaults()
			b.ResetTimer()
			for range b.N {
				np, nm := step(params, moms, grads)
				if mode == "fresh-freed" {
					for i := range params {
						params[i].Free()
						moms[i].Free()
					}
				}
				params, moms = np, nm
			}
			b.StopTimer()
			// Page faults: first touches of fresh memory (about 15 µs a
			// page on these machines, codegen-notes.md).
			b.ReportMetric(float64(minorFaults()-faults)/float64(b.N), "faults/op")
			if err := params[0].Err(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// minorFaults is the process's minor page faults so far.
func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Minflt
}
