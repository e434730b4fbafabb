package xla

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/stablehlo"
)

// TestXLASPMD is the differential test of the collectives: SPMD programs
// run on every device of a grid by ir.EvalSPMD, and by XLA's CPU client
// across virtual devices (run_xla_spmd.py), each device's results compared
// exactly. The programs hold every collective in each process-group
// strategy that fits the grid, on random groups, on grids of 1 to 8
// devices and on several element types; the values are small integers, so
// that sums are exact in any order (the specification leaves the order of
// an all_reduce to the implementation). Besides semantics, it checks that
// XLA reads the text the lowering emits for them.
func TestXLASPMD(t *testing.T) {
	if testing.Short() {
		t.Skip("XLA's compiler takes seconds here; skipped in -short mode")
	}
	o, err := findOracle()
	if err != nil {
		t.Skip(err)
	}
	cases := spmdCases(t)
	dir := t.TempDir()
	if keep := os.Getenv("STELA_XLA_KEEP"); keep != "" {
		dir = keep
	}
	results, err := runSPMDJobs(o, dir, cases)
	if err != nil {
		t.Fatal(err)
	}
	ran := map[ir.Op]int{}
	for i, c := range cases {
		res := results[i]
		if !res.ok {
			t.Errorf("%s: XLA: %s\n%s", c.name, res.err, c.mlir)
			continue
		}
		for d := range c.want {
			for k, w := range c.want[d] {
				if g := res.outs[d][k]; !ir.LiteralEqual(g, w) {
					t.Errorf("%s: device %d result #%d: XLA %v, EvalSPMD %v\n%s", c.name, d, k, g, w, c.mlir)
				}
			}
		}
		c.f.Walk(func(in *ir.Instr) { ran[in.Op]++ })
	}
	for _, op := range ir.AllOps() {
		if op.Info().Has(ir.Collective) && ran[op] == 0 {
			t.Errorf("collective %v has no SPMD case that ran on XLA", op)
		}
	}
	t.Logf("%d programs on grids of 1 to 8 devices; collectives run: %v", len(cases), ran)
}

// spmdCase is one program on one grid: its inputs per device, EvalSPMD's
// results per device, and the lowered text.
type spmdCase struct {
	name   string
	nr, np int
	f      *ir.Func
	args   [][]*ir.Literal
	want   [][]*ir.Literal
	mlir   string
}

var spmdDTypes = []ir.DType{ir.F32, ir.S32, ir.BF16, ir.F64, ir.U8, ir.S64, ir.F16, ir.U32, ir.S8, ir.C64}

