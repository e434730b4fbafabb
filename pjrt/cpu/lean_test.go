package cpu

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// The plugin's lean execute entry (stela_cpu_execute_lean, execute.c),
// which pjrt's ExecuteOne takes for a portable executable when nothing
// is donated and no context can cancel the call: the same results as
// PJRT_LoadedExecutable_Execute, and the same checks, with errors that
// name the entry.

// leanClient is a client of the fake worker whose plugin uses the lean
// entry, which the test turns back on as it found it.
func leanClient(t *testing.T, n int) *pjrt.Client {
	t.Helper()
	c := newClient(t, n)
	p := c.Plugin()
	if p.LeanExecute() {
		return c
	}
	// Off by STELA_DEBUG=nolean, or no entry at all: the plugin must
	// export one.
	if !p.SetLeanExecute(true) && !p.LeanExecute() {
		t.Fatal("the plugin exports no stela_cpu_execute_lean")
	}
	t.Cleanup(func() { p.SetLeanExecute(false) })
	return c
}

// withLean runs fn with the lean entry on or off.
func withLean(t *testing.T, c *pjrt.Client, on bool, fn func()) {
	t.Helper()
	p := c.Plugin()
	was := p.SetLeanExecute(on)
	defer p.SetLeanExecute(was)
	if got := p.LeanExecute(); got != on {
		t.Fatalf("SetLeanExecute(%v): LeanExecute() = %v", on, got)
	}
	fn()
}

func literalBuffer(t *testing.T, c *pjrt.Client, dev *pjrt.Device, l *ir.Literal) *pjrt.Buffer {
	t.Helper()
	b, err := c.BufferFromLiteral(l, dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Destroy)
	return b
}

