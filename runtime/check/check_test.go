package check

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

const sample = `
func.func @helper() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main() {
  %0 = call @helper() : () -> tensor<2xf32>
  %1 = stablehlo.add %0, %0 : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[2.0, 4.0]> : tensor<2xf32>
  %2 = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf32>
  check.expect_eq %1, %2 : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%1, %2) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %3 = stablehlo.custom_call @check.eq(%2, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  check.expect_eq_const %3, dense<true> : tensor<i1>
  return
}
`

func TestPrepareMovesChecksToResults(t *testing.T) {
	ps, err := Prepare([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Entry != "main" {
		t.Fatalf("entries %+v, want main", ps)
	}
	p := ps[0]
	if len(p.Expectations) != 5 {
		t.Fatalf("%d expectations, want 5", len(p.Expectations))
	}
	text := string(p.MLIR)
	if strings.Contains(text, "check.") {
		t.Errorf("prepared module still has check ops:\n%s", text)
	}
	m, err := stablehlo.Parse(p.MLIR)
	if err != nil {
		t.Fatalf("prepared module does not parse: %v\n%s", err, text)
	}
	main := m.Func("main")
	// %1 (expect_almost_eq_const), %1, %2 (expect_eq), %1, %2 (custom_call
	// expect_close), %2, %1 (check.eq), the replaced i1 (expect_eq_const).
	if got := len(main.ResultTypes); got != 8 {
		t.Errorf("main has %d results, want 8:\n%s", got, text)
	}
	eq := p.Expectations[3]
	if eq.Op != "custom_call @check.eq" || eq.Actual != 6 || eq.Expected != 5 {
		t.Errorf("check.eq expectation %+v: want actual #6 (second operand), expected #5", eq)
	}
	// Each expectation knows its check op's line in sample (which starts
	// with a newline), and a failure names it.
	for i, line := range []int{9, 11, 12, 13, 14} {
		if got := p.Expectations[i].Line; got != line {
			t.Errorf("expectation %d (%s) is on line %d, want %d", i, p.Expectations[i].Op, got, line)
		}
	}
	f := Failure{Entry: "main", Exp: p.Expectations[1], Msg: "element [0]: actual 3, expected 4"}
	if got, want := f.String(), "11: check.expect_eq: element [0]: actual 3, expected 4"; got != want {
		t.Errorf("failure %q, want %q", got, want)
	}
}

func TestPrepareEntries(t *testing.T) {
	src := `
func.func @a() {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  check.expect_eq_const %0, dense<1> : tensor<i32>
  return
}
func.func @b() {
  %0 = stablehlo.constant dense<2> : tensor<i32>
  check.expect_eq_const %0, dense<3> : tensor<i32>
  return
}
func.func @takes(%arg0: tensor<i32>) -> tensor<i32> {
  return %arg0 : tensor<i32>
}`
	ps, err := Prepare([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Entry != "a" || ps[1].Entry != "b" {
		t.Fatalf("entries: got %d, want @a and @b", len(ps))
	}
	for _, p := range ps {
		if strings.Contains(string(p.MLIR), "check.") || strings.Count(string(p.MLIR), "func.func") != 2 {
			t.Errorf("entry @%s: want its own main and @takes only:\n%s", p.Entry, p.MLIR)
		}
	}
}

func TestPrepareRejects(t *testing.T) {
	for name, src := range map[string]string{
		"malformed":   "func.func @main() {\n  %0 = stablehlo.add\n}",
		"args":        "func.func @main(%arg0: tensor<f32>) {\n  return\n}",
		"unknown":     "func.func @main() {\n  %0 = stablehlo.constant dense<1> : tensor<i32>\n  check.expect_weird %0, %0 : tensor<i32>\n  return\n}",
		"type":        "func.func @main() {\n  %0 = stablehlo.constant dense<1.0> : tensor<tf32>\n  check.expect_eq_const %0, dense<1.0> : tensor<tf32>\n  return\n}",
		"in-callee":   "func.func @h() {\n  %0 = stablehlo.constant dense<1> : tensor<i32>\n  check.expect_eq_const %0, dense<1> : tensor<i32>\n  return\n}\nfunc.func @main() {\n  call @h() : () -> ()\n  return\n}",
		"no-entry-ok": "",
	} {
		_, err := Prepare([]byte(src))
		var rej *Rejected
		if !errors.As(err, &rej) {
			t.Errorf("%s: error %v, want *Rejected", name, err)
		}
	}
}

func f32s(v ...float32) *ir.Literal { return ir.MustLiteral(ir.TensorOf(ir.F32, len(v)), v) }

func TestCompareSemantics(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	next := math.Nextafter32(1, 2)
	cases := []struct {
		name string
		e    Expectation
		a, b *ir.Literal
		ok   bool
	}{
		{"eq", Expectation{Kind: Exact}, f32s(1, 2), f32s(1, 2), true},
		{"eq-nan", Expectation{Kind: Exact}, f32s(nan), f32s(nan), true},
		{"eq-zero-signs", Expectation{Kind: Exact}, f32s(0), f32s(float32(math.Copysign(0, -1))), true},
		{"eq-differs", Expectation{Kind: Exact}, f32s(1, 2), f32s(1, next), false},
		{"almost", Expectation{Kind: AlmostEq, Tol: 1e-3}, f32s(1), f32s(1.0009), true},
		{"almost-out", Expectation{Kind: AlmostEq, Tol: 1e-3}, f32s(1), f32s(1.002), false},
		{"almost-inf-equal", Expectation{Kind: AlmostEq, Tol: 1}, f32s(inf), f32s(inf), true},
		{"almost-inf-finite", Expectation{Kind: AlmostEq, Tol: 1e30}, f32s(inf), f32s(1), false},
		{"almost-nan", Expectation{Kind: AlmostEq, Tol: 1}, f32s(nan), f32s(nan), true},
		{"almost-nan-number", Expectation{Kind: AlmostEq, Tol: 1}, f32s(nan), f32s(1), false},
		{"close-1ulp", Expectation{Kind: Close, MaxULP: 1}, f32s(1), f32s(next), true},
		{"close-0ulp", Expectation{Kind: Close, MaxULP: 0}, f32s(1), f32s(next), false},
		{"close-min", Expectation{Kind: Close, MinULP: 1, MaxULP: 3}, f32s(1), f32s(1), false},
		{"close-across-zero", Expectation{Kind: Close, MaxULP: 2}, f32s(math.Float32frombits(1)), f32s(-math.Float32frombits(1)), true},
		{"close-across-zero-far", Expectation{Kind: Close, MaxULP: 1}, f32s(math.Float32frombits(1)), f32s(-math.Float32frombits(1)), false},
		{"close-nan", Expectation{Kind: Close}, f32s(nan), f32s(nan), true},
		{"close-inf-finite", Expectation{Kind: Close, MaxULP: math.MaxInt32}, f32s(inf), f32s(math.MaxFloat32), false},
		{"ints-exact-under-tolerance", Expectation{Kind: AlmostEq, Tol: 10}, ir.MustLiteral(ir.TensorOf(ir.S32, 1), []int32{1}), ir.MustLiteral(ir.TensorOf(ir.S32, 1), []int32{2}), false},
		{"complex-parts", Expectation{Kind: AlmostEq, Tol: 0.1}, ir.MustLiteral(ir.TensorOf(ir.C64, 1), []complex64{1 + 1i}), ir.MustLiteral(ir.TensorOf(ir.C64, 1), []complex64{1.05 + 1.2i}), false},
		{"shape", Expectation{Kind: Exact}, f32s(1, 2), f32s(1), false},
	}
	for _, c := range cases {
		msg := compare(c.e, c.a, c.b)
		if (msg == "") != c.ok {
			t.Errorf("%s: compare = %q, want ok=%v", c.name, msg, c.ok)
		}
	}
}

func TestFailureNamesIndexAndValues(t *testing.T) {
	a := ir.MustLiteral(ir.TensorOf(ir.S32, 2, 2), []int32{1, 2, 3, 4})
	b := ir.MustLiteral(ir.TensorOf(ir.S32, 2, 2), []int32{1, 2, 3, 5})
	msg := compare(Expectation{Kind: Exact}, a, b)
	if msg != "element [1, 1]: actual 4, expected 5" {
		t.Errorf("message %q", msg)
	}
}

func TestDenseToLiteralSplat(t *testing.T) {
	m, err := stablehlo.Parse([]byte("func.func @main() -> tensor<3xf32> {\n  %0 = stablehlo.constant dense<2.5> : tensor<3xf32>\n  return %0 : tensor<3xf32>\n}"))
	if err != nil {
		t.Fatal(err)
	}
	d := m.Func("main").Entry().Ops[0].Attr("value").(*stablehlo.DenseElements)
	l, err := DenseToLiteral(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Float64s(); len(got) != 3 || got[0] != 2.5 || got[2] != 2.5 {
		t.Errorf("splat literal %v, want [2.5 2.5 2.5]", got)
	}
}

func TestDTypeMapping(t *testing.T) {
	for e, want := range map[stablehlo.ElementType]ir.DType{
		"i1": ir.Bool, "i8": ir.S8, "i64": ir.S64, "ui16": ir.U16, "bf16": ir.BF16,
		"f64": ir.F64, "complex<f32>": ir.C64, "complex<f64>": ir.C128,
	} {
		if got, err := DType(e); err != nil || got != want {
			t.Errorf("DType(%s) = %v, %v; want %v", e, got, err, want)
		}
	}
	var rej *Rejected
	if _, err := DType("tf32"); !errors.As(err, &rej) {
		t.Errorf("DType(tf32): %v, want a rejection", err)
	}
	for e, want := range map[stablehlo.ElementType]ir.DType{"i4": ir.S4, "ui2": ir.U2, "f8E4M3FN": ir.F8E4M3FN, "f4E2M1FN": ir.F4E2M1FN} {
		if got, err := DType(e); err != nil || got != want {
			t.Errorf("DType(%s) = %v, %v; want %v", e, got, err, want)
		}
	}
}
