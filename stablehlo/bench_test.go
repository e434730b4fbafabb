package stablehlo

import (
	"fmt"
	"strings"
	"testing"
)

// bigModule returns the text of a function with n elementwise ops and a
// large constant.
func bigModule(n int) []byte {
	var sb strings.Builder
	sb.WriteString("module @big {\n  func.func public @main(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {\n")
	sb.WriteString("    %cst = stablehlo.constant dense<\"0x")
	for i := 0; i < 256; i++ {
		fmt.Fprintf(&sb, "%08X", 0x3F800000+i)
	}
	sb.WriteString("\"> : tensor<16x16xf32>\n")
	sb.WriteString("    %0 = stablehlo.add %arg0, %cst : tensor<16x16xf32>\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&sb, "    %%%d = stablehlo.multiply %%%d, %%%d : tensor<16x16xf32>\n", i, i-1, i/2)
	}
	fmt.Fprintf(&sb, "    return %%%d : tensor<16x16xf32>\n  }\n}\n", n-1)
	return []byte(sb.String())
}

func TestBigModuleRoundTrip(t *testing.T) {
	src := bigModule(5000)
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if out := m.String(); out != string(src) {
		t.Errorf("big module does not round-trip:\n%s", lineDiff(string(src), out))
	}
}

func BenchmarkParse(b *testing.B) {
	src := bigModule(5000)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrint(b *testing.B) {
	m, err := Parse(bigModule(5000))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		_ = m.String()
	}
}
