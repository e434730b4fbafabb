package stelacpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/runtime/stelacpu"
	"github.com/stela-ml/stela/stablehlo"
)

// BenchmarkClientCreate makes and destroys a client of the plugin with
// 1, 4 and 8 virtual devices: what opening the "cpu" platform costs per
// device (DefaultCPUDevices).
func BenchmarkClientCreate(b *testing.B) {
	for _, n := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("devices=%d", n), func(b *testing.B) {
			for range b.N {
				c, _, err := runtime.OpenClient(stelacpu.Family, stelacpu.DeviceCount(n))
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Devices()) != n {
					b.Fatalf("%d devices, want %d", len(c.Devices()), n)
				}
				c.Destroy()
			}
		})
	}
}

func TestDevices(t *testing.T) {
	t.Setenv(stelacpu.EnvCPUDevices, "")
	if n, err := stelacpu.Devices(); err != nil || n != stelacpu.DefaultCPUDevices {
		t.Errorf("Devices() = %d, %v; want %d", n, err, stelacpu.DefaultCPUDevices)
	}
	t.Setenv(stelacpu.EnvCPUDevices, "3")
	if n, err := stelacpu.Devices(); err != nil || n != 3 {
		t.Errorf("STELA_CPU_DEVICES=3: Devices() = %d, %v", n, err)
	}
	for _, bad := range []string{"0", "-1", "two"} {
		t.Setenv(stelacpu.EnvCPUDevices, bad)
		if _, err := stelacpu.Devices(); err == nil || !strings.Contains(err.Error(), "STELA_CPU_DEVICES=") {
			t.Errorf("STELA_CPU_DEVICES=%s: %v", bad, err)
		}
		// The client of a bad setting is not made either.
		if _, _, err := runtime.OpenClient(stelacpu.Family); err == nil || !strings.Contains(err.Error(), "want a positive integer") {
			t.Errorf("OpenClient with STELA_CPU_DEVICES=%s: %v", bad, err)
		}
	}
}

// TestRegistered: importing the package registers the "cpu" family, whose
// devices are the plugin's, with the worker options that let it compile.
func TestRegistered(t *testing.T) {
	found := false
	for _, n := range runtime.Backends() {
		found = found || n == stelacpu.Family
	}
	if !found {
		t.Fatalf("backends %v lack %q", runtime.Backends(), stelacpu.Family)
	}
	c, path, err := runtime.OpenClient(stelacpu.Family, stelacpu.DeviceCount(2))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	if !strings.HasSuffix(path, "pjrt_c_api_stela_cpu_plugin.so") || len(c.Devices()) != 2 {
		t.Errorf("client of %s with %d devices", path, len(c.Devices()))
	}
	// The compile worker is this test binary: a compile works.
	exe, err := c.Compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	exe.Destroy()
}

// TestRunContextStopsWhileLoop: runtime.RunContext stops a while loop
// whose condition is always true when its context's deadline passes; the
// error surfaces at the read, as context.DeadlineExceeded, and the device
// goes on working.
func TestRunContextStopsWhileLoop(t *testing.T) {
	f, err := ir.ParseFunc(`func @forever(%x: f32[]) -> f32[] {
  %t = constant {value = dense<true> : i1[]} : i1[]
  %go, %acc = while %t, %x @cond(%go: i1[], %acc: f32[]) {
    return %go
  } @body(%go: i1[], %acc: f32[]) {
    %next = add %acc, %acc : f32[]
    return %go, %next
  } : i1[], f32[]
  return %acc
}`)
	if err != nil {
		t.Fatal(err)
	}
	runtime.SetLowering(func(f *ir.Func, o runtime.LowerOptions) (*stablehlo.Module, error) {
		return lowering.Lower(f, lowering.Options{NumReplicas: o.NumReplicas, NumPartitions: o.NumPartitions, Aliases: o.Aliases, Annotate: o.Annotate})
	})
	d, err := runtime.Lookup("cpu:0")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := d.(runtime.Compiler).Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	x, err := d.Put(ir.LiteralFromFloat64s(ir.TensorOf(ir.F32), []float64{1}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	outs, err := runtime.RunContext(ctx, exe, []runtime.Buffer{x}, ir.Loc{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = outs[0].Literal()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read after the deadline: %v, want DEADLINE_EXCEEDED", err)
	}
	// The device still runs programs.
	g, err := ir.ParseFunc(`func @twice(%x: f32[]) -> f32[] {
  %y = add %x, %x : f32[]
  return %y
}`)
	if err != nil {
		t.Fatal(err)
	}
	exe2, err := d.(runtime.Compiler).Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	outs, err = runtime.RunContext(context.Background(), exe2, []runtime.Buffer{x}, ir.Loc{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := outs[0].Literal()
	if err != nil || l.Float64s()[0] != 2 {
		t.Fatalf("1+1 = %v, %v", l, err)
	}
}
