package codegen

import (
	"fmt"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Collectives: all_reduce, all_gather, reduce_scatter, all_to_all,
// collective_permute, collective_broadcast, replica_id and partition_id
// (docs/cpu-plugin.md "Collectives").
//
// An executable runs on num_replicas × num_partitions devices, one
// thread each, all in this process; device (replica r, partition p) has
// the execution index d = r·P + p (the device assignment's replica-major
// order). The process groups of an op are computed here, at compile
// time, from its replica_groups, channel_handle and use_global_device_ids
// as the StableHLO spec defines them (cross_replica,
// cross_partition, cross_replica_and_partition, flattened_ids; empty
// groups mean one group of everything), into constant tables indexed by
// d: the members of d's group in group order, and d's position in it.
//
// At run time the kernel finds its row with rt->device_index and meets
// its group through the runtime table (stela_rt.h, version 3):
// coll_exchange publishes its buffer pointers and returns the members',
// then the kernel reads the peers' buffers directly, and coll_barrier
// keeps everyone's buffers alive (and unwritten) until all are done.
// The data movement and the arithmetic are generated code: the
// reduction is the op's own region, inlined into a loop over the n
// members' inputs that LLVM vectorizes (the pointers are noalias
// parameters of a helper function).
//
//   - all_reduce: a small one (at most collDirectBytes in all) is
//     reduced whole by every member (exchange, reduce, barrier). A larger
//     one is cut into n segments: member i reduces segment i of all the
//     inputs into its own result, then (after a barrier) copies the other
//     segments from the members that reduced them, then a barrier; each
//     element is reduced once, so every member gets the same bits. The
//     fold order is the group order: ((x₀ ⊕ x₁) ⊕ x₂) ⊕ …. A one-operand
//     all_reduce whose operand is a donated argument aliased to its
//     result runs in place, always in segments: segment i of every
//     operand is read only by member i, which reduces it in blocks of
//     collChunkBytes into a stack buffer and copies each block over its
//     own operand (the helper's pointers stay noalias); in the second
//     phase each member overwrites only the segments others own, which
//     nobody else reads.
//   - all_gather: each member copies every member's operand into its
//     slot of the result; reduce_scatter: each member reduces its own
//     block of the scatter dimension across the members' operands;
//     all_to_all: each member copies its block from every member.
//   - collective_permute: each device meets its source and its target
//     (exchange), copies the source's operand (or zero-fills when nobody
//     sends to it), then waits for both to have read (barrier);
//     collective_broadcast: members copy the first
//     member's operand, devices in no group get zeros.
//
// Groups of one need no run-time call: the op is a copy. Every device
// makes the same calls in the same order (they run the same program),
// which is how the runtime pairs them. A collective kernel returns an i32
// status (0, or 1 with a message in err when the rendezvous was aborted:
// another device failed) which the entry (and the kernel of a while or
// case around it) passes on: it stops and returns 1.

// Node kinds of collectives, numbered apart from plan.go's and misc.go's.
const (
	kAllReduce     opKind = 300 + iota // plan: *collPlan
	kAllGather                         // plan: *collPlan
	kReduceScatter                     // plan: *collPlan
	kAllToAll                          // plan: *collPlan
	kCollPermute                       // plan: *collPlan
	kCollBroadcast                     // plan: *collPlan
	kDeviceID                          // replica_id or partition_id; plan: *collPlan
)

// collDirectBytes is the size up to which an all_reduce is reduced whole
// by every member (one exchange and one barrier) rather than in segments
// (one exchange and two barriers, each element reduced once).
const collDirectBytes = 64 << 10

// collFoldMax is the most inputs one call of a fold helper reads.
const collFoldMax = 16

// collChunkBytes is the block an in-place all_reduce reduces into a stack
// buffer before it copies it over its own operand (collective.go,
// allReduce).
const collChunkBytes = 16 << 10

// devices is the shape of the execution a program is compiled for.
type devices struct {
	replicas, partitions int64
}

func (d devices) n() int64 { return d.replicas * d.partitions }

// collPlan is the plan of a collective node.
type collPlan struct {
	dev devices
	// size is the group size (all groups have it, except
	// collective_broadcast's); 1 means the op is a copy.
	size int64
	// groups are the process groups (execution indices in group order);
	// group[d] is the index of d's group (-1: d is in none) and pos[d]
	// its position in it.
	groups     [][]int64
	group, pos []int64
	// src[d] and dst[d] (collective_permute): the device d receives from
	// and sends to, -1 for none.
	src, dst []int64
	body     *stablehlo.Block
	// dim is all_gather_dim or scatter_dimension; split and concat are
	// all_to_all's dimensions.
	dim, split, concat int64
	partition          bool // kDeviceID: partition_id (else replica_id)
}

var collOps = map[string]bool{
	"stablehlo.all_reduce": true, "stablehlo.all_gather": true, "stablehlo.reduce_scatter": true,
	"stablehlo.all_to_all": true, "stablehlo.collective_permute": true, "stablehlo.collective_broadcast": true,
	"stablehlo.replica_id": true, "stablehlo.partition_id": true,
}

// groupMode is how replica_groups turn into process groups (the spec's
// process grouping strategies).
type groupMode int

const (
	crossReplica groupMode = iota
	crossPartition
	crossReplicaAndPartition
	flattenedIDs
)

func (m groupMode) String() string {
	return [...]string{"cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_ids"}[m]
}

// collective plans a collective op (or replica_id, partition_id).
func (p *planner) collective(n *node, op *stablehlo.Op, ins []*tval) ([]*tval, error) {
	outs, err := resultTypes(op)
	if err != nil {
		return nil, err
	}
	pl := &collPlan{dev: p.dev}
	n.plan = pl
	switch op.Name {
	case "stablehlo.replica_id", "stablehlo.partition_id":
		if len(ins) != 0 || len(outs) != 1 || !outs[0].equal(ttype{elem: kU32}) {
			return nil, fmt.Errorf("want no operands and one tensor<ui32> result")
		}
		n.kind, pl.partition = kDeviceID, op.Name == "stablehlo.partition_id"
		return p.add(n, outs...), nil
	}
	for i, x := range ins {
		if x.def != nil && x.def.kind == kTuple {
			return nil, unsupportedf("tuple operand #%d of %s", i, op.Name)
		}
	}
	if len(ins) == 0 || len(outs) != len(ins) {
		return nil, fmt.Errorf("has %d operands and %d results, want as many (at least one)", len(ins), len(outs))
	}
	handle := int64(0)
	if a := op.Attr("channel_handle"); a != nil {
		ch, ok := a.(stablehlo.ChannelHandle)
		if !ok {
			return nil, fmt.Errorf("channel_handle is %s, want #stablehlo.channel_handle<...>", a)
		}
		handle = ch.Handle
	}
	global := false
	if a := op.Attr("use_global_device_ids"); a != nil {
		switch v := a.(type) {
		case stablehlo.UnitAttr:
			global = true
		case stablehlo.BoolAttr:
			global = bool(v)
		default:
			return nil, fmt.Errorf("use_global_device_ids is %s, want a unit or boolean attribute", a)
		}
	}
	// The grouping strategy: all_reduce, all_gather and reduce_scatter
	// take three, the others two.
	mode := crossReplica
	switch op.Name {
	case "stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter":
		switch {
		case global && handle <= 0:
			return nil, fmt.Errorf("use_global_device_ids needs a channel_handle with a positive handle")
		case global:
			mode = flattenedIDs
		case handle > 0:
			mode = crossReplicaAndPartition
		}
	default:
		if global {
			return nil, fmt.Errorf("has use_global_device_ids, which %s does not take", op.Name)
		}
		if handle > 0 {
			mode = crossPartition
		}
	}
	if op.Name == "stablehlo.collective_permute" {
		if err := p.permutePlan(pl, op, mode); err != nil {
			return nil, err
		}
	} else {
		groups, err := replicaGroups(op)
		if err != nil {
			return nil, err
		}
		cover := op.Name != "stablehlo.collective_broadcast"
		procs, err := processGroups(groups, mode, p.dev, cover)
		if err != nil {
			return nil, err
		}
		pl.groups = procs
		pl.group = slices.Repeat([]int64{-1}, int(p.dev.n()))
		pl.pos = slices.Repeat([]int64{-1}, int(p.dev.n()))
		for gi, g := range procs {
			for i, d := range g {
				pl.group[d], pl.pos[d] = int64(gi), int64(i)
			}
			if pl.size == 0 {
				pl.size = int64(len(g))
			} else if int64(len(g)) != pl.size && cover {
				return nil, unsupportedf("%s with process groups of different sizes (%d and %d)", op.Name, pl.size, len(g))
			}
		}
	}
	switch op.Name {
	case "stablehlo.all_reduce":
		return p.allReduce(n, op, pl, ins, outs)
	case "stablehlo.all_gather":
		return p.allGather(n, op, pl, ins, outs)
	case "stablehlo.reduce_scatter":
		return p.reduceScatter(n, op, pl, ins, outs)
	case "stablehlo.all_to_all":
		return p.allToAll(n, op, pl, ins, outs)
	case "stablehlo.collective_permute", "stablehlo.collective_broadcast":
		if len(ins) != 1 || !ins[0].t.equal(outs[0]) {
			return nil, fmt.Errorf("operand %s and result %s differ (want one operand and a result of its type)", ins[0].t, outs[0])
		}
		n.kind = kCollPermute
		if op.Name == "stablehlo.collective_broadcast" {
			n.kind = kCollBroadcast
		}
		return p.add(n, outs...), nil
	}
	return nil, unsupportedf("%s", op.Name)
}

// replicaGroups reads replica_groups: a 2-D integer tensor constant, one
// row per group, rows of groups smaller than the largest padded with -1
// (as MLIR prints groups of different sizes). An empty one (dense<> :
// tensor<0x0xi64>, or [[]]) is nil.
func replicaGroups(op *stablehlo.Op) ([][]int64, error) {
	a := op.Attr("replica_groups")
	if a == nil {
		return nil, nil
	}
	d, ok := a.(*stablehlo.DenseElements)
	if !ok {
		return nil, fmt.Errorf("replica_groups is %s, want a 2-D integer tensor constant", a)
	}
	shape := d.Type.Shape
	vals, err := d.Int64s()
	if err != nil || len(shape) != 2 {
		return nil, fmt.Errorf("replica_groups %s is not a 2-D integer tensor constant", d.Literal())
	}
	if shape[0] == 0 || shape[1] == 0 {
		return nil, nil
	}
	var groups [][]int64
	for g := range shape[0] {
		row := slices.Clone(vals[g*shape[1] : (g+1)*shape[1]])
		for len(row) > 0 && row[len(row)-1] == -1 {
			row = row[:len(row)-1]
		}
		groups = append(groups, row)
	}
	return groups, nil
}

// processGroups turns replica_groups into groups of execution indices as
// the spec's grouping strategy mode says. Ids must be unique and in
// range, and (when cover) cover every replica (partition, process).
func processGroups(groups [][]int64, mode groupMode, dev devices, cover bool) ([][]int64, error) {
	limit := dev.replicas
	what := "replica"
	switch mode {
	case crossPartition:
		limit, what = dev.partitions, "partition"
	case flattenedIDs:
		limit, what = dev.n(), "device"
	}
	if groups == nil {
		all := make([]int64, limit)
		for i := range all {
			all[i] = int64(i)
		}
		groups = [][]int64{all}
	}
	seen := map[int64]bool{}
	for _, g := range groups {
		for _, id := range g {
			if id < 0 || id >= limit {
				return nil, fmt.Errorf("replica_groups name %s %d, but the program runs on %d replica(s) × %d partition(s) (%s)",
					what, id, dev.replicas, dev.partitions, mode)
			}
			if seen[id] {
				return nil, fmt.Errorf("replica_groups name %s %d twice (%s)", what, id, mode)
			}
			seen[id] = true
		}
	}
	if cover && int64(len(seen)) != limit {
		return nil, fmt.Errorf("replica_groups cover %d of the %d %ss (%s): every one must be in a group", len(seen), limit, what, mode)
	}
	idx := func(r, p int64) int64 { return r*dev.partitions + p }
	var out [][]int64
	for _, g := range groups {
		switch mode {
		case crossReplica:
			for p := range dev.partitions {
				var pg []int64
				for _, r := range g {
					pg = append(pg, idx(r, p))
				}
				out = append(out, pg)
			}
		case crossPartition:
			for r := range dev.replicas {
				var pg []int64
				for _, p := range g {
					pg = append(pg, idx(r, p))
				}
				out = append(out, pg)
			}
		case crossReplicaAndPartition:
			var pg []int64
			for p := range dev.partitions {
				for _, r := range g {
					pg = append(pg, idx(r, p))
				}
			}
			out = append(out, pg)
		case flattenedIDs:
			out = append(out, slices.Clone(g))
		}
	}
	return out, nil
}

// permutePlan decodes collective_permute's source_target_pairs into the
// per-device source and target tables.
func (p *planner) permutePlan(pl *collPlan, op *stablehlo.Op, mode groupMode) error {
	d, ok := op.Attr("source_target_pairs").(*stablehlo.DenseElements)
	if !ok {
		return fmt.Errorf("missing source_target_pairs (a 2-D integer tensor constant)")
	}
	vals, err := d.Int64s()
	if err != nil || len(d.Type.Shape) != 2 || (len(vals) > 0 && d.Type.Shape[1] != 2) {
		return fmt.Errorf("source_target_pairs %s is not an N×2 integer tensor constant", d.Literal())
	}
	n := p.dev.n()
	pl.src = slices.Repeat([]int64{-1}, int(n))
	pl.dst = slices.Repeat([]int64{-1}, int(n))
	pl.size = 2
	limit, what := p.dev.replicas, "replica"
	if mode == crossPartition {
		limit, what = p.dev.partitions, "partition"
	}
	srcSeen, dstSeen := map[int64]bool{}, map[int64]bool{}
	for i := 0; i+1 < len(vals); i += 2 {
		s, t := vals[i], vals[i+1]
		for _, id := range []int64{s, t} {
			if id < 0 || id >= limit {
				return fmt.Errorf("source_target_pairs name %s %d, but the program runs on %d replica(s) × %d partition(s) (%s)",
					what, id, p.dev.replicas, p.dev.partitions, mode)
			}
		}
		if srcSeen[s] {
			return fmt.Errorf("source_target_pairs: %s %d is the source of two pairs", what, s)
		}
		if dstSeen[t] {
			return fmt.Errorf("source_target_pairs: %s %d is the target of two pairs", what, t)
		}
		srcSeen[s], dstSeen[t] = true, true
		// The pair holds in every partition (cross_replica) or replica
		// (cross_partition).
		other := p.dev.partitions
		if mode == crossPartition {
			other = p.dev.replicas
		}
		for o := range other {
			from, to := s*p.dev.partitions+o, t*p.dev.partitions+o
			if mode == crossPartition {
				from, to = o*p.dev.partitions+s, o*p.dev.partitions+t
			}
			pl.src[to], pl.dst[from] = from, to
		}
	}
	return nil
}

// collBody checks the reduction region of all_reduce or reduce_scatter
// against every operand's element type.
func collBody(op *stablehlo.Op, ins []*tval) (*stablehlo.Block, error) {
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return nil, fmt.Errorf("want one region with one block (the reduction)")
	}
	body := op.Regions[0].Blocks[0]
	for _, x := range ins {
		k := x.t.elem
		if err := checkScalarBlock(body, []elemKind{k, k}, []elemKind{k}); err != nil {
			return nil, fmt.Errorf("reduction of %s: %w", x.t, err)
		}
	}
	return body, nil
}

