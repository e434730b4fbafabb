package ir

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/x448/float16"
)

var update = flag.Bool("update", false, "rewrite golden files")

// checkGolden compares got with the golden file at path, or rewrites the
// file under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ir -update to create it)", err)
	}
	if d := lineDiff(string(want), got); d != "" {
		t.Errorf("%s differs (go test ./ir -update rewrites it):\n%s", path, d)
	}
}

// lineDiff describes the first difference between two texts, or is "".
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return fmt.Sprintf("first difference at line %d:\n-want %q\n+got  %q\n\ngot in full:\n%s", i+1, w, g, got)
		}
	}
	return "texts differ"
}

func printModule(m *Module) string {
	var b strings.Builder
	PrintModule(&b, m, PrintOptions{Locations: true})
	return b.String()
}

func goldenFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "sir", "*.sir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files in testdata/sir: %v", err)
	}
	return files
}

// TestGoldenRoundTrip parses each golden file and prints it back, with
// locations: the text must come back byte for byte.
func TestGoldenRoundTrip(t *testing.T) {
	for _, path := range goldenFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(string(src))
			if err != nil {
				t.Fatalf("%s:%v", path, err)
			}
			for _, f := range m.Funcs {
				if err := Verify(f); err != nil {
					t.Errorf("@%s does not verify: %v", f.Name, err)
				}
			}
			checkGolden(t, path, printModule(m))
		})
	}
}

// TestGoldenCoversEveryOp fails when an op has no example in the golden
// files, so that a new op cannot skip the text form's tests.
func TestGoldenCoversEveryOp(t *testing.T) {
	seen := map[Op]bool{}
	for _, path := range goldenFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(string(src))
		if err != nil {
			t.Fatalf("%s:%v", path, err)
		}
		for _, f := range m.Funcs {
			f.Walk(func(in *Instr) { seen[in.Op] = true })
		}
	}
	for _, op := range AllOps() {
		if !seen[op] {
			t.Errorf("op %s appears in no file of testdata/sir", op)
		}
	}
}

func mustEmit(t *testing.T, f *Func, loc Loc, op Op, args []*Value, attr any, regions ...*Func) []*Value {
	t.Helper()
	rs, err := f.Emit(loc, op, args, attr, regions...)
	if err != nil {
		t.Fatalf("emit %v: %v", op, err)
	}
	return rs
}

// buildProgram makes, through Emit, a function that uses regions, several
// results, zero results, attributes of every kind and located values.
func buildProgram(t *testing.T) *Func {
	at := func(line int) Loc { return Loc{File: "/src/prog/model.go", Line: line} }
	f := NewFunc("prog", TensorOf(F32, 2, 3), Scalar(F32), Scalar(S32))
	x, zero, n := f.Params[0], f.Params[1], f.Params[2]
	x.SetParamLoc(at(1))
	c := mustEmit(t, f, at(2), OpConstant, nil, ConstantAttr{Value: MustLiteral(TensorOf(F32, 2, 3),
		[]float32{1, -0.0, float32(math.Inf(1)), math.Float32frombits(0x7FC00005), 1e-30, 3.25})})[0]
	s := mustEmit(t, f, FusedLoc("cse", at(3), at(4)), OpAdd, []*Value{x, c}, nil)[0]
	cmp := mustEmit(t, f, at(5), OpCompare, []*Value{s, x}, CompareAttr{Direction: CmpGT, Type: CmpTotalOrder})[0]
	h := mustEmit(t, f, at(6), OpConvert, []*Value{s}, ConvertAttr{To: F16})[0]

	sum := NewFunc("sum", Scalar(F32), Scalar(F32))
	sum.Return(mustEmit(t, sum, at(7), OpAdd, []*Value{sum.Params[0], sum.Params[1]}, nil)[0])
	red := mustEmit(t, f, at(8), OpReduce, []*Value{s, zero}, ReduceAttr{Dims: []int{1}}, sum)[0]

	cond := NewFunc("cond", Scalar(S32), TensorOf(F32, 2))
	ten := mustEmit(t, cond, UnknownLoc, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(S32), []int32{10})})[0]
	cond.Return(mustEmit(t, cond, UnknownLoc, OpCompare, []*Value{cond.Params[0], ten}, CompareAttr{Direction: CmpLT})[0])
	body := NewFunc("", Scalar(S32), TensorOf(F32, 2))
	one := mustEmit(t, body, UnknownLoc, OpConstant, nil, ConstantAttr{Value: MustLiteral(Scalar(S32), []int32{1})})[0]
	i := mustEmit(t, body, UnknownLoc, OpAdd, []*Value{body.Params[0], one}, nil)[0]
	acc := mustEmit(t, body, UnknownLoc, OpMultiply, []*Value{body.Params[1], body.Params[1]}, nil)[0]
	body.Return(i, acc)
	loop := mustEmit(t, f, at(9), OpWhile, []*Value{n, red}, nil, cond, body)

	calls := mustEmit(t, f, at(10), OpCustomCall, []*Value{h, loop[1]}, CustomCallAttr{
		Target: "ext.op", ResultTypes: []Type{TensorOf(BF16, 2, 3), Scalar(U64)}, BackendConfig: "line1\nline2 \"q\""})
	mustEmit(t, f, at(11), OpCustomCall, []*Value{calls[1]}, CustomCallAttr{Target: "log", HasSideEffect: true})

	dec := NewFunc("decomposition", TensorOf(F32, 2, 3))
	dec.Return(mustEmit(t, dec, UnknownLoc, OpTanh, []*Value{dec.Params[0]}, nil)[0])
	comp := mustEmit(t, f, at(12), OpComposite, []*Value{x}, CompositeAttr{Name: "stela.tanh", Version: 1, Attrs: []NamedAttr{
		{"i", int64(-3)}, {"f", 0.1}, {"whole", 2.0}, {"b", true}, {"s", "x y"}, {"list", []int64{1, -2}},
		{"empty", []int64{}}, {"nanbits", math.Float64frombits(0x7FF0000000000009)}, {"has space", math.Inf(-1)}}}, dec)[0]
	f.Return(comp, cmp, loop[0], calls[0])
	return f
}

