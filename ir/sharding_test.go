package ir

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMeshCoordsAndGroups(t *testing.T) {
	m, err := NewMesh([]string{"data", "model"}, []int{2, 4})
	if err != nil {
		t.Fatal(err)
	}
	if n := m.NumDevices(); n != 8 {
		t.Fatalf("NumDevices = %d", n)
	}
	for d := 0; d < 8; d++ {
		c := m.Coords(d)
		if c[0] != d/4 || c[1] != d%4 || m.Device(c) != d {
			t.Errorf("device %d: coords %v", d, c)
		}
	}
	if diff := cmp.Diff([][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}, m.Groups([]string{"model"})); diff != "" {
		t.Errorf("groups over model (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]int64{{0, 4}, {1, 5}, {2, 6}, {3, 7}}, m.Groups([]string{"data"})); diff != "" {
		t.Errorf("groups over data (-want +got):\n%s", diff)
	}
	// Minor axis first: the group is ordered by the index along (model, data).
	if diff := cmp.Diff([][]int64{{0, 4, 1, 5, 2, 6, 3, 7}}, m.Groups([]string{"model", "data"})); diff != "" {
		t.Errorf("groups over model, data (-want +got):\n%s", diff)
	}
	if got := m.Index(6, []string{"model", "data"}); got != 5 {
		t.Errorf("Index(6, model×data) = %d, want 5", got)
	}
	for _, bad := range []struct {
		names []string
		sizes []int
		want  string
	}{
		{[]string{"a", "a"}, []int{2, 2}, "named twice"},
		{[]string{"a"}, []int{0}, "size 0"},
		{[]string{""}, []int{2}, "no name"},
		{[]string{"a"}, []int{2, 2}, "1 axis names for 2 sizes"},
	} {
		if _, err := NewMesh(bad.names, bad.sizes); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("NewMesh(%v, %v) = %v, want an error with %q", bad.names, bad.sizes, err, bad.want)
		}
	}
}

func TestShardingCheck(t *testing.T) {
	m, _ := NewMesh([]string{"data", "model"}, []int{2, 4})
	ty := TensorOf(F32, 8, 6)
	ok := &Sharding{Dims: [][]string{{"data"}, {}}}
	if err := ok.Check(m, ty); err != nil {
		t.Fatal(err)
	}
	if got := ok.ShardType(m, ty); !got.Equal(TensorOf(F32, 4, 6)) {
		t.Errorf("ShardType = %v", got)
	}
	for _, c := range []struct {
		s    *Sharding
		want string
	}{
		{&Sharding{Dims: [][]string{{"pipe"}, {}}}, `names axis "pipe", which mesh ["data"=2, "model"=4] does not have`},
		{&Sharding{Dims: [][]string{{"data"}, {"data"}}}, `uses mesh axis "data" twice`},
		{&Sharding{Dims: [][]string{{}, {"model"}}}, `splits dimension 1 of f32[8,6] (size 6) 4 ways (axes "model"), which does not divide it`},
		{&Sharding{Dims: [][]string{{}}}, "has 1 dimensions, but the value f32[8,6] has rank 2"},
		{&Sharding{Dims: [][]string{{"data"}, {}}, Partial: []string{"data"}}, `uses mesh axis "data" twice`},
	} {
		if err := c.s.Check(m, ty); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v.Check = %v, want an error with %q", c.s, err, c.want)
		}
	}
}

func TestVerifyShardings(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`func @f(%0: f32[8] sharding [{"x"}]) -> f32[8] {
  return %0
}`, "has no mesh"},
		{`func @f(%0: f32[6] sharding [{"x"}]) -> f32[6] mesh ["x"=4] {
  return %0
}`, "does not divide it"},
		{`func @f(%0: f32[8]) -> f32[8] mesh ["x"=4] {
  %1 = sharding_constraint %0 {sharding = [{"y"}]} : f32[8]
  return %1
}`, `names axis "y"`},
		{`func @f(%0: f32[8]) -> f32[8] sharding [{"y"}] mesh ["x"=4] {
  return %0
}`, `result #0: sharding [{"y"}] names axis "y"`},
	} {
		f, err := ParseFunc(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if err := Verify(f); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Verify(%s) = %v, want an error with %q", c.src, err, c.want)
		}
	}
	if _, err := ParseFunc(`func @f(%0: f32[8]) -> f32[8] mesh ["x"=2, "x"=2] {
  return %0
}`); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("duplicate mesh axis parsed: %v", err)
	}
}

func TestCloneKeepsShardings(t *testing.T) {
	src, err := ParseFunc(`func @f(%0: f32[8] sharding [{"x"}] sharded [{"x"}]) -> f32[8] sharding [{}] mesh ["x"=4] {
  %1 = negate %0 : f32[8] sharded [{"x"}]
  %2 = sharding_constraint %1 {sharding = [{}]} : f32[8] sharded [{}]
  return %2
}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := CloneFunc(src).String(), src.String(); got != want {
		t.Errorf("clone prints\n%s\nwant\n%s", got, want)
	}
}