func (p *planner) allReduce(n *node, op *stablehlo.Op, pl *collPlan, ins []*tval, outs []ttype) ([]*tval, error) {
	for i, x := range ins {
		if !x.t.equal(outs[i]) {
			return nil, unsupportedf("all_reduce of %s into %s (the result must have the operand's type)", x.t, outs[i])
		}
	}
	body, err := collBody(op, ins)
	if err != nil {
		return nil, err
	}
	n.kind, pl.body = kAllReduce, body
	return p.add(n, outs...), nil
}

func (p *planner) allGather(n *node, op *stablehlo.Op, pl *collPlan, ins []*tval, outs []ttype) ([]*tval, error) {
	dim, ok := op.Attr("all_gather_dim").(stablehlo.IntAttr)
	if !ok {
		return nil, fmt.Errorf("missing all_gather_dim")
	}
	for i, x := range ins {
		if dim.Value < 0 || int(dim.Value) >= x.t.rank() {
			return nil, fmt.Errorf("all_gather_dim %d is out of range for operand %s", dim.Value, x.t)
		}
		want := ttype{elem: x.t.elem, shape: slices.Clone(x.t.shape)}
		want.shape[dim.Value] *= pl.size
		if !outs[i].equal(want) {
			return nil, fmt.Errorf("result #%d is %s, want %s (operand %s gathered from groups of %d)", i, outs[i], want, x.t, pl.size)
		}
	}
	n.kind, pl.dim = kAllGather, dim.Value
	return p.add(n, outs...), nil
}

