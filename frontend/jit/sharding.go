package jit

import "github.com/stela-ml/stela/frontend/sharding"

// InShardings lays the call's tensor arguments out over a mesh before the
// compiled program runs, one Sharding per tensor of the flattened
// arguments (slices and trees by leaf) in order; a zero Sharding, or an
// argument past the list, keeps the tensor's own layout (its sharding if
// it is sharded over the mesh, else replicated). Like jax.jit's
// in_shardings. The function then compiles for the mesh: partitioned by
// Stela's partitioner, or annotated for the plugin's compiler, as the
// mesh's mode says (docs/sharding.md).
func InShardings(s ...sharding.Sharding) Option {
	return func(c *compileConfig) { c.in = append(c.in, s...) }
}

// OutShardings says how the results are laid out over the mesh, one per
// tensor of the flattened results; a zero Sharding leaves a result to
// propagation. Like jax.jit's out_shardings.
func OutShardings(s ...sharding.Sharding) Option {
	return func(c *compileConfig) { c.out = append(c.out, s...) }
}
