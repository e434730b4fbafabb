package tensor

import (
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Sharding returns how a concrete tensor laid out across a mesh is split
// (package sharding: sharding.Put, or the result of a computation on
// sharded tensors), and nil for a tensor held whole by one device or a
// traced one.
func (t *Tensor) Sharding() *ir.Sharding {
	if sb := t.sharded(); sb != nil {
		return sb.Sharding().Clone()
	}
	return nil
}

// Mesh returns the mesh a sharded tensor is laid out over, else nil.
func (t *Tensor) Mesh() *ir.Mesh {
	if sb := t.sharded(); sb != nil {
		return sb.Mesh()
	}
	return nil
}

func (t *Tensor) sharded() runtime.ShardedBuffer {
	c := t.concrete()
	if c == nil {
		return nil
	}
	sb, _ := c.buf.(runtime.ShardedBuffer)
	return sb
}

// Shard is one device's piece of a sharded tensor: the block
// [Start, Limit) of the whole array, held by Device as Piece.
type Shard struct {
	Device       string
	Start, Limit []int
	Piece        *Tensor
}

// Shards lists where the pieces of a sharded tensor are, one per device
// of its mesh in mesh order (devices that replicate a piece list it each);
// a tensor held whole by one device is its only shard. On a mesh over the
// devices of several processes (a job), only this process's devices'
// shards are listed (its addressable shards).
func (t *Tensor) Shards() []Shard {
	c := t.concrete()
	if c == nil {
		return nil
	}
	sb := t.sharded()
	if sb == nil {
		return []Shard{{Device: c.buf.Device().Name(), Start: make([]int, t.Rank()), Limit: t.Shape(), Piece: c}}
	}
	m, sh := sb.Mesh(), sb.Sharding()
	lt := sh.ShardType(m, t.typ)
	var out []Shard
	for i, p := range sb.Pieces() {
		if p == nil {
			continue // on a device of another process of the job
		}
		start := make([]int, t.Rank())
		limit := make([]int, t.Rank())
		for d := range start {
			if axes := sh.Dims[d]; len(axes) > 0 {
				start[d] = m.Index(i, axes) * lt.Shape[d]
			}
			limit[d] = start[d] + lt.Shape[d]
		}
		out = append(out, Shard{Device: p.Device().Name(), Start: start, Limit: limit, Piece: FromBuffer(p)})
	}
	return out
}
