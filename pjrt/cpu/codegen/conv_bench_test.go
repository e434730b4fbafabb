package codegen_test

import (
	"fmt"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

// Convolution benchmarks against their GEMM baseline, measured in the same
// run: the compiled convolution of a ResNet-style layer (NHWC f32, 3×3,
// stride 1, SAME padding) next to the GEMM library's time for the
// equivalent im2col product, [N·H·W, 9·C] × [9·C, O], through the
// runtime's sgemm (OpenBLAS, on the same thread pool: what a compiled
// program calls). Quote medians of `-count 6`:
//
//	go test -run '^$' -bench 'Conv|MaxPool' -count 6 ./pjrt/cpu/codegen

// convLayer is the ResNet layer: batch 8, 56×56, 64 → 64 channels.
var convLayer = struct{ n, h, w, c, o int }{8, 56, 56, 64, 64}

func convLayerProgram(elem string) string {
	l := convLayer
	x := fmt.Sprintf("tensor<%dx%dx%dx%dx%s>", l.n, l.h, l.w, l.c, elem)
	w := fmt.Sprintf("tensor<3x3x%dx%dx%s>", l.c, l.o, elem)
	y := fmt.Sprintf("tensor<%dx%dx%dx%dx%s>", l.n, l.h, l.w, l.o, elem)
	return fmt.Sprintf(`func.func public @main(%%x: %s, %%w: %s) -> %s {
  %%0 = stablehlo.convolution(%%x, %%w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (%s, %s) -> %s
  return %%0 : %s
}`, x, w, y, x, w, y, y)
}

func BenchmarkConvResNet(b *testing.B) {
	l := convLayer
	M, K, N := l.n*l.h*l.w, 9*l.c, l.o
	flops := float64(2 * M * K * N)
	for _, ty := range []struct {
		elem string
		size int
	}{{"f32", 4}, {"f64", 8}} {
		b.Run("conv/"+ty.elem, func(b *testing.B) {
			benchProgram(b, convLayerProgram(ty.elem), []int{l.n * l.h * l.w * l.c * ty.size, 9 * l.c * l.o * ty.size},
				[]int{M * N * ty.size}, flops)
		})
		b.Run("im2col-gemm/"+ty.elem, func(b *testing.B) {
			benchGemm(b, ty.size == 8, false, M, N, K, flops)
		})
		if ty.elem == "f32" {
			// The same product as a compiled dot_general.
			b.Run("im2col-dot_general/"+ty.elem, func(b *testing.B) {
				src := fmt.Sprintf(`func.func public @main(%%a: tensor<%dx%dxf32>, %%w: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {
  %%0 = stablehlo.dot_general %%a, %%w, contracting_dims = [1] x [0] : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>
  return %%0 : tensor<%dx%dxf32>
}`, M, K, K, N, M, N, M, K, K, N, M, N, M, N)
				benchProgram(b, src, []int{M * K * 4, K * N * 4}, []int{M * N * 4}, flops)
			})
		}
	}
	// The runtime's own GEMM kernel on the same product: what each parallel
	// chunk of the convolution runs.
	b.Run("im2col-gemm-own/f32", func(b *testing.B) { benchGemm(b, false, true, M, N, K, flops) })
	// Both alternately, one run each per iteration, so that a noisy
	// machine slows them alike: the medians and their ratio.
	b.Run("ratio/f32", func(b *testing.B) {
		p := compile(b, convLayerProgram("f32"))
		x, w := make([]byte, l.n*l.h*l.w*l.c*4), make([]byte, 9*l.c*l.o*4)
		A, B, C := rt.Malloc(M*K*4), rt.Malloc(K*N*4), rt.Malloc(M*N*4)
		defer rt.Free(A)
		defer rt.Free(B)
		defer rt.Free(C)
		clear(unsafe.Slice((*byte)(A), M*K*4))
		clear(unsafe.Slice((*byte)(B), K*N*4))
		r := rt.Default()
		var conv, gemm []time.Duration
		b.ResetTimer()
		for range b.N {
			d, err := p.lib.Time([][]byte{x, w}, []int{M * N * 4}, 1)
			if err != nil {
				b.Fatal(err)
			}
			conv = append(conv, d)
			t0 := time.Now()
			r.Gemm(false, false, false, false, int64(M), int64(N), int64(K), 1, A, int64(K), B, int64(N), 0, C, int64(N))
			gemm = append(gemm, time.Since(t0))
		}
		mc, mg := median(conv), median(gemm)
		b.ReportMetric(float64(mc.Nanoseconds()), "conv-ns(median)")
		b.ReportMetric(float64(mg.Nanoseconds()), "gemm-ns(median)")
		b.ReportMetric(mc.Seconds()/mg.Seconds(), "conv/gemm")
	})
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchGemm times the runtime's GEMM on an M×K by K×N product in C memory
// (written once before timing) and reports the fastest run, like
// benchProgram.
func benchGemm(b *testing.B, f64, own bool, M, N, K int, flops float64) {
	size := 4
	if f64 {
		size = 8
	}
	A, B, C := rt.Malloc(M*K*size), rt.Malloc(K*N*size), rt.Malloc(M*N*size)
	defer rt.Free(A)
	defer rt.Free(B)
	defer rt.Free(C)
	for _, m := range []struct {
		p unsafe.Pointer
		n int
	}{{A, M * K * size}, {B, K * N * size}, {C, M * N * size}} {
		bs := unsafe.Slice((*byte)(m.p), m.n)
		for i := range bs {
			bs[i] = byte(i%61) & 0x3f // finite values in every type
		}
	}
	r := rt.Default()
	if name, ok := rt.BLAS(); ok && !own {
		b.Logf("BLAS: %s, %d threads", name, r.Threads())
	}
	b.ResetTimer()
	best := time.Duration(1<<63 - 1)
	for range b.N {
		t0 := time.Now()
		r.Gemm(f64, own, false, false, int64(M), int64(N), int64(K), 1, A, int64(K), B, int64(N), 0, C, int64(N))
		best = min(best, time.Since(t0))
	}
	b.ReportMetric(flops/best.Seconds()/1e9, "GFLOP/s(best)")
	b.ReportMetric(float64(best.Nanoseconds()), "ns/op(best)")
}

// BenchmarkMaxPool: reduce_window max 3×3 stride 2 SAME on the layer's
// activations (NHWC), as a ResNet stem pools.
func BenchmarkMaxPool(b *testing.B) {
	l := convLayer
	src := fmt.Sprintf(`func.func public @main(%%x: tensor<%dx%dx%dx%dxf32>) -> tensor<%dx%dx%dx%dxf32> {
  %%init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %%0 = "stablehlo.reduce_window"(%%x, %%init) ({
  ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):
    %%m = stablehlo.maximum %%a, %%b : tensor<f32>
    stablehlo.return %%m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<%dx%dx%dx%dxf32>, tensor<f32>) -> tensor<%dx%dx%dx%dxf32>
  return %%0 : tensor<%dx%dx%dx%dxf32>
}`, l.n, l.h, l.w, l.c, l.n, l.h/2, l.w/2, l.c, l.n, l.h, l.w, l.c, l.n, l.h/2, l.w/2, l.c, l.n, l.h/2, l.w/2, l.c)
	benchProgram(b, src, []int{4 * l.n * l.h * l.w * l.c}, []int{4 * l.n * l.h / 2 * l.w / 2 * l.c}, 0)
}

// BenchmarkConvDepthwise: the direct kernel on a depthwise 3×3 layer of
// the same activations (feature_group_count = channels), MobileNet-style.
func BenchmarkConvDepthwise(b *testing.B) {
	l := convLayer
	x := fmt.Sprintf("tensor<%dx%dx%dx%dxf32>", l.n, l.h, l.w, l.c)
	w := fmt.Sprintf("tensor<3x3x1x%dxf32>", l.c)
	src := fmt.Sprintf(`func.func public @main(%%x: %s, %%w: %s) -> %s {
  %%0 = stablehlo.convolution(%%x, %%w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = %d : i64} : (%s, %s) -> %s
  return %%0 : %s
}`, x, w, x, l.c, x, w, x, x)
	n := l.n * l.h * l.w * l.c
	benchProgram(b, src, []int{4 * n, 4 * 9 * l.c}, []int{4 * n}, float64(2*9*n))
}
