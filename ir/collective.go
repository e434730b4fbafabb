package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Collective ops: all_reduce, all_gather, reduce_scatter, all_to_all,
// collective_permute, and the device queries replica_id and partition_id.
// They follow the StableHLO specification ("Parallel execution" and the
// ops' sections of docs/spec.md in openxla/stablehlo): a program runs on a
// grid of numReplicas × numPartitions processes (devices), each device runs
// the same program on its own values, and a collective combines the values
// of the devices in a process group. Device d of the grid is (replica
// d / numPartitions, partition d % numPartitions): d is what the spec calls
// a flattened id.
//
// How replica_groups name the devices of a process group depends on the
// op's channel id and use_global_device_ids (GroupMode). Stela's IR
// requires, where the result type depends on the group size (all_gather,
// reduce_scatter, all_to_all), non-empty replica groups of one size, so
// that the type rule needs nothing but the instruction. all_reduce also
// takes groups of different sizes, and empty replica_groups meaning one
// group of every id the mode numbers (except with flattened ids, which
// StableHLO requires explicit).
//
// ir.Eval runs one device (replica 0 of 1, partition 0 of 1); EvalSPMD runs
// every device of a grid, with the collectives meeting across them.

// AllReduceAttr holds all_reduce's process groups: ReplicaGroups (ids as
// GroupMode says; empty means one group of all), ChannelID (0: none) and
// UseGlobalDeviceIDs. The body region reduces two scalars of the operands'
// element type to one.
type AllReduceAttr struct {
	ReplicaGroups      [][]int64 `sir:"replica_groups"`
	ChannelID          int64     `sir:"channel_id,omitempty"`
	UseGlobalDeviceIDs bool      `sir:"use_global_device_ids,omitempty"`
}

// AllGatherAttr: the dimension along which the operands of a process
// group are concatenated (in group order), and the process groups as in
// AllReduceAttr (non-empty, of one size).
type AllGatherAttr struct {
	AllGatherDim       int       `sir:"all_gather_dim"`
	ReplicaGroups      [][]int64 `sir:"replica_groups"`
	ChannelID          int64     `sir:"channel_id,omitempty"`
	UseGlobalDeviceIDs bool      `sir:"use_global_device_ids,omitempty"`
}

// ReduceScatterAttr: the dimension along which the reduced value is split
// into one part per group member, and the process groups as in
// AllReduceAttr (non-empty, of one size).
type ReduceScatterAttr struct {
	ScatterDim         int       `sir:"scatter_dimension"`
	ReplicaGroups      [][]int64 `sir:"replica_groups"`
	ChannelID          int64     `sir:"channel_id,omitempty"`
	UseGlobalDeviceIDs bool      `sir:"use_global_device_ids,omitempty"`
}

// AllToAllAttr: each operand is split into SplitCount parts along SplitDim,
// part i goes to the i-th member of the process group, and the parts a
// device receives are concatenated along ConcatDim in group order. The
// groups (replica ids, or partition ids when ChannelID > 0) are non-empty
// and of size SplitCount.
type AllToAllAttr struct {
	SplitDim      int       `sir:"split_dimension"`
	ConcatDim     int       `sir:"concat_dimension"`
	SplitCount    int       `sir:"split_count"`
	ReplicaGroups [][]int64 `sir:"replica_groups"`
	ChannelID     int64     `sir:"channel_id,omitempty"`
}

// CollectivePermuteAttr: pairs (source, target) of replica ids (partition
// ids when ChannelID > 0); each target receives its source's operand, a
// device that is no target gets zeros. Sources are distinct, and so are
// targets.
type CollectivePermuteAttr struct {
	SourceTargetPairs [][2]int64 `sir:"source_target_pairs"`
	ChannelID         int64      `sir:"channel_id,omitempty"`
}

// GroupMode is how a collective's replica_groups name devices: the
// specification's process-group strategies.
type GroupMode uint8

// The process-group strategies.
const (
	// CrossReplica: groups of replica ids; each group is taken once per
	// partition (channel_id 0, use_global_device_ids false).
	CrossReplica GroupMode = iota
	// CrossPartition: groups of partition ids, taken once per replica
	// (all_to_all and collective_permute with channel_id > 0).
	CrossPartition
	// CrossReplicaAndPartition: groups of replica ids; a group holds those
	// replicas in every partition (channel_id > 0,
	// use_global_device_ids false).
	CrossReplicaAndPartition
	// FlattenedIDs: groups of flattened device ids, replica ×
	// numPartitions + partition (channel_id > 0, use_global_device_ids).
	FlattenedIDs
)

var groupModeNames = []string{"cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_ids"}

func (m GroupMode) String() string {
	if int(m) < len(groupModeNames) {
		return groupModeNames[m]
	}
	return "?"
}

// reduceMode is the strategy of all_reduce, all_gather and reduce_scatter.
func reduceMode(channel int64, global bool) GroupMode {
	switch {
	case channel > 0 && global:
		return FlattenedIDs
	case channel > 0:
		return CrossReplicaAndPartition
	}
	return CrossReplica
}

