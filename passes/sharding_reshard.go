package passes

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
)

// Resharding: how a value laid out one way over the mesh becomes laid out
// another way, as a list of collectives and local slices, and what each
// costs. The cost of a step is the bytes each device receives, the usual
// model for collectives over a group of g devices of a local array of S
// bytes:
//
//	all_reduce      2(g-1)/g · S   (reduce-scatter, then all-gather)
//	reduce_scatter   (g-1)/g · S
//	all_gather       (g-1)   · S   (S is the piece each device brings)
//	all_to_all       (g-1)/g · S
//	slice            0             (each device keeps its piece)
//
// The plan, from `from` to `to`:
//
//  1. partial sums: axes that `to` splits a dimension by, as an extension
//     of what `from` splits it by, are finished with a reduce_scatter
//     along that dimension; the others with an all_reduce;
//  2. an axis that moves from the minor end of one dimension to the minor
//     end of another is an all_to_all;
//  3. a dimension split by axes `to` does not split it by (past their
//     common prefix) is all-gathered over those axes;
//  4. a dimension `to` splits further is sliced locally.

// reshardKind names a step of a reshard plan; the collective ones are
// the StableHLO ops' names.
type reshardKind string

const (
	stepAllReduce     reshardKind = "all_reduce"
	stepReduceScatter reshardKind = "reduce_scatter"
	stepAllGather     reshardKind = "all_gather"
	stepAllToAll      reshardKind = "all_to_all"
	stepSlice         reshardKind = "slice"
	// stepCollectivePermute counts the explicit permutes of manual
	// computations (no reshard makes one).
	stepCollectivePermute reshardKind = "collective_permute"
)

type reshardStep struct {
	kind reshardKind
	axes []string // the group: devices that differ only along these axes
	// dim is the dimension gathered, scattered or sliced; for all_to_all
	// the concatenated one, split the split one. slices lists, for a
	// slice step, the axes to slice each dimension by.
	dim, split int
	slices     [][]string
	bytes      int64   // received per device
	before     ir.Type // local type before the step
	after      ir.Type // local type after it
	result     *ir.Sharding
}

