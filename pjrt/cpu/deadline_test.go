package cpu

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// Deadlines and cancellation (docs/cpu-plugin.md, "Deadlines and
// cancellation"): an execution whose context.Context is done stops at
// its next check and fails with DEADLINE_EXCEEDED or CANCELLED, and the
// client goes on working. The timeouts are generous and nothing is timed:
// each test asserts the error's kind, and that the execution ended at all
// (a hang fails after hangLimit, long past any deadline here).

// foreverProgram's while loop never ends: its condition is always true.
const foreverProgram = `module @jit_forever {
  func.func public @main(%x: tensor<f32>) -> tensor<f32> {
    %zero = stablehlo.constant dense<0> : tensor<i64>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %t = stablehlo.constant dense<true> : tensor<i1>
    %0:2 = stablehlo.while(%i = %zero, %a = %x) : tensor<i64>, tensor<f32>
     cond {
      stablehlo.return %t : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %one : tensor<i64>
      %a1 = stablehlo.add %a, %a : tensor<f32>
      stablehlo.return %i1, %a1 : tensor<i64>, tensor<f32>
    }
    return %0#1 : tensor<f32>
  }
}
`

// hugeProgram sums a broadcast of 10^11 elements (one fused loop that
// would run for minutes) over its inner dimension.
const hugeProgram = `module @jit_huge {
  func.func public @main(%x: tensor<f32>) -> tensor<100000xf32> {
    %b = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<100000x1000000xf32>
    %e = stablehlo.exponential %b : tensor<100000x1000000xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<100000x1000000xf32>, tensor<f32>) -> tensor<100000xf32>
    return %s : tensor<100000xf32>
  }
}
`

// hangLimit is how long a test waits for an execution that was told to
// stop before it fails as hung.
const hangLimit = 2 * time.Minute

// runCtx runs exe on x under ctx in a goroutine and returns its error,
// failing the test when the execution does not end within hangLimit.
func runCtx(t *testing.T, ctx context.Context, exe *pjrt.LoadedExecutable, dev *pjrt.Device, x *pjrt.Buffer) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		outs := make([]*pjrt.Buffer, exe.NumOutputs())
		for i := range outs {
			outs[i] = new(pjrt.Buffer)
		}
		err := exe.ExecuteOneContext(ctx, dev, outs, nil, x)
		if err == nil {
			for _, b := range outs {
				b.Destroy()
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(hangLimit):
		t.Fatalf("the execution did not stop %v after its context was done", hangLimit)
		return nil
	}
}

func scalar(t *testing.T, c *pjrt.Client, dev *pjrt.Device, v float32) *pjrt.Buffer {
	t.Helper()
	l, err := ir.NewLiteral(ir.TensorOf(ir.F32), []float32{v})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.BufferFromLiteral(l, dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Destroy)
	return b
}

// checkHostWorks compiles and runs a small program on c and checks its
// result: the client is usable after a stopped execution.
func checkHostWorks(t *testing.T, c *pjrt.Client, dev *pjrt.Device) {
	t.Helper()
	exe, err := c.Compile(`module @jit_twice {
  func.func public @main(%x: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %x, %x : tensor<f32>
    return %0 : tensor<f32>
  }
}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	outs := []*pjrt.Buffer{new(pjrt.Buffer)}
	if err := exe.ExecuteOneInto(dev, outs, scalar(t, c, dev, 21)); err != nil {
		t.Fatalf("after the stopped execution: %v", err)
	}
	defer outs[0].Destroy()
	if got := floats(t, outs[0]); got[0] != 42 {
		t.Fatalf("after the stopped execution: 21+21 = %v", got[0])
	}
}

func TestDeadlineStopsWhileLoop(t *testing.T) {
	for _, threads := range []int64{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			c := realWorkerClient(t, 1, pjrt.NamedValue{Name: "cpu_threads", Value: threads})
			dev := c.AddressableDevices()[0]
			exe, err := c.Compile(foreverProgram, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer exe.Destroy()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			err = runCtx(t, ctx, exe, dev, scalar(t, c, dev, 1))
			if !errors.Is(err, pjrt.ErrDeadlineExceeded) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %v, want DEADLINE_EXCEEDED", err)
			}
			checkHostWorks(t, c, dev)
		})
	}
}

func TestCancelStopsWhileLoop(t *testing.T) {
	c := realWorkerClient(t, 1)
	dev := c.AddressableDevices()[0]
	exe, err := c.Compile(foreverProgram, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	err = runCtx(t, ctx, exe, dev, scalar(t, c, dev, 1))
	if !errors.Is(err, pjrt.ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want CANCELLED", err)
	}
	// A context done before the call runs nothing.
	err = runCtx(t, ctx, exe, dev, scalar(t, c, dev, 1))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("with a cancelled context: got %v, want CANCELLED", err)
	}
	checkHostWorks(t, c, dev)
}

func TestDeadlineStopsHugeLoop(t *testing.T) {
	for _, threads := range []int64{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			c := realWorkerClient(t, 1, pjrt.NamedValue{Name: "cpu_threads", Value: threads})
			dev := c.AddressableDevices()[0]
			exe, err := c.Compile(hugeProgram, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer exe.Destroy()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			err = runCtx(t, ctx, exe, dev, scalar(t, c, dev, 0))
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %v, want DEADLINE_EXCEEDED", err)
			}
			checkHostWorks(t, c, dev)
		})
	}
}

// An execution context given directly (ExecuteOptions.Context), on an
// executable compiled for two devices: both stop.
func TestExecuteContextCancelsEveryDevice(t *testing.T) {
	c := realWorkerClient(t, 2)
	exe, err := c.Compile(foreverProgram, &pjrt.CompileOptions{NumReplicas: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	x, err := c.Plugin().NewExecuteContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	if !x.CanCancel() {
		t.Fatal("the Stela CPU plugin cannot cancel executions")
	}
	devs := c.AddressableDevices()
	args := [][]*pjrt.Buffer{{scalar(t, c, devs[0], 1)}, {scalar(t, c, devs[1], 1)}}
	done := make(chan error, 1)
	go func() {
		x, err := exe.Launch(args, &pjrt.ExecuteOptions{Context: x})
		if err == nil {
			err = x.Await()
		}
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	if err := x.Cancel(pjrt.CodeDeadlineExceeded); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, pjrt.ErrDeadlineExceeded) {
			t.Fatalf("got %v, want DEADLINE_EXCEEDED", err)
		}
	case <-time.After(hangLimit):
		t.Fatalf("the execution did not stop %v after its context was cancelled", hangLimit)
	}
	checkHostWorks(t, c, devs[0])
}