func (p *planner) reduceScatter(n *node, op *stablehlo.Op, pl *collPlan, ins []*tval, outs []ttype) ([]*tval, error) {
	dim, ok := op.Attr("scatter_dimension").(stablehlo.IntAttr)
	if !ok {
		return nil, fmt.Errorf("missing scatter_dimension")
	}
	for i, x := range ins {
		if dim.Value < 0 || int(dim.Value) >= x.t.rank() {
			return nil, fmt.Errorf("scatter_dimension %d is out of range for operand %s", dim.Value, x.t)
		}
		if x.t.shape[dim.Value]%pl.size != 0 {
			return nil, fmt.Errorf("dimension %d of operand %s does not split into groups of %d", dim.Value, x.t, pl.size)
		}
		want := ttype{elem: x.t.elem, shape: slices.Clone(x.t.shape)}
		want.shape[dim.Value] /= pl.size
		if !outs[i].equal(want) {
			return nil, fmt.Errorf("result #%d is %s, want %s (operand %s scattered over groups of %d)", i, outs[i], want, x.t, pl.size)
		}
	}
	body, err := collBody(op, ins)
	if err != nil {
		return nil, err
	}
	n.kind, pl.dim, pl.body = kReduceScatter, dim.Value, body
	return p.add(n, outs...), nil
}

