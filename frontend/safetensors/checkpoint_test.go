package safetensors_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

type T = *tensor.Tensor

type linear struct{ W, B T }

type model struct {
	Embed  T
	Layers []linear
	Norm   *linear `stela:"norm"`
	Heads  map[string]T
	Step   int
	Name   string
}

// newModel makes a model whose tensors hold values from seed, of several
// element types.
func newModel(seed float64) model {
	lit := func(d ir.DType, shape ...int) T {
		t := ir.TensorOf(d, shape...)
		v := make([]float64, t.NumElements())
		for i := range v {
			v[i] = seed + float64(i)*0.25
		}
		return tensor.FromLiteral(ir.LiteralFromFloat64s(t, v))
	}
	return model{
		Embed:  lit(ir.BF16, 4, 3),
		Layers: []linear{{lit(ir.F32, 3, 3), lit(ir.F32, 3)}, {lit(ir.F16, 3, 2), lit(ir.F64, 2)}},
		Norm:   &linear{W: lit(ir.F32, 2)},
		Heads:  map[string]T{"count": lit(ir.S64), "mask": lit(ir.Bool, 2), "ids": lit(ir.U16, 0)},
		Step:   int(seed),
		Name:   "m",
	}
}

func sameTensors(t *testing.T, got, want any) {
	t.Helper()
	g, err := tree.FlattenWithPaths(got)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := tree.FlattenWithPaths(want)
	if len(g) != len(w) {
		t.Fatalf("%d leaves, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i].Path != w[i].Path || !ir.LiteralEqual(g[i].Tensor.Literal(), w[i].Tensor.Literal()) {
			t.Errorf("%s: %v, want %s: %v", g[i].Path, g[i].Tensor, w[i].Path, w[i].Tensor)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ckpt.safetensors")
	m := newModel(1)
	if err := safetensors.Save(path, m, map[string]string{"step": "1"}); err != nil {
		t.Fatal(err)
	}
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Embed", "Heads.count", "Heads.ids", "Heads.mask", "Layers.0.B", "Layers.0.W", "Layers.1.B", "Layers.1.W", "norm.W"}
	if got := f.Names(); !slices.Equal(got, want) {
		t.Errorf("saved names = %q, want %q", got, want)
	}
	if info, _ := f.Info("Embed"); info.DTypeName != "BF16" || !slices.Equal(info.Shape, []int{4, 3}) {
		t.Errorf("Embed saved as %+v", info)
	}
	if md := f.Metadata(); md["step"] != "1" || len(md) != 1 {
		t.Errorf("metadata = %v", md)
	}
	f.Close()

	like := newModel(100)
	like.Name = "like"
	got, err := safetensors.Load(path, like)
	if err != nil {
		t.Fatal(err)
	}
	sameTensors(t, got, m)
	// The structure and static leaves are like's; like is untouched.
	if got.Step != 100 || got.Name != "like" || got.Norm.B != nil || got.Norm == like.Norm {
		t.Errorf("Load result %+v", got)
	}
	sameTensors(t, like, newModel(100))
	sg, _ := tree.Structure(got)
	sl, _ := tree.Structure(like)
	if sg != sl {
		t.Errorf("structure changed:\n%s\n%s", sg, sl)
	}
	// The file is an ordinary safetensors file: WriteFile's of the same
	// literals has the same bytes.
	lits := map[string]*ir.Literal{}
	leaves, _ := tree.FlattenWithPaths(m)
	for _, l := range leaves {
		lits[l.Path] = l.Tensor.Literal()
	}
	other := filepath.Join(t.TempDir(), "lits.safetensors")
	if err := safetensors.WriteFile(other, lits, map[string]string{"step": "1"}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(path)
	b, _ := os.ReadFile(other)
	if string(a) != string(b) {
		t.Errorf("Save and WriteFile of the same tensors differ")
	}
}

// TestLoadPlacement checks that loaded tensors go where like's leaves are:
// device and commitment.
func TestLoadPlacement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.safetensors")
	src := map[string]T{"a": tensor.FromSlice([]float32{1, 2}), "b": tensor.FromSlice([]int32{3}), "c": tensor.FromSlice([]float32{4})}
	if err := safetensors.Save(path, src, nil); err != nil {
		t.Fatal(err)
	}
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	hostUncommitted := tensor.Zeros(ir.F32, 1)
	if err := tensor.SetDefaultDevice("cpu"); err != nil {
		t.Fatal(err)
	}
	like := map[string]T{
		"a": tensor.Zeros(ir.F32, 2).To("host"), // committed to host
		"b": tensor.Zeros(ir.S32, 1),            // uncommitted on cpu
		"c": hostUncommitted,
	}
	got, err := safetensors.Load(path, like)
	if err != nil {
		t.Fatal(err)
	}
	for k, l := range like {
		g := got[k]
		if g.Device() != l.Device() || g.Committed() != l.Committed() {
			t.Errorf("%s: loaded on %s committed %v, like on %s committed %v", k, g.Device(), g.Committed(), l.Device(), l.Committed())
		}
		if !ir.LiteralEqual(g.Literal(), src[k].Literal()) {
			t.Errorf("%s = %v", k, g)
		}
	}
	if got["a"].Device() != "host" || !got["a"].Committed() || got["c"].Device() != "host" || got["c"].Committed() {
		t.Errorf("placement not exercised: %v %v", got["a"].Device(), got["c"].Device())
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ckpt.safetensors")
	if err := safetensors.Save(path, newModel(1), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(m *model)
		want   string
	}{
		{"missing", func(m *model) { m.Norm.B = tensor.FromSlice([]float32{1, 2}) }, `safetensors.Load: at norm.B: the tree has a tensor here but ` + path + ` has none (it has 9: "Embed", "Heads.count", "Heads.ids", "Heads.mask", "Layers.0.B", ... (4 more))`},
		{"extra", func(m *model) { m.Layers = m.Layers[:1] }, `safetensors.Load: ` + path + ` has tensor "Layers.1.B", which the tree has no leaf for`},
		{"extra map key", func(m *model) { delete(m.Heads, "ids") }, `safetensors.Load: ` + path + ` has tensor "Heads.ids", which the tree has no leaf for`},
		{"shape", func(m *model) { m.Layers[0].W = tensor.Zeros(ir.F32, 9) }, `safetensors.Load: at Layers.0.W: the file's tensor is F32[3 3], the tree's is f32[9]`},
		{"dtype", func(m *model) { m.Embed = tensor.Zeros(ir.F32, 4, 3) }, `safetensors.Load: at Embed: the file's tensor is BF16[4 3], the tree's is f32[4,3]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			like := newModel(0)
			tc.change(&like)
			_, err := safetensors.Load(path, like)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Load: %v\nwant %s", err, tc.want)
			}
		})
	}
	type hidden struct{ w T }
	if _, err := safetensors.Load(path, hidden{}); err == nil || !strings.HasPrefix(err.Error(), "safetensors.Load: tree.FlattenWithPaths: at the root: field safetensors_test.hidden.w") {
		t.Errorf("Load into a broken tree: %v", err)
	}
	if _, err := safetensors.Load(filepath.Join(dir, "none"), newModel(0)); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Load of a missing file: %v", err)
	}

	// Save's errors name the path, and leave no file behind.
	bad := filepath.Join(dir, "bad.safetensors")
	err := safetensors.Save(bad, map[string]any{"z": []T{tensor.FromSlice([]complex64{1})}}, nil)
	if want := `safetensors.Save: tensor "z.0" is c64[1]: safetensors has no c64 element type`; err == nil || err.Error() != want {
		t.Errorf("Save of a complex tensor: %v\nwant %s", err, want)
	}
	err = safetensors.Save(bad, map[string]any{"a.b": tensor.FromSlice([]float32{1}), "a": map[string]T{"b": tensor.FromSlice([]float32{1})}}, nil)
	if want := "safetensors.Save: tree.FlattenWithPaths: at a.b: a second tensor leaf has this path"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Save with colliding paths: %v\nwant %s", err, want)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("failed Saves left %s", bad)
	}
}
