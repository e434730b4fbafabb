package ir

import (
	"math"
	"strings"
	"testing"
)

func TestLiteralEqual(t *testing.T) {
	nan32 := float32(math.NaN())
	otherNaN := math.Float32frombits(0xFFC00123)
	cases := []struct {
		a, b *Literal
		want bool
	}{
		{LiteralOf([]int{2}, float32(1), 2), LiteralOf([]int{2}, float32(1), 2), true},
		{LiteralOf([]int{2}, float32(1), 2), LiteralOf([]int{2}, float32(1), 3), false},
		{LiteralOf([]int{2}, float32(1), 2), LiteralOf([]int{1, 2}, float32(1), 2), false},
		{LiteralOf([]int{2}, float32(1), 2), LiteralOf([]int{2}, 1.0, 2), false},
		{LiteralOf([]int{1}, nan32), LiteralOf([]int{1}, otherNaN), true}, // any NaN equals any NaN
		{LiteralOf([]int{1}, nan32), LiteralOf([]int{1}, float32(1)), false},
		{ScalarOf(math.Copysign(0, -1)), ScalarOf(0.0), false}, // bitwise: -0 ≠ +0
		{ScalarOf(Float16(0x7E00)), ScalarOf(Float16(0xFC01)), true},
		{ScalarOf(Float16(0x7C00)), ScalarOf(Float16(0x7E00)), false},
		{ScalarOf(complex64(complex(nan32, 1))), ScalarOf(complex64(complex(otherNaN, 1))), true},
		{ScalarOf(complex(math.NaN(), 1)), ScalarOf(complex(math.NaN(), 2)), false},
		{ScalarOf(int8(-1)), ScalarOf(int8(-1)), true},
		{ScalarOf(true), ScalarOf(false), false},
		{Zeros(TensorOf(S32, 0)), Zeros(TensorOf(S32, 0)), true},
		{nil, nil, true},
		{nil, ScalarOf(true), false},
	}
	for _, c := range cases {
		if got := LiteralEqual(c.a, c.b); got != c.want {
			t.Errorf("LiteralEqual(%s, %s) = %v", FormatLiteral(c.a), FormatLiteral(c.b), got)
		}
	}
}

func TestULPDistance(t *testing.T) {
	m := uint64(math.MaxUint64)
	cases := []struct {
		d    DType
		x, y float64
		want uint64
	}{
		{F64, 1, math.Nextafter(1, 2), 1},
		{F64, 1, 1, 0},
		{F64, 0, math.Copysign(0, -1), 0},
		{F64, 5e-324, -5e-324, 2}, // across zero: -min, 0, +min
		{F32, 1, 1 + 0x1p-23, 1},
		{F32, 1, 1 + 0x1p-22, 2},
		{F32, 1, 1 - 0x1p-24, 1}, // the spacing halves below 1
		{F16, 1, 1 + 0x1p-10, 1},
		{F16, 65504, 65504 - 32, 1},
		{BF16, 1, 1 + 0x1p-7, 1},
		{BF16, -1, 1, 2 * 0x3F80},
		{C64, 1, 1 + 0x1p-23, 1},
		{F32, math.NaN(), math.NaN(), 0},
		{F32, math.NaN(), 1, m},
		{F32, math.Inf(1), math.Inf(1), 0},
		{F32, math.Inf(1), math.MaxFloat32, m},
		{F32, math.Inf(1), math.Inf(-1), m},
	}
	for _, c := range cases {
		if got := ULPDistance(c.d, c.x, c.y); got != c.want {
			t.Errorf("ULPDistance(%v, %v, %v) = %d, want %d", c.d, c.x, c.y, got, c.want)
		}
		if got := ULPDistance(c.d, c.y, c.x); got != c.want {
			t.Errorf("ULPDistance(%v, %v, %v) = %d, want %d (symmetric)", c.d, c.y, c.x, got, c.want)
		}
	}
}