// channelMode is the strategy of all_to_all and collective_permute.
func channelMode(channel int64) GroupMode {
	if channel > 0 {
		return CrossPartition
	}
	return CrossReplica
}

// Mode is the process-group strategy of the attribute's replica_groups.
func (a AllReduceAttr) Mode() GroupMode { return reduceMode(a.ChannelID, a.UseGlobalDeviceIDs) }

// Mode is the process-group strategy of the attribute's replica_groups.
func (a AllGatherAttr) Mode() GroupMode { return reduceMode(a.ChannelID, a.UseGlobalDeviceIDs) }

// Mode is the process-group strategy of the attribute's replica_groups.
func (a ReduceScatterAttr) Mode() GroupMode { return reduceMode(a.ChannelID, a.UseGlobalDeviceIDs) }

// Mode is the process-group strategy of the attribute's replica_groups.
func (a AllToAllAttr) Mode() GroupMode { return channelMode(a.ChannelID) }

// Mode is the process-group strategy of the attribute's pairs.
func (a CollectivePermuteAttr) Mode() GroupMode { return channelMode(a.ChannelID) }

// collectiveGroups returns the replica groups and strategy of a
// collective's attribute (ok false for other attributes).
func collectiveGroups(attr any) (groups [][]int64, mode GroupMode, ok bool) {
	switch a := attr.(type) {
	case AllReduceAttr:
		return a.ReplicaGroups, a.Mode(), true
	case AllGatherAttr:
		return a.ReplicaGroups, a.Mode(), true
	case ReduceScatterAttr:
		return a.ReplicaGroups, a.Mode(), true
	case AllToAllAttr:
		return a.ReplicaGroups, a.Mode(), true
	}
	return nil, 0, false
}

// modeSize is how many ids a strategy's groups range over.
func modeSize(m GroupMode, numReplicas, numPartitions int) int {
	switch m {
	case CrossPartition:
		return numPartitions
	case FlattenedIDs:
		return numReplicas * numPartitions
	}
	return numReplicas
}

func modeIDWord(m GroupMode) string {
	switch m {
	case CrossPartition:
		return "partition"
	case FlattenedIDs:
		return "device"
	}
	return "replica"
}

// ProcessGroups returns the process groups into which a collective with
// the given replica groups and strategy splits a grid of numReplicas ×
// numPartitions devices, each group a list of flattened device ids
// (replica × numPartitions + partition) in the group's order, as the
// specification's cross_replica, cross_partition,
// cross_replica_and_partition and flattened_ids define them. Empty groups
// stand for one group of every id the strategy numbers. The groups must
// hold each id in range exactly once.
func ProcessGroups(mode GroupMode, groups [][]int64, numReplicas, numPartitions int) ([][]int, error) {
	if numReplicas < 1 || numPartitions < 1 {
		return nil, fmt.Errorf("grid of %d replicas × %d partitions: want at least one of each", numReplicas, numPartitions)
	}
	size := modeSize(mode, numReplicas, numPartitions)
	if len(groups) == 0 {
		all := make([]int64, size)
		for i := range all {
			all[i] = int64(i)
		}
		groups = [][]int64{all}
	}
	seen := make([]bool, size)
	for _, g := range groups {
		for _, id := range g {
			if id < 0 || id >= int64(size) {
				return nil, fmt.Errorf("%s groups %v: %s id %d is out of range for %d replicas × %d partitions (%s ids are 0 to %d)",
					mode, groups, modeIDWord(mode), id, numReplicas, numPartitions, modeIDWord(mode), size-1)
			}
			if seen[id] {
				return nil, fmt.Errorf("%s groups %v: %s id %d appears twice", mode, groups, modeIDWord(mode), id)
			}
			seen[id] = true
		}
	}
	var missing []int
	for id, ok := range seen {
		if !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s groups %v leave out %s ids %v of %d replicas × %d partitions: the groups must cover every %s",
			mode, groups, modeIDWord(mode), missing, numReplicas, numPartitions, modeIDWord(mode))
	}
	np := numPartitions
	var out [][]int
	switch mode {
	case CrossReplica:
		for _, g := range groups {
			for p := range np {
				pg := make([]int, len(g))
				for i, r := range g {
					pg[i] = int(r)*np + p
				}
				out = append(out, pg)
			}
		}
	case CrossPartition:
		for _, g := range groups {
			for r := range numReplicas {
				pg := make([]int, len(g))
				for i, p := range g {
					pg[i] = r*np + int(p)
				}
				out = append(out, pg)
			}
		}
	case CrossReplicaAndPartition:
		for _, g := range groups {
			pg := make([]int, 0, len(g)*np)
			for p := range np {
				for _, r := range g {
					pg = append(pg, int(r)*np+p)
				}
			}
			out = append(out, pg)
		}
	case FlattenedIDs:
		for _, g := range groups {
			pg := make([]int, len(g))
			for i, id := range g {
				pg[i] = int(id)
			}
			out = append(out, pg)
		}
	default:
		return nil, fmt.Errorf("unknown process-group strategy %d", mode)
	}
	return out, nil
}

