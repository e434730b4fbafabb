package tree_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

type T = *tensor.Tensor

func vec(xs ...float32) T { return tensor.FromSlice(xs) }

type Linear struct{ W, B T }

type Base struct{ Embed T }

type Config struct {
	Hidden int
	Names  []string
	Scale  float64
}

type Model struct {
	Base
	Layers []Linear
	Norm   *Linear `stela:"norm"`
	Heads  map[string]T
	ByID   map[int]Linear
	Arr    [2]T
	Extra  any
	Act    string
	Cfg    Config
	Skip   T `stela:"-"`
	Absent T
	count  int // unexported, static: copied
}

// model makes a Model whose leaf i holds the value i, so that order and
// paths can be checked from the values.
func model() *Model {
	n := float32(0)
	next := func() T { n++; return vec(n) }
	m := &Model{}
	m.Embed = next()
	m.Layers = []Linear{{next(), next()}, {next(), next()}}
	m.Norm = &Linear{W: next()} // B absent
	m.Heads = map[string]T{"b": nil, "a": nil}
	m.Heads["a"] = next()
	m.Heads["b"] = next()
	m.ByID = map[int]Linear{10: {}, 2: {}}
	m.ByID[2] = Linear{W: next()}
	m.ByID[10] = Linear{W: next()}
	m.Arr = [2]T{next(), next()}
	m.Extra = map[string]any{"x": next(), "n": 3}
	m.Act = "gelu"
	m.Cfg = Config{Hidden: 64, Names: []string{"a"}, Scale: 0.5}
	m.Skip = vec(-1)
	m.count = 7
	return m
}

var modelPaths = []string{
	"Embed", "Layers.0.W", "Layers.0.B", "Layers.1.W", "Layers.1.B", "norm.W",
	"Heads.a", "Heads.b", "ByID.2.W", "ByID.10.W", "Arr.0", "Arr.1", "Extra.x",
}

func values(t *testing.T, ts []T) []float32 {
	t.Helper()
	var out []float32
	for _, x := range ts {
		out = append(out, x.Float32s()...)
	}
	return out
}

func iota1(n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(i + 1)
	}
	return out
}

func TestFlatten(t *testing.T) {
	m := model()
	leaves, err := tree.Flatten(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := values(t, leaves), iota1(len(modelPaths)); !slices.Equal(got, want) {
		t.Errorf("Flatten values = %v, want %v", got, want)
	}
	withPaths, err := tree.FlattenWithPaths(m)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i, l := range withPaths {
		paths = append(paths, l.Path)
		if l.Tensor != leaves[i] {
			t.Errorf("FlattenWithPaths leaf %d (%s) is not Flatten's", i, l.Path)
		}
	}
	if !slices.Equal(paths, modelPaths) {
		t.Errorf("paths = %q\nwant    %q", paths, modelPaths)
	}
	// By value, the same leaves.
	byValue, err := tree.Flatten(*m)
	if err != nil || len(byValue) != len(leaves) {
		t.Errorf("Flatten(*m) = %d leaves, %v", len(byValue), err)
	}
}

func TestFlattenSmall(t *testing.T) {
	x, y := vec(1), vec(2)
	for _, tc := range []struct {
		name  string
		tree  any
		want  []T
		paths []string
	}{
		{"nil", nil, nil, nil},
		{"tensor", x, []T{x}, []string{""}},
		{"nil tensor", T(nil), nil, nil},
		{"slice", []T{x, nil, y}, []T{x, y}, []string{"0", "2"}},
		{"array pointer", &[2]T{y, x}, []T{y, x}, []string{"0", "1"}},
		{"static", 42, nil, nil},
		{"static struct", Config{Hidden: 3}, nil, nil},
		{"uint keys", map[uint8]T{200: x, 3: y}, []T{y, x}, []string{"3", "200"}},
		{"negative keys", map[int]T{-5: x, 4: y}, []T{x, y}, []string{"-5", "4"}},
		{"any slice", []any{1, x, "s", []T{y}}, []T{x, y}, []string{"1", "3.0"}},
		{"pointer to pointer", func() **Linear { l := &Linear{W: x}; return &l }(), []T{x}, []string{"W"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tree.Flatten(tc.tree)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Flatten = %v, want %v", got, tc.want)
			}
			leaves, err := tree.FlattenWithPaths(tc.tree)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, l := range leaves {
				paths = append(paths, l.Path)
			}
			if !slices.Equal(paths, tc.paths) {
				t.Errorf("paths = %q, want %q", paths, tc.paths)
			}
		})
	}
}

