package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/pjrt/cpu/internal/rt"
)

var convertKernel = regexp.MustCompile(`(?m)^define internal void @"?k\d+\.convert`)

// bf16Dots builds, for every layout of dotLayouts, the f32 products of
// bf16 values a program gets from a bf16 weight: convert(lhs)·rhs,
// lhs·convert(rhs) and convert(lhs)·convert(rhs), the bf16 operands
// parameters of the function.
func bf16Dots(t *testing.T) (*builder, []ir.Type, [][2]int) {
	var params []ir.Type
	var forms [][2]int // case, form
	for i, c := range dotLayouts() {
		for form := range 3 {
			l, r := ir.F32, ir.F32
			if form != 1 {
				l = ir.BF16
			}
			if form != 0 {
				r = ir.BF16
			}
			params = append(params, ir.TensorOf(l, c.lhs...), ir.TensorOf(r, c.rhs...))
			forms = append(forms, [2]int{i, form})
		}
	}
	b := newBuilder(t, "bf16dots", params...)
	var outs []*ir.Value
	cases := dotLayouts()
	for j, f := range forms {
		x, y := b.f.Params[2*j], b.f.Params[2*j+1]
		if x.Type.DType == ir.BF16 {
			x = b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.F32}, x)
		}
		if y.Type.DType == ir.BF16 {
			y = b.emit(ir.OpConvert, ir.ConvertAttr{To: ir.F32}, y)
		}
		outs = append(outs, b.emit(ir.OpDotGeneral, cases[f[0]].attr, x, y))
	}
	b.f.Return(outs...)
	return b, params, forms
}

// TestDotBF16 checks f32 products of bf16 values (a bf16 weight
// converted to f32 feeding a dot) in every layout against the evaluator,
// within the bound of an f32 sum, with the runtime's bf16 GEMM on (where
// the CPU has it) and off (the f32 path every CPU takes without it), and
// that the planner reads the bf16 values directly: no convert kernel.
func TestDotBF16(t *testing.T) {
	b, params, forms := bf16Dots(t)
	src := lowerText(t, b.f)
	prog := planText(t, src, codegen.Options{})
	ll, err := prog.LLVM()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(convertKernel.FindAll(ll, -1)); n != 0 {
		t.Errorf("%d convert kernels, want 0 (the GEMM reads bf16)", n)
	}
	r := rand.New(rand.NewPCG(5, 9))
	var args, absArgs []*ir.Literal
	for _, p := range params {
		v := make([]float64, p.NumElements())
		a := make([]float64, len(v))
		for i := range v {
			v[i] = r.NormFloat64()
			a[i] = math.Abs(v[i])
		}
		args = append(args, ir.LiteralFromFloat64s(p, v))
		absArgs = append(absArgs, ir.LiteralFromFloat64s(p, a))
	}
	want, err := ir.Eval(b.f, args...)
	if err != nil {
		t.Fatal(err)
	}
	mag, err := ir.Eval(b.f, absArgs...)
	if err != nil {
		t.Fatal(err)
	}
	p := compile(t, src)
	defer rt.SetBF16(true)
	cases := dotLayouts()
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprintf("bf16gemm=%v", on), func(t *testing.T) {
			t.Logf("bf16 GEMM used: %v", rt.SetBF16(on))
			got, rc, msg := p.run(t, args...)
			if rc != 0 {
				t.Fatal(msg)
			}
			u := 0x1p-24
			for j, f := range forms {
				c := cases[f[0]]
				K := 1
				for _, k := range c.attr.LhsContract {
					K *= c.lhs[k]
				}
				g, w, s := got[j].Float64s(), want[j].Float64s(), mag[j].Float64s()
				for e := range w {
					bound := float64(K+1)*u*s[e] + u*math.Abs(w[e])
					if d := math.Abs(g[e] - w[e]); !(d <= bound) {
						t.Errorf("%v·%v %v form %d: element %d: got %v, want %v: error %g > bound %g", c.lhs, c.rhs, c.attr, f[1], e, g[e], w[e], d, bound)
						break
					}
				}
			}
		})
	}
}

// TestDotBF16Widened: dot_general(bf16, bf16) -> f32 (f32 accumulation,
// StableHLO's mixed precision), whose operands the planner widens, reads
// the bf16 operands directly too, and gives the f32 product.
func TestDotBF16Widened(t *testing.T) {
	const M, K, N = 3, 40, 70
	src := fmt.Sprintf(`func.func public @main(%%a: tensor<%dx%dxbf16>, %%b: tensor<%dx%dxbf16>) -> tensor<%dx%dxf32> {
  %%0 = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [1] : (tensor<%dx%dxbf16>, tensor<%dx%dxbf16>) -> tensor<%dx%dxf32>
  return %%0 : tensor<%dx%dxf32>
}`, M, K, N, K, M, N, M, K, N, K, M, N, M, N)
	prog := planText(t, src, codegen.Options{})
	ll, err := prog.LLVM()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(convertKernel.FindAll(ll, -1)); n != 0 {
		t.Errorf("%d convert kernels, want 0", n)
	}
	r := rand.New(rand.NewPCG(3, 4))
	rnd := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	a := ir.LiteralFromFloat64s(ir.TensorOf(ir.BF16, M, K), rnd(M*K))
	b := ir.LiteralFromFloat64s(ir.TensorOf(ir.BF16, N, K), rnd(N*K))
	av, bv := a.Float64s(), b.Float64s() // the values as rounded to bf16
	p := compile(t, src)
	defer rt.SetBF16(true)
	for _, on := range []bool{true, false} {
		rt.SetBF16(on)
		got, rc, msg := p.run(t, a, b)
		if rc != 0 {
			t.Fatal(msg)
		}
		g := got[0].Float64s()
		for i := range M {
			for j := range N {
				s, mag := 0.0, 0.0
				for k := range K {
					s += av[i*K+k] * bv[j*K+k]
					mag += math.Abs(av[i*K+k] * bv[j*K+k])
				}
				bound := float64(K+1)*0x1p-24*mag + 0x1p-24*math.Abs(s)
				if e := math.Abs(g[i*N+j] - s); !(e <= bound) {
					t.Fatalf("bf16 GEMM %v: C[%d,%d] = %v, want %v (bound %g)", on, i, j, g[i*N+j], s, bound)
				}
			}
		}
	}
}
