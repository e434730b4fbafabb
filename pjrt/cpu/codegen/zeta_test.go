package codegen_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// TestZetaPolygammaIdentities holds the generated chlo.zeta and
// chlo.polygamma (f64) to identities independent of their algorithm, on a
// grid: the recurrences ζ(x, q) - ζ(x, q+1) = q^-x and ψ⁽ⁿ⁾(x) -
// ψ⁽ⁿ⁾(x+1) = (-1)^(n+1)·n!/x^(n+1) (within 1e-13 relative), and ζ(2, 1) =
// ψ⁽¹⁾(1) = π²/6 (within 2 ULP). The check files (test/check chlo_zeta_polygamma.mlir)
// compare single values with mpmath.
func TestZetaPolygammaIdentities(t *testing.T) {
	t.Parallel()
	var xs, qs []float64
	for _, x := range []float64{1.1, 1.5, 2, 3.5, 7, 20} {
		for _, q := range []float64{0.1, 0.5, 1, 3.7, 12, 150} {
			xs, qs = append(xs, x), append(qs, q)
		}
	}
	var ns, ps []float64
	for _, n := range []float64{0, 1, 2, 3, 5} {
		for _, x := range []float64{0.3, 1, 2.5, 9, 40} {
			ns, ps = append(ns, n), append(ps, x)
		}
	}
	nz, np := len(xs), len(ns)
	T := func(n int) string { return fmt.Sprintf("tensor<%dxf64>", n) }
	src := fmt.Sprintf(`func.func @main(%%x: %[1]s, %%q: %[1]s, %%n: %[2]s, %%p: %[2]s) -> (%[1]s, %[1]s, %[2]s, %[2]s) {
  %%one = stablehlo.constant dense<1.0> : %[1]s
  %%q1 = stablehlo.add %%q, %%one : %[1]s
  %%z0 = chlo.zeta %%x, %%q : %[1]s, %[1]s -> %[1]s
  %%z1 = chlo.zeta %%x, %%q1 : %[1]s, %[1]s -> %[1]s
  %%onep = stablehlo.constant dense<1.0> : %[2]s
  %%p1 = stablehlo.add %%p, %%onep : %[2]s
  %%g0 = chlo.polygamma %%n, %%p : %[2]s, %[2]s -> %[2]s
  %%g1 = chlo.polygamma %%n, %%p1 : %[2]s, %[2]s -> %[2]s
  return %%z0, %%z1, %%g0, %%g1 : %[1]s, %[1]s, %[2]s, %[2]s
}`, T(nz), T(np))
	lit := func(v []float64) *ir.Literal { return ir.LiteralFromFloat64s(ir.TensorOf(ir.F64, len(v)), v) }
	got := runText(t, src, lit(xs), lit(qs), lit(ns), lit(ps))
	z0, z1, g0, g1 := got[0].Float64s(), got[1].Float64s(), got[2].Float64s(), got[3].Float64s()
	for i := range xs {
		want := math.Pow(qs[i], -xs[i])
		if d := z0[i] - z1[i] - want; math.Abs(d) > 1e-13*math.Abs(z0[i]) {
			t.Errorf("ζ(%g, %g) - ζ(%g, %g+1) = %g, want %g (ζ = %g, %g)", xs[i], qs[i], xs[i], qs[i], z0[i]-z1[i], want, z0[i], z1[i])
		}
	}
	for i := range ns {
		n := ns[i]
		sign := -1.0
		if int(n)%2 == 1 {
			sign = 1
		}
		want := sign * math.Gamma(n+1) / math.Pow(ps[i], n+1)
		if d := g0[i] - g1[i] - want; math.Abs(d) > 1e-13*math.Max(math.Abs(g0[i]), math.Abs(want)) {
			t.Errorf("ψ⁽%g⁾(%g) - ψ⁽%g⁾(%g+1) = %g, want %g", n, ps[i], n, ps[i], g0[i]-g1[i], want)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ζ(2, 1)", z0[2*6+2], math.Pi * math.Pi / 6},
		{"ψ⁽¹⁾(1)", g0[5+1], math.Pi * math.Pi / 6},
	} {
		if math.Abs(c.got-c.want) > 4e-16*c.want {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}
