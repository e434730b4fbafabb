package cpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// GEMM through the plugin (a StableHLO dot_general compiled by the real
// worker and run by PJRT Execute, result buffer allocation included) next
// to the BLAS library's cblas_sgemm called directly on buffers allocated
// once, in the same run:
//
//	go test ./pjrt/cpu -run '^$' -bench GEMM -count 6
//
// Each reports GFLOP/s; compare the medians of plugin/X and openblas/X.

var gemmShapes = []struct{ batch, m, k, n int }{
	{1, 1024, 1024, 1024},
	{1, 2048, 2048, 2048},
	{8, 256, 512, 256},
}

func benchClient(b *testing.B) *pjrt.Client {
	b.Helper()
	for _, tool := range []string{"opt", "llc"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("no %s: apt-get install llvm-14", tool)
		}
	}
	opts, err := WorkerOptions()
	if err != nil {
		b.Fatal(err)
	}
	root, err := os.UserCacheDir()
	if err != nil {
		b.Fatal(err)
	}
	opts = append(opts, pjrt.NamedValue{Name: "stela_cache_dir", Value: filepath.Join(root, "stela", "cpu-bench")})
	c, err := loadPlugin(b).NewClient(opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Destroy)
	return c
}

func randF32(r *rand.Rand, n int) []byte {
	out := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(r.NormFloat64())))
	}
	return out
}

func dotProgram(batch, m, k, n int) string {
	if batch == 1 {
		return fmt.Sprintf(`func.func public @main(%%x: tensor<%dx%dxf32>, %%w: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {
  %%0 = stablehlo.dot_general %%x, %%w, contracting_dims = [1] x [0] : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>
  return %%0 : tensor<%dx%dxf32>
}`, m, k, k, n, m, n, m, k, k, n, m, n, m, n)
	}
	lt := fmt.Sprintf("tensor<%dx%dx%dxf32>", batch, m, k)
	rt := fmt.Sprintf("tensor<%dx%dx%dxf32>", batch, k, n)
	ot := fmt.Sprintf("tensor<%dx%dx%dxf32>", batch, m, n)
	return fmt.Sprintf(`func.func public @main(%%x: %s, %%w: %s) -> %s {
  %%0 = stablehlo.dot_general %%x, %%w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (%s, %s) -> %s
  return %%0 : %s
}`, lt, rt, ot, lt, rt, ot, ot)
}

func BenchmarkGEMM(b *testing.B) {
	for _, s := range gemmShapes {
		name := fmt.Sprintf("%dx%dx%d", s.m, s.k, s.n)
		if s.batch > 1 {
			name = fmt.Sprintf("%dx", s.batch) + name
		}
		flops := 2 * float64(s.batch) * float64(s.m) * float64(s.k) * float64(s.n)
		r := rand.New(rand.NewPCG(1, 2))
		x, w := randF32(r, s.batch*s.m*s.k), randF32(r, s.batch*s.k*s.n)

		b.Run("plugin/"+name, func(b *testing.B) {
			c := benchClient(b)
			exe, err := c.Compile(dotProgram(s.batch, s.m, s.k, s.n), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer exe.Destroy()
			dims := func(a, c int) []int {
				if s.batch == 1 {
					return []int{a, c}
				}
				return []int{s.batch, a, c}
			}
			xb, err := c.BufferFromHost(pjrt.HostArray{DType: ir.F32, Dims: dims(s.m, s.k), Data: x}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer xb.Destroy()
			wb, err := c.BufferFromHost(pjrt.HostArray{DType: ir.F32, Dims: dims(s.k, s.n), Data: w}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer wb.Destroy()
			run := func() {
				outs, err := exe.Execute(xb, wb)
				if err != nil {
					b.Fatal(err)
				}
				outs[0].Destroy()
			}
			run() // warm: first touches, the BLAS library's load
			b.ResetTimer()
			cpu0, flt0 := usage()
			for b.Loop() {
				run()
			}
			reportGEMM(b, flops, cpu0, flt0)
		})

		b.Run("openblas/"+name, func(b *testing.B) {
			A, B, C := rt.Malloc(len(x)), rt.Malloc(len(w)), rt.Malloc(4*s.batch*s.m*s.n)
			defer rt.Free(A)
			defer rt.Free(B)
			defer rt.Free(C)
			copy(unsafe.Slice((*byte)(A), len(x)), x)
			copy(unsafe.Slice((*byte)(B), len(w)), w)
			if !rt.DirectSgemm(s.batch, s.m, s.n, s.k, A, B, C) {
				b.Skip("no libopenblas.so.0")
			}
			b.ResetTimer()
			cpu0, flt0 := usage()
			for b.Loop() {
				rt.DirectSgemm(s.batch, s.m, s.n, s.k, A, B, C)
			}
			reportGEMM(b, flops, cpu0, flt0)
		})
	}
}

// usage is the process's user and system CPU time and minor page faults
// so far.
func usage() (time.Duration, int64) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Minflt
}

// reportGEMM reports GFLOP/s of wall time, the CPU time per operation
// (all threads; steadier than wall time on a loaded machine) and the
// minor page faults per operation (fresh memory is slow to touch on some
// machines).
func reportGEMM(b *testing.B, flops float64, cpu0 time.Duration, flt0 int64) {
	cpu, flt := usage()
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(float64(cpu-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(flt-flt0)/float64(b.N), "faults/op")
}
