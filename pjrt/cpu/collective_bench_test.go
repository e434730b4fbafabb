package cpu

import (
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// all_reduce (sum, f32, all devices in one group) through PJRT Execute,
// next to C memcpy on as many threads in the same run:
//
//	go test ./pjrt/cpu -run '^$' -bench 'AllReduce|Memcpy' -count 5
//
// Metrics: algGB/s is the operand's bytes over the time; memGB/s the
// memory traffic of the algorithm (reads plus writes, all devices) over
// the time, to compare with memcpy's GB/s (2 bytes of traffic a byte
// copied); memGB/cpu-s the same traffic over the CPU time the process
// spent (all threads, user and system), which a machine shared with other
// work disturbs less than the wall time (a device thread that waits for
// a CPU holds up the others at the next barrier): an all_reduce of S bytes on n devices moves (3n-1)·S bytes in
// segments (each device reads its segment of every input and the other
// devices' segments of their results, and writes its whole result), and
// n(n+1)·S when it is small enough (collDirectBytes) for every device to
// reduce all of it.

var benchSizes = []int{1 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprint(n)
}

// collDirectBytes mirrors codegen's threshold (for the traffic metric).
const collDirectBytes = 64 << 10

// BenchmarkAllReduce: "fresh" allocates each execution's results (as
// every Execute does); "donated" donates the operand, aliased to the
// result (tf.aliasing_output), so that the all_reduce runs in place and
// each result is the next execution's operand: no allocation, no page
// faults, the algorithm alone.
func BenchmarkAllReduce(b *testing.B) {
	for _, mode := range []string{"fresh", "donated"} {
		for _, n := range []int{2, 4, 8} {
			c := realClient(b, n)
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("%s/devices=%d/%s", mode, n, sizeName(size)), func(b *testing.B) {
					benchAllReduce(b, c, mode == "donated", n, size)
				})
			}
		}
	}
}

func benchAllReduce(b *testing.B, c *pjrt.Client, donated bool, n, size int) {
	elems := size / 4
	alias := ""
	if donated {
		alias = " {tf.aliasing_output = 0 : i32}"
	}
	program := fmt.Sprintf(`module @all_reduce_bench {
  func.func public @main(%%x: tensor<%dxf32>%s) -> tensor<%dxf32> {
    %%r = "stablehlo.all_reduce"(%%x) ({
    ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):
      %%s = stablehlo.add %%a, %%b : tensor<f32>
      stablehlo.return %%s : tensor<f32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<%dxf32>) -> tensor<%dxf32>
    return %%r : tensor<%dxf32>
  }
}
`, elems, alias, elems, elems, elems, elems)
	exe := compileOn(b, c, mesh{n, 1}, program)
	zeros := make([]float32, elems)
	lists := make([][]*pjrt.Buffer, n)
	for d, dev := range exe.AddressableDevices() {
		buf, err := c.BufferFromLiteral(ir.LiteralOf([]int{elems}, zeros...), dev)
		if err != nil {
			b.Fatal(err)
		}
		lists[d] = []*pjrt.Buffer{buf}
	}
	defer func() {
		for _, l := range lists {
			l[0].Destroy()
		}
	}()
	opts := &pjrt.ExecuteOptions{}
	if donated {
		opts.Donate = []int{0}
	}
	// The memcpy each execution is paired with: as many threads as the
	// machine has CPUs (at most n), each copying size bytes.
	mc := newMemcpies(min(n, runtime.NumCPU()), size)
	defer mc.free()
	var reduceTime, copyTime time.Duration
	b.SetBytes(int64(size))
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		t0 := time.Now()
		x, err := exe.Launch(lists, opts)
		if err == nil {
			err = x.Await()
		}
		if err != nil {
			b.Fatal(err)
		}
		reduceTime += time.Since(t0)
		for d, outs := range x.Outputs {
			if donated {
				// The operand was consumed: the result is the next one.
				lists[d][0].Destroy()
				lists[d][0] = outs[0]
			} else {
				outs[0].Destroy()
			}
		}
		b.StopTimer()
		t1 := time.Now()
		mc.run()
		copyTime += time.Since(t1)
		b.StartTimer()
	}
	cpu := (cpuTime() - cpu0) / float64(b.N)
	sec := b.Elapsed().Seconds() / float64(b.N)
	traffic := float64(3*n-1) * float64(size)
	if size <= collDirectBytes && !donated {
		traffic = float64(n*(n+1)) * float64(size)
	}
	b.ReportMetric(float64(size)/sec/1e9, "algGB/s")
	b.ReportMetric(traffic/sec/1e9, "memGB/s")
	b.ReportMetric(traffic/cpu/1e9, "memGB/cpu-s")
	// The algorithm's traffic rate as a fraction of memcpy's, measured
	// right after each execution (so that the load of a shared machine
	// weighs on both alike): 1 means at the bound.
	rate := traffic * float64(b.N) / reduceTime.Seconds()
	b.ReportMetric(rate/(mc.bytes()*float64(b.N)/copyTime.Seconds()), "x-memcpy")
}

// memcpies are k buffers pairs of size bytes, copied on k threads at once.
type memcpies struct {
	size     int
	dst, src []unsafe.Pointer
	wg       sync.WaitGroup
}

func newMemcpies(k, size int) *memcpies {
	m := &memcpies{size: size}
	for range k {
		d, s := rt.Malloc(size), rt.Malloc(size)
		// Write both: untouched memory reads as the one zero page.
		rt.Memset(s, 1, size)
		rt.Memset(d, 2, size)
		m.dst, m.src = append(m.dst, d), append(m.src, s)
	}
	return m
}

// bytes is the traffic of one run: k copies of size bytes, read and
// written.
func (m *memcpies) bytes() float64 { return 2 * float64(len(m.dst)) * float64(m.size) }

func (m *memcpies) run() {
	for i := 1; i < len(m.dst); i++ {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			rt.Memcpy(m.dst[i], m.src[i], m.size)
		}()
	}
	rt.Memcpy(m.dst[0], m.src[0], m.size)
	m.wg.Wait()
}

func (m *memcpies) free() {
	for i := range m.dst {
		rt.Free(m.dst[i])
		rt.Free(m.src[i])
	}
}

// cpuTime is the CPU time the process has used, in seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkMemcpy copies size bytes on each of 1 thread and of as many
// threads as there are CPUs (at most 8) at once; GB/s counts reads and
// writes (2 bytes a byte copied), all threads together.
func BenchmarkMemcpy(b *testing.B) {
	for _, threads := range []int{1, min(runtime.NumCPU(), 8)} {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("threads=%d/%s", threads, sizeName(size)), func(b *testing.B) {
				mc := newMemcpies(threads, size)
				defer mc.free()
				b.ResetTimer()
				cpu0 := cpuTime()
				for b.Loop() {
					mc.run()
				}
				cpu := (cpuTime() - cpu0) / float64(b.N)
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(mc.bytes()/sec/1e9, "GB/s")
				b.ReportMetric(mc.bytes()/cpu/1e9, "GB/cpu-s")
			})
		}
	}
}