// PermutePairs returns the (source, target) pairs of flattened device ids
// that a collective_permute with the given pairs and strategy
// (CrossReplica or CrossPartition) makes on a grid of numReplicas ×
// numPartitions devices: each pair once per partition (replica).
func PermutePairs(mode GroupMode, pairs [][2]int64, numReplicas, numPartitions int) ([][2]int, error) {
	if numReplicas < 1 || numPartitions < 1 {
		return nil, fmt.Errorf("grid of %d replicas × %d partitions: want at least one of each", numReplicas, numPartitions)
	}
	if mode != CrossReplica && mode != CrossPartition {
		return nil, fmt.Errorf("collective_permute takes cross_replica or cross_partition pairs, not %s", mode)
	}
	size := modeSize(mode, numReplicas, numPartitions)
	for _, st := range pairs {
		for _, id := range st {
			if id < 0 || id >= int64(size) {
				return nil, fmt.Errorf("%s pairs %v: %s id %d is out of range for %d replicas × %d partitions", mode, pairs, modeIDWord(mode), id, numReplicas, numPartitions)
			}
		}
	}
	np := numPartitions
	var out [][2]int
	for _, st := range pairs {
		if mode == CrossReplica {
			for p := range np {
				out = append(out, [2]int{int(st[0])*np + p, int(st[1])*np + p})
			}
		} else {
			for r := range numReplicas {
				out = append(out, [2]int{r*np + int(st[0]), r*np + int(st[1])})
			}
		}
	}
	return out, nil
}

// checkGroups checks what the IR requires of replica groups regardless of
// the grid: non-negative ids, each at most once, no empty group; with
// sameSize (ops whose result type depends on the group size) at least one
// group and all of one size. It returns the group size (0 for empty groups).
func checkGroups(groups [][]int64, sameSize bool) (int, error) {
	if len(groups) == 0 {
		if sameSize {
			return 0, fmt.Errorf("replica_groups is empty: this op's result type depends on the group size, so the IR requires explicit, non-empty replica groups of one size")
		}
		return 0, nil
	}
	seen := map[int64]bool{}
	for i, g := range groups {
		if len(g) == 0 {
			return 0, fmt.Errorf("replica_groups %v: group #%d is empty", groups, i)
		}
		if sameSize && len(g) != len(groups[0]) {
			return 0, fmt.Errorf("replica_groups %v: group #%d has %d members, group #0 has %d: this op's result type depends on the group size, so the IR requires groups of one size", groups, i, len(g), len(groups[0]))
		}
		for _, id := range g {
			if id < 0 {
				return 0, fmt.Errorf("replica_groups %v: id %d is negative", groups, id)
			}
			if seen[id] {
				return 0, fmt.Errorf("replica_groups %v: id %d appears twice", groups, id)
			}
			seen[id] = true
		}
	}
	return len(groups[0]), nil
}

// checkChannel checks channel_id and use_global_device_ids.
func checkChannel(channel int64, global bool) error {
	if channel < 0 {
		return fmt.Errorf("channel_id %d is negative (0 means no channel)", channel)
	}
	if global && channel == 0 {
		return fmt.Errorf("use_global_device_ids needs a channel_id > 0")
	}
	return nil
}

// checkPairs checks collective_permute's pairs: non-negative ids, distinct
// sources, distinct targets.
func checkPairs(pairs [][2]int64) error {
	src, dst := map[int64]bool{}, map[int64]bool{}
	for _, st := range pairs {
		if st[0] < 0 || st[1] < 0 {
			return fmt.Errorf("source_target_pairs %v: id %d is negative", pairs, min(st[0], st[1]))
		}
		if src[st[0]] {
			return fmt.Errorf("source_target_pairs %v: source %d appears twice", pairs, st[0])
		}
		if dst[st[1]] {
			return fmt.Errorf("source_target_pairs %v: target %d appears twice", pairs, st[1])
		}
		src[st[0]], dst[st[1]] = true, true
	}
	return nil
}

// ContainsCollective reports whether in is a collective op (Collective
// trait) or holds one in its regions, at any depth. Passes use it to keep
// such instructions where they are: every device must reach the same
// collectives in the same order.
func ContainsCollective(in *Instr) bool {
	if info := in.Op.Info(); info != nil && info.Has(Collective) {
		return true
	}
	for _, r := range in.Regions {
		if r != nil && FuncContainsCollective(r) {
			return true
		}
	}
	return false
}

// FuncContainsCollective reports whether f (or a region in it) has a
// collective op.
func FuncContainsCollective(f *Func) bool {
	for _, in := range f.Body {
		if in != nil && ContainsCollective(in) {
			return true
		}
	}
	return false
}

// deviceName spells device d of a grid with its replica and partition.
func deviceName(d, numPartitions int) string {
	return fmt.Sprintf("device %d (replica %d, partition %d)", d, d/numPartitions, d%numPartitions)
}

// idList prints device ids as [0 1 2].
func idList(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// groupOf returns the group of groups that holds d, or nil.
func groupOf(groups [][]int, d int) []int {
	for _, g := range groups {
		if slices.Contains(g, d) {
			return g
		}
	}
	return nil
}
