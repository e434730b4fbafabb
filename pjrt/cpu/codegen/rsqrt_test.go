package codegen_test

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu"
)

// rsqrt is correctly rounded in the plugin as in the evaluator (rsqrt.go,
// ir/eval_rsqrt.go): these tests run the real plugin and want every
// result bit-identical to ir.Eval's (NaN matching any NaN). f16 and bf16
// are exhaustive in TestHalfExhaustive.

// rsqrtProgram compiles rsqrt on a vector of n elements of type d.
func rsqrtProgram(t *testing.T, d ir.DType, n int) (*program, *ir.Func) {
	t.Helper()
	tt := ir.TensorOf(d, n)
	b := newBuilder(t, "rsqrt_"+d.String(), tt)
	b.f.Return(b.emit(ir.OpRsqrt, nil, b.f.Params[0]))
	return compile(t, lowerText(t, b.f)), b.f
}

// rsqrtCompare runs p and the evaluator on xs and reports the elements
// whose bits differ (NaN matching any NaN).
func rsqrtCompare(t *testing.T, p *program, f *ir.Func, d ir.DType, xs []float64) {
	t.Helper()
	in := ir.LiteralFromFloat64s(ir.TensorOf(d, len(xs)), xs)
	want, err := ir.Eval(f, in)
	if err != nil {
		t.Fatal(err)
	}
	got, rc, msg := p.run(t, in)
	if rc != 0 {
		t.Fatal(msg)
	}
	g, w := got[0].Float64s(), want[0].Float64s()
	bad := 0
	for i := range w {
		if math.Float64bits(g[i]) == math.Float64bits(w[i]) || g[i] != g[i] && w[i] != w[i] {
			continue
		}
		if bad++; bad <= 10 {
			t.Errorf("%v: rsqrt(%v) = %v, evaluator %v", d, xs[i], g[i], w[i])
		}
	}
	if bad > 10 {
		t.Errorf("%v: %d of %d results differ", d, bad, len(xs))
	}
}

// TestRsqrtF32Exhaustive: every f32 in [1, 4), which decides every
// positive f32 (the plugin computes 4^k·x exactly as x, scaled by 2^-k:
// rsqrt.go), and a sample of subnormals, large values and specials.
func TestRsqrtF32Exhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("16.7 million values")
	}
	const n = 1 << 20
	p, f := rsqrtProgram(t, ir.F32, n)
	xs := make([]float64, n)
	lo := math.Float32bits(1)
	for c := range uint32(16) { // 16 chunks of 2^20: the 2^24 values of [1, 4)
		for i := range xs {
			xs[i] = float64(math.Float32frombits(lo + c*n + uint32(i)))
		}
		rsqrtCompare(t, p, f, ir.F32, xs)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range xs {
		switch i % 4 {
		case 0:
			xs[i] = float64(math.Float32frombits(1 + r.Uint32N(1<<23-1))) // subnormal
		case 1:
			xs[i] = float64(math.Float32frombits(math.Float32bits(math.MaxFloat32) - r.Uint32N(1<<20)))
		case 2:
			xs[i] = float64(math.Float32frombits(r.Uint32())) // any sign, NaN and inf included
		default:
			xs[i] = specials[r.IntN(len(specials))]
		}
	}
	rsqrtCompare(t, p, f, ir.F32, xs)
}

// rsqrtF64Inputs are random f64 values of every binade (subnormals,
// negatives, specials), every value within 2^14 ulps of 1 and of 4 (where
// the result crosses a power of two and the hardest cases lie: 4·(1-2^-52)
// has x^(-1/2) just 3·2^-107 above the midpoint 1/2 + 2^-54), and values
// where 1/sqrt(x) is an ulp off.
func rsqrtF64Inputs() []float64 {
	r := rand.New(rand.NewPCG(5, 6))
	var xs []float64
	for range 1 << 16 {
		xs = append(xs, math.Float64frombits(r.Uint64()&^(1<<63)))
		xs = append(xs, 1+3*r.Float64())
	}
	for range 1 << 12 {
		xs = append(xs, math.Float64frombits(r.Uint64()&(1<<52-1)), math.Float64frombits(r.Uint64()))
	}
	for _, c := range []float64{1, 4} {
		b := math.Float64bits(c)
		for j := uint64(1); j <= 1<<14; j++ {
			xs = append(xs, math.Float64frombits(b-j), math.Float64frombits(b+j))
		}
		xs = append(xs, c)
	}
	xs = append(xs, specials...)
	xs = append(xs, 1.5, 3, 0.001, math.MaxFloat64, 2.052010957144814, 5.549210814960015, 8.843970557019003e-144,
		math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p1022)
	return xs
}

