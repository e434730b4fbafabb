package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// stablehlo.sort has no reference in ir.Eval: the oracle here is Go's
// sort.SliceStable with the same comparator written in Go. Keys are drawn
// from a few values (many ties, so stability shows; NaN, ±0 and ±Inf for
// floats), and the sorted positions travel along in a second operand.

// tensorText spells an ir type in StableHLO.
func tensorText(t ir.Type) string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range t.Shape {
		fmt.Fprintf(&sb, "%dx", d)
	}
	sb.WriteString(t.DType.MLIR())
	sb.WriteByte('>')
	return sb.String()
}

// totalKey orders floats like TOTALORDER: -NaN < -Inf < ... < -0 < +0 <
// ... < +Inf < +NaN.
func totalKey(d ir.DType, x float64) int64 {
	if d == ir.F32 {
		b := int64(int32(math.Float32bits(float32(x))))
		if b < 0 {
			b ^= 0x7fffffff
		}
		return b
	}
	b := int64(math.Float64bits(x))
	if b < 0 {
		b ^= 0x7fffffffffffffff
	}
	return b
}

// sortKeys makes keys with ties: a few values of the element type.
func sortKeys(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	switch d := t.DType; {
	case d == ir.Bool:
		return randLiteral(r, t)
	case d.IsFloat():
		pool := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), 1e-30, 7}
		v := make([]float64, n)
		for i := range v {
			v[i] = pool[r.IntN(len(pool))]
		}
		return ir.LiteralFromFloat64s(t, v)
	case d.IsUnsigned() || d.Bits() < 32:
		v := make([]int64, n)
		for i := range v {
			v[i] = []int64{0, 1, -1, 3, 127, -128, 42}[r.IntN(7)] // wrapped to the type
		}
		return ir.LiteralFromInt64s(t, v)
	default:
		pool := []int64{0, 1, -1, 3, math.MinInt32, math.MaxInt32, 42}
		if d == ir.S64 {
			pool = append(pool, math.MinInt64, math.MaxInt64)
		}
		v := make([]int64, n)
		for i := range v {
			v[i] = pool[r.IntN(len(pool))]
		}
		return ir.LiteralFromInt64s(t, v)
	}
}

// goLess returns the Go comparator "a goes before b" for keys of l under
// direction dir (LT or GT) with the comparison type StableHLO uses.
func goLess(l *ir.Literal, dir string) func(i, j int) bool {
	d := l.Type.DType
	var key func(i int) int64
	switch {
	case d.IsFloat():
		f := l.Float64s()
		kd := d
		if d != ir.F32 {
			kd = ir.F64 // f16 and bf16 widen exactly, order kept
		}
		key = func(i int) int64 { return totalKey(kd, f[i]) }
	case d.IsUnsigned():
		u := l.Uint64s()
		if dir == "GT" {
			return func(i, j int) bool { return u[i] > u[j] }
		}
		return func(i, j int) bool { return u[i] < u[j] }
	case d == ir.Bool:
		b := l.Bools()
		key = func(i int) int64 {
			if b[i] {
				return 1
			}
			return 0
		}
	default:
		v := l.Int64s()
		key = func(i int) int64 { return v[i] }
	}
	if dir == "GT" {
		return func(i, j int) bool { return key(i) > key(j) }
	}
	return func(i, j int) bool { return key(i) < key(j) }
}

func compareType(d ir.DType) string {
	switch {
	case d.IsFloat():
		return "TOTALORDER"
	case d == ir.Bool || d.IsUnsigned():
		return "UNSIGNED"
	}
	return "SIGNED"
}