func spmdCases(t *testing.T) []*spmdCase {
	r := rand.New(rand.NewPCG(11, 12))
	var cs []*spmdCase
	k := 0
	for _, g := range [][2]int{{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {4, 2}, {2, 4}, {8, 1}, {1, 8}} {
		nr, np := g[0], g[1]
		for _, mode := range []ir.GroupMode{ir.CrossReplica, ir.CrossPartition, ir.CrossReplicaAndPartition, ir.FlattenedIDs} {
			d := spmdDTypes[k%len(spmdDTypes)]
			k++
			size := nr
			switch mode {
			case ir.CrossPartition:
				size = np
			case ir.FlattenedIDs:
				size = nr * np
			}
			f := spmdProgram(t, r, d, mode, size, np)
			c := &spmdCase{name: fmt.Sprintf("%dx%d/%v/%v", nr, np, mode, d), nr: nr, np: np, f: f}
			cs = append(cs, c)
		}
	}
	// Collectives inside a while loop and a case branch.
	src := `
func @regions(%0: f32[4], %1: si32[]) -> (f32[4], f32[4], ui32[]) {
  %2 = constant {value = dense<0> : si32[]} : si32[]
  %3, %4 = while %0, %2 (%0: f32[4], %1: si32[]) {
    %2 = constant {value = dense<3> : si32[]} : si32[]
    %3 = compare %1, %2 {dir = LT} : i1[]
    return %3
  } (%0: f32[4], %1: si32[]) {
    %2 = collective_permute %0 {source_target_pairs = [[0, 1], [1, 2], [2, 3], [3, 0]], channel_id = 1} : f32[4]
    %3 = all_reduce %2 {replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]], channel_id = 2, use_global_device_ids = true} (%0: f32[], %1: f32[]) {
      %2 = maximum %0, %1 : f32[]
      return %2
    } : f32[4]
    %4 = add %2, %3 : f32[4]
    %5 = constant {value = dense<1> : si32[]} : si32[]
    %6 = add %1, %5 : si32[]
    return %4, %6
  } : f32[4], si32[]
  %5 = case %1, %0 (%0: f32[4]) {
    return %0
  } (%0: f32[4]) {
    %1 = all_to_all %0 {split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = [[1, 0]]} : f32[4]
    return %1
  } : f32[4]
  %6 = partition_id : ui32[]
  return %3, %5, %6
}`
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	cs = append(cs, &spmdCase{name: "regions/2x4", nr: 2, np: 4, f: m.Funcs[0]})
	for _, c := range cs {
		n := c.nr * c.np
		c.args = make([][]*ir.Literal, n)
		for d := range c.args {
			for _, p := range c.f.Params {
				c.args[d] = append(c.args[d], smallInts(r, p.Type))
			}
		}
		if c.f.Name == "regions" {
			for d := range c.args {
				c.args[d][1] = ir.ScalarLiteral(ir.S32, 1) // every device takes branch 1
			}
		}
		if err := ir.Verify(c.f); err != nil {
			t.Fatalf("%s: %v\n%v", c.name, err, c.f)
		}
		want, err := ir.EvalSPMD(c.f, c.nr, c.np, c.args)
		if err != nil {
			t.Fatalf("%s: %v\n%v", c.name, err, c.f)
		}
		c.want = want
		if c.mlir, err = lowerSPMD(c.f, c.nr, c.np); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	return cs
}

// spmdProgram builds a program of every collective that fits the strategy
// on element type d: groups of ids 0..size-1, of a random size, shuffled.
func spmdProgram(t *testing.T, r *rand.Rand, d ir.DType, mode ir.GroupMode, size, np int) *ir.Func {
	var divs []int
	for s := 1; s <= size; s++ {
		if size%s == 0 {
			divs = append(divs, s)
		}
	}
	s := divs[r.IntN(len(divs))]
	perm := r.Perm(size)
	var groups [][]int64
	for i := 0; i < size; i += s {
		var g []int64
		for _, id := range perm[i : i+s] {
			g = append(g, int64(id))
		}
		groups = append(groups, g)
	}
	channel, global := int64(0), false
	switch mode {
	case ir.CrossPartition, ir.CrossReplicaAndPartition:
		channel = 1
	case ir.FlattenedIDs:
		channel, global = 1, true
	}
	f := ir.NewFunc(fmt.Sprintf("spmd_%v", mode), ir.TensorOf(d, 2, 2*s))
	b := &fb{f: f}
	x := f.Params[0]
	var outs []*ir.Value
	next := func() int64 {
		if channel == 0 {
			return 0
		}
		channel++
		return channel
	}
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%v %v: %v", mode, groups, p)
		}
	}()
	if mode != ir.CrossPartition {
		for _, op := range []ir.Op{ir.OpAdd, ir.OpMaximum} {
			if op == ir.OpMaximum && d.IsComplex() {
				continue // XLA: "Max reductions not supported for complex types"
			}
			outs = append(outs, b.emit(ir.OpAllReduce, ir.AllReduceAttr{ReplicaGroups: groups, ChannelID: next(), UseGlobalDeviceIDs: global}, []*ir.Value{x}, binRegion(op, d))...)
		}
		// Empty groups (every id in one group), and groups of several
		// sizes (which the lowering pads with -1).
		// (StableHLO takes no empty groups with flattened ids.)
		if !global {
			outs = append(outs, b.emit(ir.OpAllReduce, ir.AllReduceAttr{ChannelID: next()}, []*ir.Value{x}, binRegion(ir.OpAdd, d))...)
		}
		if size >= 3 {
			ragged := [][]int64{{int64(perm[0])}, nil}
			for _, id := range perm[1:] {
				ragged[1] = append(ragged[1], int64(id))
			}
			outs = append(outs, b.emit(ir.OpAllReduce, ir.AllReduceAttr{ReplicaGroups: ragged, ChannelID: next(), UseGlobalDeviceIDs: global}, []*ir.Value{x}, binRegion(ir.OpAdd, d))...)
		}
		// A cross_replica_and_partition group holds its replicas in every
		// partition, more members than the type assumes when np > 1.
		if mode != ir.CrossReplicaAndPartition || np == 1 {
			outs = append(outs,
				b.e1(ir.OpAllGather, ir.AllGatherAttr{AllGatherDim: 1, ReplicaGroups: groups, ChannelID: next(), UseGlobalDeviceIDs: global}, x),
				b.emit(ir.OpReduceScatter, ir.ReduceScatterAttr{ScatterDim: 1, ReplicaGroups: groups, ChannelID: next(), UseGlobalDeviceIDs: global}, []*ir.Value{x}, binRegion(ir.OpAdd, d))[0])
		}
	}
	if mode == ir.CrossReplica || mode == ir.CrossPartition {
		outs = append(outs, b.e1(ir.OpAllToAll, ir.AllToAllAttr{SplitDim: 1, ConcatDim: 0, SplitCount: s, ReplicaGroups: groups, ChannelID: next()}, x))
		var pairs [][2]int64
		src, dst := r.Perm(size), r.Perm(size)
		for i := range size {
			if i == 0 || r.IntN(3) != 0 {
				pairs = append(pairs, [2]int64{int64(src[i]), int64(dst[i])})
			}
		}
		outs = append(outs, b.e1(ir.OpCollectivePermute, ir.CollectivePermuteAttr{SourceTargetPairs: pairs, ChannelID: next()}, x))
	}
	outs = append(outs, b.e1(ir.OpReplicaID, nil), b.e1(ir.OpPartitionID, nil))
	f.Return(outs...)
	return f
}

