package ir

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// SPMD evaluation. EvalSPMD runs one evaluation of the program per device
// of a grid, each on its own goroutine; a collective is a rendezvous where
// the devices of its process group meet, and the last one to arrive
// computes every member's results (collective.go defines the groups, this
// file the meeting and the computations).
//
// Devices meet by process group and by count: the n-th collective a device
// runs over a given set of devices meets the n-th collective each other
// member runs over that set. The members must then be at the same
// instruction; when they are not, the devices disagree on which collective
// comes next, which on real hardware hangs, and here is an error. When no
// device can go on (each one has finished, failed, or waits for a member
// that will not come) the run stops with a deadlock error naming who waits
// where for whom, instead of hanging. A device that fails stops the others
// at their next instruction.

// ErrDeadlock is wrapped by the error of an EvalSPMD run whose devices
// could not all go on: some waited in a collective for devices that had
// finished, had failed, or waited in another collective, or the members of
// a process group reached different collectives.
var ErrDeadlock = errors.New("collective deadlock")

// errAborted ends a device that another device's failure stopped; EvalSPMD
// reports the failure, not this.
var errAborted = errors.New("stopped because another device failed")

// devEvalFunc evaluates one instruction on a device of an EvalSPMD run, or
// on Eval's single device when dev is nil.
type devEvalFunc func(dev *spmdDevice, in *Instr, args []*Literal) ([]*Literal, error)

// evalOnFn is evalOn, reached through a variable for the reason sxEval is
// (the op table's rules call it, and it consults the op table).
var evalOnFn func(dev *spmdDevice, f *Func, args []*Literal) ([]*Literal, error)

func init() {
	evalOnFn = evalOn
	opTable[OpWhile].evalDev = evalWhileOn
	opTable[OpCase].evalDev = evalCaseOn
	opTable[OpComposite].evalDev = evalCompositeOn
	for _, op := range []Op{OpAllReduce, OpAllGather, OpReduceScatter, OpAllToAll, OpCollectivePermute, OpReplicaID, OpPartitionID} {
		opTable[op].evalDev = evalCollective
	}
}

// spmdDevice is one device of an EvalSPMD run; a nil *spmdDevice is Eval's
// single device.
type spmdDevice struct {
	run *spmdRun
	id  int // flattened id: replica × numPartitions + partition
}

// eval runs a region (or function) on the device.
func (d *spmdDevice) eval(f *Func, args ...*Literal) ([]*Literal, error) {
	return evalOnFn(d, f, args)
}

// aborted returns errAborted once another device of the run has failed.
func (d *spmdDevice) aborted() error {
	if d != nil && d.run.abort.Load() {
		return errAborted
	}
	return nil
}

// Device states.
const (
	devRunning = iota
	devWaiting
	devFinished
	devFailed
)

// spmdRun is the shared state of one EvalSPMD run.
type spmdRun struct {
	nr, np int
	abort  atomic.Bool

	mu      sync.Mutex
	cond    *sync.Cond
	running int              // devices neither waiting nor done
	state   []int            // per device
	waitAt  []*meeting       // per waiting device: where
	counts  []map[string]int // per device: process-group key → collectives run over it
	meets   map[meetKey]*meeting
	stuck   error // set once no device can go on

	// groups caches each device's process group of each collective.
	gmu    sync.Mutex
	groups map[groupKey]deviceGroup
}

type groupKey struct {
	in *Instr
	d  int
}

// deviceGroup is a device's process group of a collective (or why it has
// none), and the group's key: its members in increasing order.
type deviceGroup struct {
	members []int
	key     string
	err     error
}

// meetKey names a meeting: the n-th collective over a set of devices.
type meetKey struct {
	group string
	n     int
}

// meeting is one rendezvous: the n-th collective over one set of devices.
type meeting struct {
	key     meetKey
	members []int // the process group, in group order (the first arrival's)
	in      *Instr
	args    map[int][]*Literal
	at      map[int]*Instr // where each arrived member is
	left    int            // members that have not taken their results
	done    bool
	outs    [][]*Literal // by position in members
	err     error
}

