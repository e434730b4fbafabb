package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
)

// mathEdges are inputs every sweep includes: zeros, infinities, NaN, the
// smallest and largest normals and subnormals, and the thresholds where
// exp overflows or underflows, tanh and erf round to ±1, log1p meets -1.
var mathEdges = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	1, -1, 0.5, -0.5, 2, 0.625, -0.625, 0.62499994, 1e-8, -1e-8, 1e-30, -1e-30,
	math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1.1754942e-38, 1.1754944e-38, -1.1754944e-38,
	math.MaxFloat32, -math.MaxFloat32, 88.72283, 88.72284, 88.7229, 89, -87.33654, -87.3366, -103.27893, -103.9720,
	-104, -150, 709.782712893384, 709.79, -708.39, -745.1332191019411, -745.2, 3.92, 3.93, 4, -4, 9, 9.01,
	0.9999999, 1.0000001, -0.99999994, -0.9999999, 1e10, -1e10, 17.3, -17.3, 16.635532, -18,
	math.SmallestNonzeroFloat64, math.MaxFloat64, 2.2250738585072014e-308, -2.2250738585072014e-308,
	0.6931471805599453, -0.6931471805599453, 0.34657359, 1e-300, 44.014845, 22, -22}

// mathInputs is a sweep of a float type's values: for f32 every 12289th
// bit pattern (all signs, binades and NaNs; 350,000 values); for f64
// 350,000 values spread over every binade, half of them where the
// functions change behaviour (|x| < 160), plus mathEdges. (mathfn.go's
// bounds were measured on a sweep 48 times denser.)
func mathInputs(d ir.DType) []float64 {
	xs := append([]float64(nil), mathEdges...)
	if d == ir.F32 {
		for u := uint64(0); u < 1<<32; u += 12289 {
			xs = append(xs, float64(math.Float32frombits(uint32(u))))
		}
		return xs
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 175000 {
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	for range 175000 {
		xs = append(xs, (r.Float64()*2-1)*math.Pow(2, float64(r.IntN(12)-6))*5)
	}
	return xs
}

// TestMathULP checks the inline exp, expm1, log, log1p, tanh, logistic
// and erf (mathfn.go) against the reference evaluator over a dense sweep:
// within the ULP bound mathfn.go states, NaN exactly where the evaluator
// has NaN, infinities exact, and the sign of zero results kept.
func TestMathULP(t *testing.T) {
	bounds := codegen.MathULP()
	for _, d := range []ir.DType{ir.F32, ir.F64} {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			var names []string
			for name := range bounds[d.String()] {
				if op, ok := ir.OpByName(name); ok && codegen.Handles("stablehlo."+op.String()) {
					names = append(names, name)
				}
			}
			sort.Strings(names)
			xs := mathInputs(d)
			tt := ir.TensorOf(d, len(xs))
			b := newBuilder(t, "math_"+d.String(), tt)
			var outs []*ir.Value
			for _, name := range names {
				op, _ := ir.OpByName(name)
				outs = append(outs, b.emit(op, nil, b.f.Params[0]))
			}
			b.f.Return(outs...)
			x := ir.LiteralFromFloat64s(tt, xs)
			xs = x.Float64s() // rounded to the type
			want, err := ir.Eval(b.f, x)
			if err != nil {
				t.Fatal(err)
			}
			p := compile(t, lowerText(t, b.f))
			got, rc, msg := p.run(t, x)
			if rc != 0 {
				t.Fatalf("stela_entry returned %d: %s", rc, msg)
			}
			for i, name := range names {
				w := want[i].Float64s()
				if d == ir.F64 && name == "exponential" {
					// Go's math.Exp on amd64 overflows at x = ln(MaxFloat64)
					// rounded, where e^x = 2^1024·e^-2.37e-14 is finite.
					for j, x := range xs {
						if x == math.Log(math.MaxFloat64) {
							w[j] = 1.7976931348622732e+308
						}
					}
				}
				if d == ir.F64 && name == "log" {
					// Go's math.Log on amd64 (the evaluator's) is wrong for
					// subnormals (log(5e-324) = -709.09, not -744.44):
					// compare those with log(x·2^54) - 54·ln 2.
					for j, x := range xs {
						if x > 0 && x < 0x1p-1022 {
							w[j] = math.Log(x*0x1p54) - 54*math.Ln2
						}
					}
				}
				worst, at := checkULP(t, d, name, xs, got[i].Float64s(), w, bounds[d.String()][name])
				t.Logf("%s %-22s max %d ULP (at x = %v)", d, name, worst, at)
			}
		})
	}
}

// checkULP compares one function's results and returns the largest ULP
// distance and where it is.
func checkULP(t *testing.T, d ir.DType, name string, xs, got, want []float64, bound int) (uint64, float64) {
	t.Helper()
	var worst uint64
	var at float64
	bad := 0
	for j := range xs {
		g, w := got[j], want[j]
		var u uint64
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if math.IsNaN(w) != math.IsNaN(g) {
				u = math.MaxUint64
			}
		case g == 0 && w == 0:
			if math.Signbit(g) != math.Signbit(w) {
				u = math.MaxUint64
			}
		default:
			u = ir.ULPDistance(d, g, w)
		}
		if u > worst {
			worst, at = u, xs[j]
		}
		if u > uint64(bound) && bad < 5 {
			bad++
			t.Errorf("%s %s(%v) = %v, want %v (%s)", d, name, xs[j], g, w, ulpText(u, bound))
		}
	}
	return worst, at
}

func ulpText(u uint64, bound int) string {
	if u == math.MaxUint64 {
		return "NaN, infinity or sign of zero differs"
	}
	return fmt.Sprintf("%d ULP > %d", u, bound)
}

// TestErfULP checks the inline erf (chlo.erf, f32) against Go's
// math.Erf rounded to f32 (the evaluator has no erf).
func TestErfULP(t *testing.T) {
	t.Parallel()
	xs := mathInputs(ir.F32)
	n := len(xs)
	p := compile(t, fmt.Sprintf(`func.func public @main(%%x: tensor<%dxf32>) -> tensor<%dxf32> {
  %%0 = chlo.erf %%x : tensor<%dxf32> -> tensor<%dxf32>
  return %%0 : tensor<%dxf32>
}`, n, n, n, n, n))
	x := ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, n), xs)
	xs = x.Float64s()
	got, rc, msg := p.run(t, x)
	if rc != 0 {
		t.Fatalf("stela_entry returned %d: %s", rc, msg)
	}
	want := make([]float64, n)
	for i, v := range xs {
		want[i] = float64(float32(math.Erf(v)))
	}
	worst, at := checkULP(t, ir.F32, "erf", xs, got[0].Float64s(), want, codegen.MathULP()["f32"]["erf"])
	t.Logf("f32 erf max %d ULP (at x = %v)", worst, at)
}
