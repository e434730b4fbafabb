package npy

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
)

// sample is a literal of type t whose elements exercise the type: extremes,
// signed zeros, infinities and NaNs for floats, both parts for complex.
func sample(t ir.Type) *ir.Literal {
	n := t.NumElements()
	d := t.DType
	switch {
	case d.IsBool():
		v := make([]bool, n)
		for i := range v {
			v[i] = i%3 == 1
		}
		return ir.LiteralFromBools(t, v)
	case d.IsSigned():
		ext := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1}
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i*7919) - 50
			if i < len(ext) {
				// Wrapping keeps the type's own extremes: MinInt64 wraps to
				// 0 for narrow types, so shift it to the type's minimum.
				v[i] = ext[i] >> (64 - d.Bits())
			}
		}
		return ir.LiteralFromInt64s(t, v)
	case d.IsUnsigned():
		v := make([]uint64, n)
		for i := range v {
			v[i] = uint64(i * 7919)
			if i == 1 {
				v[i] = math.MaxUint64
			}
		}
		return ir.LiteralFromUint64s(t, v)
	}
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1e-30, 65504, -3.25}
	v := make([]complex128, n)
	for i := range v {
		re := float64(i)*1.375 - 7
		if i < len(special) {
			re = special[i]
		}
		v[i] = complex(re, -float64(i)/3)
	}
	return ir.LiteralFromComplex128s(t, v)
}

var shapes = [][]int{nil, {0}, {2, 0, 3}, {1}, {7}, {2, 3, 4}}

func TestRoundTrip(t *testing.T) {
	for _, d := range ir.AllDTypes {
		for _, s := range shapes {
			typ := ir.TensorOf(d, s...)
			t.Run(typ.String(), func(t *testing.T) {
				want := sample(typ)
				var buf bytes.Buffer
				if err := Write(&buf, want); err != nil {
					t.Fatal(err)
				}
				if buf.Len()%64 != 0 && want.Len() == 0 {
					t.Errorf("file of %d bytes: the header is not padded to 64", buf.Len())
				}
				got, err := Read(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Type.Equal(want.Type) {
					t.Fatalf("type %v, want %v", got.Type, want.Type)
				}
				// Bytes compares bit patterns: NaN payloads and -0 too.
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("got %v, want %v", ir.FormatLiteral(got), ir.FormatLiteral(want))
				}
				if buf.Len() != 0 {
					t.Errorf("%d bytes left unread", buf.Len())
				}
			})
		}
	}
}

func TestWriteLayout(t *testing.T) {
	// The exact bytes numpy 2.4 writes for np.save(f, np.zeros((2, 3), "f4"))
	// and for a bool scalar.
	for _, c := range []struct {
		l    *ir.Literal
		dict string
	}{
		{ir.Zeros(ir.TensorOf(ir.F32, 2, 3)), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"},
		{ir.Zeros(ir.TensorOf(ir.Bool, 2)), "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }"},
		{ir.Zeros(ir.Scalar(ir.F16)), "{'descr': '<f2', 'fortran_order': False, 'shape': (), }"},
		{ir.Zeros(ir.TensorOf(ir.BF16, 2)), "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }"},
		{ir.Zeros(ir.TensorOf(ir.S8, 1)), "{'descr': '|i1', 'fortran_order': False, 'shape': (1,), }"},
		{ir.Zeros(ir.TensorOf(ir.C128, 1)), "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }"},
	} {
		var buf bytes.Buffer
		if err := Write(&buf, c.l); err != nil {
			t.Fatal(err)
		}
		hdr := c.dict + strings.Repeat(" ", 118-len(c.dict)-1) + "\n"
		want := "\x93NUMPY\x01\x00v\x00" + hdr + string(c.l.Bytes())
		if got := buf.String(); got != want {
			t.Errorf("Write(%v) =\n%q\nwant\n%q", c.l.Type, got, want)
		}
	}
}

func TestLongHeaderIsVersion2(t *testing.T) {
	// 30000 dimensions of size 1 need a header longer than 65535 bytes.
	shape := make([]int, 30000)
	for i := range shape {
		shape[i] = 1
	}
	l := ir.LiteralOf(shape, int32(42))
	var buf bytes.Buffer
	if err := Write(&buf, l); err != nil {
		t.Fatal(err)
	}
	if b := buf.Bytes(); b[6] != 2 || b[7] != 0 || (12+int(binary.LittleEndian.Uint32(b[8:12])))%64 != 0 {
		t.Fatalf("version %d.%d, header length %d", b[6], b[7], binary.LittleEndian.Uint32(b[8:12]))
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !ir.LiteralEqual(got, l) {
		t.Errorf("got %v", got.Type)
	}
}

// file builds a .npy file from a version, a header dict and data bytes.
func file(major byte, dict string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteByte(major)
	b.WriteByte(0)
	if major == 1 {
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(dict))))
	} else {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(dict))))
	}
	b.WriteString(dict)
	b.Write(data)
	return b.Bytes()
}

