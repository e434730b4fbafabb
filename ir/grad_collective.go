package ir

// Autodiff rules of the collectives. A program with collectives is one
// function of the values of every device: its VJP takes each device's
// cotangents to each device's operand cotangents, summed over the devices
// a value reaches. So the transposes are collectives over the same process
// groups: all_reduce of a sum is its own transpose; all_gather and
// reduce_scatter of a sum transpose each other; all_to_all transposes to
// all_to_all with split and concat dimensions swapped; collective_permute
// to the permute with every pair reversed. The JVP of a linear collective
// applies it to the tangents.
//
// all_reduce and reduce_scatter of a maximum or minimum pass the
// derivative to the devices whose value is the result, shared equally
// among ties (as reduce's rule does): with mask = (x == result), count =
// all_reduce sum of mask, the VJP is mask · (sum of the cotangents over
// the group) / count and the JVP (sum of mask · tangent) / count. Other
// bodies (product, or anything else) have no rule: asking for a derivative
// through one is an error at the op.

// collectiveBody is the op of a sum, maximum or minimum body region, or
// fails at the op.
func collectiveBody(a *AD) Op {
	op := RegionOp(a.In.Regions[0])
	switch op {
	case OpAdd, OpMaximum, OpMinimum:
		return op
	}
	a.Fail("only an all_reduce or reduce_scatter whose body is a single add, maximum or minimum has a derivative")
	return OpInvalid
}

// sumAllReduce is an all_reduce sum of vs over the process groups of attr.
func (a *AD) sumAllReduce(attr AllReduceAttr, vs ...*Value) []*Value {
	return a.Emit(OpAllReduce, vs, attr, BinaryRegion(OpAdd, vs[0].Type.DType, a.Loc))
}

// asAllReduce is the all_reduce attribute with the process groups of a
// collective's attribute.
func asAllReduce(attr any) AllReduceAttr {
	switch x := attr.(type) {
	case AllReduceAttr:
		return x
	case ReduceScatterAttr:
		return AllReduceAttr{ReplicaGroups: x.ReplicaGroups, ChannelID: x.ChannelID, UseGlobalDeviceIDs: x.UseGlobalDeviceIDs}
	}
	panic(&BuildError{Errorf(UnknownLoc, "autodiff", "internal error: %T is not a reduction's attribute", attr)})
}

// gatherOf is the all_gather that undoes a reduce_scatter's split.
func gatherOf(attr ReduceScatterAttr) AllGatherAttr {
	return AllGatherAttr{AllGatherDim: attr.ScatterDim, ReplicaGroups: attr.ReplicaGroups, ChannelID: attr.ChannelID, UseGlobalDeviceIDs: attr.UseGlobalDeviceIDs}
}

func vjpAllReduce(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	if noCotangent(ct) {
		return out
	}
	op := collectiveBody(a)
	attr := a.Attr().(AllReduceAttr)
	var idx []int
	var cts []*Value
	for k, c := range ct {
		if c != nil && a.Need(k) {
			idx, cts = append(idx, k), append(cts, c)
		}
	}
	if len(cts) == 0 {
		return out
	}
	g := a.sumAllReduce(attr, cts...)
	for i, k := range idx {
		if op == OpAdd {
			out[k] = g[i]
			continue
		}
		mask, count := allReduceMask(a, attr, a.Arg(k), a.Res(k))
		out[k] = a.Mul(mask, a.Div(g[i], count))
	}
	return out
}

// allReduceMask is 1 where x is the all_reduce's result y (a maximum or
// minimum), 0 elsewhere, and the number of devices with that value.
func allReduceMask(a *AD, attr AllReduceAttr, x, y *Value) (mask, count *Value) {
	mask = a.Convert(a.Compare(CmpEQ, x, y), x.Type.DType)
	return mask, a.sumAllReduce(attr, mask)[0]
}

