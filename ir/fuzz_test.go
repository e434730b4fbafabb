package ir

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
)

var lineColPrefix = regexp.MustCompile(`^[0-9]+:[0-9]+: `)

// FuzzPrintParse parses arbitrary text. Parse must not panic; an error must
// be a *ParseError with a line:col; and text that parses must print to a
// form that parses back and prints the same: print(parse(print(m))) ==
// print(m). Seeded with the functions of the golden files; crashers go to
// testdata/fuzz/FuzzPrintParse.
//
//	go test ./ir -run XXX -fuzz FuzzPrintParse -fuzztime 60s
func FuzzPrintParse(f *testing.F) {
	for _, path := range goldenFiles(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		// One seed per function: small inputs mutate and minimize fast.
		for _, fn := range strings.SplitAfter(string(src), "}\n\n") {
			f.Add(strings.TrimSuffix(fn, "\n"))
		}
	}
	f.Add("func @a() {\n  return\n}\n\nfunc @b(%0: si8[]) -> si8[] {\n  return %0\n}\n")
	f.Add("func @f(%0: f32[4]) -> f32[4] {\n  %1 = negate %0 : f32[4] loc(fused<\"p\">[\"a\":1, unknown])\n  return %1\n}\n")
	f.Add("func @f() -> c64[2] {\n  %0 = constant {value = dense<[(1.0, nan), (0x7FC00001, -inf)]> : c64[2]} : c64[2]\n  return %0\n}\n")
	// Keep splats small: the fuzzer must not spend its time allocating.
	defer func(n int) { maxLiteralBytes = n }(maxLiteralBytes)
	maxLiteralBytes = 1 << 16
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse(src)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !lineColPrefix.MatchString(err.Error()) {
				t.Fatalf("error without line:col: %T %v", err, err)
			}
			if errors.Is(err, errRulePanicked) || strings.Contains(err.Error(), "type rule panicked") {
				t.Fatalf("a type rule panicked (a bug in that rule, not in the parser): %v", err)
			}
			return
		}
		text := printModule(m)
		m2, err := Parse(text)
		if err != nil {
			t.Fatalf("printed text does not parse: %v\ninput:\n%s\nprinted:\n%s", err, src, text)
		}
		if text2 := printModule(m2); text2 != text {
			t.Fatalf("print(parse(print(m))) != print(m):\n%s", lineDiff(text, text2))
		}
	})
}