func (p *planner) allToAll(n *node, op *stablehlo.Op, pl *collPlan, ins []*tval, outs []ttype) ([]*tval, error) {
	split, ok1 := op.Attr("split_dimension").(stablehlo.IntAttr)
	concat, ok2 := op.Attr("concat_dimension").(stablehlo.IntAttr)
	count, ok3 := op.Attr("split_count").(stablehlo.IntAttr)
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("missing split_dimension, concat_dimension or split_count")
	}
	if count.Value != pl.size {
		return nil, fmt.Errorf("split_count is %d, but the process groups have %d members", count.Value, pl.size)
	}
	for i, x := range ins {
		r := int64(x.t.rank())
		if split.Value < 0 || split.Value >= r || concat.Value < 0 || concat.Value >= r {
			return nil, fmt.Errorf("split_dimension %d or concat_dimension %d is out of range for operand %s", split.Value, concat.Value, x.t)
		}
		if x.t.shape[split.Value]%count.Value != 0 {
			return nil, fmt.Errorf("dimension %d of operand %s does not split into %d parts", split.Value, x.t, count.Value)
		}
		want := ttype{elem: x.t.elem, shape: slices.Clone(x.t.shape)}
		want.shape[split.Value] /= count.Value
		want.shape[concat.Value] *= count.Value
		if !outs[i].equal(want) {
			return nil, fmt.Errorf("result #%d is %s, want %s", i, outs[i], want)
		}
	}
	n.kind, pl.split, pl.concat = kAllToAll, split.Value, concat.Value
	return p.add(n, outs...), nil
}

// --- emission

// collectiveKernel emits a collective node's kernel: i32 (rt, err, outs...,
// ins...) for those that may meet other devices, void (rt, outs...) for
// replica_id and partition_id.
func (e *emitter) collectiveKernel(n *node) (*ir.Func, error) {
	pl := n.plan.(*collPlan)
	if n.kind == kDeviceID {
		e.usesV3 = true
		b, rt, outs, _ := e.newKernelRT(n, n.out, nil)
		f := rtReplicaID
		if pl.partition {
			f = rtPartitionID
		}
		b.store(kU32, outs[0], i64(0), b.cur.NewTrunc(b.rtField(rt, f), types.I32))
		b.cur.NewRet(nil)
		return b.f, nil
	}
	b, rt, outs, ins := e.newKernelFallible(n, n.out, n.in)
	c := &collEmit{fb: b, n: n, pl: pl, rt: rt, err: b.f.Params[1], outs: outs, ins: ins}
	alone := pl.dev.n() == 1 || (pl.size == 1 && n.kind != kCollPermute && n.kind != kCollBroadcast)
	if alone {
		// One device, or groups of one: a copy (zeros where a permute or
		// broadcast sends nothing).
		c.alone()
		b.cur.NewRet(i32(0))
		return b.f, nil
	}
	e.usesV3, e.usesColl = true, true
	e.collID++
	c.id = int64(e.collID)
	c.name = b.e.cstring(n.where())
	c.dev = b.rtField(rt, rtDeviceIndex)
	c.rv = b.rtField(rt, rtRendezvous)
	var err error
	switch n.kind {
	case kAllReduce:
		err = c.allReduce()
	case kAllGather:
		c.allGather()
	case kReduceScatter:
		err = c.reduceScatter()
	case kAllToAll:
		c.allToAll()
	case kCollPermute:
		c.permute()
	case kCollBroadcast:
		c.broadcast()
	}
	if err != nil {
		return nil, inContext(n.where(), err)
	}
	b.cur.NewRet(i32(0))
	return b.f, nil
}

// collEmit holds what the emission of one collective kernel needs.
type collEmit struct {
	*fb
	n         *node
	pl        *collPlan
	rt, err   value.Value
	outs, ins []value.Value
	id        int64
	name      value.Value // i8*: the op, for messages
	dev, rv   value.Value // rt->device_index, rt->rendezvous
	fail      *ir.Block
	foldCache map[[3]int]*ir.Func
	nsizes    int // size tables made so far
}

// check branches to a block returning rc when rc is not 0.
func (c *collEmit) check(rc value.Value) {
	if c.fail == nil {
		c.fail = c.f.NewBlock("coll_fail")
		c.fail.NewRet(i32(1))
	}
	ok := c.f.NewBlock("")
	c.cur.NewCondBr(c.cur.NewICmp(enum.IPredNE, rc, i32(0)), c.fail, ok)
	c.cur = ok
}

// table emits a private constant array of i64.
func (c *collEmit) table(name string, vals []int64) *ir.Global {
	elems := make([]constant.Constant, len(vals))
	for i, v := range vals {
		elems[i] = i64(v)
	}
	t := types.NewArray(uint64(len(vals)), types.I64)
	g := c.e.m.NewGlobalDef(fmt.Sprintf("coll%d.%s", c.id, name), constant.NewArray(t, elems...))
	g.Immutable = true
	g.Linkage = enum.LinkagePrivate
	return g
}

// at returns a pointer to element i (an i64 value) of table g.
func (c *collEmit) at(g *ir.Global, i value.Value) value.Value {
	p := c.cur.NewGetElementPtr(g.ContentType, g, i64(0), i)
	p.InBounds = true
	return p
}