func jvpAllReduce(a *AD, t []*Value) []*Value {
	out := make([]*Value, len(a.In.Results))
	if noCotangent(t) {
		return out
	}
	op := collectiveBody(a)
	attr := a.Attr().(AllReduceAttr)
	var idx []int
	var ts []*Value
	for k, v := range t {
		if v == nil || !a.Need(k) {
			continue
		}
		if op != OpAdd {
			mask, count := allReduceMask(a, attr, a.Arg(k), a.Res(k))
			out[k] = a.Div(a.sumAllReduce(attr, a.Mul(mask, v))[0], count)
			continue
		}
		idx, ts = append(idx, k), append(ts, v)
	}
	if len(ts) > 0 {
		for i, r := range a.sumAllReduce(attr, ts...) {
			out[idx[i]] = r
		}
	}
	return out
}

func vjpAllGather(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	attr := a.Attr().(AllGatherAttr)
	rs := ReduceScatterAttr{ScatterDim: attr.AllGatherDim, ReplicaGroups: attr.ReplicaGroups, ChannelID: attr.ChannelID, UseGlobalDeviceIDs: attr.UseGlobalDeviceIDs}
	for k, c := range ct {
		if c == nil || !a.Need(k) {
			continue
		}
		out[k] = a.Emit1(OpReduceScatter, []*Value{c}, rs, BinaryRegion(OpAdd, c.Type.DType, a.Loc))
	}
	return out
}

// reduceScatterMask is 1 where x is the reduce_scatter's full reduced
// value (a maximum or minimum, gathered from the parts y), 0 elsewhere,
// and the number of devices with that value.
func reduceScatterMask(a *AD, attr ReduceScatterAttr, x, y *Value) (mask, count *Value) {
	full := a.Emit1(OpAllGather, []*Value{y}, gatherOf(attr))
	mask = a.Convert(a.Compare(CmpEQ, x, full), x.Type.DType)
	return mask, a.sumAllReduce(asAllReduce(attr), mask)[0]
}

func vjpReduceScatter(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	op := collectiveBody(a)
	attr := a.Attr().(ReduceScatterAttr)
	g := a.Emit1(OpAllGather, []*Value{ct[0]}, gatherOf(attr))
	if op == OpAdd {
		return one1(g)
	}
	mask, count := reduceScatterMask(a, attr, a.Arg(0), a.Res(0))
	return one1(a.Mul(mask, a.Div(g, count)))
}

func jvpReduceScatter(a *AD, t []*Value) []*Value {
	if t[0] == nil {
		return one1(nil)
	}
	op := collectiveBody(a)
	attr := a.Attr().(ReduceScatterAttr)
	sum := func(v *Value) *Value {
		return a.Emit1(OpReduceScatter, []*Value{v}, attr, BinaryRegion(OpAdd, v.Type.DType, a.Loc))
	}
	if op == OpAdd {
		return one1(sum(t[0]))
	}
	x := a.Arg(0)
	full := a.Emit1(OpAllGather, []*Value{a.Res(0)}, gatherOf(attr))
	mask := a.Convert(a.Compare(CmpEQ, x, full), x.Type.DType)
	// The count of each element of the part is the part of the count.
	return one1(a.Div(sum(a.Mul(mask, t[0])), sum(mask)))
}

func vjpAllToAll(a *AD, ct []*Value) []*Value {
	out := make([]*Value, len(a.In.Args))
	attr := a.Attr().(AllToAllAttr)
	var idx []int
	var cts []*Value
	for k, c := range ct {
		if c != nil && a.Need(k) {
			idx, cts = append(idx, k), append(cts, c)
		}
	}
	if len(cts) == 0 {
		return out
	}
	back := attr
	back.SplitDim, back.ConcatDim = attr.ConcatDim, attr.SplitDim
	for i, r := range a.Emit(OpAllToAll, cts, back) {
		out[idx[i]] = r
	}
	return out
}

func vjpCollectivePermute(a *AD, ct []*Value) []*Value {
	if ct[0] == nil || !a.Need(0) {
		return one1(nil)
	}
	attr := a.Attr().(CollectivePermuteAttr)
	back := CollectivePermuteAttr{ChannelID: attr.ChannelID, SourceTargetPairs: make([][2]int64, len(attr.SourceTargetPairs))}
	for i, st := range attr.SourceTargetPairs {
		back.SourceTargetPairs[i] = [2]int64{st[1], st[0]}
	}
	return one1(a.Emit1(OpCollectivePermute, []*Value{ct[0]}, back))
}
