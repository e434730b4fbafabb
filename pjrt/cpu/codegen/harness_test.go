package codegen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/pjrt/cpu"
	"github.com/stela-ml/stela/pjrt/cpu/codegen/internal/dl"
	"github.com/stela-ml/stela/stablehlo"
)

// The differential harness: the same program runs on the reference
// evaluator (ir.Eval) and compiled (StableHLO text → cpu.Compile →
// dlopen → stela_entry), and the results are compared.

// program is a compiled program loaded into the test process.
type program struct {
	lib     *dl.Lib
	results []ir.Type
}

// compile compiles StableHLO text and loads it.
func compile(t testing.TB, src string) *program {
	t.Helper()
	so, tm, err := cpu.Compile([]byte(src), cpu.CompileConfig{KeepDir: os.Getenv("STELA_TEST_KEEP")})
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	t.Cleanup(func() { os.Remove(so) })
	if testing.Verbose() {
		t.Logf("compile: %v", tm)
	}
	return load(t, so)
}

// load opens a compiled program (compile without the compiling).
func load(t testing.TB, so string) *program {
	t.Helper()
	lib, err := dl.Open(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	p := &program{lib: lib}
	for _, line := range strings.Split(strings.TrimSuffix(lib.Signature, "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) != 3 {
			t.Fatalf("signature line %q", line)
		}
		if f[0] != "res" {
			continue
		}
		d, ok := ir.ParseDType(f[1])
		if !ok {
			t.Fatalf("signature line %q: bad dtype", line)
		}
		var shape []int
		if f[2] != "" {
			for _, s := range strings.Split(f[2], "x") {
				n, err := strconv.Atoi(s)
				if err != nil {
					t.Fatalf("signature line %q: %v", line, err)
				}
				shape = append(shape, n)
			}
		}
		p.results = append(p.results, ir.TensorOf(d, shape...))
	}
	return p
}

// run calls the program and returns its results, return code and message.
func (p *program) run(t testing.TB, args ...*ir.Literal) ([]*ir.Literal, int, string) {
	t.Helper()
	var raw [][]byte
	for _, a := range args {
		raw = append(raw, a.Bytes())
	}
	var sizes []int
	for _, r := range p.results {
		sizes = append(sizes, r.NumElements()*r.DType.Size())
	}
	outs, rc, msg := p.lib.Call(raw, sizes)
	var lits []*ir.Literal
	for j, b := range outs {
		l, err := ir.LiteralFromBytes(p.results[j], b)
		if err != nil {
			t.Fatal(err)
		}
		lits = append(lits, l)
	}
	return lits, rc, msg
}

// lowerText lowers an ir function to StableHLO text.
func lowerText(t testing.TB, f *ir.Func) string {
	t.Helper()
	m, err := lowering.Lower(f, lowering.Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	return string(stablehlo.Format(m, stablehlo.PrintOptions{}))
}

// builder makes an ir.Func, failing the test on errors.
type builder struct {
	t testing.TB
	f *ir.Func
}

func newBuilder(t testing.TB, name string, params ...ir.Type) *builder {
	return &builder{t: t, f: ir.NewFunc(name, params...)}
}

func (b *builder) emit(op ir.Op, attr any, args ...*ir.Value) *ir.Value {
	b.t.Helper()
	v, err := b.f.Emit1(ir.UnknownLoc, op, args, attr)
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

func (b *builder) emitN(op ir.Op, attr any, regions []*ir.Func, args ...*ir.Value) []*ir.Value {
	b.t.Helper()
	vs, err := b.f.Emit(ir.UnknownLoc, op, args, attr, regions...)
	if err != nil {
		b.t.Fatal(err)
	}
	return vs
}

// checked is one compiled result to compare and how.
type checked struct {
	name string
	ulp  int // float tolerance; -1: bit-exact (NaN matches any NaN)
}

// diff compares got with want: bit-exact (any NaN matching any NaN) when
// ulp < 0, else within ulp ULPs. It returns the largest ULP distance seen
// (floats) and the first mismatch.
func diff(got, want *ir.Literal, ulp int) (uint64, error) {
	if !got.Type.Equal(want.Type) {
		return 0, fmt.Errorf("type %v, want %v", got.Type, want.Type)
	}
	d := want.Type.DType
	if d != ir.F32 && d != ir.F64 {
		if !ir.LiteralEqual(got, want) {
			gb, wb := got.Bytes(), want.Bytes()
			sz := d.Size()
			for i := 0; i < len(gb); i += sz {
				if string(gb[i:i+sz]) != string(wb[i:i+sz]) {
					return 0, fmt.Errorf("element %d: got %v, want %v", i/sz, got.Elem(i/sz), want.Elem(i/sz))
				}
			}
			return 0, fmt.Errorf("literals differ")
		}
		return 0, nil
	}
	g, w := got.Float64s(), want.Float64s()
	var worst uint64
	for i := range w {
		if math.IsNaN(g[i]) && math.IsNaN(w[i]) {
			continue
		}
		if ulp < 0 {
			if math.Float64bits(g[i]) != math.Float64bits(w[i]) {
				return 0, fmt.Errorf("element %d: got %v (%#x), want %v (%#x)", i, g[i], math.Float64bits(g[i]), w[i], math.Float64bits(w[i]))
			}
			continue
		}
		u := ir.ULPDistance(d, g[i], w[i])
		worst = max(worst, u)
		if u > uint64(ulp) {
			return worst, fmt.Errorf("element %d: got %v, want %v (%d ULP > %d)", i, g[i], w[i], u, ulp)
		}
	}
	return worst, nil
}

// specials are float values every float test includes.
var specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, 3, -7,
	math.Inf(1), math.Inf(-1), math.NaN(), 1e-30, -1e30, 100, 88.5, -103, 1e-40, 4e9, -3e9}

var intSpecials = []int64{0, 1, -1, 2, -2, 7, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 31, 32, 33, 63, 64, 65}

// randLiteral makes a literal of type t: specials first (cyclically
// placed), then random values of the kind's usual range.
func randLiteral(r *rand.Rand, t ir.Type) *ir.Literal {
	n := t.NumElements()
	switch d := t.DType; {
	case d == ir.Bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 1
		}
		return ir.LiteralFromBools(t, v)
	case d.IsFloat():
		v := make([]float64, n)
		for i := range v {
			switch {
			case r.IntN(4) == 0:
				v[i] = specials[r.IntN(len(specials))]
			case r.IntN(3) == 0:
				v[i] = math.Round(r.Float64()*20 - 10)
			default:
				v[i] = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(7)-3))
			}
		}
		return ir.LiteralFromFloat64s(t, v)
	default:
		v := make([]int64, n)
		for i := range v {
			switch r.IntN(4) {
			case 0:
				v[i] = intSpecials[r.IntN(len(intSpecials))]
			case 1:
				v[i] = int64(r.IntN(21) - 10)
			default:
				v[i] = int64(r.Uint64())
			}
		}
		return ir.LiteralFromInt64s(t, v)
	}
}

