package ir

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"

	"github.com/stela-ml/stela/internal/minifloat"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// mlDtypesNames are ml_dtypes' names of the narrow float types.
var mlDtypesNames = map[DType]string{
	F8E4M3FN: "float8_e4m3fn", F8E5M2: "float8_e5m2", F8E4M3FNUZ: "float8_e4m3fnuz",
	F8E5M2FNUZ: "float8_e5m2fnuz", F8E4M3B11FNUZ: "float8_e4m3b11fnuz", F8E4M3: "float8_e4m3",
	F8E3M4: "float8_e3m4", F8E8M0FNU: "float8_e8m0fnu", F6E2M3FN: "float6_e2m3fn",
	F6E3M2FN: "float6_e3m2fn", F4E2M1FN: "float4_e2m1fn",
}

// narrowProbeValues are float64 inputs for the rounding tests: every value
// of every narrow type, the midpoints between neighbours (ties) and values
// just beside them, powers of two far out of range, ±0, ±Inf, NaN.
func narrowProbeValues() []float64 {
	seen := map[uint64]bool{}
	var out []float64
	add := func(x float64) {
		if !seen[math.Float64bits(x)] {
			seen[math.Float64bits(x)] = true
			out = append(out, x)
		}
	}
	for _, d := range NarrowDTypes {
		f, ok := narrowFormats[d]
		if !ok {
			continue
		}
		var vals []float64
		for b := uint64(0); b < 1<<f.Bits; b++ {
			if v := f.Decode(b); !math.IsNaN(v) && !math.IsInf(v, 0) {
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		for i, v := range vals {
			add(v)
			add(-v)
			if i+1 < len(vals) && vals[i+1] > v {
				w := vals[i+1]
				m := v + (w-v)/2
				for _, x := range []float64{m, math.Nextafter(m, v), math.Nextafter(m, w)} {
					add(x)
					add(-x)
				}
			}
		}
		// Beyond the largest value: the overflow boundary.
		top := vals[len(vals)-1]
		for _, x := range []float64{top * 1.0625, top * 1.125, top * 1.25, top * 1.5, top * 2, top * 4} {
			add(x)
			add(-x)
		}
	}
	for e := -160; e <= 160; e += 7 {
		add(math.Ldexp(1, e))
		add(math.Ldexp(1.75, e))
		add(-math.Ldexp(1.5, e))
	}
	for _, x := range []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300} {
		add(x)
	}
	return out
}

// mlDtypesPython is the python with ml_dtypes, from
// STELA_JAXLIB_PYTHONPATH; the test skips without it, except under CI.
func mlDtypesPython(t *testing.T) []string {
	t.Helper()
	pp := os.Getenv("STELA_JAXLIB_PYTHONPATH")
	if pp == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("STELA_JAXLIB_PYTHONPATH is not set: CI runs the ml_dtypes oracle")
		}
		t.Skip("STELA_JAXLIB_PYTHONPATH is not set (ml_dtypes oracle)")
	}
	if _, err := os.Stat(filepath.Join(pp, "ml_dtypes")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ml_dtypes not under %s", pp)
		}
		t.Skipf("ml_dtypes not under %s", pp)
	}
	return []string{"env", "PYTHONPATH=" + pp, "python3"}
}