// TestProgramRoundTrip prints a function built through Emit, parses the
// text, and prints that: the two texts must be equal, and equal to the
// golden file.
func TestProgramRoundTrip(t *testing.T) {
	f := buildProgram(t)
	if err := Verify(f); err != nil {
		t.Fatalf("the test program does not verify: %v", err)
	}
	for _, opts := range []PrintOptions{{}, {Locations: true}} {
		var b strings.Builder
		Print(&b, f, opts)
		text := b.String()
		g, err := ParseFunc(text)
		if err != nil {
			t.Fatalf("parse of printed text: %v\n%s", err, text)
		}
		var b2 strings.Builder
		Print(&b2, g, opts)
		if d := lineDiff(text, b2.String()); d != "" {
			t.Errorf("print(parse(print(f))) != print(f) with %+v:\n%s", opts, d)
		}
		if opts.Locations {
			checkGolden(t, filepath.Join("testdata", "program.golden"), text)
			// Locations come back as they were.
			if !g.Params[0].Loc().Equal(f.Params[0].Loc()) {
				t.Errorf("param loc %v, want %v", g.Params[0].Loc(), f.Params[0].Loc())
			}
			for i := range f.Body {
				if !g.Body[i].Loc.Equal(f.Body[i].Loc) {
					t.Errorf("instruction %d: loc %v, want %v", i, g.Body[i].Loc, f.Body[i].Loc)
				}
			}
		} else if strings.Contains(text, "loc(") {
			t.Errorf("String printed locations:\n%s", text)
		}
		if !reflect.DeepEqual(g.Body[len(g.Body)-1].Attr, f.Body[len(f.Body)-1].Attr) {
			// The composite's attributes carry floats: compare them exactly.
			ga, fa := g.Body[len(g.Body)-1].Attr.(CompositeAttr), f.Body[len(f.Body)-1].Attr.(CompositeAttr)
			for i := range fa.Attrs {
				gv, fv := ga.Attrs[i].Value, fa.Attrs[i].Value
				if x, ok := fv.(float64); ok {
					if math.Float64bits(x) != math.Float64bits(gv.(float64)) {
						t.Errorf("composite attribute %s: %v, want %v", fa.Attrs[i].Name, gv, fv)
					}
				} else if !reflect.DeepEqual(gv, fv) {
					t.Errorf("composite attribute %s: %#v, want %#v", fa.Attrs[i].Name, gv, fv)
				}
			}
		}
	}
	if got, want := f.String(), (&Module{Funcs: []*Func{f}}).String(); got != want {
		t.Errorf("Func.String and Module.String differ for one function:\n%s\n%s", got, want)
	}
}

