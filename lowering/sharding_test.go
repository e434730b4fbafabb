package lowering

import (
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

func TestHLOSharding(t *testing.T) {
	m := &ir.Mesh{Axes: []ir.MeshAxis{{Name: "data", Size: 2}, {Name: "model", Size: 4}}}
	for _, c := range []struct {
		dims [][]string
		want string
	}{
		{[][]string{{}, {}}, "{replicated}"},
		{[][]string{{"data"}, {"model"}}, "{devices=[2,4]<=[8]}"},
		{[][]string{{"model"}, {"data"}}, "{devices=[4,2]<=[2,4]T(1,0)}"},
		{[][]string{{"data"}, {}}, "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
		{[][]string{{}, {"model"}}, "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
		{[][]string{{"data", "model"}, {}}, "{devices=[8,1]<=[8]}"},
		{[][]string{{"model", "data"}}, "{devices=[8]<=[2,4]T(1,0)}"},
	} {
		got, err := HLOSharding(m, &ir.Sharding{Dims: c.dims})
		if err != nil || got != c.want {
			t.Errorf("HLOSharding(%v) = %q, %v; want %q", c.dims, got, err, c.want)
		}
	}
	if _, err := HLOSharding(m, &ir.Sharding{Dims: [][]string{{}}, Partial: []string{"data"}}); err == nil || !strings.Contains(err.Error(), "partial sum") {
		t.Errorf("partial: %v", err)
	}
}

func TestParseHLOShardingRoundTrip(t *testing.T) {
	meshes := []*ir.Mesh{
		{Axes: []ir.MeshAxis{{Name: "data", Size: 2}, {Name: "model", Size: 4}}},
		{Axes: []ir.MeshAxis{{Name: "a", Size: 2}, {Name: "b", Size: 2}, {Name: "c", Size: 2}}},
		{Axes: []ir.MeshAxis{{Name: "x", Size: 8}}},
	}
	for _, m := range meshes {
		names := m.AxisNames()
		// Every way of putting up to two axes on each of two dimensions.
		var lists [][]string
		lists = append(lists, nil)
		for _, a := range names {
			lists = append(lists, []string{a})
			for _, b := range names {
				if b != a {
					lists = append(lists, []string{a, b})
				}
			}
		}
		ty := ir.TensorOf(ir.F32, 16, 16)
		for _, d0 := range lists {
			for _, d1 := range lists {
				sh := &ir.Sharding{Dims: [][]string{d0, d1}}
				if sh.Check(m, ty) != nil {
					continue
				}
				s, err := HLOSharding(m, sh)
				if err != nil {
					t.Fatal(err)
				}
				back, err := ParseHLOSharding(s, m, ty)
				if err != nil {
					t.Fatalf("%v on %v → %s: %v", sh, m, s, err)
				}
				// The same layout: every device holds the same block.
				for dev := range m.NumDevices() {
					for d := range 2 {
						if m.Index(dev, sh.Dims[d]) != m.Index(dev, back.Dims[d]) || m.AxesSize(sh.Dims[d]) != m.AxesSize(back.Dims[d]) {
							t.Fatalf("%v on %v → %s → %v: device %d differs", sh, m, s, back, dev)
						}
					}
				}
				// On the prime mesh the same blocks are found too.
				pm := PrimeMesh(m.NumDevices())
				pb, err := ParseHLOSharding(s, pm, ty)
				if err != nil {
					t.Fatalf("%s on %v: %v", s, pm, err)
				}
				for d := range 2 {
					if pm.AxesSize(pb.Dims[d]) != m.AxesSize(sh.Dims[d]) {
						t.Fatalf("%s on %v: %v", s, pm, pb)
					}
				}
			}
		}
	}
	for _, bad := range []string{"{maximal device=1}", "{manual}", "{devices=[2,2]0,1,2}", "{devices=[3,1]<=[3]}", "{devices=[2,2]<=[4] last_tile_dims={manual}}"} {
		if _, err := ParseHLOSharding(bad, meshes[0], ir.TensorOf(ir.F32, 4, 4)); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
	if sh, err := ParseHLOSharding("{devices=[2,2]0,2,1,3}", &ir.Mesh{Axes: []ir.MeshAxis{{Name: "a", Size: 2}, {Name: "b", Size: 2}}}, ir.TensorOf(ir.F32, 4, 4)); err != nil || sh.String() != `[{"b"}, {"a"}]` {
		t.Errorf("explicit list: %v, %v", sh, err)
	}
}
