package ir

import (
	"errors"
	"strings"
	"testing"
)

// TestParseErrors checks the message and the line:col of each kind of
// error the parser reports.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"not a func", "%0 = add", "1:1: expected 'func', found %0"},
		{"missing name", "func (", "1:6: expected a function name @name, found '('"},
		{"bad char", "func @f() {\n  return\n} ;", "3:3: unexpected character ';'"},
		{"unterminated string", "func @\"f", "1:7: unterminated string"},
		{"bad escape", `func @"\q"() {}`, `1:7: bad string "\q"`},
		{"empty value name", "func @f(% : f32[])", "1:9: expected a name after '%'"},
		{"unknown op", "func @f(%0: f32[]) -> f32[] {\n  %1 = frobnicate %0 : f32[]\n  return %1\n}", `2:8: unknown op "frobnicate"`},
		{"undefined value", "func @f(%0: f32[]) -> f32[] {\n  %1 = negate %7 : f32[]\n  return %1\n}", "2:15: %7 is not defined"},
		{"redefined value", "func @f(%0: f32[]) -> f32[] {\n  %0 = negate %0 : f32[]\n  return %0\n}", "2:3: %0 defined twice"},
		{"redefined param", "func @f(%a: f32[], %a: f32[]) {\n  return\n}", "1:20: %a defined twice"},
		{"outer value in region", "func @f(%0: f32[4], %1: f32[]) -> f32[] {\n  %2 = reduce %0, %1 {dims = [0]} (%a: f32[], %b: f32[]) {\n    %c = add %a, %1 : f32[]\n    return %c\n  } : f32[]\n  return %2\n}",
			"3:18: %1 is not defined (a region sees only its own parameters)"},
		{"unknown dtype", "func @f(%0: f33[2])", `1:13: unknown element type "f33"`},
		{"bad dim", "func @f(%0: f32[2,-1])", "1:19: bad dimension -1"},
		{"dim not a number", "func @f(%0: f32[2,x])", "1:19: expected a dimension, found 'x'"},
		{"wrong result type", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = add %0, %0 : f32[5]\n  return %1\n}", "2:19: add: result #0 has type f32[5], the type rule gives f32[4]"},
		{"type rule error", "func @f(%0: f32[4], %1: f32[3]) -> f32[4] {\n  %2 = add %0, %1 : f32[4]\n  return %2\n}", "2:8: add: operand types f32[4] and f32[3] differ"},
		{"types count", "func @f(%0: f32[4]) -> f32[4] {\n  %1, %2 = negate %0 : f32[4]\n  return %1\n}", "2:22: negate: 2 results named but 1 result types given"},
		{"no types", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = negate %0\n  return %1\n}", "2:8: negate: 1 results named but 0 result types given"},
		{"rule gives more", "func @f(%0: f32[4]) {\n  negate %0\n  return\n}", "2:3: negate: 0 result types given, the type rule gives 1 (f32[4])"},
		{"arity", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = add %0 : f32[4]\n  return %1\n}", "2:8: add: has 1 operands, want 2"},
		{"attrs on attr-less op", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = negate %0 {x = 1} : f32[4]\n  return %1\n}", "2:18: negate takes no attributes"},
		{"unknown attr", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = reverse %0 {dim = [0]} : f32[4]\n  return %1\n}", `2:20: reverse has no attribute "dim" (it has dims)`},
		{"missing attr", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = reverse %0 : f32[4]\n  return %1\n}", "2:19: reverse: missing attribute dims"},
		{"duplicate attr", "func @f(%0: f32[4]) -> f32[4] {\n  %1 = reverse %0 {dims = [0], dims = [0]} : f32[4]\n  return %1\n}", "2:32: attribute dims given twice"},
		{"bad enum", "func @f(%0: f32[4]) -> i1[4] {\n  %1 = compare %0, %0 {dir = BIGGER} : i1[4]\n  return %1\n}", "2:30: expected one of EQ, NE, GE, GT, LE, LT, found 'BIGGER'"},
		{"bad int attr", "func @f() -> si32[4] {\n  %1 = iota {type = si32[4], dim = 1.5} : si32[4]\n  return %1\n}", "2:36: expected an integer, found '1.5'"},
		{"array length", "func @f(%0: f32[4], %1: f32[]) -> f32[4] {\n  %2 = reduce_window %0, %1 {window = [1], padding = [[0, 0, 0]]} (%a: f32[], %b: f32[]) {\n    return %a\n  } : f32[4]\n  return %2\n}",
			"2:60: expected ']' after 2 elements, found ','"},
		{"literal too long", "func @f() -> f32[2] {\n  %0 = constant {value = dense<[1.0, 2.0, 3.0]> : f32[2]} : f32[2]\n  return %0\n}", "2:32: list has 3 elements, want 2 for dimension 0 of f32[2]"},
		{"literal too deep", "func @f() -> f32[1] {\n  %0 = constant {value = dense<[[1.0]]> : f32[1]} : f32[1]\n  return %0\n}", "2:33: literal has more than 1 nested levels for type f32[1]"},
		{"literal scalar list", "func @f() -> f32[] {\n  %0 = constant {value = dense<[1.0]> : f32[]} : f32[]\n  return %0\n}", "2:32: scalar literal of type f32[] takes one element, not a list"},
		{"literal out of range int", "func @f() -> si8[] {\n  %0 = constant {value = dense<128> : si8[]} : si8[]\n  return %0\n}", "2:32: bad si8 value '128'"},
		{"literal out of range f16", "func @f() -> f16[] {\n  %0 = constant {value = dense<70000.0> : f16[]} : f16[]\n  return %0\n}", "2:32: f16 value 70000.0 is out of range"},
		{"literal bad float", "func @f() -> f32[] {\n  %0 = constant {value = dense<1.0.0> : f32[]} : f32[]\n  return %0\n}", "2:32: bad f32 value 1.0.0"},
		{"literal bad hex", "func @f() -> f16[] {\n  %0 = constant {value = dense<0x10000> : f16[]} : f16[]\n  return %0\n}", "2:32: bad f16 bit pattern 0x10000"},
		{"literal complex needs pair", "func @f() -> c64[] {\n  %0 = constant {value = dense<1.0> : c64[]} : c64[]\n  return %0\n}", "2:32: expected a (re, im) pair for c64"},
		{"literal pair for real", "func @f() -> f32[] {\n  %0 = constant {value = dense<(1.0, 2.0)> : f32[]} : f32[]\n  return %0\n}", "2:32: a (re, im) pair is not a f32 element"},
		{"literal bool", "func @f() -> i1[] {\n  %0 = constant {value = dense<1> : i1[]} : i1[]\n  return %0\n}", "2:32: bad i1 value '1': want true or false"},
		{"literal dynamic", "func @f() -> f32[?] {\n  %0 = constant {value = dense<1.0> : f32[?]} : f32[?]\n  return %0\n}", "2:39: literal type f32[?] is not static"},
		{"splat too big", "func @f() -> f32[99999999,99999999] {\n  %0 = constant {value = dense<1.0> : f32[99999999,99999999]} : f32[99999999,99999999]\n  return %0\n}",
			"2:39: literal type f32[99999999,99999999] has too many elements"},
		{"return type", "func @f(%0: f32[4]) -> f32[3] {\n  return %0\n}", "2:3: return value #0 has type f32[4], @f declares f32[3]"},
		{"return count", "func @f(%0: f32[4]) -> (f32[4], f32[4]) {\n  return %0\n}", "2:3: return has 1 values, @f declares 2 results"},
		{"missing return", "func @f(%0: f32[4]) -> f32[4] {\n}", "2:1: expected an op name, found '}'"},
		{"eof", "func @f(%0: f32[4]) -> f32[4] {\n  return %0\n", "3:1: expected '}', found end of input"},
		{"duplicate func", "func @f() {\n  return\n}\nfunc @f() {\n  return\n}", "4:1: function @f defined twice"},
		{"bad loc", "func @f(%0: f32[4] loc(42)) {\n  return\n}", `1:24: expected a location ("file":line, fused[...] or unknown), found '42'`},
		{"bad loc line", "func @f(%0: f32[4] loc(\"a.go\":x)) {\n  return\n}", "1:31: expected a line number, found 'x'"},
		{"region count", "func @f(%0: f32[4], %1: f32[]) -> f32[] {\n  %2 = reduce %0, %1 {dims = [0]} : f32[]\n  return %2\n}", "2:8: reduce: has 0 regions, want 1"},
		{"region signature", "func @f(%0: f32[4], %1: f32[]) -> f32[] {\n  %2 = reduce %0, %1 {dims = [0]} (%a: si32[], %b: f32[]) {\n    return %b\n  } : f32[]\n  return %2\n}", "2:8: reduce: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

// TestParseTypeRuleErrorUnwraps: an error from an op's checks carries the
// located *Error underneath, with the op and the location from the text.
func TestParseTypeRuleErrorUnwraps(t *testing.T) {
	_, err := Parse("func @f(%0: f32[4], %1: f32[3]) -> f32[4] {\n  %2 = add %0, %1 : f32[4] loc(\"m.go\":9)\n  return %2\n}")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v does not wrap an *ir.Error", err)
	}
	if e.Op != "add" || e.Loc.File != "m.go" || e.Loc.Line != 9 {
		t.Errorf("got %+v", e)
	}
}