// TestPrintDoesNotMutate prints a function whose IDs are not canonical:
// the text numbers values in definition order and the IDs stay as they were.
func TestPrintDoesNotMutate(t *testing.T) {
	f := NewFunc("f", Scalar(F32), Scalar(F32))
	a := mustEmit(t, f, UnknownLoc, OpAdd, []*Value{f.Params[0], f.Params[1]}, nil)[0]
	b := mustEmit(t, f, UnknownLoc, OpMultiply, []*Value{a, a}, nil)[0]
	f.Return(b)
	f.Params[0].ID, f.Params[1].ID, a.ID, b.ID = 40, 7, 3, 99
	want := "func @f(%0: f32[], %1: f32[]) -> f32[] {\n  %2 = add %0, %1 : f32[]\n  %3 = multiply %2, %2 : f32[]\n  return %3\n}\n"
	if got := f.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if f.Params[0].ID != 40 || f.Params[1].ID != 7 || a.ID != 3 || b.ID != 99 {
		t.Errorf("printing changed value IDs")
	}
}

// TestPrintMalformed prints broken IR (as a failing pass may leave it)
// without panicking.
func TestPrintMalformed(t *testing.T) {
	f := NewFunc("broken", Scalar(F32))
	other := NewFunc("other", Scalar(F32))
	f.Body = append(f.Body, &Instr{Op: OpAdd, Args: []*Value{f.Params[0], other.Params[0], nil}, Func: f},
		nil,
		&Instr{Op: Op(9999), Attr: 42, Regions: []*Func{nil}},
		&Instr{Op: OpConstant, Attr: ConstantAttr{Value: &Literal{Type: TensorOf(F32, 3), Data: []int32{1}}}},
		&Instr{Op: OpCompare, Attr: CompareAttr{Direction: 77}})
	f.Return(nil, other.Params[0])
	s := f.String()
	for _, want := range []string{"<<undefined %0>>", "<<nil>>", "<<nil instruction>>", "op(9999)", "<<malformed literal", "<<bad ir.ComparisonDirection 77>>"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	var nilFunc *Func
	if s := nilFunc.String(); !strings.Contains(s, "nil") {
		t.Errorf("nil func printed as %q", s)
	}
}

func TestModuleString(t *testing.T) {
	if s := (&Module{}).String(); s != "" {
		t.Errorf("empty module printed as %q", s)
	}
	m, err := Parse("")
	if err != nil || len(m.Funcs) != 0 {
		t.Errorf("Parse(\"\") = %v, %v; want an empty module", m, err)
	}
	src := "func @a() {\n  return\n}\n\nfunc @b(%0: si8[]) -> si8[] {\n  return %0\n}\n"
	m, err = Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != src {
		t.Errorf("got\n%s\nwant\n%s", got, src)
	}
}

// literalBits lists the bit patterns of a literal's elements (two per
// complex element), to compare literals exactly, NaNs included.
func literalBits(l *Literal) []uint64 {
	var out []uint64
	rv := reflect.ValueOf(l.Data)
	for i := 0; i < rv.Len(); i++ {
		switch v := rv.Index(i).Interface().(type) {
		case bool:
			if v {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		case Float16:
			out = append(out, uint64(v.Bits()))
		case BFloat16:
			out = append(out, uint64(v))
		case float32:
			out = append(out, uint64(math.Float32bits(v)))
		case float64:
			out = append(out, math.Float64bits(v))
		case complex64:
			out = append(out, uint64(math.Float32bits(real(v))), uint64(math.Float32bits(imag(v))))
		case complex128:
			out = append(out, math.Float64bits(real(v)), math.Float64bits(imag(v)))
		default:
			x := rv.Index(i)
			if isIntKind(x.Kind()) {
				out = append(out, uint64(x.Int()))
			} else {
				out = append(out, x.Uint())
			}
		}
	}
	return out
}

// randomLiteral fills a literal of n elements of d with random bit
// patterns, so that NaN payloads, subnormals and extremes all occur.
func randomLiteral(r *rand.Rand, d DType, n int) *Literal {
	l := Zeros(TensorOf(d, n))
	for i := 0; i < n; i++ {
		b := r.Uint64()
		if d == C128 { // 128 bits do not fit ElemFromBits
			l.SetElem(i, complex(math.Float64frombits(b), math.Float64frombits(r.Uint64())))
			continue
		}
		l.SetElem(i, ElemFromBits(d, b))
	}
	return l
}

// TestLiteralRoundTripBits prints and parses constants of every element
// type, bit for bit: every f16 and bf16 bit pattern, random patterns of
// the others, and the values that are easy to get wrong.
func TestLiteralRoundTripBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var lits []*Literal
	for _, d := range AllDTypes {
		lits = append(lits, randomLiteral(r, d, 2000))
	}
	all16 := func(d DType) *Literal {
		l := Zeros(TensorOf(d, 1<<16))
		for i := range 1 << 16 {
			if d == F16 {
				l.Data.([]Float16)[i] = float16.Frombits(uint16(i))
			} else {
				l.Data.([]BFloat16)[i] = BFloat16(i)
			}
		}
		return l
	}
	lits = append(lits, all16(F16), all16(BF16),
		MustLiteral(TensorOf(F32, 8), []float32{0, float32(math.Copysign(0, -1)), math.MaxFloat32, math.SmallestNonzeroFloat32,
			float32(math.NaN()), float32(math.Inf(-1)), 0.1, 16777217}),
		MustLiteral(TensorOf(F64, 7), []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.MaxFloat64,
			math.SmallestNonzeroFloat64, 1e21, 1e20, 0.30000000000000004}),
		MustLiteral(TensorOf(S64, 2), []int64{math.MinInt64, math.MaxInt64}),
		MustLiteral(TensorOf(F32, 3, 2), []float32{5, 5, 5, 5, 5, 5}),
		MustLiteral(TensorOf(C64, 2, 0, 3), []complex64{}),
		MustLiteral(Scalar(BF16), []BFloat16{0x7F81}),
	)
	for _, l := range lits {
		f := NewFunc("lit")
		f.Return(mustEmit(t, f, UnknownLoc, OpConstant, nil, ConstantAttr{Value: l})[0])
		text := f.String()
		g, err := ParseFunc(text)
		if err != nil {
			t.Fatalf("%v: %v", l.Type, err)
		}
		got := g.Body[0].Attr.(ConstantAttr).Value
		if !got.Type.Equal(l.Type) {
			t.Fatalf("type %v came back as %v", l.Type, got.Type)
		}
		want, have := literalBits(l), literalBits(got)
		for i := range want {
			if want[i] != have[i] {
				t.Errorf("%v element %d: bits %#x came back as %#x", l.Type, i, want[i], have[i])
				break
			}
		}
		if g.String() != text {
			t.Errorf("%v: second print differs", l.Type)
		}
	}
}