// group returns (members, pos) of this device: a pointer to the first of
// its group's members (pl.size of them, padded with -1 for a shorter
// group) and its position. The tables hold each group once and, per
// device, the index of its group and its position.
func (c *collEmit) group() (members, pos value.Value) {
	size := c.pl.size
	flat := make([]int64, 0, int64(len(c.pl.groups))*size+1)
	for _, g := range c.pl.groups {
		for i := range size {
			if i < int64(len(g)) {
				flat = append(flat, g[i])
			} else {
				flat = append(flat, -1)
			}
		}
	}
	// A device in no group gets the row past the last: -1s it never
	// reads (its member count is 0).
	flat = append(flat, slices.Repeat([]int64{-1}, int(size))...)
	rows := make([]int64, len(c.pl.group))
	for d, gi := range c.pl.group {
		rows[d] = gi
		if gi < 0 {
			rows[d] = int64(len(c.pl.groups))
		}
	}
	membersTab := c.table("members", flat)
	groupTab := c.table("group", rows)
	posTab := c.table("pos", c.pl.pos)
	row := c.cur.NewLoad(types.I64, c.at(groupTab, c.dev))
	members = c.at(membersTab, c.cur.NewMul(row, i64(size)))
	pos = c.cur.NewLoad(types.I64, c.at(posTab, c.dev))
	return members, pos
}

// ptrArray stores vals (i8* each) in a new stack array and returns a
// pointer to its first element (i8**).
func (c *collEmit) ptrArray(n int64, vals []value.Value) value.Value {
	a := c.stackSlot(types.NewArray(uint64(max(n, 1)), types.I8Ptr))
	first := c.cur.NewGetElementPtr(types.NewArray(uint64(max(n, 1)), types.I8Ptr), a, i64(0), i64(0))
	for i, v := range vals {
		c.cur.NewStore(c.bytes(v), c.elem(first, i64(int64(i))))
	}
	return first
}

// elem is &p[i] for an i8** p.
func (c *collEmit) elem(p, i value.Value) value.Value {
	g := c.cur.NewGetElementPtr(types.I8Ptr, p, i)
	g.InBounds = true
	return g
}

// peer loads pointer i of member j (j a value) from peers, k pointers a
// member, as a pointer to elements of kind kind.
func (c *collEmit) peer(peers value.Value, j value.Value, k, i int64, kind elemKind) value.Value {
	idx := c.addI64(c.cur.NewMul(j, i64(k)), i64(i))
	p := c.cur.NewLoad(types.I8Ptr, c.elem(peers, idx))
	return c.cur.NewBitCast(p, types.NewPointer(kind.mem()))
}

// exchange calls rt->coll_exchange_sized (version 5) and checks its
// status; sizes are the bytes of each of mine's buffers (the same on
// every device: one program), which an execution over several processes
// sends to the members in other processes.
func (c *collEmit) exchange(members, n value.Value, mine []value.Value, sizes []int64, peers value.Value) {
	f := c.rtField(c.rt, rtCollExchangeSized)
	k := int64(len(mine))
	arr := c.ptrArray(k, mine)
	tab := c.table(fmt.Sprintf("sizes%d", c.nsizes), sizes)
	c.nsizes++
	sz := c.at(tab, i64(0))
	rc := c.cur.NewCall(f, c.rv, c.dev, i64(c.id), c.name, members, n, arr, sz, i64(k), peers, c.err)
	c.check(rc)
}

// barrier calls rt->coll_barrier and checks its status.
func (c *collEmit) barrier(members, n value.Value) {
	f := c.rtField(c.rt, rtCollBarrier)
	rc := c.cur.NewCall(f, c.rv, c.dev, i64(c.id), c.name, members, n, c.err)
	c.check(rc)
}

// barrierRefresh is a barrier after which the members read their peers'
// buffers (published at the last exchange) again: across processes, the
// copies are received again (STELA_RT_COLL_REFRESH).
func (c *collEmit) barrierRefresh(members, n value.Value) {
	f := c.rtField(c.rt, rtCollBarrier)
	rc := c.cur.NewCall(f, c.rv, c.dev, i64(c.id|collRefresh), c.name, members, n, c.err)
	c.check(rc)
}

// collRefresh is STELA_RT_COLL_REFRESH, a bit of a barrier's op id;
// collLate and collUnread are STELA_RT_COLL_LATE and
// STELA_RT_COLL_UNREAD, bits of an exchange's sizes: a buffer the peers
// read only after a refresh, or never.
const (
	collRefresh = 1 << 30
	collLate    = 1 << 62
	collUnread  = 1 << 61
)

// typeBytes are the byte sizes of the types of a node's values.
func typeBytes(vs []*tval) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = v.t.bytes()
	}
	return out
}

// peersArray returns a new stack array for n members' k pointers each.
func (c *collEmit) peersArray(n, k int64) value.Value {
	return c.ptrArray(n*k, nil)
}

// byteAt is the i8* p + off (an i64 value) bytes.
func (c *collEmit) byteAt(p, off value.Value) value.Value {
	g := c.cur.NewGetElementPtr(types.I8, c.bytes(p), off)
	g.InBounds = true
	return g
}

// copyBytes copies n bytes (an i64 value).
func (c *collEmit) copyBytes(dst, src, n value.Value) {
	f := c.e.decl("llvm.memcpy.p0i8.p0i8.i64", types.Void, types.I8Ptr, types.I8Ptr, types.I64, types.I1)
	c.call(f, c.bytes(dst), c.bytes(src), n, constant.False)
}

// zero fills n bytes with zeros (the zero of every element type).
func (c *collEmit) zero(dst value.Value, n int64) {
	if n <= 0 {
		return
	}
	f := c.e.decl("llvm.memset.p0i8.i64", types.Void, types.I8Ptr, types.I8, types.I64, types.I1)
	c.call(f, c.bytes(dst), constant.NewInt(types.I8, 0), i64(n), constant.False)
}