func be32(vals ...uint32) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	return b
}

func TestReadHandWritten(t *testing.T) {
	f32 := func(shape []int, v ...float32) *ir.Literal { return ir.LiteralOf(shape, v...) }
	le := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	for _, c := range []struct {
		name string
		in   []byte
		want *ir.Literal
		err  string // substring of the error; "" for success
	}{
		{name: "v1", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", le(1, 2)),
			want: f32([]int{2}, 1, 2)},
		{name: "v2", in: file(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", le(5)),
			want: f32(nil, 5)},
		{name: "v3 utf-8", in: file(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }\n", le(-1)),
			want: f32([]int{1, 1}, -1)},
		{name: "unpadded, no newline, other key order, double quotes",
			in:   file(1, `{"shape": (2,), "descr": "<f4", "fortran_order": False}`, le(3, 4)),
			want: f32([]int{2}, 3, 4)},
		{name: "python 2 longs", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 2L), }", le(1, 2)),
			want: f32([]int{1, 2}, 1, 2)},
		{name: "shape as list", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", le(1, 2)),
			want: f32([]int{2}, 1, 2)},
		{name: "big-endian i4", in: file(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", be32(1, 0xFFFFFFFE)),
			want: ir.LiteralOf([]int{2}, int32(1), -2)},
		{name: "big-endian c8", in: file(1, "{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", be32(math.Float32bits(1.5), math.Float32bits(-2))),
			want: ir.LiteralOf([]int{1}, complex64(complex(1.5, -2)))},
		{name: "big-endian bf16", in: file(1, "{'descr': '>V2', 'fortran_order': False, 'shape': (1,), }", []byte{0x3F, 0xC0}),
			want: ir.LiteralOf([]int{1}, ir.BFloat16(0x3FC0))},
		{name: "ml_dtypes bf16", in: file(1, "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }", []byte{0xC0, 0x3F, 0x00, 0xC0}),
			want: ir.LiteralOf([]int{2}, ir.BFloat16FromFloat32(1.5), ir.BFloat16FromFloat32(-2))},
		{name: "native order", in: file(1, "{'descr': '=f4', 'fortran_order': False, 'shape': (1,), }", le(7)),
			want: f32([]int{1}, 7)},
		{name: "no order character", in: file(1, "{'descr': 'u1', 'fortran_order': False, 'shape': (2,), }", []byte{200, 3}),
			want: ir.LiteralOf([]int{2}, uint8(200), 3)},
		{name: "bool bytes", in: file(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", []byte{0, 1, 2}),
			want: ir.LiteralOf([]int{3}, false, true, true)},
		{name: "fortran 2x3", in: file(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", le(1, 4, 2, 5, 3, 6)),
			want: f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)},
		{name: "fortran 2x3x2", in: file(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 2), }",
			// a[i,j,k] = 100i + 10j + k, stored with i fastest.
			le(0, 100, 10, 110, 20, 120, 1, 101, 11, 111, 21, 121)),
			want: f32([]int{2, 3, 2}, 0, 1, 10, 11, 20, 21, 100, 101, 110, 111, 120, 121)},
		{name: "fortran 1-d", in: file(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", le(1, 2)),
			want: f32([]int{2}, 1, 2)},
		{name: "zero size", in: file(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3, 0), }", nil),
			want: ir.Zeros(ir.TensorOf(ir.S64, 3, 0))},

		{name: "empty", in: nil, err: "empty input"},
		{name: "bad magic", in: []byte("\x93NUMPX\x01\x00\x00\x00"), err: "not a .npy file"},
		{name: "version 4.0", in: append([]byte(magic), 4, 0, 0, 0, 0, 0), err: "unsupported format version 4.0"},
		{name: "truncated header", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", nil)[:20], err: "reading the header"},
		{name: "truncated data", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", le(1)), err: "data has 4 bytes, want 8"},
		{name: "structured", in: file(1, "{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,), }", nil),
			err: "structured dtype"},
		{name: "string", in: file(1, "{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", nil), err: "string arrays"},
		{name: "object", in: file(1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", nil), err: "object arrays"},
		{name: "float128", in: file(1, "{'descr': '<f16', 'fortran_order': False, 'shape': (2,), }", nil), err: `descr "<f16"`},
		{name: "void 4", in: file(1, "{'descr': '|V4', 'fortran_order': False, 'shape': (2,), }", nil), err: "void types"},
		{name: "extra key", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", nil), err: "want exactly descr"},
		{name: "missing key", in: file(1, "{'descr': '<f4', 'shape': (2,)}", nil), err: "want exactly descr"},
		{name: "negative dim", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", nil), err: "non-negative"},
		{name: "not a dict", in: file(1, "('<f4', False, (2,))", nil), err: "not a dict"},
		{name: "garbage", in: file(1, "{'descr': <f4}", nil), err: "unexpected"},
		{name: "fortran_order not bool", in: file(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", nil), err: "fortran_order is 0"},
		{name: "huge shape", in: file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", nil), err: "too large"},
		{name: "lying shape", in: file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }", le(1)), err: "data has 4 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Read(bytes.NewReader(c.in))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				if !strings.HasPrefix(err.Error(), "npy: ") {
					t.Errorf("error %q lacks the npy prefix", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.Type.Equal(c.want.Type) || !bytes.Equal(got.Bytes(), c.want.Bytes()) {
				t.Errorf("got %v, want %v", ir.FormatLiteral(got), ir.FormatLiteral(c.want))
			}
		})
	}
}

func TestReadConsumesOneArray(t *testing.T) {
	a := ir.LiteralOf([]int{2}, int16(1), -1)
	b := ir.LiteralOf([]int{1, 1}, 2.5)
	var buf bytes.Buffer
	for _, l := range []*ir.Literal{a, b} {
		if err := Write(&buf, l); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []*ir.Literal{a, b} {
		got, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !ir.LiteralEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	if _, err := Read(&buf); err == nil || !strings.Contains(err.Error(), "empty input") {
		t.Errorf("read past the end: %v", err)
	}
}

func TestWriteErrors(t *testing.T) {
	if err := Write(io.Discard, nil); err == nil {
		t.Error("nil literal accepted")
	}
	bad := &ir.Literal{Type: ir.TensorOf(ir.F32, 3), Data: []float32{1}}
	if err := Write(io.Discard, bad); err == nil || !strings.HasPrefix(err.Error(), "npy: ") {
		t.Errorf("literal with 1 element for f32[3]: %v", err)
	}
}

func TestFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.npy")
	want := sample(ir.TensorOf(ir.C64, 3, 2))
	if err := WriteFile(p, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) || !got.Type.Equal(want.Type) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.npy")); err == nil {
		t.Error("missing file read")
	}
	os.WriteFile(p, []byte("nope"), 0o644)
	if _, err := ReadFile(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("error %v does not name the file", err)
	}
}

func FuzzRead(f *testing.F) {
	for _, d := range ir.AllDTypes {
		var buf bytes.Buffer
		if err := Write(&buf, sample(ir.TensorOf(d, 2, 2))); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add(file(1, "{'descr': '>c16', 'fortran_order': True, 'shape': (2, 1), }", make([]byte, 32)))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		// Whatever reads must write and read back the same.
		var buf bytes.Buffer
		if err := Write(&buf, l); err != nil {
			t.Fatalf("Write of a literal Read made: %v", err)
		}
		l2, err := Read(&buf)
		if err != nil || !bytes.Equal(l2.Bytes(), l.Bytes()) || !l2.Type.Equal(l.Type) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// numpyPython returns a command that runs Python with
// STELA_JAXLIB_PYTHONPATH (the XLA oracle's pip directory, which holds numpy
// and ml_dtypes) prepended to PYTHONPATH, or skips without python3. Whether
// numpy is importable (there, or Debian's python3-numpy) the script itself
// says, to spare a second interpreter start.
func numpyPython(t *testing.T) func(args ...string) *exec.Cmd {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found; skipping the numpy cross-check")
	}
	env := pyenv.Environ()
	return func(args ...string) *exec.Cmd {
		c := exec.Command(py, args...)
		c.Env = env
		return c
	}
}

// TestNumpy checks files in both directions against numpy itself: numpy
// reads what Write makes (type, shape and every byte) and writes the same
// bytes back, and Read takes numpy's big-endian, Fortran-order, version 2.0
// and 3.0 files.
func TestNumpy(t *testing.T) {
	python := numpyPython(t)
	dir := t.TempDir()
	manifest := map[string]map[string]any{}
	written := map[string]*ir.Literal{}
	for _, d := range ir.AllDTypes {
		for i, s := range shapes {
			l := sample(ir.TensorOf(d, s...))
			name := fmt.Sprintf("go_%v_%d.npy", d, i)
			if err := WriteFile(filepath.Join(dir, name), l); err != nil {
				t.Fatal(err)
			}
			shape := append([]int{}, s...)
			manifest[name] = map[string]any{"descr": Descr(d), "shape": shape, "bits": hex.EncodeToString(l.Bytes())}
			written[name] = l
		}
	}
	mj, _ := json.Marshal(manifest)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mj, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := python(filepath.Join("testdata", "crosscheck.py"), dir).CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
			t.Skipf("numpy is not importable (install python3-numpy or set STELA_JAXLIB_PYTHONPATH): %s", out)
		}
		t.Fatalf("crosscheck.py: %v\n%s", err, out)
	}
	// Without ml_dtypes numpy re-saves bf16 as '|V2', which Read takes too
	// but which differs from Write's '<V2' in one byte.
	_, err := os.Stat(filepath.Join(dir, "py_bf16.npy"))
	hasMLDtypes := err == nil
	for name := range written {
		ours, _ := os.ReadFile(filepath.Join(dir, name))
		theirs, err := os.ReadFile(filepath.Join(dir, "py_resaved_"+strings.TrimPrefix(name, "go_")))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ours, theirs) && !(strings.HasPrefix(name, "go_bf16") && !hasMLDtypes) {
			t.Errorf("%s: numpy's np.save of the same array differs:\n ours  %q\n numpy %q", name, ours[:128], theirs[:128])
		}
	}
	// x = arange(24).reshape(2, 3, 4) in the forms numpy wrote.
	iota := make([]float64, 24)
	for i := range iota {
		iota[i] = float64(i)
	}
	x := func(d ir.DType) *ir.Literal { return ir.LiteralFromFloat64s(ir.TensorOf(d, 2, 3, 4), iota) }
	cx := func(d ir.DType, im float64) *ir.Literal {
		v := make([]complex128, 24)
		for i := range v {
			v[i] = complex(float64(i), im*float64(i))
			if i == 0 {
				v[i] = 0 // numpy computes x - 2j*x as +0 there, not -0
			}
		}
		return ir.LiteralFromComplex128s(ir.TensorOf(d, 2, 3, 4), v)
	}
	mod3 := make([]bool, 24)
	for i := range mod3 {
		mod3[i] = i%3 == 0
	}
	halves := make([]float64, 24)
	for i := range halves {
		halves[i] = float64(i) / 8
	}
	want := map[string]*ir.Literal{
		"py_big_f4.npy":       x(ir.F32),
		"py_big_i8.npy":       x(ir.S64),
		"py_big_u2.npy":       x(ir.U16),
		"py_big_f2.npy":       x(ir.F16),
		"py_big_c8.npy":       cx(ir.C64, 1),
		"py_big_c16.npy":      cx(ir.C128, -2),
		"py_fortran_f8.npy":   x(ir.F64),
		"py_fortran_i4.npy":   x(ir.S32),
		"py_fortran_b1.npy":   ir.LiteralFromBools(ir.TensorOf(ir.Bool, 2, 3, 4), mod3),
		"py_v2.npy":           x(ir.S16),
		"py_v3.npy":           x(ir.S16),
		"py_bf16.npy":         ir.LiteralFromFloat64s(ir.TensorOf(ir.BF16, 2, 3, 4), halves),
		"py_resaved_i1_0.npy": written["go_i1_0.npy"],
	}
	for name, w := range want {
		p := filepath.Join(dir, name)
		if name == "py_bf16.npy" && !hasMLDtypes {
			t.Logf("no ml_dtypes: bf16 from numpy not checked")
			continue
		}
		got, err := ReadFile(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if !got.Type.Equal(w.Type) || !bytes.Equal(got.Bytes(), w.Bytes()) {
			t.Errorf("%s: got %v, want %v", name, ir.FormatLiteral(got), ir.FormatLiteral(w))
		}
	}
}