// smallInts fills a literal with small integers, exact in every element
// type and in every order of summation.
func smallInts(r *rand.Rand, t ir.Type) *ir.Literal {
	vals := make([]float64, t.NumElements())
	for i := range vals {
		vals[i] = float64(r.IntN(9) - 4)
		if t.DType.IsUnsigned() {
			vals[i] += 4
		}
	}
	return ir.LiteralFromFloat64s(t, vals)
}

// lowerSPMD lowers f for a grid, each argument and result of @main marked
// {manual}: the program is already per device, and XLA's SPMD partitioner
// (which runs with more than one partition) must leave it so.
func lowerSPMD(f *ir.Func, nr, np int) (string, error) {
	m, err := lowering.Lower(f, lowering.Options{Verify: true, NumReplicas: nr, NumPartitions: np})
	if err != nil {
		return "", err
	}
	main := m.Funcs[0]
	for i := range main.Args {
		main.SetArgAttr(i, "mhlo.sharding", stablehlo.StringAttr("{manual}"))
	}
	for i := range main.ResultTypes {
		main.SetResultAttr(i, "mhlo.sharding", stablehlo.StringAttr("{manual}"))
	}
	return string(stablehlo.Format(m, stablehlo.PrintOptions{})), nil
}

type spmdResult struct {
	ok   bool
	err  string
	outs [][]*ir.Literal // per device, per result
}