func hostBytes(t *testing.T, b *pjrt.Buffer) []byte {
	t.Helper()
	data, err := b.HostBytes()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestLeanExecuteMatchesExecute(t *testing.T) {
	c := leanClient(t, 2)
	exe, err := c.Compile(swapC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	for _, dev := range c.AddressableDevices() {
		a := literalBuffer(t, c, dev, ir.LiteralOf([]int{3}, int64(7), -1, 1<<40))
		m := literalBuffer(t, c, dev, ir.LiteralOf([]int{2, 2}, ir.BFloat16(0x3f80), ir.BFloat16(0x4000), ir.BFloat16(0xc040), ir.BFloat16(0x0001)))
		var got [2][][]byte
		for k, on := range []bool{true, false} {
			withLean(t, c, on, func() {
				outs := []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
				if err := exe.ExecuteOneInto(dev, outs, a, m); err != nil {
					t.Fatalf("lean %v: %v", on, err)
				}
				for _, o := range outs {
					if d, err := o.Device(); err != nil || d != dev {
						t.Errorf("lean %v: result on %v (%v), want %v", on, d, err, dev)
					}
					got[k] = append(got[k], hostBytes(t, o))
					o.Destroy()
				}
			})
		}
		for j := range got[0] {
			if !bytes.Equal(got[0][j], got[1][j]) {
				t.Errorf("device %v: result %d is %x through the lean entry, %x through Execute", dev, j, got[0][j], got[1][j])
			}
		}
		if !bytes.Equal(got[0][0], hostBytes(t, m)) || !bytes.Equal(got[0][1], hostBytes(t, a)) {
			t.Errorf("device %v: swap gave %x, %x", dev, got[0][0], got[0][1])
		}
	}
	// No device named: the first argument's.
	dev1 := c.AddressableDevices()[1]
	x := literalBuffer(t, c, dev1, ir.LiteralOf([]int{4}, float32(1), 2, 3, 4))
	add, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer add.Destroy()
	outs := []*pjrt.Buffer{new(pjrt.Buffer)}
	if err := add.ExecuteOneInto(nil, outs, x); err != nil {
		t.Fatal(err)
	}
	if d, _ := outs[0].Device(); d != dev1 {
		t.Errorf("no device named: result on %v, want the argument's %v", d, dev1)
	}
	if got := floats(t, outs[0]); got[0] != 2 || got[3] != 5 {
		t.Errorf("add_one: %v", got)
	}
	outs[0].Destroy()
}

func TestLeanExecuteErrors(t *testing.T) {
	c := leanClient(t, 2)
	devs := c.AddressableDevices()
	exe, err := c.Compile(swapC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	a := literalBuffer(t, c, devs[0], ir.LiteralOf([]int{3}, int64(1), 2, 3))
	m := literalBuffer(t, c, devs[0], ir.Zeros(ir.TensorOf(ir.BF16, 2, 2)))
	f := literalBuffer(t, c, devs[0], ir.LiteralOf([]int{3}, float32(1), 2, 3))
	a1 := literalBuffer(t, c, devs[1], ir.LiteralOf([]int{3}, int64(1), 2, 3))
	run := func(dev *pjrt.Device, args ...*pjrt.Buffer) error {
		t.Helper()
		outs := []*pjrt.Buffer{new(pjrt.Buffer), new(pjrt.Buffer)}
		err := exe.ExecuteOneInto(dev, outs, args...)
		if err != nil {
			for i, o := range outs {
				if del, _ := o.IsDeleted(); !del {
					t.Errorf("failed call (%v): output %d is not left zero", err, i)
				}
			}
		} else {
			for _, o := range outs {
				o.Destroy()
			}
		}
		return err
	}
	// The wrong number of buffers, a wrong type, the wrong device.
	wantError(t, run(devs[0], a), pjrt.CodeInvalidArgument, "stela_cpu_execute_lean: the program swap takes 2 arguments, got 1")
	wantError(t, run(devs[0], f, m), pjrt.CodeInvalidArgument, "stela_cpu_execute_lean: argument 0 of device 0 is F32[3], the program swap wants S64[3]")
	wantError(t, run(devs[0], a1, m), pjrt.CodeInvalidArgument, "stela_cpu_execute_lean: argument 0 is on device 1, but device 0 of the execution is device 0")
	// Failures of the program: a run-time error and a failed expectation.
	neg := literalBuffer(t, c, devs[0], ir.LiteralOf([]int{3}, int64(-1), 2, 3))
	wantError(t, run(devs[0], neg, m), pjrt.CodeInternal, "stela cpu execute: swap on device 0: first element is negative")
	neg2 := literalBuffer(t, c, devs[0], ir.LiteralOf([]int{3}, int64(-2), 2, 3))
	wantError(t, run(devs[0], neg2, m), pjrt.CodeAborted, "check.expect_eq failed")
	// A deleted (or donated) buffer.
	d := literalBuffer(t, c, devs[0], ir.LiteralOf([]int{3}, int64(1), 2, 3))
	if err := d.Delete(); err != nil {
		t.Fatal(err)
	}
	wantError(t, run(devs[0], d, m), pjrt.CodeInvalidArgument, "stela_cpu_execute_lean: argument 0 was deleted or donated")
	// A destroyed buffer and a nil one: Go's own checks.
	gone, err := c.BufferFromLiteral(ir.LiteralOf([]int{3}, int64(1), 2, 3), devs[0])
	if err != nil {
		t.Fatal(err)
	}
	gone.Destroy()
	if err := run(devs[0], gone, m); err == nil {
		t.Error("a destroyed argument ran")
	}
	wantError(t, run(devs[0], nil, m), pjrt.CodeInvalidArgument, "argument 0 is nil")
	// The same argument twice (held once) runs.
	two, err := c.Compile(`// fake: c
/* module @twice */
const char stela_signature[] = "arg f32 4\narg f32 4\nres f32 4\n";
int stela_entry(void *const *args, void *const *results, char err[256]) {
  const float *x = args[0], *y = args[1]; float *z = results[0];
  for (int i = 0; i < 4; i++) z[i] = x[i] * y[i];
  return 0;
}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer two.Destroy()
	x := literalBuffer(t, c, devs[0], ir.LiteralOf([]int{4}, float32(1), 2, 3, 4))
	outs := []*pjrt.Buffer{new(pjrt.Buffer)}
	if err := two.ExecuteOneInto(devs[0], outs, x, x); err != nil {
		t.Fatal(err)
	}
	if got := floats(t, outs[0]); got[3] != 16 {
		t.Errorf("x*x: %v", got)
	}
	outs[0].Destroy()
	// The client still works after every failure.
	if err := run(devs[0], a, m); err != nil {
		t.Errorf("after the failures: %v", err)
	}
	// With the lean entry off, the same mistake is Execute's.
	withLean(t, c, false, func() {
		wantError(t, run(devs[0], a), pjrt.CodeInvalidArgument, "PJRT_LoadedExecutable_Execute: the program swap takes 2 arguments, got 1")
	})
}

// TestLeanExecuteDestroysDead: buffers whose owners the collector found
// dead are destroyed by the next lean execution (deadbuffers.go), so
// that a loop of executions that drops its results does not grow the
// plugin's live buffers.
func TestLeanExecuteDestroysDead(t *testing.T) {
	c := leanClient(t, 1)
	live, ok := c.Plugin().Int64Func("stela_cpu_live_buffers")
	if !ok {
		t.Fatal("no stela_cpu_live_buffers")
	}
	exe, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	dev := c.AddressableDevices()[0]
	x := literalBuffer(t, c, dev, ir.LiteralOf([]int{4}, float32(1), 2, 3, 4))
	before := live()
	const n = 20000
	for range n {
		outs, err := exe.ExecuteOne(dev, x)
		if err != nil {
			t.Fatal(err)
		}
		_ = outs // dropped: the collector finds it dead
	}
	// Cleanups queue the dead buffers (registered and run by goroutines of
	// their own), and executions take them: wait for both, up to a bound.
	deadline := time.Now().Add(20 * time.Second)
	for live()-before > n/4 {
		if time.Now().After(deadline) {
			t.Fatalf("%d executions dropping their results left %d more live buffers", n, live()-before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		for range 64 {
			outs, err := exe.ExecuteOne(dev, x)
			if err != nil {
				t.Fatal(err)
			}
			outs[0].Destroy()
		}
	}
}

// A pinned executable (LoadedExecutable.Pin, which the runtime's programs
// are) ignores Destroy, so that executions need not hold it: it keeps
// running, through the lean entry and Execute alike, while an unpinned
// one reports that it was destroyed.
func TestPinnedExecutableIgnoresDestroy(t *testing.T) {
	c := leanClient(t, 1)
	dev := c.AddressableDevices()[0]
	x := literalBuffer(t, c, dev, ir.LiteralOf([]int{4}, float32(1), 2, 3, 4))
	pinned, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	pinned.Pin()
	pinned.Destroy()
	for _, on := range []bool{true, false} {
		withLean(t, c, on, func() {
			outs, err := pinned.ExecuteOne(dev, x)
			if err != nil {
				t.Fatalf("lean %v: pinned executable after Destroy: %v", on, err)
			}
			if got := floats(t, outs[0]); got[0] != 2 || got[3] != 5 {
				t.Errorf("lean %v: add_one: %v", on, got)
			}
			outs[0].Destroy()
		})
	}
	plain, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain.Destroy()
	for _, on := range []bool{true, false} {
		withLean(t, c, on, func() {
			if _, err := plain.ExecuteOne(dev, x); err == nil || !strings.Contains(err.Error(), "destroyed") {
				t.Errorf("lean %v: destroyed executable: err = %v, want one that says it was destroyed", on, err)
			}
		})
	}
}

// The lean entry reads its arguments' storage without a lock of its own:
// Go holds each argument for the call, and Delete and donation hold it
// exclusively. Executions through the lean entry on a buffer that other
// goroutines delete, destroy, or pass as donated, all at once, give
// either the right result or an error that says the buffer is gone, and
// never hang.
func TestLeanExecuteWhileDeleted(t *testing.T) {
	c := leanClient(t, 1)
	dev := c.AddressableDevices()[0]
	exe, err := c.Compile(addOneC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	newX := func() *pjrt.Buffer {
		b, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(1), 2, 3, 4), dev)
		if err != nil {
			t.Error(err)
		}
		return b
	}
	var cur atomic.Pointer[pjrt.Buffer]
	cur.Store(newX())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var ran, gone atomic.Int64
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				x := cur.Load()
				// The same buffer twice is held once (an argument count
				// error here).
				if _, err := exe.ExecuteOne(dev, x, x); err == nil {
					t.Error("two arguments for one parameter ran")
					return
				}
				outs, err := exe.ExecuteOne(dev, x)
				if err != nil {
					if !strings.Contains(err.Error(), "deleted or donated") && !errors.Is(err, pjrt.ErrDestroyed) {
						t.Errorf("execution on a buffer being deleted: %v", err)
						return
					}
					gone.Add(1)
					continue
				}
				l, err := outs[0].ToLiteral()
				if err != nil {
					t.Error(err)
					return
				}
				if got := l.Data.([]float32); got[0] != 2 || got[3] != 5 {
					t.Errorf("add_one of a buffer being deleted: %v", got)
					return
				}
				outs[0].Destroy()
				ran.Add(1)
			}
		}()
	}
	deadline := time.Now().Add(time.Second)
	for k := 0; time.Now().Before(deadline) && !t.Failed(); k++ {
		old := cur.Swap(newX())
		runtime.Gosched()
		switch k % 3 {
		case 0:
			if err := old.Delete(); err != nil {
				t.Error(err)
			}
			old.Destroy()
		case 1:
			old.Destroy()
		case 2:
			outs := []*pjrt.Buffer{new(pjrt.Buffer)}
			if err := exe.ExecuteOneDonating(dev, outs, []bool{true}, old); err != nil {
				t.Error(err)
			} else {
				outs[0].Destroy()
			}
			old.Destroy()
		}
	}
	close(stop)
	wg.Wait()
	cur.Load().Destroy()
	t.Logf("%d executions ran, %d found their buffer gone", ran.Load(), gone.Load())
	if ran.Load() == 0 {
		t.Error("no execution ran")
	}
}
