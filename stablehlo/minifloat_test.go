package stablehlo

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/minifloat"
)

// TestMiniFloatDenseRoundTrip: every code of every f8, f6 and f4 type,
// written in hex, prints (decimal where that reads back exactly, hex for
// NaN and Inf) and parses back to the same bytes.
func TestMiniFloatDenseRoundTrip(t *testing.T) {
	for name, f := range minifloat.Formats {
		n := 1 << f.Bits
		var codes []string
		for b := range n {
			codes = append(codes, fmt.Sprintf("0x%X", b))
		}
		ty := fmt.Sprintf("tensor<%dx%s>", n, name)
		src := wrapMain("", fmt.Sprintf("  %%0 = stablehlo.constant dense<[%s]> : %s", strings.Join(codes, ", "), ty))
		m, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := m.Funcs[0].Entry().Ops[0].Attr("value").(*DenseElements).Bytes()
		for i, b := range want {
			if int(b) != i {
				t.Fatalf("%s: code %#x parsed as %#x", name, i, b)
			}
		}
		text := m.String()
		m2, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("%s: printed form does not parse: %v\n%s", name, err, text)
		}
		if got := m2.Funcs[0].Entry().Ops[0].Attr("value").(*DenseElements).Bytes(); !bytes.Equal(got, want) {
			t.Errorf("%s: round trip changed the codes:\n%s", name, text)
		}
	}
	// Decimals round once to nearest even with the format's rules.
	m, err := Parse([]byte(wrapMain("", "  %0 = stablehlo.constant dense<[448.0, 464.0, 1.0e+3, -0.0]> : tensor<4xf8E4M3FN>")))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Funcs[0].Entry().Ops[0].Attr("value").(*DenseElements).Bytes(); !bytes.Equal(got, []byte{0x7E, 0x7E, 0x7F, 0x80}) {
		t.Errorf("f8E4M3FN decimals = %x, want 7e7e7f80", got)
	}
}