// refSort sorts along dim: it returns, for every element of the result,
// the flat index of the operand element that lands there.
func refSort(shape []int, dim int, less func(i, j int) bool) []int {
	st := ir.Strides(shape)
	n := 1
	for _, s := range shape {
		n *= s
	}
	out := make([]int, n)
	rows := append([]int{}, shape...)
	rows[dim] = 1
	idx := make([]int, len(shape))
	var walk func(d int)
	walk = func(d int) {
		if d == len(shape) {
			base := 0
			for k, v := range idx {
				base += v * st[k]
			}
			perm := make([]int, shape[dim])
			for i := range perm {
				perm[i] = base + i*st[dim]
			}
			sort.SliceStable(perm, func(a, b int) bool { return less(perm[a], perm[b]) })
			for i, p := range perm {
				out[base+i*st[dim]] = p
			}
			return
		}
		for i := range rows[d] {
			idx[d] = i
			walk(d + 1)
		}
	}
	walk(0)
	return out
}

// TestSortDifferential sorts keys of every element type with an index
// operand along each dimension, ascending and descending, stable and not,
// and compares both results with Go's stable sort.
func TestSortDifferential(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 9))
	shape := []int{5, 9}
	it := ir.TensorOf(ir.S32, shape...)
	is, si := tensorText(it), tensorText(ir.Scalar(ir.S32))
	type variant struct {
		d      ir.DType
		dim    int
		dir    string
		stable bool
	}
	var vs []variant
	var params, body, rets, rtypes []string
	var keys []*ir.Literal
	for q, d := range append(append([]ir.DType{}, dtypes...), ir.S8, ir.U16, ir.U64, ir.F16, ir.BF16) {
		kt := ir.TensorOf(d, shape...)
		ks, sc := tensorText(kt), tensorText(ir.Scalar(d))
		params = append(params, fmt.Sprintf("%%k%d: %s", q, ks))
		keys = append(keys, sortKeys(r, kt))
		for _, dim := range []int{0, -1} {
			for _, dir := range []string{"LT", "GT"} {
				k := len(vs)
				v := variant{d, dim, dir, dir == "LT"}
				vs = append(vs, v)
				body = append(body, fmt.Sprintf(`  %%s%d:2 = "stablehlo.sort"(%%k%d, %%i) <{dimension = %d : i64, is_stable = %v}> ({
  ^bb0(%%a: %s, %%b: %s, %%u: %s, %%w: %s):
    %%p = stablehlo.compare %s, %%a, %%b, %s : (%s, %s) -> tensor<i1>
    stablehlo.return %%p : tensor<i1>
  }) : (%s, %s) -> (%s, %s)`, k, q, v.dim, v.stable, sc, sc, si, si, v.dir, compareType(d), sc, sc, ks, is, ks, is))
				rets = append(rets, fmt.Sprintf("%%s%d#0, %%s%d#1", k, k))
				rtypes = append(rtypes, ks, is)
			}
		}
	}
	// %i is the flat index of each element: where it came from.
	src := fmt.Sprintf("func.func @main(%s) -> (%s) {\n  %%r = stablehlo.iota dim = 0 : %s\n  %%c = stablehlo.iota dim = 1 : %s\n  %%n = stablehlo.constant dense<9> : %s\n  %%m = stablehlo.multiply %%r, %%n : %s\n  %%i = stablehlo.add %%m, %%c : %s\n%s\n  return %s : %s\n}",
		strings.Join(params, ", "), strings.Join(rtypes, ", "), is, is, is, is, is, strings.Join(body, "\n"), strings.Join(rets, ", "), strings.Join(rtypes, ", "))
	got := runText(t, src, keys...)
	for k, v := range vs {
		key := keys[k/4]
		dim := v.dim
		if dim < 0 {
			dim += len(shape)
		}
		perm := refSort(shape, dim, goLess(key, v.dir))
		gk, gi := got[2*k], got[2*k+1].Int64s()
		for e, p := range perm {
			if gi[e] != int64(p) {
				t.Errorf("sort %+v: element %d comes from %d, want %d", v, e, gi[e], p)
				break
			}
			if a, w := fmt.Sprint(gk.Elem(e)), fmt.Sprint(key.Elem(p)); a != w {
				t.Errorf("sort %+v: key %d is %s, want %s", v, e, a, w)
				break
			}
		}
	}
}