// TestFloatText pins the spelling of floats: shortest decimals with a
// point or an exponent, words for the specials, hex for other NaNs.
func TestFloatText(t *testing.T) {
	tests := []struct {
		d    DType
		bits uint64
		want string
	}{
		{F32, uint64(math.Float32bits(1)), "1.0"},
		{F32, uint64(math.Float32bits(-0.0)) | 1<<31, "-0.0"},
		{F32, uint64(math.Float32bits(0.1)), "0.1"},
		{F32, uint64(math.Float32bits(1e20)), "1e+20"},
		{F32, 0x7FC00000, "nan"},
		{F32, 0xFFC00000, "0xFFC00000"},
		{F32, 0x7F800000, "inf"},
		{F64, math.Float64bits(100), "100.0"},
		{F64, math.Float64bits(math.NaN()), "0x7FF8000000000001"}, // Go's NaN has a payload
		{F16, uint64(float16.Fromfloat32(0.1).Bits()), "0.1"},
		{F16, 0x7BFF, "65504.0"},
		{F16, 0x0001, "6e-08"},
		{F16, 0x7E00, "nan"},
		{F16, 0x7C01, "0x7C01"},
		{BF16, uint64(BFloat16FromFloat32(3.14159)), "3.14"},
		{BF16, 0x7FC0, "nan"},
	}
	for _, tt := range tests {
		if got := formatFloatText(tt.d, tt.bits); got != tt.want {
			t.Errorf("%v %#x: got %s, want %s", tt.d, tt.bits, got, tt.want)
		}
		if b, err := parseFloatText(tt.d, tt.want); err != nil || b != tt.bits {
			t.Errorf("%v %s: parsed as %#x, %v; want %#x", tt.d, tt.want, b, err, tt.bits)
		}
	}
}

