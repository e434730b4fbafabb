package gomlx

import (
	"github.com/gomlx/compute"
	"github.com/pkg/errors"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// AutoSharding (GoMLX's Shardy-style distribution) goes through Stela's
// own sharding machinery (docs/sharding.md): the main function gets the
// mesh and the parameters' and results' shardings, sharding propagation
// decides every value's (passes.PrepareSharding), Stela's SPMD
// partitioner makes the per-device program with explicit collectives
// (passes.Partition), and the runtime compiles it for the mesh's devices
// as partitions (runtime.CompileMulti). Inputs and outputs are each
// device's shards, device-major.

type autoSharding struct {
	mesh    *ir.Mesh
	name    string
	logical []int // mesh position → index into the device assignment
}

// DistributedAutoSharding distributes the computation over one mesh.
func (bl *Builder) DistributedAutoSharding(meshes ...compute.Mesh) error {
	if len(meshes) != 1 {
		return errors.Wrapf(compute.ErrNotImplemented, "stela backend: DistributedAutoSharding with %d meshes (one is supported)", len(meshes))
	}
	m := meshes[0]
	im, err := ir.NewMesh(m.AxesNames, m.AxesSizes)
	if err != nil {
		return errors.Wrapf(err, "stela backend: mesh %q", m.Name)
	}
	n := im.NumDevices()
	if n > bl.b.NumDevices() {
		return errors.Errorf("stela backend: mesh %q has %d devices, the backend %d", m.Name, n, bl.b.NumDevices())
	}
	logical := m.LogicalDeviceAssignment
	if len(logical) == 0 {
		logical = make([]int, n)
		for i := range logical {
			logical[i] = i
		}
	}
	if len(logical) != n {
		return errors.Errorf("stela backend: mesh %q: %d logical devices for %d mesh positions", m.Name, len(logical), n)
	}
	bl.auto = &autoSharding{mesh: im, name: m.Name, logical: logical}
	bl.spmd = n
	return nil
}

// irSharding converts a GoMLX sharding spec for a value of type t.
func (bl *Builder) irSharding(spec *compute.ShardingSpec, t ir.Type) (*ir.Sharding, error) {
	if spec == nil {
		return nil, nil
	}
	if bl.auto == nil {
		return nil, errors.Wrap(compute.ErrNotImplemented, "stela backend: a sharding spec needs DistributedAutoSharding")
	}
	if spec.Mesh != "" && spec.Mesh != bl.auto.name {
		return nil, errors.Errorf("stela backend: sharding over mesh %q, the computation's is %q", spec.Mesh, bl.auto.name)
	}
	if len(spec.Axes) > t.Rank() {
		return nil, errors.Errorf("stela backend: sharding spec of %d axes for %s", len(spec.Axes), t)
	}
	s := ir.Replicated(t.Rank())
	for i, a := range spec.Axes {
		s.Dims[i] = append([]string(nil), a...)
	}
	if err := s.Check(bl.auto.mesh, t); err != nil {
		return nil, errors.Wrap(err, "stela backend")
	}
	return s, nil
}

// partition makes f the program of each device of the mesh.
func (bl *Builder) partition(f *ir.Func) (*passes.Partitioned, error) {
	f.Mesh = bl.auto.mesh
	ins := make([]*ir.Sharding, len(f.Params))
	for i, p := range f.Params {
		ins[i] = bl.main.inSh[p]
		if ins[i] == nil {
			ins[i] = ir.Replicated(p.Type.Rank())
		}
	}
	f.InShardings = ins
	f.OutShardings = bl.main.outSh
	if err := ir.Verify(f); err != nil {
		return nil, err
	}
	rep, err := passes.PrepareSharding(f)
	if err != nil {
		return nil, err
	}
	p, err := passes.Partition(f, rep)
	if err != nil {
		return nil, err
	}
	mod := &ir.Module{Funcs: []*ir.Func{p.Func}}
	if _, err := passes.Run(mod, passes.Default, passes.Options{}); err != nil {
		return nil, err
	}
	p.Func = mod.Funcs[0]
	return p, nil
}