// TestSortComparators: a lexicographic comparator over two keys (i32
// ascending, then f64 descending) carrying a third operand, a comparator
// on |x|, and sorts of one element and of an empty tensor.
func TestSortComparators(t *testing.T) {
	t.Parallel()
	src := `func.func @main(%a: tensor<40xi32>, %b: tensor<40xf64>, %v: tensor<40xf32>, %one: tensor<3x1xf32>, %none: tensor<0x4xi64>) -> (tensor<40xi32>, tensor<40xf64>, tensor<40xf32>, tensor<40xf32>, tensor<3x1xf32>, tensor<0x4xi64>) {
  %0:3 = "stablehlo.sort"(%a, %b, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<i32>, %a1: tensor<i32>, %b0: tensor<f64>, %b1: tensor<f64>, %v0: tensor<f32>, %v1: tensor<f32>):
    %lt = stablehlo.compare LT, %a0, %a1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a0, %a1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %gt = stablehlo.compare GT, %b0, %b1, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %both = stablehlo.and %eq, %gt : tensor<i1>
    %r = stablehlo.or %lt, %both : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<40xi32>, tensor<40xf64>, tensor<40xf32>) -> (tensor<40xi32>, tensor<40xf64>, tensor<40xf32>)
  %1 = "stablehlo.sort"(%v) <{dimension = 0 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %ax = stablehlo.abs %x : tensor<f32>
    %ay = stablehlo.abs %y : tensor<f32>
    %r = stablehlo.compare LT, %ax, %ay, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<40xf32>) -> tensor<40xf32>
  %2 = "stablehlo.sort"(%one) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %3 = "stablehlo.sort"(%none) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %r = stablehlo.compare LT, %x, %y : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<0x4xi64>) -> tensor<0x4xi64>
  return %0#0, %0#1, %0#2, %1, %2, %3 : tensor<40xi32>, tensor<40xf64>, tensor<40xf32>, tensor<40xf32>, tensor<3x1xf32>, tensor<0x4xi64>
}`
	r := rand.New(rand.NewPCG(3, 3))
	n := 40
	a, b, v := make([]int64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		a[i] = int64(r.IntN(4))
		b[i] = float64(r.IntN(3))
		v[i] = float64(r.IntN(11)-5) + float64(i)/64
	}
	la := ir.LiteralFromInt64s(ir.TensorOf(ir.S32, n), a)
	lb := ir.LiteralFromFloat64s(ir.TensorOf(ir.F64, n), b)
	lv := ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, n), v)
	one := ir.LiteralFromFloat64s(ir.TensorOf(ir.F32, 3, 1), []float64{3, 1, 2})
	got := runText(t, src, la, lb, lv, one, ir.Zeros(ir.TensorOf(ir.S64, 0, 4)))
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(i, j int) bool {
		x, y := perm[i], perm[j]
		return a[x] < a[y] || a[x] == a[y] && b[x] > b[y]
	})
	vf := lv.Float64s()
	for e, p := range perm {
		if got[0].Int64s()[e] != a[p] || got[1].Float64s()[e] != b[p] || got[2].Float64s()[e] != vf[p] {
			t.Fatalf("lexicographic sort: element %d = (%v, %v, %v), want (%v, %v, %v)", e,
				got[0].Int64s()[e], got[1].Float64s()[e], got[2].Float64s()[e], a[p], b[p], vf[p])
		}
	}
	byAbs := append([]float64{}, vf...)
	sort.SliceStable(byAbs, func(i, j int) bool { return math.Abs(byAbs[i]) < math.Abs(byAbs[j]) })
	wantFloats(t, "sort by |x|", got[3], byAbs...)
	wantFloats(t, "sort of one element", got[4], 3, 1, 2)
}
