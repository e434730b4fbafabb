package examples_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/sharding"
)

// TestShardingCases runs every case on 1, 2, 4 and 8 CPU devices in both
// modes: partitioned by Stela on the client, and annotated for the
// plugin's partitioner (the Stela CPU plugin's worker partitions it).
func TestShardingCases(t *testing.T) {
	for _, c := range examples.ShardingCases() {
		for _, n := range []int{1, 2, 4, 8} {
			for _, mode := range []sharding.Mode{sharding.Partition, sharding.Annotate} {
				r := c.RunSharding(n, mode)
				if r.Err != nil {
					t.Errorf("%s on %d devices (%v): %v", c.Name, n, mode, r.Err)
					continue
				}
				t.Logf("%s on %d (%v): %v, %d B, max diff %.2g", c.Name, n, mode, r.Collectives, r.BytesMoved, r.MaxAbsDiff)
				if !r.OK {
					t.Errorf("%s on %d devices (%v): max |sharded - unsharded| = %g > %g", c.Name, n, mode, r.MaxAbsDiff, r.Tolerance)
				}
				if !r.Known {
					t.Errorf("%s on %d devices (%v): the collectives are not reported", c.Name, n, mode)
				}
			}
		}
	}
}

// TestShardingAnnotated checks that ShardingCase.Annotated, which traces
// a case without compiling it, gives the program a mesh in annotate mode
// compiles for the case (Mesh.Compiled's Func): the same text, shardings
// included.
func TestShardingAnnotated(t *testing.T) {
	for _, c := range examples.ShardingCases() {
		for _, n := range []int{1, 8} {
			p, err := c.Annotated(n, 7)
			if err != nil {
				t.Fatalf("%s on %d: %v", c.Name, n, err)
			}
			in := make([]sharding.Sharding, len(c.In))
			for i, s := range c.In {
				in[i] = p.Mesh.On(s)
			}
			out := make([]sharding.Sharding, len(c.Out))
			for i, s := range c.Out {
				out[i] = p.Mesh.On(s)
			}
			fn := c.Func
			if c.Manual != nil {
				fn = c.Manual(p.Mesh)
			}
			f := jit.CompileAny(fn, jit.WithName(c.Name), jit.InShardings(in...), jit.OutShardings(out...))
			if _, err := f(p.Inputs...); err != nil {
				t.Fatalf("%s on %d: %v", c.Name, n, err)
			}
			compiled := p.Mesh.Compiled()
			if len(compiled) != 1 || compiled[0].Func == nil {
				t.Fatalf("%s on %d: the mesh compiled %d programs, want one with its Func", c.Name, n, len(compiled))
			}
			if got, want := p.Func.String(), compiled[0].Func.String(); got != want {
				t.Errorf("%s on %d: Annotated gives\n%s\nthe mesh compiled\n%s", c.Name, n, got, want)
			}
		}
	}
}