func TestUnflatten(t *testing.T) {
	m := model()
	old, _ := tree.Flatten(m)
	oldStructure, _ := tree.Structure(m)
	fresh := make([]T, len(old))
	for i := range fresh {
		fresh[i] = vec(float32(100 + i))
	}
	u, err := tree.Unflatten(m, fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tree.Flatten(u)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, fresh) {
		t.Errorf("Flatten(Unflatten(m, leaves)) is not leaves")
	}
	if s, _ := tree.Structure(u); s != oldStructure {
		t.Errorf("structure changed:\n%s\n%s", s, oldStructure)
	}
	// like is untouched, and u shares no container with it.
	if now, _ := tree.Flatten(m); !slices.Equal(now, old) {
		t.Errorf("Unflatten modified like")
	}
	if u == m || u.Norm == m.Norm || &u.Layers[0] == &m.Layers[0] {
		t.Errorf("Unflatten shares containers with like")
	}
	u.Heads["a"] = nil
	u.ByID[2] = Linear{}
	u.Extra.(map[string]any)["x"] = nil
	if m.Heads["a"] == nil || m.ByID[2].W == nil || m.Extra.(map[string]any)["x"] == nil {
		t.Errorf("changing Unflatten's maps changed like's")
	}
	// Static leaves and skipped fields are copied as they are.
	if u.Act != "gelu" || u.Cfg.Hidden != 64 || u.Skip != m.Skip || u.count != 7 || u.Norm.B != nil || u.Absent != nil {
		t.Errorf("static parts not copied: %+v", u)
	}
	if u.Extra.(map[string]any)["n"] != 3 {
		t.Errorf("static value in an interface map lost")
	}

	// A nil in leaves makes that leaf absent.
	withNil := slices.Clone(fresh)
	withNil[0] = nil
	u2, err := tree.Unflatten(m, withNil)
	if err != nil || u2.Embed != nil {
		t.Errorf("Unflatten with a nil leaf: Embed = %v, %v", u2.Embed, err)
	}

	for _, n := range []int{len(old) - 1, len(old) + 1, 0} {
		_, err := tree.Unflatten(m, fresh[:0:0])
		if n != 0 {
			_, err = tree.Unflatten(m, append(slices.Clone(fresh), fresh...)[:n])
		}
		want := fmt.Sprintf(`^tree.Unflatten: %d leaves for a \*tree_test.Model with 13 tensor leaves$`, n)
		if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("Unflatten with %d leaves: %v, want %s", n, err, want)
		}
	}
}

func TestUnflattenRoots(t *testing.T) {
	x, y := vec(1), vec(2)
	if got, err := tree.Unflatten(x, []T{y}); err != nil || got != y {
		t.Errorf("tensor root: %v %v", got, err)
	}
	if got, err := tree.Unflatten(T(nil), nil); err != nil || got != nil {
		t.Errorf("nil tensor root: %v %v", got, err)
	}
	var none any
	if got, err := tree.Unflatten(none, nil); err != nil || got != nil {
		t.Errorf("nil interface root: %v %v", got, err)
	}
	var a any = []T{x}
	got, err := tree.Unflatten(a, []T{y})
	if err != nil || got.([]T)[0] != y || a.([]T)[0] != x {
		t.Errorf("interface root: %v %v", got, err)
	}
	arr := [2]Linear{{W: x}, {B: x}}
	got2, err := tree.Unflatten(arr, []T{y, y})
	if err != nil || got2[0].W != y || got2[1].B != y || arr[0].W != x {
		t.Errorf("array root: %v %v", got2, err)
	}
	st, err := tree.Unflatten(Config{Hidden: 3, Names: []string{"q"}}, nil)
	if err != nil || st.Hidden != 3 || st.Names[0] != "q" {
		t.Errorf("static root: %v %v", st, err)
	}
}