// smallInts makes an integer literal with values in [lo, hi].
func smallInts(r *rand.Rand, t ir.Type, lo, hi int64) *ir.Literal {
	v := make([]int64, t.NumElements())
	for i := range v {
		v[i] = lo + r.Int64N(hi-lo+1)
	}
	return ir.LiteralFromInt64s(t, v)
}

// randShape returns a shape of rank 0..maxRank with small dimensions.
func randShape(r *rand.Rand, maxRank int) []int {
	shape := make([]int, r.IntN(maxRank+1))
	for i := range shape {
		shape[i] = 1 + r.IntN(5)
	}
	return shape
}

// evalAndCompare runs f on the evaluator and compiled, and compares every
// result with its tolerance. It returns the worst ULP distance per result
// name.
func evalAndCompare(t *testing.T, f *ir.Func, names []checked, args ...*ir.Literal) map[string]uint64 {
	t.Helper()
	return evalAndCompareBy(t, diff, f, names, args...)
}

// evalAndCompareBy is evalAndCompare with the comparison d.
func evalAndCompareBy(t *testing.T, d func(got, want *ir.Literal, ulp int) (uint64, error), f *ir.Func, names []checked, args ...*ir.Literal) map[string]uint64 {
	t.Helper()
	want, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	p := compile(t, lowerText(t, f))
	got, rc, msg := p.run(t, args...)
	if rc != 0 {
		t.Fatalf("stela_entry returned %d: %s", rc, msg)
	}
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	worst := map[string]uint64{}
	for i := range want {
		name, ulp := fmt.Sprintf("result #%d", i), -1
		if i < len(names) {
			name, ulp = names[i].name, names[i].ulp
		}
		w, err := d(got[i], want[i], ulp)
		worst[name] = max(worst[name], w)
		if err != nil {
			t.Errorf("%s: %v\n  args: %v", name, err, fmtArgs(args))
		}
	}
	return worst
}

// worstULP collects the worst ULP distance per name from parallel
// subtests and logs the nonzero ones when the test ends.
type worstULP struct {
	mu sync.Mutex
	m  map[string]uint64
}

func newWorstULP(t *testing.T) *worstULP {
	w := &worstULP{m: map[string]uint64{}}
	t.Cleanup(func() {
		var keys []string
		for k, u := range w.m {
			if u > 0 {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("max ULP %-36s %d", k, w.m[k])
		}
	})
	return w
}

func (w *worstULP) note(name string, ulp uint64) {
	w.mu.Lock()
	w.m[name] = max(w.m[name], ulp)
	w.mu.Unlock()
}

func fmtArgs(args []*ir.Literal) string {
	var s []string
	for _, a := range args {
		txt := ir.FormatLiteral(a)
		if len(txt) > 300 {
			txt = txt[:300] + "..."
		}
		s = append(s, txt)
	}
	return strings.Join(s, "; ")
}
