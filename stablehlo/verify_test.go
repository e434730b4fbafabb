package stablehlo

import (
	"os"
	"strings"
	"testing"
)

func TestVerifyParsedAndBuilt(t *testing.T) {
	if err := buildSample(t).Verify(); err != nil {
		t.Errorf("sample: %v", err)
	}
	for _, file := range goldenFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Verify(); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

func TestVerifyFindsProblems(t *testing.T) {
	f32 := Tensor(F32)
	m := NewModule("")
	other := m.NewFunc("other", []Type{f32}, nil)
	f := m.NewFunc("f", []Type{f32}, []Type{f32})
	b := f.Builder()
	b.Op1("stablehlo.add", []*Value{f.Arg(0), other.Arg(0)}, f32)
	op := b.Op("x.y", []*Value{nil}, []Type{nil}, NA("a", nil), NA("a", UnitAttr{}), NA("d", &DenseElements{Type: Tensor(F32, 2)}))
	op.Results[0].Index = 3
	red := b.Op("stablehlo.reduce", []*Value{f.Arg(0)}, []Type{f32})
	rb := red.NewRegion(f32)
	rb.Return(rb.Arg(0))
	b.Return(rb.Arg(0)) // region value used outside its region
	m.NewFunc("f", nil, nil)
	f.Args = append(f.Args, Param{Type: f32})

	_ = m.String() // must not panic
	m.Funcs = append(m.Funcs, nil)
	_ = m.String()
	m.Funcs = m.Funcs[:len(m.Funcs)-1]
	err := m.Verify()
	if err == nil {
		t.Fatal("Verify found nothing")
	}
	for _, want := range []string{
		"func @f: stablehlo.add (op #0): operand #1 is not defined before its use",
		"func @f: x.y (op #1): operand #0 is nil",
		`func @f: x.y (op #1): attribute "a" has no value`,
		`func @f: x.y (op #1): duplicate attribute "a"`,
		"func @f: x.y (op #1): result #0 does not point back to its op",
		"func @f: x.y (op #1): result #0 has no type",
		"func @f: func.return (op #3): operand #0 is not defined before its use",
		"func @f: duplicate function name",
		`func @f: x.y (op #1): attribute "d": dense elements of tensor<2xf32> without values`,
		"func @f: entry block has 1 arguments for 2 parameters",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Verify error lacks %q:\n%v", want, err)
		}
	}
}
