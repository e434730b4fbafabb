package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/ir"
)

// fileDTypes are the element types the format has, with its names.
var fileDTypes = []struct {
	dt   ir.DType
	name string
}{
	{ir.Bool, "BOOL"}, {ir.S8, "I8"}, {ir.S16, "I16"}, {ir.S32, "I32"}, {ir.S64, "I64"},
	{ir.U8, "U8"}, {ir.U16, "U16"}, {ir.U32, "U32"}, {ir.U64, "U64"},
	{ir.F16, "F16"}, {ir.BF16, "BF16"}, {ir.F32, "F32"}, {ir.F64, "F64"},
}

var shapes = [][]int{{}, {3}, {2, 3}, {0}, {2, 1, 3}, {5}, {1, 0, 2}}

// sample is a literal of t with varied values: negative and large ones for
// integers (wrapped to the type), fractions and huge ones for floats.
func sample(t ir.Type) *ir.Literal {
	n := t.NumElements()
	switch {
	case t.DType.IsFloat():
		v := make([]float64, n)
		for i := range v {
			v[i] = (float64(i) - 2.5) * math.Pow(2, float64(i%5)*3-6)
		}
		return ir.LiteralFromFloat64s(t, v)
	case t.DType == ir.Bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = i%3 != 1
		}
		return ir.LiteralFromBools(t, v)
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i+1) * -2654435761987
	}
	return ir.LiteralFromInt64s(t, v)
}

// samples holds one tensor per element type, of varied shapes.
func samples() map[string]*ir.Literal {
	out := map[string]*ir.Literal{}
	for i, d := range fileDTypes {
		out[fmt.Sprintf("t_%s", strings.ToLower(d.name))] = sample(ir.TensorOf(d.dt, shapes[i%len(shapes)]...))
	}
	return out
}