func (c *collEmit) minI64(x, y value.Value) value.Value {
	return c.cur.NewSelect(c.cur.NewICmp(enum.IPredSLT, x, y), x, y)
}

// alone emits the op for one device or groups of one.
func (c *collEmit) alone() {
	n, pl := c.n, c.pl
	switch n.kind {
	case kCollPermute:
		// One device: it receives from itself or from nobody.
		if pl.src[0] == 0 {
			c.memcpy(c.outs[0], c.ins[0], n.out[0].t.bytes())
		} else {
			c.zero(c.outs[0], n.out[0].t.bytes())
		}
	case kCollBroadcast:
		if pl.group[0] >= 0 {
			c.memcpy(c.outs[0], c.ins[0], n.out[0].t.bytes())
		} else {
			c.zero(c.outs[0], n.out[0].t.bytes())
		}
	default:
		// all_reduce of one value is that value; gathering, scattering
		// or exchanging among one device copies (nothing to do in place).
		for i := range c.outs {
			if len(n.inPlace) == 0 {
				c.memcpy(c.outs[i], c.ins[i], n.out[i].t.bytes())
			}
		}
	}
}

// fold returns the helper void (T* noalias out, T* noalias x0, ...,
// T* noalias x{m-1}, i64 count) that computes, for e in [0, count),
// out[e] = body(...body(body(a, x0[e]), x1[e])..., x{m-1}[e]) with a =
// out[e] when acc, else the chain starts at x0[e].
func (c *collEmit) fold(k elemKind, m int, acc bool) (*ir.Func, error) {
	key := [3]int{int(k), m, 0}
	if acc {
		key[2] = 1
	}
	if f, ok := c.foldCache[key]; ok {
		return f, nil
	}
	ps := []*ir.Param{ir.NewParam("out", types.NewPointer(k.mem()))}
	ps[0].Attrs = append(ps[0].Attrs, enum.ParamAttrNoAlias)
	for i := range m {
		p := ir.NewParam(fmt.Sprintf("x%d", i), types.NewPointer(k.mem()))
		p.Attrs = append(p.Attrs, enum.ParamAttrNoAlias, enum.ParamAttrReadOnly)
		ps = append(ps, p)
	}
	ps = append(ps, ir.NewParam("count", types.I64))
	c.e.nk++
	b := c.e.newFunc(fmt.Sprintf("k%d.fold%d", c.e.nk, m), types.Void, ps...)
	b.f.Linkage = enum.LinkageInternal
	b.f.FuncAttrs = append(b.f.FuncAttrs, enum.FuncAttrNoInline, enum.FuncAttrNoUnwind)
	out := b.f.Params[0]
	var err error
	b.loopFrom(i64(0), b.f.Params[m+1], func(e value.Value) {
		var v value.Value
		if acc {
			v = b.load(k, out, e)
		}
		for i := range m {
			x := b.load(k, b.f.Params[1+i], e)
			if v == nil {
				v = x
				continue
			}
			res, rerr := b.region(c.pl.body, []value.Value{v, x})
			if rerr != nil {
				err = rerr
				return
			}
			v = res[0]
		}
		b.store(k, out, e, v)
	})
	b.cur.NewRet(nil)
	if err != nil {
		return nil, err
	}
	if c.foldCache == nil {
		c.foldCache = map[[3]int]*ir.Func{}
	}
	c.foldCache[key] = b.f
	return b.f, nil
}

// reduceInto emits out[0:count) = fold of xs[j][0:count) over the
// members j in order, count an i64 value, through calls of the fold
// helpers (at most collFoldMax inputs a call).
func (c *collEmit) reduceInto(k elemKind, out value.Value, xs []value.Value, count value.Value) error {
	for start := 0; start < len(xs); start += collFoldMax {
		end := min(start+collFoldMax, len(xs))
		f, err := c.fold(k, end-start, start > 0)
		if err != nil {
			return err
		}
		args := append([]value.Value{out}, xs[start:end]...)
		c.call(f, append(args, count)...)
	}
	return nil
}

// offset is the typed pointer p + i elements (i an i64 value).
func (c *collEmit) offset(k elemKind, p, i value.Value) value.Value {
	g := c.cur.NewGetElementPtr(k.mem(), p, i)
	g.InBounds = true
	return g
}

// allReduce: exchange the inputs' and results' pointers; reduce (all of
// it when small, else this member's segment), barrier; when segmented,
// copy the other segments from their owners' results, barrier.
func (c *collEmit) allReduce() error {
	n, pl := c.n, c.pl
	size := pl.size
	nops := int64(len(c.ins))
	members, pos := c.group()
	peers := c.peersArray(size, 2*nops)
	mine := append(append([]value.Value{}, c.ins...), c.outs...)
	total := int64(0)
	for _, x := range n.in {
		total += x.t.bytes()
	}
	inPlace := len(n.inPlace) > 0
	direct := total <= collDirectBytes && !inPlace
	// The peers read the results only in segments, after a refresh
	// barrier (what an exchange across processes sends when).
	outFlag := int64(collUnread)
	if !direct {
		outFlag = collLate
	}
	sizes := typeBytes(n.in)
	for _, b := range typeBytes(n.out) {
		sizes = append(sizes, b|outFlag)
	}
	c.exchange(members, i64(size), mine, sizes, peers)
	segs := make([]int64, nops)
	for i, x := range n.in {
		k := x.t.elem
		count := x.t.numElems()
		xs := make([]value.Value, size)
		for j := range size {
			xs[j] = c.peer(peers, i64(j), 2*nops, int64(i), k)
		}
		if direct {
			if err := c.reduceInto(k, c.outs[i], xs, i64(count)); err != nil {
				return err
			}
			continue
		}
		// Segments of whole cache lines.
		line := max(int64(1), bufAlign/k.size())
		seg := (count + size - 1) / size
		seg = (seg + line - 1) / line * line
		segs[i] = seg
		lo := c.minI64(c.cur.NewMul(pos, i64(seg)), i64(count))
		hi := c.minI64(c.addI64(lo, i64(seg)), i64(count))
		if inPlace {
			if err := c.reduceInPlace(k, c.outs[i], xs, lo, hi); err != nil {
				return err
			}
			continue
		}
		for j := range xs {
			xs[j] = c.offset(k, xs[j], lo)
		}
		if err := c.reduceInto(k, c.offset(k, c.outs[i], lo), xs, c.cur.NewSub(hi, lo)); err != nil {
			return err
		}
	}
	if direct {
		c.barrier(members, i64(size))
		return nil
	}
	// The members read each other's results next.
	c.barrierRefresh(members, i64(size))
	c.loop(size, func(j value.Value) {
		c.ifThen(c.cur.NewICmp(enum.IPredNE, j, pos), func() {
			for i, x := range n.in {
				k := x.t.elem
				count := x.t.numElems()
				lo := c.minI64(c.cur.NewMul(j, i64(segs[i])), i64(count))
				hi := c.minI64(c.addI64(lo, i64(segs[i])), i64(count))
				src := c.peer(peers, j, 2*nops, nops+int64(i), k)
				c.copyBytes(c.offset(k, c.outs[i], lo), c.offset(k, src, lo), c.cur.NewMul(c.cur.NewSub(hi, lo), i64(k.size())))
			}
		})
	})
	c.barrier(members, i64(size))
	return nil
}

