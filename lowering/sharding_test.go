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