func write(t *testing.T, tensors map[string]*ir.Literal, meta map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, tensors, meta); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkFile fails unless f holds exactly tensors and meta.
func checkFile(t *testing.T, f *safetensors.File, tensors map[string]*ir.Literal, meta map[string]string) {
	t.Helper()
	var names []string
	for n := range tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	if got := f.Names(); !slices.Equal(got, names) {
		t.Fatalf("Names = %q, want %q", got, names)
	}
	for _, n := range names {
		want := tensors[n]
		info, err := f.Info(n)
		if err != nil {
			t.Fatal(err)
		}
		if info.DType != want.Type.DType || !slices.Equal(info.Shape, want.Type.Shape) || info.DTypeName != safetensors.DTypeName(want.Type.DType) {
			t.Errorf("%s: Info = %+v, want %v", n, info, want.Type)
		}
		if info.Size != int64(len(want.Bytes())) || info.Offset%int64(want.Type.DType.Size()) != 0 {
			t.Errorf("%s: Info offset %d size %d: want %d bytes, aligned", n, info.Offset, info.Size, len(want.Bytes()))
		}
		got, err := f.Literal(n)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Type.Equal(want.Type) || !bytes.Equal(got.Bytes(), want.Bytes()) || !ir.LiteralEqual(got, want) {
			t.Errorf("%s: Literal = %v, want %v", n, got, want)
		}
	}
	gotMeta := f.Metadata()
	if len(gotMeta) != len(meta) {
		t.Errorf("Metadata = %v, want %v", gotMeta, meta)
	}
	for k, v := range meta {
		if gotMeta[k] != v {
			t.Errorf("Metadata[%q] = %q, want %q", k, gotMeta[k], v)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	tensors := samples()
	meta := map[string]string{"format": "stela", "step": "12", "note": "quote \" backslash \\ newline \n tab \t bell \a unicode é"}
	data := write(t, tensors, meta)
	if again := write(t, tensors, meta); !bytes.Equal(again, data) {
		t.Errorf("Write is not deterministic")
	}
	f, err := safetensors.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, f, tensors, meta)

	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := safetensors.WriteFile(path, tensors, meta); err != nil {
		t.Fatal(err)
	}
	onDisk, _ := os.ReadFile(path)
	if !bytes.Equal(onDisk, data) {
		t.Errorf("WriteFile and Write differ")
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("WriteFile mode %v, want 0644", st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	f, err = safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, f, tensors, meta)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Literal("t_f32"); err == nil || !strings.Contains(err.Error(), "the file is closed") {
		t.Errorf("Literal after Close: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	// No tensors, no metadata: the smallest file.
	empty := write(t, nil, nil)
	if want := "\x08\x00\x00\x00\x00\x00\x00\x00{}      "; string(empty) != want {
		t.Errorf("empty file = %q, want %q", empty, want)
	}
	if f, err := safetensors.Parse(empty); err != nil || len(f.Names()) != 0 || f.Metadata() != nil {
		t.Errorf("Parse(empty) = %v", err)
	}
}

// TestLayout checks Write's bytes against the format as the spec gives it,
// spelled out by hand: the data ordered by decreasing alignment, then name.
func TestLayout(t *testing.T) {
	tensors := map[string]*ir.Literal{
		"b": ir.LiteralOf([]int{3}, uint8(1), 2, 3),
		"a": ir.LiteralOf([]int{1}, 1.5),
		"c": ir.LiteralOf([]int{2}, int16(-1), 258),
		"d": ir.LiteralOf([]int{}, true),
	}
	hdr := `{"__metadata__":{"a":"1","z":"2"},` +
		`"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]},` +
		`"c":{"dtype":"I16","shape":[2],"data_offsets":[8,12]},` +
		`"b":{"dtype":"U8","shape":[3],"data_offsets":[12,15]},` +
		`"d":{"dtype":"BOOL","shape":[],"data_offsets":[15,16]}}`
	for len(hdr)%8 != 0 {
		hdr += " "
	}
	var want bytes.Buffer
	binary.Write(&want, binary.LittleEndian, uint64(len(hdr)))
	want.WriteString(hdr)
	binary.Write(&want, binary.LittleEndian, 1.5)
	binary.Write(&want, binary.LittleEndian, []int16{-1, 258})
	want.Write([]byte{1, 2, 3, 1})
	got := write(t, tensors, map[string]string{"z": "2", "a": "1"})
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("Write =\n%q\nwant\n%q", got, want.Bytes())
	}
}

func TestWriteErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tensors map[string]*ir.Literal
		meta    map[string]string
		want    string
	}{
		{"complex", map[string]*ir.Literal{"z": ir.LiteralOf([]int{1}, complex64(1))}, nil, `safetensors.Write: tensor "z" is c64[1]: safetensors has no c64 element type`},
		{"nil", map[string]*ir.Literal{"x": nil}, nil, `safetensors.Write: tensor "x" is a nil literal`},
		{"bad literal", map[string]*ir.Literal{"x": {Type: ir.TensorOf(ir.F32, 2), Data: []float32{1}}}, nil, `safetensors.Write: tensor "x": literal: 1 elements for f32[2], want 2`},
		{"metadata name", map[string]*ir.Literal{"__metadata__": ir.LiteralOf([]int{1}, float32(1))}, nil, "safetensors.Write: a tensor cannot be named __metadata__"},
		{"utf-8 name", map[string]*ir.Literal{"\xff": ir.LiteralOf([]int{1}, float32(1))}, nil, `safetensors.Write: tensor name "\xff" is not valid UTF-8`},
		{"utf-8 metadata", nil, map[string]string{"k": "\xfe"}, `safetensors.Write: metadata "k": "\xfe" is not valid UTF-8`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := safetensors.Write(&buf, tc.tensors, tc.meta)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Write: %v\nwant %s", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("Write wrote %d bytes before failing", buf.Len())
			}
		})
	}
	// A failed WriteFile leaves what was there.
	path := filepath.Join(t.TempDir(), "keep.safetensors")
	os.WriteFile(path, []byte("old"), 0o644)
	err := safetensors.WriteFile(path, map[string]*ir.Literal{"z": ir.LiteralOf([]int{1}, complex128(1))}, nil)
	if old, _ := os.ReadFile(path); err == nil || string(old) != "old" {
		t.Errorf("failed WriteFile: %v, file now %q", err, old)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// file assembles a safetensors file from a header and a data region.
func file(header string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint64(len(header)))
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

func TestOpenErrors(t *testing.T) {
	lenOnly := func(n uint64, rest string) []byte {
		b := binary.LittleEndian.AppendUint64(nil, n)
		return append(b, rest...)
	}
	f32 := func(offs string) string {
		return `{"w":{"dtype":"F32","shape":[2],"data_offsets":` + offs + `}}`
	}
	d8 := make([]byte, 8)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"short", []byte{1, 2, 3}, "3 bytes is too short for a safetensors file"},
		{"huge header", lenOnly(1<<40, "{}"), "header length 1099511627776 exceeds the limit of 100000000 bytes"},
		{"header past end", lenOnly(100, "{}"), "header length 100 runs past the end of the file (10 bytes)"},
		{"max uint64", lenOnly(math.MaxUint64, ""), "header length 18446744073709551615 exceeds the limit"},
		{"utf-8", file("{\"\xff\":1}", nil), "header is not valid UTF-8"},
		{"json", file(`{"w":}`, nil), "header: invalid JSON at byte 6: invalid character '}' looking for beginning of value"},
		{"truncated json", file(`{"w":{"dtype":"F32"`, nil), "header: invalid JSON at byte 19: unexpected end of JSON input"},
		{"not object", file(`[1,2]`, nil), "header is not a JSON object"},
		{"string", file(`"x"`, nil), "header is not a JSON object"},
		{"empty header", file(``, nil), "header: invalid JSON at byte 0: unexpected end of JSON input"},
		{"trailing", file(`{} {}`, nil), "header: invalid JSON at byte 4: invalid character '{' after top-level value"},
		{"duplicate", file(`{"w":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},"w":{"dtype":"U8","shape":[0],"data_offsets":[0,0]}}`, nil), `header names "w" twice`},
		{"duplicate metadata", file(`{"__metadata__":{},"__metadata__":{}}`, nil), `header names "__metadata__" twice`},
		{"metadata array", file(`{"__metadata__":[]}`, nil), "__metadata__ is not an object of strings"},
		{"metadata null", file(`{"__metadata__":null}`, nil), "__metadata__ is not an object of strings"},
		{"metadata number", file(`{"__metadata__":{"k":1}}`, nil), `__metadata__: value of "k" is not a string`},
		{"entry number", file(`{"w":3}`, nil), `tensor "w": entry is not an object`},
		{"entry null", file(`{"w":null}`, nil), `tensor "w": entry is not an object`},
		{"no dtype", file(`{"w":{"shape":[2],"data_offsets":[0,8]}}`, d8), `tensor "w": entry has no "dtype"`},
		{"no shape", file(`{"w":{"dtype":"F32","data_offsets":[0,8]}}`, d8), `tensor "w": entry has no "shape"`},
		{"no offsets", file(`{"w":{"dtype":"F32","shape":[2]}}`, d8), `tensor "w": entry has no "data_offsets"`},
		{"case of keys", file(`{"w":{"DTYPE":"F32","shape":[2],"data_offsets":[0,8]}}`, d8), `tensor "w": entry has no "dtype"`},
		{"dtype number", file(`{"w":{"dtype":4,"shape":[2],"data_offsets":[0,8]}}`, d8), `tensor "w": dtype 4 is not a string`},
		{"unknown dtype", file(`{"w":{"dtype":"F128","shape":[2],"data_offsets":[0,8]}}`, d8), `tensor "w": unknown dtype "F128"`},
		{"lower case dtype", file(`{"w":{"dtype":"f32","shape":[2],"data_offsets":[0,8]}}`, d8), `tensor "w": unknown dtype "f32"`},
		{"negative dim", file(`{"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, d8), `tensor "w": shape [-2]: -2 is not an integer from 0 to`},
		{"float dim", file(`{"w":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}}`, d8), `tensor "w": shape [2.0]: 2.0 is not an integer`},
		{"shape string", file(`{"w":{"dtype":"F32","shape":"2","data_offsets":[0,8]}}`, d8), `tensor "w": shape "2" is not an array of integers`},
		{"shape null", file(`{"w":{"dtype":"F32","shape":null,"data_offsets":[0,8]}}`, d8), `tensor "w": shape null is not an array of integers`},
		{"three offsets", file(f32(`[0,4,8]`), d8), `tensor "w": data_offsets [0 4 8] is not [begin, end]`},
		{"negative offset", file(f32(`[-8,0]`), d8), `tensor "w": data_offsets [-8,0]: -8 is not an integer`},
		{"reversed", file(f32(`[8,0]`), d8), `tensor "w": data_offsets [8, 0] end before they begin`},
		{"size", file(f32(`[0,7]`), d8[:7]), `tensor "w": F32[2] needs 8 bytes, but data_offsets [0, 7] hold 7`},
		{"overflow", file(`{"w":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}}`, d8), `tensor "w": shape [4294967296 4294967296] is too large`},
		{"overflow by size", file(`{"w":{"dtype":"F64","shape":[1152921504606846976],"data_offsets":[0,8]}}`, d8), `tensor "w": shape [1152921504606846976] is too large`},
		{"past end", file(f32(`[8,16]`), d8), `tensor "w": data_offsets [8, 16] run past the end of the data (8 bytes after the header)`},
		{"leading gap", file(f32(`[4,12]`), make([]byte, 12)), `tensor "w": data starts at offset 4: the 4 bytes before it belong to no tensor`},
		{"trailing data", file(f32(`[0,8]`), make([]byte, 9)), "the tensors' data ends at offset 8, but 9 bytes follow the header: the 1 after that belong to no tensor"},
		{"data without tensors", file(`{}`, d8), "the tensors' data ends at offset 0, but 8 bytes follow the header"},
		{"overlap", file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}}`, d8), `tensor "b": data_offsets [4, 8] overlap tensor "a"'s, which end at 8`},
		{"same range", file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}`, d8), `tensor "b": data_offsets [0, 8] overlap tensor "a"'s`},
		{"empty inside", file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"e":{"dtype":"F32","shape":[0],"data_offsets":[4,4]}}`, d8), `tensor "e": data_offsets [4, 4] overlap tensor "a"'s`},
		{"gap", file(`{"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}}`, d8), `tensor "b": data starts at offset 4: the 2 bytes after tensor "a" belong to no tensor`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := safetensors.Parse(tc.data)
			want := "safetensors: safetensors data: " + tc.want
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Parse: %v\nwant %s", err, want)
			}
			path := filepath.Join(t.TempDir(), "bad.safetensors")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = safetensors.Open(path)
			want = "safetensors: " + path + ": " + tc.want
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Open: %v\nwant %s", err, want)
			}
		})
	}
	if _, err := safetensors.Open(filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Open of a missing file: %v", err)
	}
}

