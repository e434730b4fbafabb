package passes

import (
	"fmt"
	"slices"

	"github.com/stela-ml/stela/ir"
)

// CombineAllReduces merges the all_reduces of f's body that could run as
// one, as XLA's all-reduce combiner does: the same process groups, channel
// kind and reduction on operands of one element type, none computed from
// another's result. A data-parallel training step's per-gradient
// all_reduces become one variadic all_reduce, one rendezvous of the
// devices instead of one per gradient; the bytes each device receives do
// not change. The merged op takes the place of the group's last member;
// instructions in between that read an earlier member's result move after
// it, in their order. Regions are left alone (every device must reach the
// same collectives in a loop's body, and moving them across iterations is
// not this pass's business). It returns the number of all_reduces removed.
func CombineAllReduces(f *ir.Func) (int, error) {
	removed := 0
	for {
		n, err := combineOnce(f)
		if err != nil {
			return removed, err
		}
		if n == 0 {
			return removed, nil
		}
		removed += n
	}
}

// combineKey is what all_reduces must share to merge.
func combineKey(in *ir.Instr) (string, bool) {
	a, ok := in.Attr.(ir.AllReduceAttr)
	if !ok || len(in.Regions) != 1 || len(in.Args) == 0 {
		return "", false
	}
	body := in.Regions[0]
	if len(body.Body) != 1 || len(body.Params) != 2 || len(body.Results) != 1 {
		return "", false
	}
	op := body.Body[0]
	if len(op.Args) != 2 || op.Args[0] != body.Params[0] || op.Args[1] != body.Params[1] || body.Results[0] != op.Results[0] {
		return "", false
	}
	d := in.Args[0].Type.DType
	for _, x := range in.Args {
		if x.Type.DType != d {
			return "", false
		}
	}
	// The channel id's value does not matter, only whether there is one.
	return fmt.Sprintf("%v|%v|%v|%v|%v", a.ReplicaGroups, a.ChannelID > 0, a.UseGlobalDeviceIDs, op.Op, d), true
}

// combineOnce merges the first group of two or more mergeable all_reduces
// it finds, and returns how many it removed.
func combineOnce(f *ir.Func) (int, error) {
	// deps[v] is the set of all_reduces (by index in ars) v is computed
	// from, for the first 64 all_reduces of the body.
	var ars []*ir.Instr
	for _, in := range f.Body {
		if in.Op == ir.OpAllReduce && len(ars) < 64 {
			ars = append(ars, in)
		}
	}
	if len(ars) < 2 {
		return 0, nil
	}
	index := map[*ir.Instr]int{}
	for i, in := range ars {
		index[in] = i
	}
	deps := map[*ir.Value]uint64{}
	instrDeps := map[*ir.Instr]uint64{}
	for _, in := range f.Body {
		var m uint64
		for _, a := range in.Args {
			m |= deps[a]
		}
		instrDeps[in] = m
		if i, ok := index[in]; ok {
			m |= 1 << i
		}
		for _, r := range in.Results {
			deps[r] = m
		}
	}
	for i, first := range ars {
		key, ok := combineKey(first)
		if !ok {
			continue
		}
		group := []int{i}
		var members uint64 = 1 << i
		for j := i + 1; j < len(ars); j++ {
			if k, ok := combineKey(ars[j]); !ok || k != key || instrDeps[ars[j]]&members != 0 {
				continue
			}
			group = append(group, j)
			members |= 1 << j
		}
		if len(group) < 2 {
			continue
		}
		return len(group) - 1, merge(f, ars, group, members, deps)
	}
	return 0, nil
}

// merge replaces the all_reduces ars[group...] by one at the last one's
// place, moving what reads an earlier member's result after it.
func merge(f *ir.Func, ars []*ir.Instr, group []int, members uint64, deps map[*ir.Value]uint64) error {
	last := ars[group[len(group)-1]]
	var args []*ir.Value
	var olds []*ir.Value
	for _, g := range group {
		args = append(args, ars[g].Args...)
		olds = append(olds, ars[g].Results...)
	}
	first := ars[group[0]]
	a := first.Attr.(ir.AllReduceAttr)
	body := ir.CloneFunc(first.Regions[0])
	var keep, after []*ir.Instr
	start := slices.Index(f.Body, first)
	end := slices.Index(f.Body, last)
	isMember := map[*ir.Instr]bool{}
	for _, g := range group {
		isMember[ars[g]] = true
	}
	for _, in := range f.Body[start : end+1] {
		if isMember[in] {
			continue
		}
		var m uint64
		for _, x := range in.Args {
			m |= deps[x]
		}
		if m&members != 0 {
			after = append(after, in)
		} else {
			keep = append(keep, in)
		}
	}
	// Emit the merged op at the end of the body, then splice it in.
	n := len(f.Body)
	rs, err := f.Emit(last.Loc, ir.OpAllReduce, args, ir.AllReduceAttr{ReplicaGroups: a.ReplicaGroups, ChannelID: a.ChannelID, UseGlobalDeviceIDs: a.UseGlobalDeviceIDs}, body)
	if err != nil {
		return fmt.Errorf("combine all_reduces: %w", err)
	}
	merged := f.Body[n:]
	body2 := slices.Concat(f.Body[:start], keep, merged, after, f.Body[end+1:n])
	f.Body = body2
	for i, old := range olds {
		replaceAllUses(f, old, rs[i])
	}
	return nil
}
