package ir

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestFormatLiteral(t *testing.T) {
	cases := []struct {
		l    *Literal
		want string
	}{
		{ScalarOf(int32(7)), "si32[] 7"},
		{LiteralOf([]int{3}, true, false, true), "i1[3] [true, false, true]"},
		{LiteralOf([]int{2, 3}, float32(1), 2, 3, 4, 5.5, 6), "f32[2,3] [[1, 2, 3],\n          [4, 5.5, 6]]"},
		{LiteralOf([]int{2, 1, 2}, int8(1), -2, 3, 4), "si8[2,1,2] [[[1, -2]],\n\n            [[3, 4]]]"},
		{LiteralOf([]int{4}, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)), "f64[4] [nan, inf, -inf, -0]"},
		{LiteralOf([]int{2}, complex64(1-2i), complex64(complex(0, math.Inf(1)))), "c64[2] [(1-2j), (0+infj)]"},
		{LiteralOf([]int{1}, uint64(math.MaxUint64)), "ui64[1] [18446744073709551615]"},
		// Shortest forms that read back to the same f16/bf16 value.
		{LiteralOf([]int{3}, Float16(0x2E66), Float16(0x7BFF), Float16(0x0001)), "f16[3] [0.1, 6.55e+04, 6e-08]"},
		{LiteralOf([]int{2}, BFloat16(0x3DCD), BFloat16(0x4049)), "bf16[2] [0.1, 3.14]"},
		{LiteralOf([]int{1}, float32(0.1)), "f32[1] [0.1]"},
		{Zeros(TensorOf(F32, 0, 3)), "f32[0,3] []"},
		{nil, "<nil literal>"},
	}
	for _, c := range cases {
		if got := FormatLiteral(c.l); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
}

func TestFormatLiteralSummarizes(t *testing.T) {
	vals := make([]int64, 2000)
	for i := range vals {
		vals[i] = int64(i)
	}
	got := FormatLiteral(LiteralFromInt64s(TensorOf(S64, 20, 100), vals))
	want := "si64[20,100] [[0, 1, 2, ..., 97, 98, 99],\n" +
		"              [100, 101, 102, ..., 197, 198, 199],\n" +
		"              [200, 201, 202, ..., 297, 298, 299],\n" +
		"              ...,\n" +
		"              [1700, 1701, 1702, ..., 1797, 1798, 1799],\n" +
		"              [1800, 1801, 1802, ..., 1897, 1898, 1899],\n" +
		"              [1900, 1901, 1902, ..., 1997, 1998, 1999]]"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Up to 1000 elements print in full.
	if s := FormatLiteral(Zeros(TensorOf(U8, 1000))); strings.Contains(s, "...") {
		t.Errorf("1000 elements summarized: %s", s[:40])
	}
}

// Every element type prints, and floats read back exactly.
func TestFormatElemAllTypes(t *testing.T) {
	for _, d := range AllDTypes {
		l := ewSpecialValues(t, d)
		for i := range l.Len() {
			if s := FormatElem(d, l.Elem(i)); s == "" || s == "?" {
				t.Errorf("%v: %q", d, s)
			}
		}
	}
	for _, h := range []uint16{0x3555, 0x0001, 0x0400, 0x7BFF, 0xB3FF} {
		s := FormatElem(F16, Float16(h))
		if got := ScalarLiteral(F16, ewParseFloat(t, s)).Elem(0).(Float16); got != Float16(h) {
			t.Errorf("f16 %#04x prints as %s, which reads back as %#04x", h, s, got)
		}
	}
}

func ewParseFloat(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return x
}
