package runtime

import "github.com/stela-ml/stela/ir"

// ShardedBuffer is one logical array laid out across the devices of a
// mesh (package frontend/sharding makes them): Type is the whole array's
// type, Device the mesh's device, Literal gathers the pieces.
type ShardedBuffer interface {
	Buffer
	// Mesh is the mesh it is laid out over, and Sharding how.
	Mesh() *ir.Mesh
	Sharding() *ir.Sharding
	// Pieces are the pieces held by the mesh's devices, in mesh order
	// (piece i is on mesh device i).
	Pieces() []Buffer
}
