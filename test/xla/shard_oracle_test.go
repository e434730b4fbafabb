package xla

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// XLA's SPMD partitioner as the oracle of Stela's "annotate" mode: a
// program in StableHLO text with mhlo.sharding attributes (on @main's
// arguments and results, and on custom_call @Sharding inside) is compiled
// by XLA's CPU compiler for N partitions, the way jax.jit compiles a
// sharded program, and run on N host devices from the *global* arguments;
// its *global* results come back, with the collectives XLA's partitioner
// put into the program (run_xla.py's sharded jobs; doc.go says how the
// sharding strings map devices to tiles).
//
// Programs are collected in a shardBatch and run by one Python process
// (starting jax costs seconds, a program tens of milliseconds):
//
//	var b shardBatch
//	s, u := b.addPair("mlp", mlir, 4, args) // partitioned, and unpartitioned
//	b.run(t)                                // skips t when jaxlib is missing
//	s.result.outs, u.result.outs            // global results of both
//	s.result.collectives                    // what XLA's partitioner inserted
//
// The unpartitioned run of the same text is the reference: compiled
// without SPMD for one device, as TestXLA compiles programs, XLA ignores
// the mhlo.sharding attributes and drops the @Sharding calls (so that a
// sharded program and its reference differ in nothing but partitioning).
// runXLASharded runs a batch of one.

// collective is one collective instruction of XLA's partitioned module.
type collective struct {
	// Op is the HLO opcode: all-reduce, all-gather, reduce-scatter,
	// all-to-all, collective-permute, collective-broadcast or
	// ragged-all-to-all (an async -start/-done pair is one).
	Op string `json:"op"`
	// Shape is the result's HLO shape, as printed (a tuple for the
	// all-to-all XLA's CPU pipeline makes of a reshard).
	Shape string `json:"shape"`
	// OperandBytes and ResultBytes are the sizes of its operands and of
	// its result on one device.
	OperandBytes int64 `json:"operand_bytes"`
	ResultBytes  int64 `json:"result_bytes"`
	// Groups is its replica_groups (source_target_pairs for
	// collective-permute) as printed; DeviceGroups the same as lists of
	// device ids (pairs for collective-permute), nil where run_xla.py
	// cannot expand the printed form.
	Groups       string  `json:"groups"`
	DeviceGroups [][]int `json:"device_groups"`
}

func (c collective) String() string {
	return fmt.Sprintf("%s %s (%d B in, %d B out) groups %s", c.Op, c.Shape, c.OperandBytes, c.ResultBytes, c.Groups)
}

// collectiveCounts counts collectives by opcode.
func collectiveCounts(cs []collective) map[string]int {
	m := map[string]int{}
	for _, c := range cs {
		m[c.Op]++
	}
	return m
}

// formatCollectives sums collectives by opcode, for logs next to Stela's
// own counts: "all-gather ×2 (48 B → 192 B), all-reduce ×1 (512 B → 512 B)"
// (bytes per device, operands → results), or "none".
func formatCollectives(cs []collective) string {
	type sum struct {
		n       int
		in, out int64
	}
	m := map[string]*sum{}
	for _, c := range cs {
		s := m[c.Op]
		if s == nil {
			s = &sum{}
			m[c.Op] = s
		}
		s.n++
		s.in += c.OperandBytes
		s.out += c.ResultBytes
	}
	if len(m) == 0 {
		return "none"
	}
	var ops []string
	for op := range m {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var parts []string
	for _, op := range ops {
		s := m[op]
		parts = append(parts, fmt.Sprintf("%s ×%d (%d B → %d B)", op, s.n, s.in, s.out))
	}
	return strings.Join(parts, ", ")
}

// shardBatch collects programs for XLA's SPMD partitioner (and their
// unpartitioned references). Its zero value is empty.
type shardBatch struct {
	jobs []*job
}

// add appends a program to compile for numPartitions devices with XLA's
// SPMD partitioner; numPartitions 0 compiles it without SPMD for one
// device (the reference). args are the global arguments; the job's
// result.outs will be the global results, as many as @main returns.
func (b *shardBatch) add(name, mlir string, numPartitions int, args []*ir.Literal) *job {
	j := &job{name: name, mlir: mlir, args: args, nOuts: -1, numPartitions: numPartitions}
	b.jobs = append(b.jobs, j)
	return j
}

// addPair appends the program partitioned for numPartitions devices and
// unpartitioned, the reference to compare it with.
func (b *shardBatch) addPair(name, mlir string, numPartitions int, args []*ir.Literal) (sharded, unsharded *job) {
	return b.add(name, mlir, numPartitions, args), b.add(name+"/unsharded", mlir, 0, args)
}

// run runs the batch's programs in one Python process and stores each
// one's result in its job (result.ok, result.err, result.outs,
// result.collectives, result.paramShardings, result.outShardings,
// result.hlo). It skips t when no Python with jaxlib is found and fails it
// when the batch cannot run at all; a program's own failure stays in its
// result.
func (b *shardBatch) run(t testing.TB) {
	t.Helper()
	if len(b.jobs) == 0 {
		return
	}
	o, err := findOracle()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	if keep := os.Getenv("STELA_XLA_KEEP"); keep != "" {
		dir, _ = os.MkdirTemp(keep, "shard")
		t.Logf("sharded batch in %s", dir)
	}
	if err := o.run(dir, b.jobs); err != nil {
		if errors.Is(err, errNoJaxlib) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
}

// runXLASharded compiles mlir for numPartitions devices with XLA's SPMD
// partitioner, runs it on the global inputs and returns its global
// outputs and the number of each kind of collective in XLA's partitioned
// module ("all-reduce": 1, ...); err is XLA's error when it rejects or
// fails the program. It skips t when jaxlib is missing. It runs a batch of
// its own: tests with several programs should batch them with shardBatch,
// as each batch starts jax anew.
func runXLASharded(t *testing.T, mlir string, numPartitions int, inputs []*ir.Literal) (outputs []*ir.Literal, collectives map[string]int, err error) {
	t.Helper()
	var b shardBatch
	j := b.add(t.Name(), mlir, numPartitions, inputs)
	b.run(t)
	if !j.result.ok {
		return nil, nil, fmt.Errorf("XLA, %d partitions: %s", numPartitions, j.result.err)
	}
	return j.result.outs, collectiveCounts(j.result.collectives), nil
}