// reduceInPlace reduces elements [lo, hi) of the members' operands xs
// into out, which is this member's own operand (one of xs): block by
// block into a stack buffer, each block then copied over out.
func (c *collEmit) reduceInPlace(k elemKind, out value.Value, xs []value.Value, lo, hi value.Value) error {
	chunk := collChunkBytes / k.size()
	bufT := types.NewArray(uint64(chunk), k.mem())
	slot := c.local(bufT)
	slot.Align = ir.Align(bufAlign)
	tmp := c.cur.NewGetElementPtr(bufT, slot, i64(0), i64(0))
	var err error
	// for off := lo; off < hi; off += chunk
	pre := c.cur
	head := c.f.NewBlock("")
	exit := c.f.NewBlock("")
	pre.NewCondBr(pre.NewICmp(enum.IPredSLT, lo, hi), head, exit)
	c.cur = head
	off := head.NewPhi(ir.NewIncoming(lo, pre))
	cnt := c.minI64(i64(chunk), c.cur.NewSub(hi, off))
	at := make([]value.Value, len(xs))
	for j, x := range xs {
		at[j] = c.offset(k, x, off)
	}
	if e := c.reduceInto(k, tmp, at, cnt); e != nil {
		err = e
	}
	c.copyBytes(c.offset(k, out, off), tmp, c.cur.NewMul(cnt, i64(k.size())))
	next := c.addI64(off, i64(chunk))
	c.cur.NewCondBr(c.cur.NewICmp(enum.IPredSLT, next, hi), head, exit)
	off.Incs = append(off.Incs, ir.NewIncoming(next, c.cur))
	c.cur = exit
	return err
}

// splitAt returns the product of shape[:d] and of shape[d+1:].
func splitAt(shape []int64, d int64) (outer, inner int64) {
	outer, inner = 1, 1
	for i, s := range shape {
		switch {
		case int64(i) < d:
			outer *= s
		case int64(i) > d:
			inner *= s
		}
	}
	return outer, inner
}

// allGather: exchange the operands' pointers; copy member j's operand
// into slot j of the result's gather dimension; barrier.
func (c *collEmit) allGather() {
	n, pl := c.n, c.pl
	size := pl.size
	nops := int64(len(c.ins))
	members, _ := c.group()
	peers := c.peersArray(size, nops)
	c.exchange(members, i64(size), c.ins, typeBytes(n.in), peers)
	c.loop(size, func(j value.Value) {
		for i, x := range n.in {
			k := x.t.elem
			outer, inner := splitAt(x.t.shape, pl.dim)
			row := x.t.shape[pl.dim] * inner * k.size() // bytes of one slot
			src := c.bytes(c.peer(peers, j, nops, int64(i), k))
			dst := c.byteAt(c.outs[i], c.cur.NewMul(j, i64(row)))
			if row == 0 {
				continue
			}
			c.loop(outer, func(a value.Value) {
				c.copyBytes(c.byteAt(dst, c.cur.NewMul(a, i64(row*size))), c.byteAt(src, c.cur.NewMul(a, i64(row))), i64(row))
			})
		}
	})
	c.barrier(members, i64(size))
}

// reduceScatter: exchange the operands' pointers; reduce this member's
// block of the scatter dimension across the members' operands; barrier.
func (c *collEmit) reduceScatter() error {
	n, pl := c.n, c.pl
	size := pl.size
	nops := int64(len(c.ins))
	members, pos := c.group()
	peers := c.peersArray(size, nops)
	c.exchange(members, i64(size), c.ins, typeBytes(n.in), peers)
	for i, r := range n.out {
		k := r.t.elem
		outer, inner := splitAt(r.t.shape, pl.dim)
		run := r.t.shape[pl.dim] * inner // elements of one block
		if run == 0 {
			continue
		}
		var err error
		c.loop(outer, func(a value.Value) {
			// Block pos of row a: elements (a·size + pos)·run of each input.
			base := c.cur.NewMul(c.addI64(c.cur.NewMul(a, i64(size)), pos), i64(run))
			xs := make([]value.Value, size)
			for j := range size {
				xs[j] = c.offset(k, c.peer(peers, i64(j), nops, int64(i), k), base)
			}
			if e := c.reduceInto(k, c.offset(k, c.outs[i], c.cur.NewMul(a, i64(run))), xs, i64(run)); e != nil {
				err = e
			}
		})
		if err != nil {
			return err
		}
	}
	c.barrier(members, i64(size))
	return nil
}

