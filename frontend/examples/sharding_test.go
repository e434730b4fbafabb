package examples_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
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
