package codegen_test

import (
	"fmt"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/stablehlo"
)

// Benchmarks of fused elementwise code against memcpy of the same bytes,
// in the same run. The compiled programs run on the plugin's runtime
// (package rt: its thread pool, STELA_CPU_THREADS threads, default all
// CPUs), through stela_entry as the plugin calls it; each benchmark
// reports the fastest of max(b.N, 10) calls, so quote the median over
// -count runs:
//
//	go test ./pjrt/cpu/codegen -run '^$' -bench 'GELU|Memcpy' -count 6

const geluN = 4194304

// geluProgram is gelu_tanh(x·a + b) on f32[n] (a, b scalars) as Stela
// lowers it: traced from the frontend's GELU, the default pass pipeline,
// then StableHLO.
func geluProgram(t testing.TB, n int) string {
	r, err := jit.TraceFull(func(x, a, b *tensor.Tensor) *tensor.Tensor {
		return tensor.GELU(tensor.Add(tensor.Mul(x, a), b))
	}, ir.TensorOf(ir.F32, n), ir.TensorOf(ir.F32), ir.TensorOf(ir.F32))
	if err != nil {
		t.Fatal(err)
	}
	m := &ir.Module{Funcs: []*ir.Func{r.Func}}
	if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
		t.Fatal(err)
	}
	sm, err := lowering.Lower(m.Funcs[0], lowering.Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	return string(stablehlo.Format(sm, stablehlo.PrintOptions{}))
}

// timeCalls runs the program max(b.N, 10) times on the same buffers
// (allocated and touched once) and reports the fastest call and its
// bandwidth, counting bytes per call. Timings here are noisy: quote the
// median over -count runs.
func timeCalls(b *testing.B, p *program, args [][]byte, results []int, bytes float64) {
	d, err := p.lib.Time(args, results, max(b.N, 10))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(d.Nanoseconds()), "ns/call")
	b.ReportMetric(bytes/d.Seconds()/1e9, "GB/s")
}

// BenchmarkGELU: one fused pass reading x and writing y; GB/s counts
// those 8 bytes per element. W2's size (4M, 33.5 MB moved), and a
// quarter million elements (2 MB, in the caches: the kernel's compute
// rate alone, which must stay well above the memory bound for W2 to
// reach it).
func BenchmarkGELU(b *testing.B) {
	for _, n := range []int{geluN, geluN / 16} {
		name := "4M"
		if n != geluN {
			name = "256K-cached"
		}
		b.Run(name, func(b *testing.B) {
			p := compile(b, geluProgram(b, n))
			a, c := ir.ScalarOf(float32(0.9)), ir.ScalarOf(float32(0.1))
			x := make([]byte, 4*n)
			b.ResetTimer()
			timeCalls(b, p, [][]byte{x, a.Bytes(), c.Bytes()}, []int{4 * n}, 8*float64(n))
		})
	}
}

// BenchmarkMemcpy: the same bytes through a program that returns its
// argument (the entry copies it with llvm.memcpy, that is libc's
// memcpy), and Go's copy.
func BenchmarkMemcpy(b *testing.B) {
	b.Run("program", func(b *testing.B) {
		p := compile(b, fmt.Sprintf(`func.func public @main(%%x: tensor<%dxf32>) -> tensor<%dxf32> {
  return %%x : tensor<%dxf32>
}`, geluN, geluN, geluN))
		b.ResetTimer()
		timeCalls(b, p, [][]byte{make([]byte, 4*geluN)}, []int{4 * geluN}, 8*geluN)
	})
	b.Run("go", func(b *testing.B) {
		src, dst := make([]byte, 4*geluN), make([]byte, 4*geluN)
		copy(dst, src)
		b.SetBytes(8 * geluN)
		for b.Loop() {
			copy(dst, src)
		}
	})
}
