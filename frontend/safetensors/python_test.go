package safetensors_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
)

// TestPython checks files in both directions against Hugging Face's own
// safetensors package (with numpy; .ci/run installs both beside jax):
// Python's reference parser reads what Write makes (every dtype, byte for
// byte, and the metadata), its writer writes the same tensors to the same
// bytes, and Open reads what Python writes, values checked against
// Python's. Skips without python3, numpy or safetensors.
func TestPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found; skipping the safetensors cross-check")
	}
	dir := t.TempDir()
	type tensorEntry struct {
		DType string `json:"dtype"`
		Shape []int  `json:"shape"`
		Hex   string `json:"hex"`
	}
	type fileEntry struct {
		Metadata map[string]string      `json:"metadata"`
		Tensors  map[string]tensorEntry `json:"tensors"`
	}
	manifest := map[string]fileEntry{}
	files := map[string]map[string]*ir.Literal{}
	add := func(name string, tensors map[string]*ir.Literal, meta map[string]string) {
		if err := safetensors.WriteFile(filepath.Join(dir, name), tensors, meta); err != nil {
			t.Fatal(err)
		}
		e := fileEntry{Metadata: meta, Tensors: map[string]tensorEntry{}}
		if meta == nil {
			e.Metadata = map[string]string{}
		}
		for n, l := range tensors {
			e.Tensors[n] = tensorEntry{safetensors.DTypeName(l.Type.DType), append([]int{}, l.Type.Shape...), hex.EncodeToString(l.Bytes())}
		}
		manifest[name] = e
		files[name] = tensors
	}
	all := samples()
	all["esc \"q\" \\ \n\t\x01\x7f é ☃"] = ir.LiteralOf([]int{2}, float32(1), 2)
	add("go_all.safetensors", all, map[string]string{"format": "stela \"x\"\n"})
	noBF16 := samples()
	delete(noBF16, "t_bf16")
	add("go_np.safetensors", noBF16, nil)
	add("go_meta.safetensors", map[string]*ir.Literal{"w": ir.LiteralOf([]int{}, int64(-5))}, map[string]string{"a": "1", "b": "", "ü": "ß"})
	add("go_empty.safetensors", nil, nil)
	mj, _ := json.Marshal(manifest)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mj, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join("testdata", "crosscheck.py"), dir)
	cmd.Env = pyenv.Environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
			t.Skipf("numpy or safetensors is not importable (.ci/run installs them into $STELA_JAXLIB_PYTHONPATH): %s", out)
		}
		t.Fatalf("crosscheck.py: %v\n%s", err, out)
	}

	// Python's writer wrote the same bytes (one metadata key at most: the
	// reference writes a hash map's keys in no set order).
	var values struct {
		MLDtypes bool `json:"ml_dtypes"`
		Tensors  map[string]struct {
			Shape  []int         `json:"shape"`
			Values []json.Number `json:"values"`
		} `json:"tensors"`
	}
	vj, err := os.ReadFile(filepath.Join(dir, "py_values.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(vj))
	dec.UseNumber()
	if err := dec.Decode(&values); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go_all.safetensors", "go_np.safetensors", "go_empty.safetensors"} {
		if name == "go_all.safetensors" && !values.MLDtypes {
			continue // Python could not make the bf16 array
		}
		ours, _ := os.ReadFile(filepath.Join(dir, name))
		theirs, err := os.ReadFile(filepath.Join(dir, "py_resaved_"+name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ours, theirs) {
			t.Errorf("%s: the reference writer's bytes differ:\n ours   %q\n theirs %q", name, ours[:min(len(ours), 300)], theirs[:min(len(theirs), 300)])
		}
	}

	// Go reads Python's file.
	f, err := safetensors.Open(filepath.Join(dir, "py.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if md := f.Metadata(); md["format"] != "np" || md["source"] != "python" || len(md) != 2 {
		t.Errorf("metadata = %v", md)
	}
	wantTypes := map[string]ir.DType{
		"bool": ir.Bool, "u8": ir.U8, "i8": ir.S8, "i16": ir.S16, "u16": ir.U16, "i32": ir.S32,
		"u32": ir.U32, "i64": ir.S64, "u64": ir.U64, "f16": ir.F16, "f32": ir.F32, "f64": ir.F64,
		"layers.0.weight": ir.F32, "empty": ir.F32, "bf16": ir.BF16,
	}
	if n := len(values.Tensors); n != len(wantTypes)-1 && n != len(wantTypes) {
		t.Fatalf("Python wrote %d tensors", n)
	}
	like := map[string]*tensor.Tensor{}
	for name, want := range values.Tensors {
		l, err := f.Literal(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		like[name] = tensor.Zeros(l.Type.DType, l.Type.Shape...)
		if l.Type.DType != wantTypes[name] || !slices.Equal(l.Type.Shape, want.Shape) {
			t.Errorf("%s: Go reads %v, Python wrote %v %v", name, l.Type, wantTypes[name], want.Shape)
			continue
		}
		for i, v := range want.Values {
			var ok bool
			var got any
			switch d := l.Type.DType; {
			case d.IsFloat():
				w, _ := v.Float64()
				g := l.Float64s()[i]
				got, ok = g, g == w || (math.IsNaN(g) && math.IsNaN(w))
			case d.IsUnsigned():
				g := l.Uint64s()[i]
				got, ok = g, v.String() == strconv.FormatUint(g, 10)
			default:
				g := l.Int64s()[i]
				got, ok = g, v.String() == strconv.FormatInt(g, 10)
			}
			if !ok {
				t.Errorf("%s[%d] = %v, Python wrote %s", name, i, got, v)
			}
		}
	}
	// A tree whose paths are the file's names loads it: map keys with
	// dots are single path elements.
	loaded, err := safetensors.LoadFrom(f, like)
	if err != nil {
		t.Fatal(err)
	}
	if w := loaded["layers.0.weight"].Float32s(); !slices.Equal(w, []float32{1, 2, 3}) {
		t.Errorf("loaded layers.0.weight = %v", w)
	}
	if !values.MLDtypes {
		g, err := safetensors.Open(filepath.Join(dir, "py_bf16.safetensors"))
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		l, err := g.Literal("bf16")
		if err != nil || !slices.Equal(l.Float64s(), []float64{1, -3.5}) {
			t.Errorf("raw bf16 = %v, %v", l, err)
		}
	}
}