// EvalSPMD runs f as an SPMD program on a grid of numReplicas ×
// numPartitions devices: device d = replica × numPartitions + partition
// runs f on args[d], concurrently with the others, and the collectives
// (all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute)
// combine the values of the devices of their process groups, also inside
// while and case regions and composites; replica_id and partition_id give
// each device its own ids. It returns each device's results, by device.
//
// all_reduce and reduce_scatter fold the members' values in group order
// with the body region (the specification leaves the order to the
// implementation). A collective whose groups do not fit the grid, devices
// that disagree on which collective comes next, or devices waiting for
// one that finished or failed give an error (wrapping ErrDeadlock for the
// last two), never a hang. The first device to fail, by id, gives the
// error, prefixed with its device and grid position.
func EvalSPMD(f *Func, numReplicas, numPartitions int, args [][]*Literal) ([][]*Literal, error) {
	if f == nil {
		return nil, fmt.Errorf("eval spmd: nil function")
	}
	if numReplicas < 1 || numPartitions < 1 {
		return nil, fmt.Errorf("eval spmd @%s: grid of %d replicas × %d partitions: want at least one of each", f.Name, numReplicas, numPartitions)
	}
	n := numReplicas * numPartitions
	if len(args) != n {
		return nil, fmt.Errorf("eval spmd @%s: arguments for %d devices, want %d (%d replicas × %d partitions)", f.Name, len(args), n, numReplicas, numPartitions)
	}
	if err := checkCollectivePlacement(f); err != nil {
		return nil, err
	}
	r := &spmdRun{nr: numReplicas, np: numPartitions, running: n, state: make([]int, n),
		waitAt: make([]*meeting, n), counts: make([]map[string]int, n), meets: map[meetKey]*meeting{},
		groups: map[groupKey]deviceGroup{}}
	r.cond = sync.NewCond(&r.mu)
	for d := range r.counts {
		r.counts[d] = map[string]int{}
	}
	outs := make([][]*Literal, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for d := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					errs[d] = fmt.Errorf("internal error in the reference evaluator: %v", p)
				}
				r.finish(d, errs[d])
			}()
			outs[d], errs[d] = evalOn(&spmdDevice{run: r, id: d}, f, args[d])
		}()
	}
	wg.Wait()
	// The first real failure explains the run; a device stopped by it, or
	// stuck waiting for it, does not.
	var stuck error
	for d, err := range errs {
		switch {
		case err == nil, errors.Is(err, errAborted):
		case errors.Is(err, ErrDeadlock):
			if stuck == nil {
				stuck = err
			}
		default:
			return nil, fmt.Errorf("eval spmd @%s: %s: %w", f.Name, deviceName(d, numPartitions), err)
		}
	}
	if stuck != nil {
		return nil, fmt.Errorf("eval spmd @%s: %w", f.Name, stuck)
	}
	for d, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("eval spmd @%s: %s: %w", f.Name, deviceName(d, numPartitions), err)
		}
	}
	return outs, nil
}

