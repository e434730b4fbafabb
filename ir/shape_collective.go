package ir

import "fmt"

// Type rules of the collective ops (collective.go), after the constraints
// of their sections in the StableHLO specification. What depends on the
// grid (ids in range, groups covering every device) is checked when the
// program runs (EvalSPMD) or is compiled for a grid; what the instruction
// alone decides is checked here.

// checkCollectiveBody checks a reduction body (E[], E[]) → E[] whose
// element type is that of every operand: all_reduce's and reduce_scatter's
// computation. Stela does not promote element types through the body.
func checkCollectiveBody(r *Func, args []Type) error {
	d := args[0].DType
	for k, t := range args {
		if t.DType != d {
			return fmt.Errorf("operand #%d has element type %v, operand #0 has %v: want one element type (the body's)", k, t.DType, d)
		}
	}
	s := Scalar(d)
	_, err := checkRegionSig("body", r, []Type{s, s}, []Type{s})
	return err
}

func inferAllReduce(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(AllReduceAttr)
	if err := checkChannel(a.ChannelID, a.UseGlobalDeviceIDs); err != nil {
		return nil, err
	}
	if _, err := checkGroups(a.ReplicaGroups, false); err != nil {
		return nil, err
	}
	if a.UseGlobalDeviceIDs && len(a.ReplicaGroups) == 0 {
		return nil, fmt.Errorf("use_global_device_ids needs explicit replica groups (of flattened device ids), as StableHLO requires")
	}
	if err := checkCollectiveBody(regions[0], args); err != nil {
		return nil, err
	}
	return copyTypes(args), nil
}

func inferAllGather(args []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(AllGatherAttr)
	if err := checkChannel(a.ChannelID, a.UseGlobalDeviceIDs); err != nil {
		return nil, err
	}
	n, err := checkGroups(a.ReplicaGroups, true)
	if err != nil {
		return nil, err
	}
	out := copyTypes(args)
	var c sizeArith
	for k, t := range out {
		if a.AllGatherDim < 0 || a.AllGatherDim >= t.Rank() {
			return nil, fmt.Errorf("all_gather_dim %d is out of range for operand #%d %v (rank %d)", a.AllGatherDim, k, args[k], t.Rank())
		}
		t.Shape[a.AllGatherDim] = c.mul(t.Shape[a.AllGatherDim], n)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func inferReduceScatter(args []Type, attr any, regions []*Func) ([]Type, error) {
	a := attr.(ReduceScatterAttr)
	if err := checkChannel(a.ChannelID, a.UseGlobalDeviceIDs); err != nil {
		return nil, err
	}
	n, err := checkGroups(a.ReplicaGroups, true)
	if err != nil {
		return nil, err
	}
	x := args[0]
	if a.ScatterDim < 0 || a.ScatterDim >= x.Rank() {
		return nil, fmt.Errorf("scatter_dimension %d is out of range for operand %v (rank %d)", a.ScatterDim, x, x.Rank())
	}
	if size := x.Shape[a.ScatterDim]; size%n != 0 {
		return nil, fmt.Errorf("dimension %d of operand %v has size %d, which the group size %d does not divide", a.ScatterDim, x, size, n)
	}
	if err := checkCollectiveBody(regions[0], args); err != nil {
		return nil, err
	}
	out := copyTypes(args)
	out[0].Shape[a.ScatterDim] /= n
	return out, nil
}

func inferAllToAll(args []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(AllToAllAttr)
	if err := checkChannel(a.ChannelID, false); err != nil {
		return nil, err
	}
	if a.SplitCount < 1 {
		return nil, fmt.Errorf("split_count %d: want at least 1", a.SplitCount)
	}
	n, err := checkGroups(a.ReplicaGroups, true)
	if err != nil {
		return nil, err
	}
	if n != a.SplitCount {
		return nil, fmt.Errorf("split_count %d differs from the group size %d of replica_groups %v", a.SplitCount, n, a.ReplicaGroups)
	}
	out := copyTypes(args)
	var c sizeArith
	for k, t := range out {
		r := t.Rank()
		if a.SplitDim < 0 || a.SplitDim >= r {
			return nil, fmt.Errorf("split_dimension %d is out of range for operand #%d %v (rank %d)", a.SplitDim, k, args[k], r)
		}
		if a.ConcatDim < 0 || a.ConcatDim >= r {
			return nil, fmt.Errorf("concat_dimension %d is out of range for operand #%d %v (rank %d)", a.ConcatDim, k, args[k], r)
		}
		if size := t.Shape[a.SplitDim]; size%n != 0 {
			return nil, fmt.Errorf("dimension %d of operand #%d %v has size %d, which split_count %d does not divide", a.SplitDim, k, args[k], size, n)
		}
		t.Shape[a.SplitDim] /= n
		t.Shape[a.ConcatDim] = c.mul(t.Shape[a.ConcatDim], n)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func inferCollectivePermute(args []Type, attr any, _ []*Func) ([]Type, error) {
	a := attr.(CollectivePermuteAttr)
	if err := checkChannel(a.ChannelID, false); err != nil {
		return nil, err
	}
	if err := checkPairs(a.SourceTargetPairs); err != nil {
		return nil, err
	}
	return copyTypes(args), nil
}

// inferDeviceID: replica_id and partition_id return a ui32 scalar.
func inferDeviceID([]Type, any, []*Func) ([]Type, error) {
	return []Type{Scalar(U32)}, nil
}
