package npy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// mlDtypesNames are ml_dtypes' names of the narrow types.
var mlDtypesNames = map[ir.DType]string{
	ir.S2: "int2", ir.S4: "int4", ir.U2: "uint2", ir.U4: "uint4",
	ir.F8E4M3FN: "float8_e4m3fn", ir.F8E5M2: "float8_e5m2", ir.F8E4M3FNUZ: "float8_e4m3fnuz",
	ir.F8E5M2FNUZ: "float8_e5m2fnuz", ir.F8E4M3B11FNUZ: "float8_e4m3b11fnuz", ir.F8E4M3: "float8_e4m3",
	ir.F8E3M4: "float8_e3m4", ir.F8E8M0FNU: "float8_e8m0fnu", ir.F6E2M3FN: "float6_e2m3fn",
	ir.F6E3M2FN: "float6_e3m2fn", ir.F4E2M1FN: "float4_e2m1fn",
}

// TestNarrowRoundTrip: Write saves a narrow literal as '|V1' bytes; Read
// refuses the ambiguous void with a message pointing at ReadAs, which
// reads it back bit for bit.
func TestNarrowRoundTrip(t *testing.T) {
	for _, d := range ir.NarrowDTypes {
		l := allCodes(d)
		var buf bytes.Buffer
		if err := Write(&buf, l); err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		if _, err := Read(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), "ReadAs") {
			t.Errorf("%v: Read of a 1-byte void: %v, want an error naming ReadAs", d, err)
		}
		back, err := ReadAs(bytes.NewReader(buf.Bytes()), d)
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		if !back.Type.Equal(l.Type) || !bytes.Equal(back.Bytes(), l.Bytes()) {
			t.Errorf("%v: round trip changed the literal", d)
		}
	}
	if _, err := ReadAs(bytes.NewReader(nil), ir.F32); err == nil {
		t.Error("ReadAs(f32) succeeded")
	}
}

func allCodes(d ir.DType) *ir.Literal {
	n := 1 << d.Bits()
	l := ir.Zeros(ir.TensorOf(d, n))
	for i := range n {
		l.SetElem(i, ir.ElemFromBits(d, uint64(i)))
	}
	return l
}

// TestNarrowMLDtypes: numpy with ml_dtypes reads what Write makes as the
// right values (viewed as the ml_dtypes type), and what it saves ReadAs
// reads back to the same bits.
func TestNarrowMLDtypes(t *testing.T) {
	if os.Getenv("STELA_JAXLIB_PYTHONPATH") == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("STELA_JAXLIB_PYTHONPATH is not set: CI runs the ml_dtypes cross-check")
		}
		t.Skip("STELA_JAXLIB_PYTHONPATH is not set (ml_dtypes)")
	}
	python := numpyPython(t)
	dir := t.TempDir()
	for d, name := range mlDtypesNames {
		if err := WriteFile(filepath.Join(dir, name+".npy"), allCodes(d)); err != nil {
			t.Fatal(err)
		}
	}
	script := `
import sys, os, numpy as np, ml_dtypes
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    if not f.endswith(".npy") or f.startswith("py_"):
        continue
    name = f[:-4]
    t = getattr(ml_dtypes, name)
    bits = {"int2": 2, "uint2": 2, "int4": 4, "uint4": 4}.get(name, 4 if "float4" in name else 6 if "float6" in name else 8)
    a = np.load(os.path.join(d, f)).view(t)
    want = np.arange(1 << bits, dtype=np.uint8).view(t)
    ok = np.array_equal(a.astype(np.float64), want.astype(np.float64), equal_nan=True)
    if not ok:
        print("MISMATCH", name, a[:8], want[:8]); sys.exit(1)
    np.save(os.path.join(d, "py_" + f), want)
print("ok")
`
	out, err := python("-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	for d, name := range mlDtypesNames {
		l, err := ReadFileAs(filepath.Join(dir, "py_"+name+".npy"), d)
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		if !bytes.Equal(l.Bytes(), allCodes(d).Bytes()) {
			t.Errorf("%v: ml_dtypes' file reads back as %v", d, l.Bytes()[:8])
		}
	}
}
