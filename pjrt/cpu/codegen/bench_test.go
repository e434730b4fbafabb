package codegen_test

import (
	"fmt"
	"testing"
)

// Benchmarks of single kernels on buffers that stay allocated (so the
// numbers are the kernels', not page faults'). Timings on these machines
// are noisy: compare within one run.

func benchProgram(b *testing.B, src string, argSizes, resSizes []int, flops float64) {
	p := compile(b, src)
	args := make([][]byte, len(argSizes))
	for i, n := range argSizes {
		args[i] = make([]byte, n)
	}
	b.ResetTimer()
	d, err := p.lib.Time(args, resSizes, b.N)
	if err != nil {
		b.Fatal(err)
	}
	if flops > 0 {
		b.ReportMetric(flops/d.Seconds()/1e9, "GFLOP/s(best)")
	}
	b.ReportMetric(float64(d.Nanoseconds()), "ns/op(best)")
}

func BenchmarkMatmul(b *testing.B) {
	for _, s := range [][3]int{{128, 512, 256}, {128, 512, 2048}, {512, 512, 512}} {
		M, K, N := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("%dx%dx%d", M, K, N), func(b *testing.B) {
			src := fmt.Sprintf(`func.func public @main(%%x: tensor<%dx%dxf32>, %%w: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {
  %%0 = stablehlo.dot_general %%x, %%w, contracting_dims = [1] x [0] : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>
  return %%0 : tensor<%dx%dxf32>
}`, M, K, K, N, M, N, M, K, K, N, M, N, M, N)
			benchProgram(b, src, []int{M * K * 4, K * N * 4}, []int{M * N * 4}, float64(2*M*K*N))
		})
	}
}

func BenchmarkElementwise(b *testing.B) {
	const n = 1 << 20
	for _, op := range []string{"add", "multiply", "maximum"} {
		b.Run(op, func(b *testing.B) {
			src := fmt.Sprintf(`func.func public @main(%%a: tensor<%dxf32>, %%b: tensor<%dxf32>) -> tensor<%dxf32> {
  %%0 = stablehlo.%s %%a, %%b : tensor<%dxf32>
  return %%0 : tensor<%dxf32>
}`, n, n, n, op, n, n)
			benchProgram(b, src, []int{4 * n, 4 * n}, []int{4 * n}, 0)
		})
	}
	for _, op := range []string{"exponential", "tanh", "logistic", "sqrt"} {
		b.Run(op, func(b *testing.B) {
			src := fmt.Sprintf(`func.func public @main(%%a: tensor<%dxf32>) -> tensor<%dxf32> {
  %%0 = stablehlo.%s %%a : tensor<%dxf32>
  return %%0 : tensor<%dxf32>
}`, n, n, op, n, n)
			benchProgram(b, src, []int{4 * n}, []int{4 * n}, 0)
		})
	}
}

func BenchmarkReduce(b *testing.B) {
	for _, dim := range []int{0, 1} {
		b.Run(fmt.Sprintf("sum 1024x1024 over %d", dim), func(b *testing.B) {
			src := fmt.Sprintf(`func.func public @main(%%a: tensor<1024x1024xf32>) -> tensor<1024xf32> {
  %%z = stablehlo.constant dense<0.0> : tensor<f32>
  %%0 = stablehlo.reduce(%%a init: %%z) applies stablehlo.add across dimensions = [%d] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %%0 : tensor<1024xf32>
}`, dim)
			benchProgram(b, src, []int{4 << 20}, []int{4096}, 0)
		})
	}
}

func BenchmarkTranspose(b *testing.B) {
	src := `func.func public @main(%a: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}`
	benchProgram(b, src, []int{4 << 20}, []int{4 << 20}, 0)
}
