package runtime_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// BenchmarkEagerAdd is W1 of `stela bench`: one eager add of two f32[16]
// on the default device per iteration, each using the previous result.
func BenchmarkEagerAdd(b *testing.B) {
	x := tensor.FromSlice(make([]float32, 16), 16)
	y := tensor.FromSlice(make([]float32, 16), 16)
	x = tensor.Add(x, y)
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		x = tensor.Add(x, y)
	}
	_ = x.Float32s()
	reportCPU(b, cpu)
}

// cpuTime is the process's CPU time (user and system, all threads: the
// plugin's and the Go runtime's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the process's CPU time since start per iteration, as
// cpu-ns/op: on a shared machine, where ns/op (wall time) includes the
// time other processes held the cores, it is the steadier measure of an
// op's own cost.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkFusedEagerAdd is BenchmarkEagerAdd in fused eager mode
// (tensor.EagerFused): the ops record into windows of chained adds, each
// run as one compiled program after its first compile.
func BenchmarkFusedEagerAdd(b *testing.B) {
	defer tensor.SetEagerMode(tensor.SetEagerMode(tensor.EagerFused))
	x := tensor.FromSlice(make([]float32, 16), 16)
	y := tensor.FromSlice(make([]float32, 16), 16)
	for range 4096 { // compile the full window's program
		x = tensor.Add(x, y)
	}
	_ = x.Float32s()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		x = tensor.Add(x, y)
	}
	_ = x.Float32s()
	reportCPU(b, cpu)
}

// BenchmarkEagerAddWeakScalar adds a Go number (a weak scalar, converted
// to f32 on the device) to an f32[16] per iteration; next to
// BenchmarkEagerAddScalarLike, which makes the f32 scalar directly, it
// measures what the weak type's conversion costs eagerly.
func BenchmarkEagerAddWeakScalar(b *testing.B) {
	x := tensor.FromSlice(make([]float32, 16), 16)
	x = tensor.Add(x, tensor.Scalar(1.0))
	b.ResetTimer()
	for range b.N {
		x = tensor.Add(x, tensor.Scalar(1.0))
	}
	_ = x.Float32s()
}

// BenchmarkEagerAddScalarLike is BenchmarkEagerAddWeakScalar with the
// scalar made in x's type (tensor.ScalarLike).
func BenchmarkEagerAddScalarLike(b *testing.B) {
	x := tensor.FromSlice(make([]float32, 16), 16)
	x = tensor.Add(x, tensor.ScalarLike(x, 1))
	b.ResetTimer()
	for range b.N {
		x = tensor.Add(x, tensor.ScalarLike(x, 1))
	}
	_ = x.Float32s()
}

// BenchmarkRunDevices runs x*y + x over f32[16] compiled for 1, 2, 4 and
// 8 partitions (CompileMulti) per iteration: what one execution over
// several devices costs beyond its arithmetic (one thread per device on
// the CPU plugin).
func BenchmarkRunDevices(b *testing.B) {
	for _, n := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("devices=%d", n), func(b *testing.B) {
			devs, err := runtime.FamilyDevices("cpu")
			if err != nil {
				b.Fatal(err)
			}
			devs = devs[:n]
			exe, err := runtime.CompileMulti(fmaFunc(b, 16), runtime.CompileSpec{Partitions: n, Devices: devs})
			if err != nil {
				b.Fatal(err)
			}
			args := make([][]runtime.Buffer, n)
			for i, d := range devs {
				args[i] = []runtime.Buffer{put(b, d, make([]float32, 16)...), put(b, d, make([]float32, 16)...)}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				outs, err := exe.RunDevices(args, ir.UnknownLoc)
				if err != nil {
					b.Fatal(err)
				}
				for _, o := range outs {
					o[0].(runtime.Freer).Free()
				}
			}
		})
	}
}