// TestNarrowFloatsMatchMLDtypes checks Decode on all codes of every narrow
// float type, and Encode on float64 values that probe every rounding
// boundary, against ml_dtypes.
func TestNarrowFloatsMatchMLDtypes(t *testing.T) {
	py := mlDtypesPython(t)
	probes := narrowProbeValues()
	in, _ := json.Marshal(map[string]any{"probes": probeBits(probes)})
	script := `
import json, sys, numpy as np, ml_dtypes
req = json.load(sys.stdin)
x = np.array(req["probes"], dtype=np.uint64).view(np.float64)
out = {}
for name in ["float8_e4m3fn","float8_e5m2","float8_e4m3fnuz","float8_e5m2fnuz","float8_e4m3b11fnuz","float8_e4m3","float8_e3m4","float8_e8m0fnu","float6_e2m3fn","float6_e3m2fn","float4_e2m1fn"]:
    t = getattr(ml_dtypes, name)
    n = 1 << (8 if "float8" in name else 6 if "float6" in name else 4)
    dec = np.arange(n, dtype=np.uint8).view(t).astype(np.float64).view(np.uint64)
    with np.errstate(all="ignore"):
        enc = x.astype(t).view(np.uint8)
    out[name] = {"decode": [str(v) for v in dec.tolist()], "encode": enc.tolist()}
json.dump(out, sys.stdout)
`
	cmd := exec.Command(py[0], append(py[1:], "-c", script)...)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	var got map[string]struct {
		Decode []json.Number
		Encode []uint64
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for _, d := range NarrowDTypes {
		name, ok := mlDtypesNames[d]
		if !ok {
			continue
		}
		f := narrowFormats[d]
		want := got[name]
		if len(want.Decode) != 1<<f.Bits || len(want.Encode) != len(probes) {
			t.Fatalf("%v: ml_dtypes gave %d codes, %d encodings", d, len(want.Decode), len(want.Encode))
		}
		bad := 0
		for b := range want.Decode {
			wb, err := strconv.ParseUint(string(want.Decode[b]), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			w := math.Float64frombits(wb)
			g := f.Decode(uint64(b))
			if !(g == w && math.Signbit(g) == math.Signbit(w) || g != g && w != w) {
				if bad++; bad < 5 {
					t.Errorf("%v: decode %#x = %v, ml_dtypes %v", d, b, g, w)
				}
			}
		}
		for i, x := range probes {
			w := want.Encode[i] & (1<<f.Bits - 1)
			if x != x && f.Kind == minifloat.NaNFinite {
				continue // ml_dtypes gives a zero of the opposite sign; we give +0 (TestNarrowFloatRules)
			}
			if g := f.Encode(x); g != w {
				if bad++; bad < 10 {
					t.Errorf("%v: encode %v (%#x) = %#x, ml_dtypes %#x", d, x, math.Float64bits(x), g, w)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%v: %d mismatches", d, bad)
		}
	}
}

func probeBits(xs []float64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = math.Float64bits(x)
	}
	return out
}

// TestNarrowFloatRules pins the edge values of each format by hand.
func TestNarrowFloatRules(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		d    DType
		x    float64
		want uint64
	}{
		{F8E4M3FN, 448, 0x7E}, {F8E4M3FN, 464, 0x7E}, {F8E4M3FN, 465, 0x7F}, {F8E4M3FN, inf, 0x7F}, {F8E4M3FN, -inf, 0xFF},
		{F8E4M3FN, 0x1p-9, 0x01}, {F8E4M3FN, 0x1p-10, 0x00}, {F8E4M3FN, math.Copysign(0, -1), 0x80},
		{F8E5M2, 57344, 0x7B}, {F8E5M2, 61440, 0x7C}, {F8E5M2, nan, 0x7E}, {F8E5M2, 0x1p-16, 0x01},
		{F8E4M3FNUZ, 240, 0x7F}, {F8E4M3FNUZ, 256, 0x80}, {F8E4M3FNUZ, -0x1p-12, 0x00}, {F8E4M3FNUZ, nan, 0x80},
		{F8E5M2FNUZ, 57344, 0x7F}, {F8E5M2FNUZ, inf, 0x80},
		{F8E4M3B11FNUZ, 30, 0x7F}, {F8E4M3B11FNUZ, 0x1p-13, 0x01},
		{F8E4M3, 240, 0x77}, {F8E4M3, 256, 0x78}, {F8E3M4, 15.5, 0x6F}, {F8E3M4, 16, 0x70},
		{F8E8M0FNU, 1, 0x7F}, {F8E8M0FNU, 3, 0x81}, {F8E8M0FNU, 2.9, 0x80}, {F8E8M0FNU, 0, 0xFF},
		{F8E8M0FNU, -1, 0xFF}, {F8E8M0FNU, 0x1p-130, 0x00}, {F8E8M0FNU, 0x1.8p127, 0xFF},
		{F6E2M3FN, 7.5, 0x1F}, {F6E2M3FN, 100, 0x1F}, {F6E2M3FN, -inf, 0x3F}, {F6E2M3FN, nan, 0x00},
		{F6E3M2FN, 28, 0x1F}, {F6E3M2FN, 0.0625, 0x01}, {F4E2M1FN, 6, 0x7}, {F4E2M1FN, 5, 0x6},
		{F4E2M1FN, 0.25, 0x0}, {F4E2M1FN, 0.26, 0x1}, {F4E2M1FN, -7, 0xF},
	}
	for _, c := range cases {
		if got := narrowFormats[c.d].Encode(c.x); got != c.want {
			t.Errorf("%v(%v) = %#x, want %#x", c.d, c.x, got, c.want)
		}
	}
}

// TestNarrowLiterals: text round trip, conversion and arithmetic through
// the evaluator's wide values.
func TestNarrowLiterals(t *testing.T) {
	for _, d := range NarrowDTypes {
		n := 1 << d.Bits()
		l := Zeros(TensorOf(d, n))
		for i := range n {
			l.SetElem(i, ElemFromBits(d, uint64(i)))
		}
		for i := range n {
			if b := ElemBits(d, l.Elem(i)); b != uint64(i) {
				t.Fatalf("%v: bits %#x came back %#x", d, i, b)
			}
		}
		f := NewFunc("lit")
		f.Return(mustEmit(t, f, UnknownLoc, OpConstant, nil, ConstantAttr{Value: l})[0])
		text := f.String()
		g, err := ParseFunc(text)
		if err != nil {
			t.Fatalf("%v: %v\n%s", d, err, text)
		}
		back := g.Body[0].Attr.(ConstantAttr).Value
		if !back.Type.Equal(l.Type) || !bytes.Equal(back.Bytes(), l.Bytes()) {
			t.Errorf("%v: text round trip differs:\n%s", d, text)
		}
	}
	got := ConvertElem(Float8E4M3FN(0x7E), F8E4M3FN, F8E5M2)
	if got != Float8E5M2(0x5F) { // 448 = 1.75·2^8
		t.Errorf("f8E4M3FN max → f8E5M2 = %#x", got)
	}
	if got := ConvertElem(Float8E5M2(0x7B), F8E5M2, F8E4M3FN); got != Float8E4M3FN(0x7F) {
		t.Errorf("f8E5M2 57344 → f8E4M3FN = %#x, want NaN 0x7F", got)
	}
	if got := ConvertElem(int32(9), S32, S4); got != Int4(-7) {
		t.Errorf("9 → si4 = %v, want -7 (wraps)", got)
	}
	if got := ConvertElem(float32(100), F32, S4); got != Int4(7) {
		t.Errorf("100.0 → si4 = %v, want 7 (saturates)", got)
	}
	if got := ConvertElem(Uint2(3), U2, F4E2M1FN); got != Float4E2M1FN(0x5) {
		t.Errorf("ui2 3 → f4E2M1FN = %v, want 0x5", got)
	}
}
