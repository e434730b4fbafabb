package examples_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/sharding"
)

func TestShardingCasesPartition(t *testing.T) {
	for _, c := range examples.ShardingCases() {
		for _, n := range []int{1, 2, 4, 8} {
			r := c.RunSharding(n, sharding.Partition)
			if r.Err != nil {
				t.Errorf("%s on %d devices: %v", c.Name, n, r.Err)
				continue
			}
			t.Logf("%s on %d: %v, %d B, max diff %.2g", c.Name, n, r.Collectives, r.BytesMoved, r.MaxAbsDiff)
			if !r.OK {
				t.Errorf("%s on %d devices: max |sharded - unsharded| = %g > %g", c.Name, n, r.MaxAbsDiff, r.Tolerance)
			}
		}
	}
}
