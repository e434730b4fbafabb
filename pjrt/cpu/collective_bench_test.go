package cpu

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
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
// copied): an all_reduce of S bytes on n devices moves (3n-1)·S bytes in
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
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		x, err := exe.Launch(lists, opts)
		if err == nil {
			err = x.Await()
		}
		if err != nil {
			b.Fatal(err)
		}
		for d, outs := range x.Outputs {
			if donated {
				// The operand was consumed: the result is the next one.
				lists[d][0].Destroy()
				lists[d][0] = outs[0]
			} else {
				outs[0].Destroy()
			}
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	traffic := float64(3*n-1) * float64(size)
	if size <= collDirectBytes && !donated {
		traffic = float64(n*(n+1)) * float64(size)
	}
	b.ReportMetric(float64(size)/sec/1e9, "algGB/s")
	b.ReportMetric(traffic/sec/1e9, "memGB/s")
}

// BenchmarkMemcpy copies size bytes on each of 1 thread and of as many
// threads as there are CPUs (at most 8) at once; GB/s counts reads and
// writes (2 bytes a byte copied), all threads together.
func BenchmarkMemcpy(b *testing.B) {
	for _, threads := range []int{1, min(runtime.NumCPU(), 8)} {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("threads=%d/%s", threads, sizeName(size)), func(b *testing.B) {
				type pair struct{ dst, src unsafe.Pointer }
				var ps []pair
				for range threads {
					p := pair{rt.Malloc(size), rt.Malloc(size)}
					// Touch the pages first.
					rt.Memcpy(p.dst, p.src, size)
					ps = append(ps, p)
				}
				defer func() {
					for _, p := range ps {
						rt.Free(p.dst)
						rt.Free(p.src)
					}
				}()
				b.ResetTimer()
				for b.Loop() {
					var wg sync.WaitGroup
					for _, p := range ps[1:] {
						wg.Add(1)
						go func() {
							defer wg.Done()
							rt.Memcpy(p.dst, p.src, size)
						}()
					}
					rt.Memcpy(ps[0].dst, ps[0].src, size)
					wg.Wait()
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(2*float64(threads)*float64(size)/sec/1e9, "GB/s")
			})
		}
	}
}