// TestParseLenient: the parser takes forms the printer does not make (any
// value names, comments, free layout, a parenthesized single result) and
// the printer gives the canonical form.
func TestParseLenient(t *testing.T) {
	src := `// A comment.
func @f(%x: f32[4], %y: f32[]) -> (f32[]) { // Another.
  %sum.1 = reduce %x, %y {dims = [0]} @body(%acc: f32[], %e: f32[]) {
    %r = add %acc, %e : f32[]
    return %r
  } : f32[]
  %$z = negate %sum.1
      : f32[]
  %k = constant {value = dense<[+1, 2.]> : f32[2]} : f32[2]
  return %$z
}
func @g() -> () { return }
`
	want := `func @f(%0: f32[4], %1: f32[]) -> f32[] {
  %2 = reduce %0, %1 {dims = [0]} @body(%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[]
  %3 = negate %2 : f32[]
  %4 = constant {value = dense<[1.0, 2.0]> : f32[2]} : f32[2]
  return %3
}

func @g() {
  return
}
`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestParsedFuncIsWellFormed: IDs in definition order, back-pointers set,
// and the result passes Verify.
func TestParsedFuncIsWellFormed(t *testing.T) {
	f, err := ParseFunc(`func @f(%0: f32[4], %1: f32[]) -> f32[] {
  %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
    %2 = add %0, %1 : f32[]
    return %2
  } : f32[]
  return %2
}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(f); err != nil {
		t.Fatal(err)
	}
	in := f.Body[0]
	if in.Func != f || in.Regions[0].Parent != in || in.Results[0].ID != 2 || in.Results[0].Def != in || f.Results[0] != in.Results[0] {
		t.Errorf("bad links or IDs in %+v", in)
	}
	r := in.Regions[0]
	if r.Params[1].ID != 1 || r.Body[0].Results[0].ID != 2 || r.Params[0].Func != r {
		t.Errorf("bad region IDs")
	}
	// A value emitted after parsing gets a fresh ID.
	v, err := f.Emit1(UnknownLoc, OpNegate, []*Value{f.Params[1]}, nil)
	if err != nil || v.ID != 3 {
		t.Errorf("emit after parse: %v, %v", v, err)
	}
}

func TestParseFunc(t *testing.T) {
	if _, err := ParseFunc(""); err == nil || err.Error() != "1:1: expected 'func', found end of input" {
		t.Errorf("empty: %v", err)
	}
	two := "func @a() {\n  return\n}\nfunc @b() {\n  return\n}\n"
	if _, err := ParseFunc(two); err == nil || err.Error() != "4:1: expected end of input after the function, found 'func'" {
		t.Errorf("two: %v", err)
	}
}