// runSPMDJobs runs the cases through run_xla_spmd.py in one process.
func runSPMDJobs(o *oracle, dir string, cases []*spmdCase) ([]spmdResult, error) {
	type mjob struct {
		Name       string     `json:"name"`
		MLIR       string     `json:"mlir"`
		Replicas   int        `json:"replicas"`
		Partitions int        `json:"partitions"`
		Inputs     [][]string `json:"inputs"`
		Outputs    [][]string `json:"outputs"`
	}
	var m struct {
		Jobs []mjob `json:"jobs"`
	}
	for i, c := range cases {
		jd := fmt.Sprintf("spmd%03d", i)
		if err := os.MkdirAll(filepath.Join(dir, jd), 0o755); err != nil {
			return nil, err
		}
		j := mjob{Name: c.name, MLIR: filepath.Join(jd, "prog.mlir"), Replicas: c.nr, Partitions: c.np}
		if err := os.WriteFile(filepath.Join(dir, j.MLIR), []byte(c.mlir), 0o644); err != nil {
			return nil, err
		}
		for d, args := range c.args {
			var ins, outs []string
			for k, a := range args {
				p := filepath.Join(jd, fmt.Sprintf("d%d.in%d.npy", d, k))
				if err := npy.WriteFile(filepath.Join(dir, p), a); err != nil {
					return nil, fmt.Errorf("%s: %w", c.name, err)
				}
				ins = append(ins, p)
			}
			for k := range c.f.Results {
				outs = append(outs, filepath.Join(jd, fmt.Sprintf("d%d.out%d.npy", d, k)))
			}
			j.Inputs, j.Outputs = append(j.Inputs, ins), append(j.Outputs, outs)
		}
		m.Jobs = append(m.Jobs, j)
	}
	mb, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	manifest, results := filepath.Join(dir, "spmd_manifest.json"), filepath.Join(dir, "spmd_results.json")
	if err := os.WriteFile(manifest, mb, 0o644); err != nil {
		return nil, err
	}
	script, err := filepath.Abs("run_xla_spmd.py")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.python, script, manifest, results)
	cmd.Env = o.env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("run_xla_spmd.py: %v\n%s", err, tail(stderr.String(), 4000))
	}
	rb, err := os.ReadFile(results)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(rb)), "\n")
	if len(lines) != len(cases) {
		return nil, fmt.Errorf("run_xla_spmd.py: %d results for %d jobs\n%s", len(lines), len(cases), tail(stderr.String(), 4000))
	}
	out := make([]spmdResult, len(cases))
	for i, line := range lines {
		var r struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, err
		}
		out[i] = spmdResult{ok: r.OK, err: r.Error}
		if !r.OK {
			continue
		}
		for _, paths := range m.Jobs[i].Outputs {
			var dev []*ir.Literal
			for _, p := range paths {
				l, err := npy.ReadFile(filepath.Join(dir, p))
				if err != nil {
					return nil, err
				}
				dev = append(dev, l)
			}
			out[i].outs = append(out[i].outs, dev)
		}
	}
	return out, nil
}

