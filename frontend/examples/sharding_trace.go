package examples

import (
	"fmt"
	"strings"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/ir"
)

// TraceSharded traces the case's program for a mesh of n devices without
// any device: the function gets the mesh and the case's argument and
// result shardings, as jit.Compile gives them, for lowering in annotate
// mode (a compile-only target's SPMD partitioner partitions it; stela
// compile). A manual-mode case (Manual) needs a mesh of devices and is an
// error.
func (c *ShardingCase) TraceSharded(n int) (*ir.Func, error) {
	if c.Manual != nil {
		return nil, fmt.Errorf("examples: case %s is in manual mode (sharding.Map), which traces on a mesh of devices", c.Name)
	}
	axes, shape := c.Mesh(n)
	mesh, err := ir.NewMesh(axes, shape)
	if err != nil {
		return nil, fmt.Errorf("examples: case %s: %w", c.Name, err)
	}
	var specs []ir.Type
	for _, t := range c.Inputs(1) {
		specs = append(specs, t.Type())
	}
	r, err := jit.TraceFull(c.Func, specs...)
	if err != nil {
		return nil, fmt.Errorf("examples: trace %s: %w", c.Name, err)
	}
	f := r.Func
	f.Name = strings.ReplaceAll(c.Name, "-", "_")
	f.Mesh = mesh
	pad := func(s ir.Sharding, t ir.Type) *ir.Sharding {
		out := s.Clone()
		if out == nil {
			out = &ir.Sharding{}
		}
		for len(out.Dims) < t.Rank() {
			out.Dims = append(out.Dims, nil)
		}
		return out
	}
	f.InShardings = make([]*ir.Sharding, len(f.Params))
	for i, p := range f.Params {
		if i < len(c.In) {
			f.InShardings[i] = pad(c.In[i], p.Type)
		}
	}
	f.OutShardings = make([]*ir.Sharding, len(f.Results))
	for i, v := range f.Results {
		if i < len(c.Out) {
			f.OutShardings[i] = pad(c.Out[i], v.Type)
		}
	}
	if err := ir.Verify(f); err != nil {
		return nil, fmt.Errorf("examples: traced %s does not verify: %w", c.Name, err)
	}
	return f, nil
}
