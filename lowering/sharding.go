package lowering

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

// Annotate mode (docs/sharding.md): a function with a mesh lowers with
// GSPMD's annotations, so that the compiler's own SPMD partitioner (XLA's,
// with use_spmd_partitioning) partitions it:
//
//   - each parameter and result of @main gets `mhlo.sharding`, the HLO
//     sharding string of its sharding (the one propagation decided, else
//     the user's);
//   - each sharding_constraint becomes `stablehlo.custom_call @Sharding`
//     with `mhlo.sharding`, as JAX lowers with_sharding_constraint;
//   - the module gets mhlo.num_partitions (the mesh's device count) and
//     mhlo.num_replicas = 1.
//
// Partition p of the program is mesh device p: the mesh's row-major
// device order is the device assignment's partition order.

// HLOSharding returns the HLO sharding string of s over mesh m, in XLA's
// V2 (iota tile assignment) form: "{replicated}", or
// "{devices=[T0,...,Tr-1(,R)]<=[A0,...,Ak-1](T(perm)) (last_tile_dim_replicate)}"
// where the Ti are the numbers of pieces of each dimension, R the number
// of devices that hold the same piece (the product of the axes that split
// no dimension), and the iota over the mesh's devices, reshaped to the
// mesh's axis sizes and transposed so that the axes come in the order of
// the dimensions they split (then the unused ones), gives the device of
// each tile in row-major order. A partial sum has no GSPMD spelling and is
// an error.
func HLOSharding(m *ir.Mesh, s *ir.Sharding) (string, error) {
	if s == nil {
		return "", fmt.Errorf("no sharding")
	}
	if len(s.Partial) > 0 {
		return "", fmt.Errorf("sharding %v is a partial sum, which mhlo.sharding cannot express", s)
	}
	if s.IsReplicated() {
		return "{replicated}", nil
	}
	var perm []int
	var tiles []int
	for _, axes := range s.Dims {
		n := 1
		for _, a := range axes {
			i := m.AxisIndex(a)
			if i < 0 {
				return "", fmt.Errorf("sharding %v names axis %q, which mesh %v does not have", s, a, m)
			}
			perm = append(perm, i)
			n *= m.Axes[i].Size
		}
		tiles = append(tiles, n)
	}
	rep := 1
	for i, a := range m.Axes {
		if !slices.Contains(perm, i) {
			perm = append(perm, i)
			rep *= a.Size
		}
	}
	if rep > 1 {
		tiles = append(tiles, rep)
	}
	var b strings.Builder
	b.WriteString("{devices=[")
	b.WriteString(joinInts(tiles))
	b.WriteString("]<=[")
	sizes := make([]int, len(m.Axes))
	for i, a := range m.Axes {
		sizes[i] = a.Size
	}
	identity := true
	for i, p := range perm {
		identity = identity && p == i
	}
	if identity {
		b.WriteString(strconv.Itoa(m.NumDevices()))
		b.WriteByte(']')
	} else {
		b.WriteString(joinInts(sizes))
		b.WriteString("]T(")
		b.WriteString(joinInts(perm))
		b.WriteByte(')')
	}
	if rep > 1 {
		b.WriteString(" last_tile_dim_replicate")
	}
	b.WriteByte('}')
	return b.String(), nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// annotateMain puts mhlo.sharding on @main's parameters and results.
func annotateMain(sf *stablehlo.Func, f *ir.Func) error {
	m := f.Mesh
	for i, p := range f.Params {
		s := p.Sharding
		if s == nil {
			s = f.InSharding(i)
		}
		if s == nil {
			s = ir.Replicated(p.Type.Rank())
		}
		hs, err := HLOSharding(m, s)
		if err != nil {
			return ir.Errorf(p.Loc(), "lowering", "parameter #%d: %v", i, err)
		}
		sf.SetArgAttr(i, "mhlo.sharding", stablehlo.StringAttr(hs))
	}
	for i, r := range f.Results {
		s := f.OutSharding(i)
		if s == nil {
			s = r.Sharding
		}
		if s == nil {
			s = ir.Replicated(r.Type.Rank())
		}
		hs, err := HLOSharding(m, s)
		if err != nil {
			return ir.Errorf(r.Loc(), "lowering", "result #%d: %v", i, err)
		}
		sf.SetResultAttr(i, "mhlo.sharding", stablehlo.StringAttr(hs))
	}
	return nil
}

// lowerShardingConstraint is the identity, or in annotate mode JAX's
// custom_call @Sharding.
func lowerShardingConstraint(c *ctx) ([]*stablehlo.Value, error) {
	if c.l.mesh == nil {
		return c.args, nil
	}
	a := c.in.Attr.(ir.ShardingConstraintAttr)
	hs, err := HLOSharding(c.l.mesh, &a.Sharding)
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	return c.op("stablehlo.custom_call", c.args,
		stablehlo.NA("call_target_name", stablehlo.StringAttr("Sharding")),
		stablehlo.NA("mhlo.sharding", stablehlo.StringAttr(hs))).Results, nil
}