// fillAttr sets every field of an attribute struct to a non-zero value
// that exercises its kind.
func fillAttr(t *testing.T, v reflect.Value, seed int) {
	switch v.Type() {
	case typeDType:
		v.SetUint(uint64(AllDTypes[seed%len(AllDTypes)]))
		return
	case typeType:
		v.Set(reflect.ValueOf(TensorOf(AllDTypes[seed%len(AllDTypes)], seed, 2)))
		return
	case typeLiteralPtr:
		v.Set(reflect.ValueOf(MustLiteral(TensorOf(S16, 2), []int16{int16(seed), -1})))
		return
	case typeNamedAttrs:
		v.Set(reflect.ValueOf([]NamedAttr{{"a", int64(seed)}, {"b c", 0.5}}))
		return
	case typeMesh:
		v.Set(reflect.ValueOf(Mesh{Axes: []MeshAxis{{fmt.Sprintf("a\"%d", seed), seed + 1}, {"b", 2}}}))
		return
	}
	if v.Type().Implements(typeEnumer) {
		names := v.Interface().(enumer).EnumNames()
		v.SetUint(uint64(seed % len(names)))
		return
	}
	switch k := v.Kind(); {
	case isIntKind(k):
		v.SetInt(int64(-seed - 1))
	case isUintKind(k):
		v.SetUint(uint64(seed + 1))
	case k == reflect.Bool:
		v.SetBool(true)
	case k == reflect.String:
		v.SetString(fmt.Sprintf("s\"%d", seed))
	case k == reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fillAttr(t, v.Index(0), seed+1)
		fillAttr(t, v.Index(1), seed+2)
	case k == reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fillAttr(t, v.Index(i), seed+i+1)
		}
	case k == reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillAttr(t, v.Field(i), seed+i)
			}
		}
	default:
		t.Errorf("attribute field of type %v has no text form", v.Type())
	}
}

// TestAttrFieldKinds fills every field of every op's attribute struct, and
// then again with every omitempty field left empty, and checks that the
// dictionary prints and parses back to an equal value. It fails when an
// attribute struct gains a field the text form cannot spell, or a field
// without a sir tag.
func TestAttrFieldKinds(t *testing.T) {
	for _, op := range AllOps() {
		at := op.Info().Attr
		if at == nil {
			continue
		}
		for i := 0; i < at.NumField(); i++ {
			if sf := at.Field(i); sf.IsExported() && sf.Tag.Get("sir") == "" {
				t.Errorf("%v.%s has no sir tag", at, sf.Name)
			}
		}
		full := reflect.New(at).Elem()
		fillAttr(t, full, 3)
		sparse := reflect.New(at).Elem()
		fillAttr(t, sparse, 5)
		for _, f := range attrFields(at) {
			if f.omitEmpty {
				sparse.Field(f.index).Set(reflect.Zero(sparse.Field(f.index).Type()))
			}
		}
		for _, v := range []reflect.Value{full, sparse} {
			var b strings.Builder
			writeAttrs(&b, v.Interface())
			text := b.String()
			toks, err := lex(text)
			if err != nil {
				t.Fatalf("%s: %v in %s", op, err, text)
			}
			p := &textParserForTest{parser{toks: toks}}
			got, err := p.attrs(at, token{text: op.String()})
			if err != nil {
				t.Errorf("%s: %v parsing %s", op, err, text)
				continue
			}
			if !reflect.DeepEqual(got, v.Interface()) {
				t.Errorf("%s: %s came back as %#v, want %#v", op, text, got, v.Interface())
			}
			if p.peek().kind != tEOF {
				t.Errorf("%s: %s not read to the end", op, text)
			}
		}
	}
}

type textParserForTest struct{ parser }

func (p *textParserForTest) attrs(at reflect.Type, opTok token) (a any, err error) {
	defer p.recover(&err)
	return p.attrDict(at, opTok), nil
}

