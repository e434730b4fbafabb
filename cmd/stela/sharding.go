package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// runExplainSharding propagates the shardings of a .sir file's first
// function (it needs a mesh) and says, for every value, where its
// sharding came from; with --partition, also the per-device program.
func runExplainSharding(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain-sharding")
	part := fs.Bool("partition", false, "also print the per-device program Stela's SPMD partitioner makes, with its collectives and bytes moved")
	locs := fs.Bool("locations", false, "print source locations in the programs")
	path, err := oneFile(fs, args)
	if err != nil {
		return err
	}
	f, err := loadShardedFunc(path)
	if err != nil {
		return err
	}
	rep, err := passes.PrepareSharding(f)
	if err != nil {
		return err
	}
	ir.Print(stdout, f, ir.PrintOptions{Locations: *locs})
	fmt.Fprintln(stdout)
	rep.ExplainAll(stdout)
	if !*part {
		return nil
	}
	p, err := passes.Partition(f, rep)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n// per-device program (%d devices): %s; %d B moved per device\n", p.Mesh.NumDevices(), collectiveList(p.Collectives), p.BytesMoved)
	ir.Print(stdout, p.Func, ir.PrintOptions{Locations: *locs})
	for _, r := range p.Remarks {
		fmt.Fprintln(stdout, r)
	}
	return nil
}

// loadShardedFunc reads the first function of a .sir file, which must
// have a mesh.
func loadShardedFunc(path string) (*ir.Func, error) {
	src, err := readInput(path)
	if err != nil {
		return nil, err
	}
	m, err := ir.Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	if len(m.Funcs) == 0 {
		return nil, fmt.Errorf("%s: no function", path)
	}
	f := m.Funcs[0]
	if f.Mesh == nil {
		return nil, fmt.Errorf("%s: @%s has no mesh (write `mesh [\"data\"=2]` after its result types)", path, f.Name)
	}
	return f, nil
}

func collectiveList(c map[string]int) string {
	if len(c) == 0 {
		return "no collectives"
	}
	var names []string
	for n := range c {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%d %s", c[n], n))
	}
	return strings.Join(parts, ", ")
}

// shardStage prints f at the sharded stage (every value's sharding) or
// the partitioned stage (the per-device program).
func shardStage(f *ir.Func, stage string, locs bool, stdout io.Writer) error {
	if f.Mesh == nil {
		return fmt.Errorf("--stage %s: @%s has no mesh", stage, f.Name)
	}
	rep, err := passes.PrepareSharding(f)
	if err != nil {
		return err
	}
	if stage == "sharded" {
		ir.Print(stdout, f, ir.PrintOptions{Locations: locs})
		for _, c := range rep.Conflicts {
			at := ""
			if l := c.Instr.Loc; l.IsKnown() {
				at = fmt.Sprintf(" at %v", l.Primary())
			}
			fmt.Fprintf(stdout, "// conflict: %s%s: %v\n", c.Instr.Op, at, c)
		}
		return nil
	}
	p, err := passes.Partition(f, rep)
	if err != nil {
		return err
	}
	ir.Print(stdout, p.Func, ir.PrintOptions{Locations: locs})
	fmt.Fprintf(stdout, "// %s; %d B moved per device\n", collectiveList(p.Collectives), p.BytesMoved)
	return nil
}
