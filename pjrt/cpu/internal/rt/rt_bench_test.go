package rt

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// cpuTime is the process's CPU time so far (user and system, all threads).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

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

// GEMVs of a decode step (GPT-2 small: x[M,768] (or [M,3072]) times the
// weights: c_attn [768,2304], c_fc [768,3072], the MLP's c_proj
// [3072,768], and the tied LM head [50257,768] used transposed), f32 and
// bf16 weights, on the AVX-512 kernel (rt_skinny.h, "avx512") and on the
// path it replaced ("old": STELA_CPU_GEMV=avx2's, oneDNN's sgemm for f32
// and the AVX2 GEMV for bf16 and the f32 LM head at M=8), one after the
// other for each shape. It reports the weights' bytes read per second
// (the bound of a batch-1 decode step is the memory bandwidth) and the
// CPU time of a product (all threads; on a machine other processes
// load, the work done, which wall time hides); each
// shape cycles through copies of its weight that add up to 512 MiB or
// more, more than the L3 cache, so that they come from memory as a
// decode step's do:
//
//	go test ./pjrt/cpu/internal/rt -run '^$' -bench GEMV -count 3
func BenchmarkGEMV(b *testing.B) {
	type shape struct {
		name   string
		K, N   int64
		transB bool
	}
	defer SetSkinny(true)
	for _, s := range []shape{{"c_attn", 768, 2304, false}, {"c_fc", 768, 3072, false}, {"mlp_proj", 3072, 768, false}, {"lm_head", 768, 50257, true}} {
		for _, M := range []int64{1, 8} {
			for _, w := range []string{"f32", "bf16"} {
				es := int64(4)
				if w == "bf16" {
					es = 2
				}
				wb := s.K * s.N * es
				Ws := make([]unsafe.Pointer, (512<<20+wb-1)/wb)
				for i := range Ws {
					Ws[i] = Malloc(int(wb))
					Memset(Ws[i], 0x3c, int(wb))
				}
				A, C := Malloc(int(4*M*s.K)), Malloc(int(4*M*s.N))
				Memset(A, 0x3c, int(4*M*s.K))
				ldb := s.N
				if s.transB {
					ldb = s.K
				}
				r := Default()
				for _, path := range []string{"old", "avx512"} {
					b.Run(fmt.Sprintf("%s/M=%d/%s/%s", s.name, M, w, path), func(b *testing.B) {
						if !SetSkinny(path == "avx512") && path == "avx512" {
							b.Skip("no AVX-512")
						}
						i := 0
						c0 := cpuTime()
						for b.Loop() {
							W := Ws[i%len(Ws)]
							i++
							if w == "f32" {
								r.Gemm(false, false, false, s.transB, M, s.N, s.K, 1, A, s.K, W, ldb, 0, C, s.N)
							} else {
								r.GemmBF16(false, s.transB, false, true, M, s.N, s.K, 1, A, s.K, W, ldb, 0, C, s.N)
							}
						}
						b.ReportMetric(float64(wb)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
						b.ReportMetric((cpuTime()-c0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
					})
				}
				for _, W := range Ws {
					Free(W)
				}
				Free(A)
				Free(C)
			}
		}
	}
}

// The f32 GEMM paths side by side on W3's and W5's shapes (GPT-2 small
// block, batch 4 x 256 tokens): each iteration runs every mode once, in
// an order that alternates (A B C, C B A, ...), so that the modes see the
// same machine load:
//
//	go test ./pjrt/cpu/internal/rt -run '^$' -bench GemmPaths -count 5
//
// For each mode it reports GFLOP/s of wall time (mode-GFLOP/s) and GFLOP
// per CPU second of the process (mode-GFLOP/cpu-s: all threads, the
// pool's spinning included), the second less sensitive to other processes
// on a shared machine.
func BenchmarkGemmPaths(b *testing.B) {
	type shape struct {
		name    string
		M, N, K int64
		tb      bool
		ta      bool
	}
	shapes := []shape{
		{"1024", 1024, 1024, 1024, false, false}, {"2048", 2048, 2048, 2048, false, false},
		{"qkv", 1024, 2304, 768, false, false}, {"fc", 1024, 3072, 768, false, false}, {"proj", 1024, 768, 3072, false, false},
		{"attn_out", 1024, 768, 768, false, false}, {"fc_tb", 1024, 3072, 768, true, false},
		// Smaller products (auto's threshold).
		{"256", 256, 256, 256, false, false}, {"m32", 32, 768, 768, false, false}, {"m128", 128, 768, 768, false, false},
		{"64", 64, 64, 64, false, false}, {"k32", 1024, 1024, 32, false, false},
		// W4's (MLP 784-1024-1024-10, batch 256) products of the 1024-wide
		// layers: forward, the weights' gradients (op(A) transposed) and
		// the activations' (op(B) transposed).
		{"w4_fc1", 256, 1024, 784, false, false}, {"w4_fc2", 256, 1024, 1024, false, false},
		{"w4_dw1", 784, 1024, 256, false, true}, {"w4_dw2", 1024, 1024, 256, false, true},
		{"w4_dh1", 256, 1024, 1024, true, false},
	}
	modes := []struct {
		name string
		mode int
	}{{"dnnl", GemmDNNL}, {"own", GemmOwn}, {"avx2", GemmAVX2}}
	defer SetGEMM(GemmAuto)
	r := Default()
	cpu := func() float64 {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			lda := s.K
			if s.ta {
				lda = s.M
			}
			A, B, Cm := Malloc(int(4*s.M*s.K)), Malloc(int(4*s.K*s.N)), Malloc(int(4*s.M*s.N))
			defer Free(A)
			defer Free(B)
			defer Free(Cm)
			for i := range s.M * s.K {
				unsafe.Slice((*float32)(A), s.M*s.K)[i] = float32(i%7) - 3
			}
			for i := range s.K * s.N {
				unsafe.Slice((*float32)(B), s.K*s.N)[i] = float32(i%5) - 2
			}
			Memset(Cm, 0, int(4*s.M*s.N))
			ldb := s.N
			if s.tb {
				ldb = s.K
			}
			flops := 2 * float64(s.M) * float64(s.N) * float64(s.K)
			wall := make([]time.Duration, len(modes))
			cpus := make([]float64, len(modes))
			it := 0
			for b.Loop() {
				for x := range modes {
					if it%2 == 1 {
						x = len(modes) - 1 - x
					}
					SetGEMM(modes[x].mode)
					t0, c0 := time.Now(), cpu()
					r.Gemm(false, false, s.ta, s.tb, s.M, s.N, s.K, 1, A, lda, B, ldb, 0, Cm, s.N)
					wall[x] += time.Since(t0)
					cpus[x] += cpu() - c0
				}
				it++
			}
			for x, m := range modes {
				b.ReportMetric(flops*float64(b.N)/wall[x].Seconds()/1e9, m.name+"-GFLOP/s")
				b.ReportMetric(flops*float64(b.N)/cpus[x]/1e9, m.name+"-GFLOP/cpu-s")
			}
		})
	}
}

// The AVX-512 GEMM's micro-kernel alone, on one thread, on packed panels
// (one op(A) strip against nb op(B) strips in turn, as gemm512_f32's
// inner loops call it): its GFLOP per CPU second of the thread and that
// as a share of the thread's FMA peak measured next to it, which other
// processes on a shared machine disturb much less than wall time:
//
//	go test ./pjrt/cpu/internal/rt -run '^$' -bench Gemm512Kernel -count 5
//
// kc=512 nb=6 is the full-size kernel's working set (op(A) strip 28 KB,
// op(B) group 384 KB, in L2); kc=64 nb=1 has everything in L1.
func BenchmarkGemm512Kernel(b *testing.B) {
	for _, c := range []struct{ kc, nb int64 }{{64, 1}, {256, 6}, {512, 6}} {
		b.Run(fmt.Sprintf("kc=%d/nb=%d", c.kc, c.nb), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var rate, peak float64
			for b.Loop() {
				r, p, ok := Gemm512KernelRate(c.kc, c.nb, 200_000_000/(c.kc*14*32))
				if !ok {
					b.Skip("no AVX-512")
				}
				rate += r
				peak += p
			}
			b.ReportMetric(rate/float64(b.N)/1e9, "GFLOP/cpu-s")
			b.ReportMetric(100*rate/peak, "%peak")
		})
	}
}