// checkCollectivePlacement rejects a collective inside the scalar region
// of a reduction, sort or scatter (see scalarRegionCollective).
func checkCollectivePlacement(f *Func) error {
	seen := map[*Func]bool{}
	var check func(f *Func) error
	check = func(f *Func) error {
		if f == nil || seen[f] {
			return nil
		}
		seen[f] = true
		for _, in := range f.Body {
			if c := scalarRegionCollective(in); c != nil {
				return Errorf(c.Loc, c.Op.String(), "%s", errScalarRegionCollective(in))
			}
			if in == nil {
				continue
			}
			for _, r := range in.Regions {
				if err := check(r); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return check(f)
}

// scalarRegionCollective returns a collective inside a region of in when
// in's regions are scalar computations (HasComparator: the bodies of
// reduce, sort, scatter, all_reduce, ...), nil otherwise. Such a region
// runs once per element on no particular device, so it cannot hold one.
func scalarRegionCollective(in *Instr) *Instr {
	if in == nil {
		return nil
	}
	if info := in.Op.Info(); info == nil || !info.Has(HasComparator) {
		return nil
	}
	seen := map[*Func]bool{}
	var find func(fs []*Func) *Instr
	find = func(fs []*Func) *Instr {
		for _, r := range fs {
			if r == nil || seen[r] {
				continue // nil or shared regions are the verifier's to report
			}
			seen[r] = true
			for _, c := range r.Body {
				if c == nil {
					continue
				}
				if info := c.Op.Info(); info != nil && info.Has(Collective) {
					return c
				}
				if found := find(c.Regions); found != nil {
					return found
				}
			}
		}
		return nil
	}
	return find(in.Regions)
}

func errScalarRegionCollective(in *Instr) string {
	return fmt.Sprintf("a collective cannot be in the scalar region of %s (it runs once per element, on no particular device)", in.Op)
}

// finish records that device d is done (err nil: finished).
func (r *spmdRun) finish(d int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state[d] == devRunning {
		r.running--
	}
	r.state[d] = devFinished
	if err != nil {
		r.state[d] = devFailed
		if !errors.Is(err, errAborted) {
			r.abort.Store(true) // the run has failed: stop the others
		}
	}
	r.checkStuck()
	r.cond.Broadcast()
}

// checkStuck declares the run stuck when no device runs but some wait in
// a meeting that is not complete. Called with r.mu held.
func (r *spmdRun) checkStuck() {
	if r.running > 0 || r.stuck != nil {
		return
	}
	var lines []string
	for d, m := range r.waitAt {
		if r.state[d] != devWaiting || m == nil || m.done {
			continue
		}
		var missing []string
		for _, e := range m.members {
			if _, ok := m.args[e]; ok {
				continue
			}
			what := "which finished"
			switch r.state[e] {
			case devFailed:
				what = "which failed"
			case devWaiting:
				if w := r.waitAt[e]; w != nil {
					what = "which waits in " + instrWhere(w.in)
				}
			}
			missing = append(missing, deviceName(e, r.np)+", "+what)
		}
		lines = append(lines, fmt.Sprintf("%s waits in %s for %s", deviceName(d, r.np), instrWhere(m.in), strings.Join(missing, "; ")))
	}
	if len(lines) == 0 {
		return
	}
	r.stuck = fmt.Errorf("%w: no device can go on:\n\t%s", ErrDeadlock, strings.Join(lines, "\n\t"))
	r.cond.Broadcast()
}

// complete marks meeting m done and its waiting members running again, at
// once: a member that has not yet woken up must not look stuck to
// checkStuck. Called with r.mu held.
func (r *spmdRun) complete(m *meeting) {
	m.done = true
	for _, e := range m.members {
		if r.state[e] == devWaiting && r.waitAt[e] == m {
			r.state[e], r.waitAt[e] = devRunning, nil
			r.running++
		}
	}
	r.cond.Broadcast()
}

// instrWhere names an instruction and its location: "all_reduce at a.go:3".
func instrWhere(in *Instr) string {
	s := opName(in.Op)
	if in.Loc.IsKnown() {
		s += " at " + in.Loc.Primary().String()
	}
	return s
}

// meet is where device d, at collective in over the process group
// members, gives its operands and takes its results.
func (d *spmdDevice) meet(in *Instr, members []int, gkey string, args []*Literal) ([]*Literal, error) {
	r := d.run
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stuck != nil {
		return nil, r.stuck
	}
	if r.abort.Load() {
		return nil, errAborted
	}
	n := r.counts[d.id][gkey]
	r.counts[d.id][gkey] = n + 1
	key := meetKey{gkey, n}
	m := r.meets[key]
	if m == nil {
		m = &meeting{key: key, members: members, in: in, args: map[int][]*Literal{}, at: map[int]*Instr{}, left: len(members)}
		r.meets[key] = m
	}
	m.args[d.id] = args
	m.at[d.id] = in
	if in != m.in && !m.done {
		var first int
		for e, at := range m.at {
			if at == m.in {
				first = e
				break
			}
		}
		m.err = fmt.Errorf("%w: devices disagree on the next collective over devices %s: %s is at %s, %s at %s",
			ErrDeadlock, gkey, deviceName(first, r.np), instrWhere(m.in), deviceName(d.id, r.np), instrWhere(in))
		r.complete(m)
	}
	if !m.done && len(m.args) == len(m.members) {
		// Last to arrive: compute everyone's results outside the lock, so
		// that other process groups meet meanwhile.
		ops := make([][]*Literal, len(m.members))
		for i, e := range m.members {
			ops[i] = m.args[e]
		}
		r.mu.Unlock()
		outs, err := computeCollective(m.in, m.members, ops, r.nr, r.np)
		r.mu.Lock()
		m.outs, m.err = outs, err
		r.complete(m)
	}
	if !m.done {
		r.state[d.id], r.waitAt[d.id] = devWaiting, m
		r.running--
		r.checkStuck()
		for !m.done && r.stuck == nil && !r.abort.Load() {
			r.cond.Wait()
		}
		if r.state[d.id] == devWaiting { // left without results
			r.state[d.id], r.waitAt[d.id] = devRunning, nil
			r.running++
		}
	}
	m.left--
	if m.left == 0 {
		delete(r.meets, key)
	}
	switch {
	case m.done && m.err != nil:
		return nil, m.err
	case m.done:
		return m.outs[slices.Index(m.members, d.id)], nil
	case r.stuck != nil:
		return nil, r.stuck
	}
	return nil, errAborted
}

// evalCollective is the rule of every collective op (and of replica_id
// and partition_id) on a device of an EvalSPMD run, or on Eval's single
// device (dev nil: replica 0 of 1, partition 0 of 1).
func evalCollective(dev *spmdDevice, in *Instr, args []*Literal) (outs []*Literal, err error) {
	defer sxGuard(&err)
	nr, np, d := 1, 1, 0
	if dev != nil {
		nr, np, d = dev.run.nr, dev.run.np, dev.id
	}
	switch in.Op {
	case OpReplicaID:
		return []*Literal{ScalarOf(uint32(d / np))}, nil
	case OpPartitionID:
		return []*Literal{ScalarOf(uint32(d % np))}, nil
	}
	if err := sxArgs(args, 1); err != nil {
		return nil, err
	}
	for k, a := range args {
		if k < len(in.Args) && in.Args[k] != nil && !a.Type.Equal(in.Args[k].Type) {
			return nil, fmt.Errorf("operand #%d has type %v, want %v", k, a.Type, in.Args[k].Type)
		}
	}
	if dev == nil {
		members, err := collectiveMembers(in, nr, np, d)
		if err != nil {
			return nil, fmt.Errorf("%v (ir.Eval runs one device; ir.EvalSPMD runs a grid of them)", err)
		}
		res, err := computeCollective(in, members, [][]*Literal{args}, nr, np)
		if err != nil {
			return nil, err
		}
		return res[0], nil
	}
	g := dev.run.groupOf(in, d)
	if g.err != nil {
		return nil, g.err
	}
	return dev.meet(in, g.members, g.key, args)
}

// groupOf returns device d's process group of collective in, computed
// once per run.
func (r *spmdRun) groupOf(in *Instr, d int) deviceGroup {
	r.gmu.Lock()
	defer r.gmu.Unlock()
	k := groupKey{in, d}
	if g, ok := r.groups[k]; ok {
		return g
	}
	var g deviceGroup
	g.members, g.err = collectiveMembers(in, r.nr, r.np, d)
	if g.err == nil {
		sorted := slices.Clone(g.members)
		sort.Ints(sorted)
		g.key = idList(sorted)
	}
	r.groups[k] = g
	return g
}

// evalCollectiveOne is the op table's Eval rule of the collectives: Eval's
// single device.
func evalCollectiveOne(in *Instr, args []*Literal) ([]*Literal, error) {
	return evalCollective(nil, in, args)
}

// collectiveMembers returns the process group (flattened device ids, in
// group order) in which device d runs the collective in: for
// collective_permute, every device its pairs could connect d with (the
// devices of d's partition, or of d's replica with a channel).
func collectiveMembers(in *Instr, nr, np, d int) ([]int, error) {
	if a, ok := in.Attr.(CollectivePermuteAttr); ok {
		if _, err := PermutePairs(a.Mode(), a.SourceTargetPairs, nr, np); err != nil {
			return nil, err
		}
		var row []int
		if a.Mode() == CrossReplica {
			for r := range nr {
				row = append(row, r*np+d%np)
			}
		} else {
			for p := range np {
				row = append(row, d/np*np+p)
			}
		}
		return row, nil
	}
	groups, mode, ok := collectiveGroups(in.Attr)
	if !ok {
		return nil, fmt.Errorf("attribute is %T, not a collective's", in.Attr)
	}
	pgs, err := ProcessGroups(mode, groups, nr, np)
	if err != nil {
		return nil, err
	}
	g := groupOf(pgs, d)
	if g == nil {
		return nil, fmt.Errorf("internal error: %s is in no process group of %v", deviceName(d, np), pgs)
	}
	return g, nil
}

// computeCollective computes the results of collective in for every
// member of a process group from their operands (ops[i]: the operands of
// members[i]), by the specification's definition of the op.
func computeCollective(in *Instr, members []int, ops [][]*Literal, nr, np int) (outs [][]*Literal, err error) {
	defer sxGuard(&err)
	n := len(members)
	outs = make([][]*Literal, n)
	switch a := in.Attr.(type) {
	case AllReduceAttr:
		if len(in.Regions) != 1 || in.Regions[0] == nil {
			return nil, fmt.Errorf("want one body region")
		}
		res := make([]*Literal, len(ops[0]))
		for k := range ops[0] {
			if res[k], err = foldMembers(in.Regions[0], ops, k); err != nil {
				return nil, err
			}
		}
		for i := range outs {
			outs[i] = res
		}
	case AllGatherAttr:
		if err := checkGroupSize(in, n, len(a.ReplicaGroups[0]), nr, np); err != nil {
			return nil, err
		}
		res := make([]*Literal, len(ops[0]))
		for k := range ops[0] {
			parts := make([]*Literal, n)
			for i := range n {
				parts[i] = ops[i][k]
			}
			res[k] = collConcat(parts, a.AllGatherDim)
		}
		for i := range outs {
			outs[i] = res
		}
	case ReduceScatterAttr:
		if err := checkGroupSize(in, n, len(a.ReplicaGroups[0]), nr, np); err != nil {
			return nil, err
		}
		if len(in.Regions) != 1 || in.Regions[0] == nil {
			return nil, fmt.Errorf("want one body region")
		}
		red, err := foldMembers(in.Regions[0], ops, 0)
		if err != nil {
			return nil, err
		}
		if red.Type.Shape[a.ScatterDim]%n != 0 {
			return nil, fmt.Errorf("dimension %d of %v does not split into %d parts", a.ScatterDim, red.Type, n)
		}
		for i, part := range collSplit(red, n, a.ScatterDim) {
			outs[i] = []*Literal{part}
		}
	case AllToAllAttr:
		if n != a.SplitCount {
			return nil, fmt.Errorf("process group of %d devices, want split_count %d", n, a.SplitCount)
		}
		for i := range outs {
			outs[i] = make([]*Literal, len(ops[0]))
		}
		for k := range ops[0] {
			if ops[0][k].Type.Shape[a.SplitDim]%n != 0 {
				return nil, fmt.Errorf("dimension %d of %v does not split into %d parts", a.SplitDim, ops[0][k].Type, n)
			}
			split := make([][]*Literal, n)
			for i := range n {
				split[i] = collSplit(ops[i][k], n, a.SplitDim)
			}
			for i := range n {
				parts := make([]*Literal, n)
				for s := range n {
					parts[s] = split[s][i]
				}
				outs[i][k] = collConcat(parts, a.ConcatDim)
			}
		}
	case CollectivePermuteAttr:
		pairs, err := PermutePairs(a.Mode(), a.SourceTargetPairs, nr, np)
		if err != nil {
			return nil, err
		}
		for i := range outs {
			outs[i] = []*Literal{Zeros(ops[i][0].Type)}
		}
		for _, st := range pairs {
			s, t := slices.Index(members, st[0]), slices.Index(members, st[1])
			if s >= 0 && t >= 0 {
				outs[t] = []*Literal{ops[s][0]}
			}
		}
	default:
		return nil, fmt.Errorf("attribute is %T, not a collective's", in.Attr)
	}
	for i := range outs {
		if len(outs[i]) != len(in.Results) {
			return nil, fmt.Errorf("internal error: %d results, want %d", len(outs[i]), len(in.Results))
		}
		for k, l := range outs[i] {
			if err := sxCheckResult(in, k, l.Type); err != nil {
				return nil, err
			}
		}
	}
	return outs, nil
}

// checkGroupSize compares the size of a process group with the one the
// result type was inferred for (that of the replica groups): they differ
// in cross_replica_and_partition mode on more than one partition, where a
// process group holds each of its replicas once per partition.
func checkGroupSize(in *Instr, n, typed, nr, np int) error {
	if n == typed {
		return nil
	}
	_, mode, _ := collectiveGroups(in.Attr)
	return fmt.Errorf("its process groups hold %d devices (%s on %d replicas × %d partitions), but its result type is for groups of %d, the size of its replica_groups: give the groups as flattened ids (use_global_device_ids)",
		n, mode, nr, np, typed)
}

// foldMembers reduces operand k of every member with the body region,
// elementwise, left to right in group order.
func foldMembers(body *Func, ops [][]*Literal, k int) (*Literal, error) {
	acc := ops[0][k]
	t := acc.Type
	elems := t.NumElements()
	lifted, ok := sxLiftRegion(body, elems)
	if elems == 0 {
		return Zeros(t), nil
	}
	flat := func(l *Literal) *Literal { return &Literal{Type: TensorOf(l.Type.DType, elems), Data: l.Data} }
	for i := 1; i < len(ops); i++ {
		x := ops[i][k]
		if !x.Type.Equal(t) {
			return nil, fmt.Errorf("operand #%d has type %v on one device and %v on another", k, t, x.Type)
		}
		if ok {
			r, err := sxCall("body", lifted, []*Literal{flat(acc), flat(x)}, 1)
			if err != nil {
				return nil, err
			}
			c, err := sxConvertTo(r[0], t.DType)
			if err != nil {
				return nil, err
			}
			acc = &Literal{Type: t, Data: c.Data}
			continue
		}
		next := Zeros(t)
		for e := range elems {
			r, err := sxCall("body", body, []*Literal{sxScalarAt(acc, e), sxScalarAt(x, e)}, 1)
			if err != nil {
				return nil, err
			}
			if err := sxStoreScalars([]*Literal{next}, e, r); err != nil {
				return nil, err
			}
		}
		acc = next
	}
	return acc, nil
}

// blocks returns the number of outer blocks and the elements per unit of
// dimension dim of shape: the row-major layout is [outer][shape[dim]][inner].
func blocks(shape []int, dim int) (outer, inner int) {
	outer, inner = 1, 1
	for _, s := range shape[:dim] {
		outer *= s
	}
	for _, s := range shape[dim+1:] {
		inner *= s
	}
	return outer, inner
}

// collConcat joins literals of one element type and rank, equal but along
// dim, along dim.
func collConcat(parts []*Literal, dim int) *Literal {
	shape := slices.Clone(parts[0].Type.Shape)
	shape[dim] = 0
	for _, p := range parts {
		shape[dim] += p.Type.Shape[dim]
	}
	out := Zeros(TensorOf(parts[0].Type.DType, shape...))
	outer, inner := blocks(shape, dim)
	dst := reflect.ValueOf(out.Data)
	off := 0
	for o := range outer {
		for _, p := range parts {
			blk := p.Type.Shape[dim] * inner
			reflect.Copy(dst.Slice(off, off+blk), reflect.ValueOf(p.Data).Slice(o*blk, (o+1)*blk))
			off += blk
		}
	}
	return out
}

// collSplit splits l along dim into n parts of equal size.
func collSplit(l *Literal, n, dim int) []*Literal {
	shape := slices.Clone(l.Type.Shape)
	shape[dim] /= n
	outer, inner := blocks(shape, dim)
	blk := shape[dim] * inner
	src := reflect.ValueOf(l.Data)
	parts := make([]*Literal, n)
	for i := range parts {
		parts[i] = Zeros(TensorOf(l.Type.DType, shape...))
		dst := reflect.ValueOf(parts[i].Data)
		for o := range outer {
			reflect.Copy(dst.Slice(o*blk, (o+1)*blk), src.Slice((o*n+i)*blk, (o*n+i+1)*blk))
		}
	}
	return parts
}