// TestPrintStableNames: with StableNames values print by their IDs, which
// a removed instruction leaves gaps in; the parser reads the names back as
// the IDs, so the stable text round-trips; the default printing still
// numbers densely.
func TestPrintStableNames(t *testing.T) {
	f := NewFunc("f", TensorOf(F32, 4), TensorOf(F32, 4))
	x, y := f.Params[0], f.Params[1]
	a, _ := f.Emit1(UnknownLoc, OpAdd, []*Value{x, y}, nil)
	dup, _ := f.Emit1(UnknownLoc, OpAdd, []*Value{x, y}, nil)
	m, _ := f.Emit1(UnknownLoc, OpMultiply, []*Value{a, dup}, nil)
	n, _ := f.Emit1(UnknownLoc, OpNegate, []*Value{m}, nil)
	f.Return(n)
	// What CSE does: the duplicate's use goes to a, the duplicate goes.
	m.Def.Args[1] = a
	f.Body = append(f.Body[:1], f.Body[2:]...)

	stable := func(f *Func) string {
		var b strings.Builder
		Print(&b, f, PrintOptions{StableNames: true})
		return b.String()
	}
	want := `func @f(%0: f32[4], %1: f32[4]) -> f32[4] {
  %2 = add %0, %1 : f32[4]
  %4 = multiply %2, %2 : f32[4]
  %5 = negate %4 : f32[4]
  return %5
}
`
	if got := stable(f); got != want {
		t.Errorf("stable names:\n%s\nwant:\n%s", got, want)
	}
	if got := f.String(); !strings.Contains(got, "%3 = multiply %2, %2") || !strings.Contains(got, "%4 = negate %3") {
		t.Errorf("default printing is not dense:\n%s", got)
	}
	g, err := ParseFunc(want)
	if err != nil {
		t.Fatal(err)
	}
	if got := stable(g); got != want {
		t.Errorf("stable names after a parse:\n%s\nwant:\n%s", got, want)
	}
	if v, _ := g.Emit1(UnknownLoc, OpNegate, []*Value{g.Results[0]}, nil); v.ID != 6 {
		t.Errorf("a value made after the parse has ID %d, want 6 (after the largest)", v.ID)
	}
	if err := Verify(g); err != nil {
		t.Error(err)
	}
}

// TestParseKeepsNumericNames: %N names become IDs, other names (and
// non-canonical numbers) fresh IDs after the largest, in definition order;
// regions are their own scope.
func TestParseKeepsNumericNames(t *testing.T) {
	g, err := ParseFunc(`func @f(%x: f32[], %7: f32[]) -> f32[] {
  %y = add %x, %7 : f32[]
  %03 = multiply %y, %y : f32[]
  %3 = reduce %03, %7 {dims = []} @add(%a: f32[], %5: f32[]) {
    %b = add %a, %5 : f32[]
    return %b
  } : f32[]
  return %3
}
`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, p := range g.Params {
		ids = append(ids, p.ID)
	}
	for _, in := range g.Body {
		ids = append(ids, in.Results[0].ID)
	}
	r := g.Body[2].Regions[0]
	ids = append(ids, r.Params[0].ID, r.Params[1].ID, r.Body[0].Results[0].ID)
	if want := []int{8, 7, 9, 10, 3, 6, 5, 7}; !reflect.DeepEqual(ids, want) {
		t.Errorf("IDs %v, want %v", ids, want)
	}
	if err := Verify(g); err != nil {
		t.Error(err)
	}
}

// TestPrintStableNamesNeedUniqueIDs: a function whose IDs clash (which
// Verify rejects) prints densely, so that the text still parses.
func TestPrintStableNamesNeedUniqueIDs(t *testing.T) {
	f := NewFunc("f", TensorOf(F32, 4))
	v, _ := f.Emit1(UnknownLoc, OpNegate, []*Value{f.Params[0]}, nil)
	f.Return(v)
	v.ID = 0
	var b strings.Builder
	Print(&b, f, PrintOptions{StableNames: true})
	if !strings.Contains(b.String(), "%1 = negate %0") {
		t.Errorf("clashing IDs printed as\n%s", b.String())
	}
}

// TestWriteQuoted: the fast path of a location's file is strconv.Quote.
func TestWriteQuoted(t *testing.T) {
	for _, s := range []string{"", "/home/u/model.go", `a"b`, `a\b`, "tab\there", "é.go", "nl\n", "\x7f", "~ok"} {
		var b strings.Builder
		writeQuoted(&b, s)
		if got, want := b.String(), strconv.Quote(s); got != want {
			t.Errorf("writeQuoted(%q) = %s, want %s", s, got, want)
		}
	}
}