// TestRsqrtF64: the correctly rounded f64 rsqrt on rsqrtF64Inputs, alone
// and fused into a loop with other arithmetic (RMS normalization's
// x·rsqrt(x·x + ε)).
func TestRsqrtF64(t *testing.T) {
	xs := rsqrtF64Inputs()
	p, f := rsqrtProgram(t, ir.F64, len(xs))
	rsqrtCompare(t, p, f, ir.F64, xs)

	for _, d := range []ir.DType{ir.F32, ir.F64} {
		t.Run("fused/"+d.String(), func(t *testing.T) {
			tt := ir.TensorOf(d, len(xs))
			b := newBuilder(t, "rms_"+d.String(), tt)
			x := b.f.Params[0]
			eps := b.emit(ir.OpConstant, ir.ConstantAttr{Value: ir.FullLiteral(tt, 1e-5)})
			ms := b.emit(ir.OpAdd, nil, b.emit(ir.OpMultiply, nil, x, x), eps)
			b.f.Return(b.emit(ir.OpMultiply, nil, x, b.emit(ir.OpRsqrt, nil, ms)))
			evalAndCompare(t, b.f, []checked{{"x·rsqrt(x·x+ε)", -1}}, ir.LiteralFromFloat64s(tt, xs))
		})
	}
}

// TestRsqrtVectorized: rsqrt's loop is vectorized, alone and fused, for
// f32 and f64 (the exact tests with fused multiply-adds). The target is fixed (x86-64-v3: AVX2 and FMA), so the
// test says the same on every x86-64 machine; opt's optimized module must
// call the vector forms of llvm.sqrt and llvm.fma.
func TestRsqrtVectorized(t *testing.T) {
	dis := lookTool("llvm-dis", "llvm-dis-14")
	if dis == "" {
		t.Skip("no llvm-dis")
	}
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"f64", `func.func public @main(%a: tensor<4096xf64>) -> tensor<4096xf64> {
  %0 = stablehlo.rsqrt %a : tensor<4096xf64>
  return %0 : tensor<4096xf64>
}`, []string{`@llvm\.sqrt\.v\d+f64`, `@llvm\.fma\.v\d+f64`}},
		{"f64 fused", `func.func public @main(%a: tensor<4096xf64>, %b: tensor<4096xf64>) -> tensor<4096xf64> {
  %0 = stablehlo.multiply %a, %a : tensor<4096xf64>
  %1 = stablehlo.add %0, %b : tensor<4096xf64>
  %2 = stablehlo.rsqrt %1 : tensor<4096xf64>
  %3 = stablehlo.multiply %a, %2 : tensor<4096xf64>
  return %3 : tensor<4096xf64>
}`, []string{`@llvm\.sqrt\.v\d+f64`, `@llvm\.fma\.v\d+f64`}},
		{"f32", `func.func public @main(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = stablehlo.rsqrt %a : tensor<4096xf32>
  return %0 : tensor<4096xf32>
}`, []string{`@llvm\.sqrt\.v\d+f32`, `@llvm\.fma\.v\d+f64`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			so, _, err := cpu.Compile([]byte(tc.src), cpu.CompileConfig{KeepDir: dir, CPU: "x86-64-v3", Features: "+avx2,+fma", Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(so)
			out, err := exec.Command(dis, filepath.Join(dir, "part0.bc"), "-o", "-").Output()
			if err != nil {
				t.Fatalf("%s: %v", dis, err)
			}
			for _, w := range tc.want {
				if !regexp.MustCompile(w).Match(out) {
					t.Errorf("the optimized module has no %s:\n%s", w, firstLines(string(out), 80))
				}
			}
		})
	}
}

func firstLines(s string, n int) string {
	k := 0
	for i, c := range s {
		if c == '\n' {
			if k++; k == n {
				return s[:i] + "\n..."
			}
		}
	}
	return s
}