// TestOpenValid covers files the format allows that Write does not make:
// other orders, unknown entry fields, whitespace, 8-bit floats.
func TestOpenValid(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	hdr := ` { "b" : {"data_offsets":[0,8], "dtype":"F32", "shape":[2], "extra": {"x": [1]}},` +
		"\n" + `"q":{"dtype":"F8_E4M3","shape":[1,2],"data_offsets":[8,10]}, "e":{"dtype":"I64","shape":[3,0],"data_offsets":[10,10]},` +
		`"__metadata__":{"k":"v\u00e9"}}   `
	f, err := safetensors.Parse(file(hdr, data))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Names(); !slices.Equal(got, []string{"b", "e", "q"}) {
		t.Errorf("Names = %q", got)
	}
	if m := f.Metadata(); len(m) != 1 || m["k"] != "vé" {
		t.Errorf("Metadata = %v", m)
	}
	b, err := f.Literal("b")
	if err != nil || !ir.LiteralEqual(b, ir.LiteralOf([]int{2}, math.Float32frombits(0x04030201), math.Float32frombits(0x08070605))) {
		t.Errorf("Literal(b) = %v, %v", b, err)
	}
	e, err := f.Literal("e")
	if err != nil || !e.Type.Equal(ir.TensorOf(ir.S64, 3, 0)) {
		t.Errorf("Literal(e) = %v, %v", e, err)
	}
	info, err := f.Info("q")
	if err != nil || info.DType != ir.InvalidDType || info.DTypeName != "F8_E4M3" || info.Offset != int64(8+len(hdr)+8) || info.Size != 2 {
		t.Errorf("Info(q) = %+v, %v", info, err)
	}
	if _, err := f.Literal("q"); err == nil || err.Error() != `safetensors: safetensors data: tensor "q" has dtype F8_E4M3, which Stela has no element type for` {
		t.Errorf("Literal(q): %v", err)
	}
	if _, err := f.Info("zz"); err == nil || err.Error() != `safetensors: safetensors data: no tensor "zz" (the file has 3: "b", "e", "q")` {
		t.Errorf("Info(zz): %v", err)
	}
	// Bools: any non-zero byte is true.
	f, err = safetensors.Parse(file(`{"m":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}     `, []byte{0, 1, 7}))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := f.Literal("m"); err != nil || !slices.Equal(m.Data.([]bool), []bool{false, true, true}) {
		t.Errorf("Literal(m) = %v, %v", m, err)
	}
}

func BenchmarkLiteral(b *testing.B) {
	const n = 16 << 20 // 64 MiB of f32
	path := filepath.Join(b.TempDir(), "big.safetensors")
	if err := safetensors.WriteFile(path, map[string]*ir.Literal{"w": ir.Zeros(ir.TensorOf(ir.F32, n))}, nil); err != nil {
		b.Fatal(err)
	}
	f, err := safetensors.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.SetBytes(4 * n)
	for b.Loop() {
		if _, err := f.Literal("w"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteFile(b *testing.B) {
	const n = 16 << 20
	tensors := map[string]*ir.Literal{"w": ir.Zeros(ir.TensorOf(ir.F32, n))}
	path := filepath.Join(b.TempDir(), "big.safetensors")
	b.SetBytes(4 * n)
	for b.Loop() {
		if err := safetensors.WriteFile(path, tensors, nil); err != nil {
			b.Fatal(err)
		}
	}
}
