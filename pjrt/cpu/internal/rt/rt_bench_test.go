package rt

import (
	"fmt"
	"testing"
	"unsafe"
)

// The runtime's GEMM routines on buffers allocated once, next to the BLAS
// library called directly:
//
//	go test ./pjrt/cpu/internal/rt -run '^$' -bench Gemm -count 6
func BenchmarkGemm(b *testing.B) {
	for _, n := range []int{256, 1024} {
		A, B, C := Malloc(4*n*n), Malloc(4*n*n), Malloc(4*n*n)
		for i, x := range unsafe.Slice((*float32)(A), n*n) {
			_ = x
			unsafe.Slice((*float32)(A), n*n)[i] = float32(i%7) - 3
			unsafe.Slice((*float32)(B), n*n)[i] = float32(i%5) - 2
		}
		flops := 2 * float64(n) * float64(n) * float64(n)
		r := Default()
		for _, mode := range []string{"own", "table", "direct"} {
			b.Run(fmt.Sprintf("%s/%d", mode, n), func(b *testing.B) {
				if mode == "direct" && !DirectSgemm(1, n, n, n, A, B, C) {
					b.Skip("no libopenblas.so.0")
				}
				for b.Loop() {
					switch mode {
					case "direct":
						DirectSgemm(1, n, n, n, A, B, C)
					default:
						r.Gemm(false, mode == "own", false, false, int64(n), int64(n), int64(n), 1, A, int64(n), B, int64(n), 0, C, int64(n))
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		Free(A)
		Free(B)
		Free(C)
	}
}