// collectiveCases are TestXLA's cases of the collectives: programs of one
// device (XLA's default of one replica and one partition, as ir.Eval runs
// them), where a process group is that device, on every element type.
// TestXLASPMD runs them across devices. They compare NaN equal to any NaN,
// not bit for bit: on one device XLA's all_to_all, collective_permute,
// all_reduce and reduce_scatter quiet the payloads of f16 and bf16 NaNs
// (0x7fc1 comes back 0x7fc0), as if they went through f32.
func collectiveCases() []*tcase {
	moveCase := structCase
	var cs []*tcase
	self := [][]int64{{0}}
	for _, d := range ir.AllDTypes {
		r := rng("collective/" + d.String())
		lit := func(dims ...int) *ir.Literal { return withNaNs(randLit(r, tt(d, dims...), false)) }
		name := func(op ir.Op, what string) string { return fmt.Sprintf("%v/%v/%s", op, d, what) }
		x := lit(2, 3)
		cs = append(cs,
			moveCase(name(ir.OpAllGather, "dim1"), ir.OpAllGather, d, []*ir.Literal{x}, func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpAllGather, ir.AllGatherAttr{AllGatherDim: 1, ReplicaGroups: self, ChannelID: 1, UseGlobalDeviceIDs: true}, p)
			}),
			moveCase(name(ir.OpAllToAll, "split0_concat1"), ir.OpAllToAll, d, []*ir.Literal{x}, func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpAllToAll, ir.AllToAllAttr{SplitDim: 0, ConcatDim: 1, SplitCount: 1, ReplicaGroups: self}, p)
			}),
			moveCase(name(ir.OpCollectivePermute, "self"), ir.OpCollectivePermute, d, []*ir.Literal{x}, func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpCollectivePermute, ir.CollectivePermuteAttr{SourceTargetPairs: [][2]int64{{0, 0}}}, p)
			}),
			moveCase(name(ir.OpCollectivePermute, "none"), ir.OpCollectivePermute, d, []*ir.Literal{x}, func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpCollectivePermute, ir.CollectivePermuteAttr{ChannelID: 2}, p)
			}),
			moveCase(name(ir.OpAllReduce, "sum"), ir.OpAllReduce, d, []*ir.Literal{x, lit(4)}, func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpAllReduce, ir.AllReduceAttr{}, p, binRegion(ir.OpAdd, d))
			}),
			moveCase(name(ir.OpReduceScatter, "sum"), ir.OpReduceScatter, d, []*ir.Literal{x}, func(b *fb, p []*ir.Value) []*ir.Value {
				return b.emit(ir.OpReduceScatter, ir.ReduceScatterAttr{ScatterDim: 1, ReplicaGroups: self}, p, binRegion(ir.OpAdd, d))
			}),
		)
	}
	cs = append(cs,
		moveCase("replica_id", ir.OpReplicaID, ir.U32, nil, func(b *fb, _ []*ir.Value) []*ir.Value { return one(b.e1(ir.OpReplicaID, nil)) }),
		moveCase("partition_id", ir.OpPartitionID, ir.U32, nil, func(b *fb, _ []*ir.Value) []*ir.Value { return one(b.e1(ir.OpPartitionID, nil)) }))
	return cs
}

// shardingConstraintCases are programs on a mesh of one device, lowered in
// annotate mode (lowerText): each sharding_constraint becomes XLA's
// custom_call @Sharding with its mhlo.sharding string, which XLA must
// take and compute as the identity, bit for bit, on every element type.
// Partitioned programs with constraints run in TestXLAShardedStela.
func shardingConstraintCases() []*tcase {
	var cs []*tcase
	mesh, err := ir.NewMesh([]string{"x"}, []int{1})
	if err != nil {
		panic(err)
	}
	for _, d := range ir.AllDTypes {
		r := rng("sharding_constraint/" + d.String())
		x := withNaNs(randLit(r, tt(d, 4, 6), false))
		f := ir.NewFunc("sharding_constraint_"+d.String(), x.Type)
		f.Mesh = mesh
		b := &fb{f}
		c, err := func() (res []*ir.Value, err error) {
			defer func() {
				if r := recover(); r != nil {
					be, ok := r.(buildErr)
					if !ok {
						panic(r)
					}
					err = be.err
				}
			}()
			y := b.e1(ir.OpShardingConstraint, ir.ShardingConstraintAttr{Sharding: *ir.ShardDims(2, map[int][]string{0: {"x"}})}, f.Params[0])
			z := b.e1(ir.OpShardingConstraint, ir.ShardingConstraintAttr{Sharding: *ir.Replicated(2)}, y)
			return []*ir.Value{y, z}, nil
		}()
		if err != nil {
			continue // the element type has no tensors (the op takes every type that has)
		}
		f.Return(c...)
		cs = append(cs, &tcase{name: fmt.Sprintf("%v/%v/annotated", ir.OpShardingConstraint, d), op: ir.OpShardingConstraint, dtype: d,
			in: []*ir.Literal{x}, fixed: f, bits: true, ulp: -1})
	}
	return cs
}