// allToAll: exchange the operands' pointers; copy block pos of the
// split dimension of every member j's operand into block j of the
// concat dimension of the result; barrier.
func (c *collEmit) allToAll() {
	n, pl := c.n, c.pl
	size := pl.size
	nops := int64(len(c.ins))
	members, pos := c.group()
	peers := c.peersArray(size, nops)
	c.exchange(members, i64(size), c.ins, typeBytes(n.in), peers)
	c.loop(size, func(j value.Value) {
		for i, x := range n.in {
			k := x.t.elem
			part := slices.Clone(x.t.shape)
			part[pl.split] /= size
			xs, os := strides(x.t.shape), strides(n.out[i].t.shape)
			m := max(pl.split, pl.concat)
			run := int64(1)
			for _, s := range part[m:] {
				run *= s
			}
			if run == 0 {
				continue
			}
			// The block's first element in the sender's operand and in
			// this member's result.
			src := c.offset(k, c.peer(peers, j, nops, int64(i), k), c.cur.NewMul(pos, i64(part[pl.split]*xs[pl.split])))
			dst := c.offset(k, c.outs[i], c.cur.NewMul(j, i64(part[pl.concat]*os[pl.concat])))
			c.nest(part[:m], func(idx []value.Value) {
				si := c.affine(idx, xs[:m], 0)
				di := c.affine(idx, os[:m], 0)
				c.copyBytes(c.offset(k, dst, di), c.offset(k, src, si), i64(run*k.size()))
			})
		}
	})
	c.barrier(members, i64(size))
}

// permute: wait for the source (if any) to publish, copy its operand (or
// zeros), then wait for the target (if any) to have read ours.
func (c *collEmit) permute() {
	pl := c.pl
	// Each device meets its source (first) and its target: the pairs are
	// symmetric (d lists its source s, and s lists d as its target), which
	// an exchange across processes needs: both sides of a pair send and
	// receive.
	pairs := make([]int64, 0, 2*len(pl.src))
	counts := make([]int64, len(pl.src))
	for d := range pl.src {
		row := []int64{}
		if pl.src[d] >= 0 {
			row = append(row, pl.src[d])
		}
		if pl.dst[d] >= 0 && pl.dst[d] != pl.src[d] {
			row = append(row, pl.dst[d])
		}
		counts[d] = int64(len(row))
		for len(row) < 2 {
			row = append(row, -1)
		}
		pairs = append(pairs, row...)
	}
	srcTab := c.table("src", pl.src)
	pairTab := c.table("pairs", pairs)
	countTab := c.table("pair_count", counts)
	src := c.cur.NewLoad(types.I64, c.at(srcTab, c.dev))
	hasSrc := c.cur.NewICmp(enum.IPredSGE, src, i64(0))
	members := c.at(pairTab, c.cur.NewMul(c.dev, i64(2)))
	count := c.cur.NewLoad(types.I64, c.at(countTab, c.dev))
	peers := c.peersArray(2, 1)
	c.exchange(members, count, c.ins, typeBytes(c.n.in), peers)
	c.firstPeerOrZeros(hasSrc, peers)
	c.barrier(members, count)
}

// firstPeerOrZeros sets the result to the operand of peers' first entry
// when cond holds, else to zeros (collective_permute's source,
// collective_broadcast's root).
func (c *collEmit) firstPeerOrZeros(cond value.Value, peers value.Value) {
	bytes := c.n.out[0].t.bytes()
	k := c.n.out[0].t.elem
	recv := c.f.NewBlock("")
	none := c.f.NewBlock("")
	done := c.f.NewBlock("")
	c.cur.NewCondBr(cond, recv, none)
	c.cur = recv
	if bytes > 0 {
		c.copyBytes(c.outs[0], c.peer(peers, i64(0), 1, 0, k), i64(bytes))
	}
	c.cur.NewBr(done)
	c.cur = none
	c.zero(c.outs[0], bytes)
	c.cur.NewBr(done)
	c.cur = done
}

// broadcast: members copy the first member's operand, devices in no
// group fill zeros; the exchange and barrier are over the group (none
// for those in no group).
func (c *collEmit) broadcast() {
	pl := c.pl
	counts := make([]int64, pl.dev.n())
	size := int64(1)
	for d, gi := range pl.group {
		if gi >= 0 {
			counts[d] = int64(len(pl.groups[gi]))
			size = max(size, counts[d])
		}
	}
	pl.size = size
	members, _ := c.group()
	count := c.cur.NewLoad(types.I64, c.at(c.table("count", counts), c.dev))
	peers := c.peersArray(pl.size, 1)
	c.exchange(members, count, c.ins, typeBytes(c.n.in), peers)
	c.firstPeerOrZeros(c.cur.NewICmp(enum.IPredSGT, count, i64(0)), peers)
	c.barrier(members, count)
}

// deviceShape is the execution a program is compiled for: the options'
// replicas and partitions, else the module's mhlo.num_replicas and
// mhlo.num_partitions, else one of each.
func deviceShape(m *stablehlo.Module, opts Options) (devices, error) {
	get := func(opt int, name string) (int64, error) {
		if opt < 0 {
			return 0, fmt.Errorf("%d %s: want at least 1", opt, name)
		}
		if opt > 0 {
			return int64(opt), nil
		}
		a := stablehlo.LookupAttr(m.Attrs, "mhlo."+name)
		if a == nil {
			return 1, nil
		}
		v, ok := a.(stablehlo.IntAttr)
		if !ok || v.Value < 1 {
			return 0, fmt.Errorf("module attribute mhlo.%s is %s, want a positive integer", name, a)
		}
		return v.Value, nil
	}
	r, err := get(opts.NumReplicas, "num_replicas")
	if err != nil {
		return devices{}, err
	}
	p, err := get(opts.NumPartitions, "num_partitions")
	if err != nil {
		return devices{}, err
	}
	if r*p > maxDevices || r > maxDevices || p > maxDevices {
		return devices{}, fmt.Errorf("%d replicas × %d partitions: more than %d devices", r, p, maxDevices)
	}
	return devices{replicas: r, partitions: p}, nil
}

// maxDevices is the most devices the plugin runs an executable on
// (STELA_MAX_DEVICES in csrc/internal.h).
const maxDevices = 4096
