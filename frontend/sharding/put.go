package sharding

import (
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Put lays t out over the mesh as spec says: each device gets its piece
// (the tensor's whole value for dimensions the spec leaves whole). t may
// be on the host, on any device, or sharded already (it is gathered and
// split again unless it is laid out so already). The result is committed
// to the mesh: ops on it run there, sharded. A spec that names an axis the
// mesh lacks, or splits a dimension its axes do not divide, is an error
// (a panic with the Go line, as the op functions' errors).
func Put(t *tensor.Tensor, mesh *Mesh, spec Spec) *tensor.Tensor {
	loc := ir.CallerLoc()
	if t == nil {
		panic(ir.Errorf(loc, "sharding.Put", "nil tensor"))
	}
	if t.Traced() {
		panic(ir.Errorf(loc, "sharding.Put", "tensor %v is traced: inside jit.Compile use sharding.Constrain (or jit.InShardings)", t.Type()))
	}
	if mesh == nil {
		panic(ir.Errorf(loc, "sharding.Put", "nil mesh"))
	}
	sh, err := normalize(spec, mesh.ir, t.Type())
	if err != nil {
		panic(ir.Errorf(loc, "sharding.Put", "%v", err))
	}
	b, err := mesh.dev.layout(t.Buffer(), sh)
	if err != nil {
		panic(ir.Errorf(loc, "sharding.Put", "%v", err))
	}
	return tensor.FromBuffer(b)
}

// Constrain asks for x's sharding where it is computed, as JAX's
// with_sharding_constraint: inside jit.Compile, propagation starts from it
// (and a value that disagrees is resharded, with a remark); on a sharded
// tensor it reshards now. The mesh is the one of the program (the
// arguments') or, eagerly, x's.
func Constrain(x *tensor.Tensor, spec Spec) *tensor.Tensor {
	loc := ir.CallerLoc()
	if x == nil {
		panic(ir.Errorf(loc, "sharding.Constrain", "nil tensor"))
	}
	s := spec.Clone()
	if s == nil {
		s = &ir.Sharding{}
	}
	if len(s.Dims) > x.Rank() {
		panic(ir.Errorf(loc, "sharding.Constrain", "spec %v has %d dimensions, but the tensor %v has rank %d", s, len(s.Dims), x.Type(), x.Rank()))
	}
	for len(s.Dims) < x.Rank() {
		s.Dims = append(s.Dims, nil)
	}
	if !x.Traced() {
		m := x.Mesh()
		if m == nil {
			panic(ir.Errorf(loc, "sharding.Constrain", "tensor %v on %s is not sharded: lay it out with sharding.Put", x.Type(), x.Device()))
		}
		if err := s.Check(m, x.Type()); err != nil {
			panic(ir.Errorf(loc, "sharding.Constrain", "%v", err))
		}
	}
	return tensor.Emit(ir.OpShardingConstraint, ir.ShardingConstraintAttr{Sharding: *s}, []*tensor.Tensor{x})[0]
}