// planReshard returns the steps that turn a local piece of a value of
// global type t sharded `from` into its piece sharded `to`.
func planReshard(m *ir.Mesh, t ir.Type, from, to *ir.Sharding) ([]reshardStep, error) {
	if len(to.Partial) > 0 {
		return nil, fmt.Errorf("cannot reshard to a partial sum (%v)", to)
	}
	// Axes of size 1 split nothing and sum nothing: leave them out.
	cur, to := dropUnitAxes(m, from), dropUnitAxes(m, to)
	var steps []reshardStep
	local := func() ir.Type { return (&ir.Sharding{Dims: cur.Dims}).ShardType(m, t) }
	size := func(tt ir.Type) int64 { return int64(tt.NumElements()) * int64(max(tt.DType.Size(), 1)) }
	add := func(s reshardStep) {
		s.result = cur.Clone()
		s.after = local()
		steps = append(steps, s)
	}

	// 1. Partial sums.
	if len(cur.Partial) > 0 {
		for d := range to.Dims {
			c := cur.Dims[d]
			if len(to.Dims[d]) <= len(c) || !slices.Equal(to.Dims[d][:len(c)], c) {
				continue
			}
			ext := to.Dims[d][len(c):]
			ok := true
			for _, a := range ext {
				ok = ok && slices.Contains(cur.Partial, a)
			}
			g := m.AxesSize(ext)
			lt := local()
			if !ok || lt.Shape[d]%g != 0 {
				continue
			}
			before := lt
			cur.Dims[d] = slices.Clone(to.Dims[d])
			cur.Partial = slices.DeleteFunc(cur.Partial, func(a string) bool { return slices.Contains(ext, a) })
			add(reshardStep{kind: stepReduceScatter, axes: slices.Clone(ext), dim: d, before: before, bytes: size(before) * int64(g-1) / int64(g)})
		}
		if len(cur.Partial) > 0 {
			before := local()
			g := m.AxesSize(cur.Partial)
			axes := meshOrder(m, cur.Partial)
			cur.Partial = nil
			add(reshardStep{kind: stepAllReduce, axes: axes, before: before, bytes: 2 * size(before) * int64(g-1) / int64(g)})
		}
	}

	// 2. Axes that move between dimensions' minor ends.
	for moved := true; moved; {
		moved = false
		for i := range cur.Dims {
			ci := cur.Dims[i]
			if len(ci) == 0 {
				continue
			}
			x := ci[len(ci)-1]
			if k := slices.Index(to.Dims[i], x); k == len(ci)-1 && slices.Equal(to.Dims[i][:k], ci[:k]) {
				continue // in place
			}
			for j := range cur.Dims {
				cj := cur.Dims[j]
				if j == i || len(to.Dims[j]) != len(cj)+1 || !slices.Equal(to.Dims[j][:len(cj)], cj) || to.Dims[j][len(cj)] != x {
					continue
				}
				g := m.AxisSize(x)
				lt := local()
				if lt.Shape[j]%g != 0 {
					continue
				}
				cur.Dims[i] = slices.Clone(ci[:len(ci)-1])
				cur.Dims[j] = append(slices.Clone(cj), x)
				add(reshardStep{kind: stepAllToAll, axes: []string{x}, dim: i, split: j, before: lt, bytes: size(lt) * int64(g-1) / int64(g)})
				moved = true
				break
			}
			if moved {
				break
			}
		}
	}

	// 3. Gathers.
	for d := range cur.Dims {
		c := commonPrefix(cur.Dims[d], to.Dims[d])
		if len(cur.Dims[d]) == len(c) {
			continue
		}
		ext := slices.Clone(cur.Dims[d][len(c):])
		g := m.AxesSize(ext)
		before := local()
		cur.Dims[d] = slices.Clone(c)
		add(reshardStep{kind: stepAllGather, axes: ext, dim: d, before: before, bytes: size(before) * int64(g-1)})
	}

	// 4. Slices.
	var sl [][]string
	for d := range cur.Dims {
		if len(to.Dims[d]) > len(cur.Dims[d]) {
			if sl == nil {
				sl = make([][]string, len(cur.Dims))
			}
			sl[d] = slices.Clone(to.Dims[d][len(cur.Dims[d]):])
		}
	}
	if sl != nil {
		before := local()
		for d := range cur.Dims {
			cur.Dims[d] = slices.Clone(to.Dims[d])
		}
		add(reshardStep{kind: stepSlice, slices: sl, before: before})
	}
	if !cur.Equal(to) {
		return nil, fmt.Errorf("internal error: resharding %v to %v ended at %v", from, to, cur)
	}
	return steps, nil
}

// dropUnitAxes returns s without the mesh's axes of size 1.
func dropUnitAxes(m *ir.Mesh, s *ir.Sharding) *ir.Sharding {
	c := s.Clone()
	keep := func(as []string) []string {
		return slices.DeleteFunc(as, func(a string) bool { return m.AxisSize(a) == 1 })
	}
	for d := range c.Dims {
		c.Dims[d] = keep(c.Dims[d])
	}
	c.Partial = keep(c.Partial)
	return c
}

func commonPrefix(a, b []string) []string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// meshOrder sorts axes in the mesh's order.
func meshOrder(m *ir.Mesh, axes []string) []string {
	out := slices.Clone(axes)
	slices.SortFunc(out, func(a, b string) int { return m.AxisIndex(a) - m.AxisIndex(b) })
	return out
}

// ReshardBytes is what resharding a value of type t from one sharding to
// another costs: the bytes each device receives (0 when it only slices;
// -1 when it cannot be done).
func ReshardBytes(m *ir.Mesh, t ir.Type, from, to *ir.Sharding) int64 {
	steps, err := planReshard(m, t, from, to)
	if err != nil {
		return -1
	}
	var n int64
	for _, s := range steps {
		n += s.bytes
	}
	return n
}