func TestLiteralsClose(t *testing.T) {
	a := LiteralOf([]int{2, 2}, float32(1), 2, float32(math.NaN()), float32(math.Inf(-1)))
	b := LiteralOf([]int{2, 2}, float32(1)+0x1p-23, 2, float32(math.NaN()), float32(math.Inf(-1)))
	if err := LiteralsClose(a, b, 1); err != nil {
		t.Errorf("1 ulp apart: %v", err)
	}
	err := LiteralsClose(a, b, 0)
	if err == nil || !strings.Contains(err.Error(), "at [0 0]") || !strings.Contains(err.Error(), "1 of 4 elements") {
		t.Errorf("0 ulp: error %v", err)
	}
	c := LiteralOf([]int{2, 2}, float32(1), 2, 3, float32(math.Inf(-1)))
	if err := LiteralsClose(a, c, 1000); err == nil || !strings.Contains(err.Error(), "at [1 0]") {
		t.Errorf("NaN vs 3: error %v", err)
	}
	if err := LiteralsClose(a, LiteralOf([]int{4}, float32(1), 2, 3, 4), 1); err == nil || !strings.Contains(err.Error(), "type") {
		t.Errorf("type mismatch: error %v", err)
	}
	if err := LiteralsClose(LiteralOf([]int{2}, int32(1), 2), LiteralOf([]int{2}, int32(1), 3), 100); err == nil {
		t.Error("integers differ: no error")
	}
	if err := LiteralsClose(ScalarOf(complex64(1+1i)), ScalarOf(complex64(complex(1, 1+0x1p-23))), 1); err != nil {
		t.Errorf("complex 1 ulp: %v", err)
	}
	if err := LiteralsClose(ScalarOf(complex64(1+1i)), ScalarOf(complex64(complex(1, 1+0x1p-21))), 1); err == nil {
		t.Error("complex 4 ulp: no error")
	}
	// Many mismatches: the first ones are listed, then a count.
	x, y := Zeros(TensorOf(S32, 20)), FullLiteral(TensorOf(S32, 20), 1)
	if err := LiteralsClose(x, y, 0); err == nil || !strings.Contains(err.Error(), "and 12 more") {
		t.Errorf("20 mismatches: %v", err)
	}
}

func TestLiteralsAllClose(t *testing.T) {
	a := LiteralOf([]int{3}, 1.0, 100, math.NaN())
	b := LiteralOf([]int{3}, 1.001, 100.005, math.NaN())
	if err := LiteralsAllClose(a, b, 0.01, 0); err != nil {
		t.Errorf("atol 0.01: %v", err)
	}
	if err := LiteralsAllClose(a, b, 0, 0.002); err != nil {
		t.Errorf("rtol 0.002: %v", err)
	}
	if err := LiteralsAllClose(a, b, 0.002, 0); err == nil || !strings.Contains(err.Error(), "at [1]") {
		t.Errorf("atol 0.002: %v", err)
	}
	ewInf := LiteralOf([]int{1}, math.Inf(1))
	if err := LiteralsAllClose(ewInf, LiteralOf([]int{1}, 1e308), 1e300, 1); err == nil {
		t.Error("inf vs finite: no error")
	}
	if err := LiteralsAllClose(ewInf, ewInf, 0, 0); err != nil {
		t.Errorf("inf vs inf: %v", err)
	}
	if err := LiteralsAllClose(ScalarOf(complex(3, 4)), ScalarOf(complex(3, 4.5)), 0.5, 0); err != nil {
		t.Errorf("complex within atol: %v", err)
	}
	if err := LiteralsAllClose(ScalarOf(complex(math.NaN(), 4)), ScalarOf(complex(math.NaN(), 9)), 1, 0); err == nil {
		t.Error("complex with NaN real part, imaginary parts differ: no error")
	}
	if err := LiteralsAllClose(ScalarOf(int8(1)), ScalarOf(int8(2)), 5, 5); err == nil {
		t.Error("integers differ: no error")
	}
}