func TestMap(t *testing.T) {
	m := model()
	var paths []string
	doubled, err := tree.Map(m, func(path string, x T) (T, error) {
		paths = append(paths, path)
		return tensor.Mul(x, tensor.ScalarLike(x, 2)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(paths, modelPaths) {
		t.Errorf("Map paths = %q", paths)
	}
	leaves, _ := tree.Flatten(doubled)
	want := iota1(len(modelPaths))
	for i := range want {
		want[i] *= 2
	}
	if got := values(t, leaves); !slices.Equal(got, want) {
		t.Errorf("Map values = %v, want %v", got, want)
	}

	// fn's error comes back as it is, and stops the walk.
	boom := errors.New("boom")
	calls := 0
	_, err = tree.Map(m, func(path string, x T) (T, error) {
		calls++
		if path == "Layers.1.W" {
			return nil, boom
		}
		return x, nil
	})
	if err != boom || calls != 4 {
		t.Errorf("Map error = %v after %d calls, want boom after 4", err, calls)
	}

	// nil results make leaves absent.
	dropped, err := tree.Map(m, func(path string, x T) (T, error) {
		if strings.HasPrefix(path, "Layers.") {
			return nil, nil
		}
		return x, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := tree.Flatten(dropped); len(n) != len(modelPaths)-4 || dropped.Layers[1].B != nil {
		t.Errorf("dropping leaves: %d left", len(n))
	}
}

func TestMap2(t *testing.T) {
	a := model()
	b, err := tree.Map(a, func(_ string, x T) (T, error) { return tensor.Neg(x), nil })
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	sum, err := tree.Map2(a, b, func(path string, x, y T) (T, error) {
		paths = append(paths, path)
		return tensor.Sub(x, y), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(paths, modelPaths) {
		t.Errorf("Map2 paths = %q", paths)
	}
	leaves, _ := tree.Flatten(sum)
	want := iota1(len(modelPaths))
	for i := range want {
		want[i] *= 2
	}
	if got := values(t, leaves); !slices.Equal(got, want) {
		t.Errorf("Map2 values = %v, want %v", got, want)
	}

	id := func(_ string, x, _ T) (T, error) { return x, nil }
	for _, tc := range []struct {
		name   string
		change func(m *Model)
		want   string
	}{
		{"slice length", func(m *Model) { m.Layers = m.Layers[:1] }, `^tree.Map2: at Layers: lengths 2 and 1 differ$`},
		{"nil leaf", func(m *Model) { m.Layers[1].B = nil }, `^tree.Map2: at Layers.1.B: the first tree has a tensor, the second has none$`},
		{"extra leaf", func(m *Model) { m.Norm.B = vec(1) }, `^tree.Map2: at norm.B: the first tree has no tensor, the second has one$`},
		{"nil pointer", func(m *Model) { m.Norm = nil }, `^tree.Map2: at norm: the second tree's \*tree_test.Linear is nil, the first's is not$`},
		{"map key", func(m *Model) { m.Heads = map[string]T{"a": m.Heads["a"], "c": m.Heads["b"]} }, `^tree.Map2: at Heads: key "b" is only in the first tree$`},
		{"map key 2", func(m *Model) { m.Heads = map[string]T{"a": m.Heads["a"], "b": m.Heads["b"], "c": nil} }, `^tree.Map2: at Heads: key "c" is only in the second tree$`},
		{"static", func(m *Model) { m.Act = "relu" }, `^tree.Map2: at Act: static leaves differ: "gelu" and "relu"$`},
		{"static in struct", func(m *Model) { m.Cfg.Names = []string{"b"} }, `^tree.Map2: at Cfg: static leaves differ: \{64,\[1\|"a"\],0.5\} and \{64,\[1\|"b"\],0.5\}$`},
		{"dynamic type", func(m *Model) { m.Extra = []any{} }, `^tree.Map2: at Extra: the first tree holds a map\[string\]interface \{\}, the second a \[\]interface \{\}$`},
		{"inside interface", func(m *Model) { m.Extra.(map[string]any)["n"] = 4 }, `^tree.Map2: at Extra.n: static leaves differ: 3 and 4$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := model()
			tc.change(b)
			_, err := tree.Map2(a, b, id)
			if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("Map2 = %v\nwant %s", err, tc.want)
			}
		})
	}
	// Skipped and unexported static fields do not count.
	b2 := model()
	b2.Skip = nil
	b2.count = 8
	if r, err := tree.Map2(a, b2, id); err != nil || r.count != 7 {
		t.Errorf("Map2 with a different skipped field: %v", err)
	}
}

func TestStructure(t *testing.T) {
	base, err := tree.Structure(model())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(base, "0x") {
		t.Errorf("Structure has an address: %s", base)
	}
	again, _ := tree.Structure(model())
	if again != base {
		t.Errorf("Structure is not deterministic:\n%s\n%s", base, again)
	}
	// Same structure: other tensors, of other types and shapes.
	same := []func(m *Model){
		func(m *Model) { m.Embed = tensor.Zeros(ir.S32, 3, 4) },
		func(m *Model) { m.Layers[0].W = vec(5, 6, 7) },
		func(m *Model) { m.Skip = nil },
		func(m *Model) { m.Heads["a"] = m.Heads["b"] },
		func(m *Model) { m.count = 0 }, // unexported state is not described
	}
	for i, change := range same {
		m := model()
		change(m)
		if s, _ := tree.Structure(m); s != base {
			t.Errorf("same #%d: structure differs:\n%s\n%s", i, s, base)
		}
	}
	differ := map[string]func(m *Model){
		"nil leaf":      func(m *Model) { m.Layers[0].W = nil },
		"leaf appears":  func(m *Model) { m.Absent = vec(1) },
		"slice length":  func(m *Model) { m.Layers = append(m.Layers, Linear{}) },
		"nil pointer":   func(m *Model) { m.Norm = nil },
		"map key":       func(m *Model) { m.Heads["c"] = nil },
		"static string": func(m *Model) { m.Act = "relu" },
		"static float":  func(m *Model) { m.Cfg.Scale = 0.25 },
		"static slice":  func(m *Model) { m.Cfg.Names = nil },
		"negative zero": func(m *Model) { m.Cfg.Scale = 0; m.Extra = -m.Cfg.Scale },
		"dynamic type":  func(m *Model) { m.Extra = []T{m.Embed} },
		"any int/int64": func(m *Model) { m.Extra = int64(3) },
		"empty vs nil":  func(m *Model) { m.Heads = map[string]T{}; m.ByID = nil },
	}
	seen := map[string]string{base: "base"}
	for name, change := range differ {
		m := model()
		change(m)
		s, err := tree.Structure(m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if other, dup := seen[s]; dup {
			t.Errorf("%s: same structure as %s: %s", name, other, s)
		}
		seen[s] = name
	}
	m0, m1 := model(), model()
	m0.Extra, m1.Extra = 0.0, float64(0)
	m1.Extra = -m1.Extra.(float64)
	s0, _ := tree.Structure(m0)
	s1, _ := tree.Structure(m1)
	if s0 == s1 {
		t.Errorf("0 and -0 static leaves share a structure: %s", s0)
	}

	// The format, on a small tree.
	small := struct {
		L   []*Linear
		Act string
		N   map[string]any
	}{[]*Linear{{W: vec(1)}, nil}, "gelu", map[string]any{"k": T(nil), "s": 2.5}}
	got, err := tree.Structure(small)
	want := `struct { L []*tree_test.Linear; Act string; N map[string]interface {} } {L:[2|*{W:T B:_},nil] Act:"gelu" N:map[2|"k":(*github.com/stela-ml/stela/frontend/tensor.Tensor)_,"s":(float64)2.5]}`
	if err != nil || got != want {
		t.Errorf("Structure =\n%s, %v\nwant\n%s", got, err, want)
	}
	if got, _ := tree.Structure(nil); got != "nil" {
		t.Errorf("Structure(nil) = %q", got)
	}
	if got, _ := tree.Structure(vec(1)); got != "*github.com/stela-ml/stela/frontend/tensor.Tensor T" {
		t.Errorf("Structure(tensor) = %q", got)
	}
}

func TestStructureFuncs(t *testing.T) {
	type withFunc struct {
		W   T
		Act func(T) T
		Ch  chan int
	}
	if _, err := tree.Structure(withFunc{W: vec(1)}); err != nil {
		t.Errorf("nil func and chan: %v", err)
	}
	_, err := tree.Structure(withFunc{W: vec(1), Act: tensor.Neg})
	want := "tree.Structure: at Act: static leaf of type func(*tensor.Tensor) *tensor.Tensor: a non-nil func cannot be compared by value"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("func leaf: %v\nwant %s", err, want)
	}
	// Map2 compares what it can and copies the rest from its first tree.
	a := withFunc{W: vec(1), Act: tensor.Neg}
	b := withFunc{W: vec(2), Act: tensor.Exp}
	r, err := tree.Map2(a, b, func(_ string, x, y T) (T, error) { return tensor.Add(x, y), nil })
	if err != nil || r.Act == nil || r.W.Float32s()[0] != 3 {
		t.Errorf("Map2 with funcs: %v", err)
	}
	// Skipped, a func is fine.
	type skipped struct {
		W   T
		Act func(T) T `stela:"-"`
	}
	if _, err := tree.Structure(skipped{Act: tensor.Neg}); err != nil {
		t.Errorf("skipped func: %v", err)
	}
}

// Generic containers nest.
type Pair[A, B any] struct {
	First  A
	Second B
}

type Stack[E any] struct{ Items []E }

func TestGenerics(t *testing.T) {
	x, y, z := vec(1), vec(2), vec(3)
	p := Pair[Linear, Stack[*Pair[T, int]]]{
		First:  Linear{W: x},
		Second: Stack[*Pair[T, int]]{Items: []*Pair[T, int]{{y, 1}, {z, 2}}},
	}
	leaves, err := tree.FlattenWithPaths(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range leaves {
		got = append(got, l.Path)
	}
	if want := []string{"First.W", "Second.Items.0.First", "Second.Items.1.First"}; !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	u, err := tree.Unflatten(p, []T{z, x, y})
	if err != nil || u.First.W != z || u.Second.Items[1].First != y || u.Second.Items[1].Second != 2 || p.Second.Items[1].First != z {
		t.Errorf("Unflatten of generic tree: %v", err)
	}
	if !tree.Contains(reflect.TypeFor[Pair[int, Stack[T]]]()) || tree.Contains(reflect.TypeFor[Pair[int, Stack[string]]]()) {
		t.Errorf("Contains on generic types")
	}
	s1, _ := tree.Structure(Pair[int, T]{1, x})
	s2, _ := tree.Structure(Pair[int64, T]{1, x})
	if s1 == s2 {
		t.Errorf("two instantiations share a structure: %s", s1)
	}
}

type embedPtr struct {
	*Linear
	C T
}

type inner struct{ W T }

type hiddenEmbed struct {
	inner // unexported type, exported field: reachable
	B     T
}

type taggedEmbed struct {
	Linear `stela:"lin"`
}

type tensorEmbed struct {
	*tensor.Tensor
}

func TestEmbedded(t *testing.T) {
	x, y, z := vec(1), vec(2), vec(3)
	for _, tc := range []struct {
		name  string
		tree  any
		paths []string
	}{
		{"pointer", embedPtr{&Linear{W: x, B: y}, z}, []string{"W", "B", "C"}},
		{"nil pointer", embedPtr{nil, z}, []string{"C"}},
		{"unexported type", hiddenEmbed{inner{x}, y}, []string{"W", "B"}},
		{"tagged", taggedEmbed{Linear{W: x}}, []string{"lin.W"}},
		{"tensor", tensorEmbed{x}, []string{"Tensor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaves, err := tree.FlattenWithPaths(tc.tree)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, l := range leaves {
				paths = append(paths, l.Path)
			}
			if !slices.Equal(paths, tc.paths) {
				t.Errorf("paths = %q, want %q", paths, tc.paths)
			}
			// Unflatten sets leaves through the embedding, too.
			fresh := make([]T, len(leaves))
			for i := range fresh {
				fresh[i] = vec(float32(10 + i))
			}
			u, err := tree.Unflatten(tc.tree, fresh)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := tree.Flatten(u)
			if !slices.Equal(got, fresh) {
				t.Errorf("Unflatten through the embedding: %v", values(t, got))
			}
		})
	}
	// Unflatten copies an embedded pointer rather than writing through it.
	e := embedPtr{&Linear{W: x}, nil}
	u, _ := tree.Unflatten(e, []T{y})
	if u.Linear == e.Linear || e.W != x || u.W != y {
		t.Errorf("embedded pointer shared or modified")
	}
	// Promoted fields that collide are caught where paths matter.
	type twoW struct {
		Linear
		Other struct{ W T } `stela:""`
		W2    inner
	}
	if _, err := tree.Flatten(twoW{Linear{W: x}, struct{ W T }{y}, inner{z}}); err != nil {
		t.Errorf("Flatten: %v", err)
	}
	type clash struct {
		Linear
		inner
	}
	_, err := tree.FlattenWithPaths(clash{Linear{W: x}, inner{y}})
	if want := "tree.FlattenWithPaths: at W: a second tensor leaf has this path"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("clash: %v, want %s", err, want)
	}
}

type Node struct {
	Val  T
	Kids []*Node
}

// Mutually recursive types whose tensors only one of them declares: a
// fixed point decides that both hold tensors.
type cycA struct {
	B *cycB
	W T
}
type cycB struct{ A *cycA }

type onlyRecursive struct {
	Next *onlyRecursive
	N    int
}

func TestRecursiveTypes(t *testing.T) {
	if !tree.Contains(reflect.TypeFor[cycB]()) || !tree.Contains(reflect.TypeFor[*cycA]()) {
		t.Errorf("Contains on mutually recursive types")
	}
	if tree.Contains(reflect.TypeFor[onlyRecursive]()) {
		t.Errorf("Contains(onlyRecursive) = true")
	}
	x, y, z := vec(1), vec(2), vec(3)
	n := &Node{Val: x, Kids: []*Node{{Val: y}, {Kids: []*Node{{Val: z}}}}}
	leaves, err := tree.FlattenWithPaths(n)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 3 || leaves[2].Path != "Kids.1.Kids.0.Val" {
		t.Errorf("leaves = %v", leaves)
	}
	// Shared subtrees are visited (and copied) once per way to them.
	shared := &Linear{W: x}
	two := []*Linear{shared, shared}
	if got, _ := tree.Flatten(two); len(got) != 2 {
		t.Errorf("shared pointer visited %d times", len(got))
	}
	u, _ := tree.Unflatten(two, []T{y, z})
	if u[0] == u[1] || u[0].W != y || u[1].W != z {
		t.Errorf("Unflatten of a shared pointer")
	}
}

type hiddenTensor struct {
	W T
	b T
}

type hiddenSlice struct{ layers []Linear }

type hiddenAny struct {
	W     T
	cache any
}

type hiddenEmbedPtr struct {
	*inner
}

// Opts can hold tensors only through an interface: an unexported Opts is
// checked by value.
type Opts struct {
	Extra any
	Rate  float64
}

type hiddenOpts struct {
	W    T
	opts Opts
}

// withLibrary has fields of library types whose unexported fields hold
// interfaces: static leaves, described by their exported contents (none).
type withLibrary struct {
	W      T
	Log    *slog.Logger
	rng    *rand.Rand
	parent any // a back link into the tree
	opts   Opts
}

func TestHiddenState(t *testing.T) {
	x := vec(1)
	w := &withLibrary{W: x, Log: slog.Default(), rng: rand.New(rand.NewSource(1)), opts: Opts{Extra: "static", Rate: 0.1}}
	w.parent = w
	for name, f := range map[string]func() error{
		"Flatten":   func() error { _, err := tree.Flatten(w); return err },
		"Structure": func() error { _, err := tree.Structure(w); return err },
		"Unflatten": func() error { _, err := tree.Unflatten(w, []T{x}); return err },
		"Map2":      func() error { _, err := tree.Map2(w, w, keep2); return err },
	} {
		if err := f(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	s1, _ := tree.Structure(w)
	w2 := *w
	w2.rng, w2.Log = nil, slog.New(slog.NewJSONHandler(io.Discard, nil))
	w2.parent = &w2
	w2.opts.Rate = 0.2
	s2, err := tree.Structure(&w2)
	if err != nil {
		t.Fatal(err)
	}
	if s1 != s2 {
		t.Errorf("unexported state changed the structure:\n%s\n%s", s1, s2)
	}
	if want := `*github.com/stela-ml/stela/frontend/tree_test.withLibrary *{W:T Log:&{}}`; s1 != want {
		t.Errorf("Structure = %s, want %s", s1, want)
	}
	// A back link out of the tree is hidden state with tensors.
	w2.parent = w
	if _, err := tree.Flatten(&w2); err == nil || !strings.Contains(err.Error(), "field tree_test.withLibrary.parent is unexported and holds a tensor at W") {
		t.Errorf("back link out of the tree: %v", err)
	}
	u, _ := tree.Unflatten(w, []T{vec(2)})
	if u.rng != w.rng || u.parent != any(w) || u.opts.Rate != 0.1 {
		t.Errorf("unexported state not copied as is")
	}
}

type badKeys struct {
	M map[[2]int]T
}

type byValue struct{ X tensor.Tensor }

func TestErrors(t *testing.T) {
	x := vec(1)
	self := &Node{Val: x}
	self.Kids = []*Node{self}
	loopSlice := []any{nil}
	loopSlice[0] = loopSlice
	loopMap := map[string]any{}
	loopMap["m"] = loopMap
	for _, tc := range []struct {
		name string
		tree any
		want string
	}{
		{"unexported tensor", hiddenTensor{W: x}, "at the root: field tree_test.hiddenTensor.b (*tensor.Tensor) is unexported and holds tensors, which reflection cannot set: export it, or tag it `stela:\"-\"` to copy it as is"},
		{"unexported slice", &hiddenSlice{}, "field tree_test.hiddenSlice.layers ([]tree_test.Linear) is unexported"},
		{"nested", []any{Linear{}, map[string]any{"k": hiddenTensor{}}}, "at 1.k: field tree_test.hiddenTensor.b"},
		{"unexported interface", hiddenAny{cache: []T{x}}, "at the root: field tree_test.hiddenAny.cache is unexported and holds a tensor at 0, which reflection cannot set"},
		{"unexported, deeper", hiddenOpts{W: x, opts: Opts{Extra: map[string]any{"k": []any{nil, x}}}}, "at the root: field tree_test.hiddenOpts.opts is unexported and holds a tensor at Extra.k.1, which reflection cannot set"},
		{"unexported embedded pointer", hiddenEmbedPtr{&inner{x}}, "field tree_test.hiddenEmbedPtr.inner (*tree_test.inner) is unexported"},
		{"map keys", badKeys{}, "map type map[[2]int]*tensor.Tensor holds tensors but its keys are [2]int"},
		{"by value", &byValue{}, "tensor.Tensor held by value"},
		{"pointer cycle", self, "at Kids.0: cycle: this *tree_test.Node contains itself"},
		{"slice cycle", loopSlice, "at 0: cycle: this []interface {} contains itself"},
		{"map cycle", loopMap, "at m: cycle: this map[string]interface {} contains itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := map[string]func() error{
				"tree.Flatten":          func() error { _, err := tree.Flatten(tc.tree); return err },
				"tree.FlattenWithPaths": func() error { _, err := tree.FlattenWithPaths(tc.tree); return err },
				"tree.Structure":        func() error { _, err := tree.Structure(tc.tree); return err },
				"tree.Unflatten":        func() error { _, err := tree.Unflatten(tc.tree, nil); return err },
				"tree.Map":              func() error { _, err := tree.Map(tc.tree, keep); return err },
				"tree.Map2":             func() error { _, err := tree.Map2(tc.tree, tc.tree, keep2); return err },
				"tree.ZerosLike":        func() error { _, err := tree.ZerosLike(tc.tree); return err },
			}
			for op, f := range ops {
				err := f()
				if err == nil || !strings.HasPrefix(err.Error(), op+": ") || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: %v\nwant %s: ...%s...", op, err, op, tc.want)
				}
			}
		})
	}
	// An unexported interface holding a static value is fine.
	if _, err := tree.Flatten(hiddenAny{W: x, cache: 3}); err != nil {
		t.Errorf("static value in an unexported interface: %v", err)
	}
	// A static cycle is caught too, where Structure formats it.
	type ring struct {
		Next *ring
		N    int
	}
	r := &ring{N: 1}
	r.Next = r
	_, err := tree.Structure(struct {
		W T
		R *ring
	}{x, r})
	if want := "tree.Structure: at R: cycle: a static *tree_test.ring contains itself"; err == nil || err.Error() != want {
		t.Errorf("static cycle: %v, want %s", err, want)
	}
	// Dots in map keys collide.
	_, err = tree.FlattenWithPaths(map[string]any{"a.b": x, "a": map[string]T{"b": x}})
	if want := "tree.FlattenWithPaths: at a.b: a second tensor leaf has this path"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("dotted key: %v, want %s", err, want)
	}
}

func keep(_ string, x T) (T, error)     { return x, nil }
func keep2(_ string, x, _ T) (T, error) { return x, nil }

func TestContains(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want bool
	}{
		{reflect.TypeFor[T](), true},
		{reflect.TypeFor[[]T](), true},
		{reflect.TypeFor[[3]T](), true},
		{reflect.TypeFor[map[string][]T](), true},
		{reflect.TypeFor[Linear](), true},
		{reflect.TypeFor[*Model](), true},
		{reflect.TypeFor[any](), true}, // may hold a tree
		{reflect.TypeFor[fmt.Stringer](), true},
		{reflect.TypeFor[hiddenTensor](), true}, // a tree, if a broken one
		{reflect.TypeFor[int](), false},
		{reflect.TypeFor[string](), false},
		{reflect.TypeFor[Config](), false},
		{reflect.TypeFor[[]float64](), false},
		{reflect.TypeFor[func(T) T](), false},
		{reflect.TypeFor[chan T](), false},
		{reflect.TypeFor[struct {
			W T `stela:"-"`
		}](), false},
		{reflect.TypeFor[struct{ mu sync.Mutex }](), false},
		{nil, false},
	} {
		if got := tree.Contains(tc.typ); got != tc.want {
			t.Errorf("Contains(%v) = %v, want %v", tc.typ, got, tc.want)
		}
	}
}

func TestZerosLike(t *testing.T) {
	p := struct {
		A T
		B []T
		C T
		N int
	}{A: tensor.FromSlice([]float32{1, 2, 3, 4}, 2, 2), B: []T{tensor.FromSlice([]int32{5, 6}).To("cpu"), nil}, N: 3}
	z, err := tree.ZerosLike(p)
	if err != nil {
		t.Fatal(err)
	}
	if z.A == p.A || !slices.Equal(z.A.Float32s(), []float32{0, 0, 0, 0}) || !slices.Equal(z.A.Shape(), []int{2, 2}) {
		t.Errorf("A = %v", z.A)
	}
	if z.B[0].DType() != ir.S32 || !slices.Equal(z.B[0].Int32s(), []int32{0, 0}) || !z.B[0].Committed() || z.B[0].Device() != p.B[0].Device() {
		t.Errorf("B[0] = %v committed %v", z.B[0], z.B[0].Committed())
	}
	if z.A.Committed() || z.B[1] != nil || z.C != nil || z.N != 3 {
		t.Errorf("ZerosLike = %+v", z)
	}
}

// The per-type analysis is shared: walks from many goroutines at once.
func TestConcurrent(t *testing.T) {
	type fresh struct {
		L []Pair[T, map[int]T]
	}
	v := fresh{L: []Pair[T, map[int]T]{{vec(1), map[int]T{1: vec(2)}}}}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := tree.Flatten(v)
			if err == nil && len(l) != 2 {
				err = fmt.Errorf("%d leaves", len(l))
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// gpt is a GPT-2-small-shaped tree: 12 blocks of 12 tensors, embeddings and
// a final norm, 148 leaves (the tensors are tiny: walks do not look at them).
type gptBlock struct {
	LN1, LN2       Linear
	QKV, Proj      Linear
	MLPUp, MLPDown Linear
}

type gpt struct {
	WTE, WPE *tensor.Tensor
	Blocks   []gptBlock
	LNF      Linear
	Config   Config
}

func newGPT() gpt {
	x := vec(1)
	l := Linear{x, x}
	g := gpt{WTE: x, WPE: x, LNF: l, Config: Config{Hidden: 768, Names: []string{"gpt2"}, Scale: 1}}
	for range 12 {
		g.Blocks = append(g.Blocks, gptBlock{l, l, l, l, l, l})
	}
	return g
}

func BenchmarkFlatten(b *testing.B) {
	g := newGPT()
	for b.Loop() {
		if _, err := tree.Flatten(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStructure(b *testing.B) {
	g := newGPT()
	for b.Loop() {
		if _, err := tree.Structure(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnflatten(b *testing.B) {
	g := newGPT()
	leaves, _ := tree.Flatten(g)
	for b.Loop() {
		if _, err := tree.Unflatten(g, leaves); err != nil {
			b.Fatal(err)
		}
	}
}
