package codegen_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/stela-ml/stela/pjrt/cpu/codegen"
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

// BenchmarkRsqrt: rsqrt (correctly rounded: rsqrt.go) next to, in the
// same run, 1/sqrt(x) (sqrt then divide, fused into one loop: what rsqrt
// compiled to before it was correctly rounded) and sqrt, on 4 million
// f32 and f64 values in [1, 1000) (real values: a square root of zero can
// be faster than one of a normal number). ns/elem is the fastest call
// over the elements; quote medians over -count runs:
//
//	go test ./pjrt/cpu/codegen -run '^$' -bench Rsqrt -count 6
func BenchmarkRsqrt(b *testing.B) {
	const n = 1 << 22
	for _, ty := range []string{"f32", "f64"} {
		size := 4
		if ty == "f64" {
			size = 8
		}
		x := make([]byte, size*n)
		for i := range n {
			v := 1 + float64(i%999000)/1000
			if size == 4 {
				binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(v)))
			} else {
				binary.LittleEndian.PutUint64(x[8*i:], math.Float64bits(v))
			}
		}
		t := fmt.Sprintf("tensor<%dx%s>", n, ty)
		for _, k := range []struct{ name, body string }{
			{"rsqrt", "%0 = stablehlo.rsqrt %a : " + t},
			{"1÷sqrt", "%s = stablehlo.sqrt %a : " + t + "\n  %one = stablehlo.constant dense<1.0> : " + t +
				"\n  %0 = stablehlo.divide %one, %s : " + t},
			{"sqrt", "%0 = stablehlo.sqrt %a : " + t},
		} {
			b.Run(k.name+"/"+ty, func(b *testing.B) {
				p := compile(b, "func.func public @main(%a: "+t+") -> "+t+" {\n  "+k.body+"\n  return %0 : "+t+"\n}")
				b.ResetTimer()
				d, err := p.lib.Time([][]byte{x}, []int{size * n}, max(b.N, 10))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(float64(d.Nanoseconds())/n, "ns/elem")
			})
		}
	}
}

// BenchmarkCancelChecks measures what the cancellation checks cost
// (docs/limits.md): a tight while loop (10^6 iterations of a scalar add;
// a check at each back-edge) and W2-like elementwise work (a GELU-style
// chain over 2^20 f32 in several kernels; a check between kernels), each
// compiled with and without the checks, in the same run:
//
//	go test ./pjrt/cpu/codegen -run '^$' -bench CancelChecks -count 6
func BenchmarkCancelChecks(b *testing.B) {
	const n = 1 << 20
	progs := map[string]struct {
		src  string
		args []int
		res  []int
	}{
		"while": {`func.func public @main(%x: tensor<f32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.constant dense<1000000> : tensor<i64>
  %0:2 = stablehlo.while(%i = %zero, %a = %x) : tensor<i64>, tensor<f32>
   cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %one : tensor<i64>
    %a1 = stablehlo.add %a, %x : tensor<f32>
    stablehlo.return %i1, %a1 : tensor<i64>, tensor<f32>
  }
  return %0#1 : tensor<f32>
}`, []int{4}, []int{4}},
		"elementwise": {fmt.Sprintf(`func.func public @main(%%a: tensor<%[1]dxf32>, %%w: tensor<%[1]dxf32>) -> (tensor<%[1]dxf32>, tensor<f32>) {
  %%0 = stablehlo.multiply %%a, %%w : tensor<%[1]dxf32>
  %%1 = stablehlo.tanh %%0 : tensor<%[1]dxf32>
  %%2 = stablehlo.multiply %%1, %%a : tensor<%[1]dxf32>
  %%3 = stablehlo.add %%2, %%0 : tensor<%[1]dxf32>
  %%z = stablehlo.constant dense<0.0> : tensor<f32>
  %%4 = stablehlo.reduce(%%3 init: %%z) applies stablehlo.add across dimensions = [0] : (tensor<%[1]dxf32>, tensor<f32>) -> tensor<f32>
  %%5 = stablehlo.transpose %%3, dims = [0] : (tensor<%[1]dxf32>) -> tensor<%[1]dxf32>
  %%6 = stablehlo.exponential %%5 : tensor<%[1]dxf32>
  return %%6, %%4 : tensor<%[1]dxf32>, tensor<f32>
}`, n), []int{4 * n, 4 * n}, []int{4 * n, 4}},
	}
	for _, name := range []string{"while", "elementwise"} {
		p := progs[name]
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/checks=%v", name, on), func(b *testing.B) {
				old := codegen.SetCancelChecks(on)
				defer codegen.SetCancelChecks(old)
				benchProgram(b, p.src, p.args, p.res, 0)
			})
		}
	}
}
